-- PostgreSQL: 009_tournaments.sql with 64-bit ids.
-- Tournaments with duplicate deals (docs/tournaments.md): the events, their entrants, the
-- tables of each round, every board's result at every table (written with the board's last
-- move), the boards' pars, what was posted (so that a restart never posts twice) and the
-- servers' choices.
CREATE TABLE tournaments (
    id               BIGINT PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    message_id       BIGINT NOT NULL DEFAULT 0,
    organiser_id     BIGINT NOT NULL,
    name             TEXT NOT NULL,
    preset           TEXT NOT NULL,
    boards           BIGINT NOT NULL,
    rounds           BIGINT NOT NULL,
    start_at         DOUBLE PRECISION NOT NULL,
    checkin_minutes  BIGINT NOT NULL,
    round_minutes    BIGINT NOT NULL,
    status           TEXT NOT NULL,
    round_no         BIGINT NOT NULL DEFAULT 0,
    round_started_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    created_at       DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE TABLE tournament_entrants (
    tournament_id BIGINT NOT NULL,
    user_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    checked_in    BIGINT NOT NULL DEFAULT 0,
    strikes       BIGINT NOT NULL DEFAULT 0,
    withdrawn     BIGINT NOT NULL DEFAULT 0,
    dropped       BIGINT NOT NULL DEFAULT 0,
    joined_at     DOUBLE PRECISION NOT NULL,
    final_rank    BIGINT NOT NULL DEFAULT 0,  -- 0: not ranked, or not finished
    PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_tables (
    tournament_id BIGINT NOT NULL,
    round_no      BIGINT NOT NULL,
    table_no      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL DEFAULT 0,  -- the thread (0 until opened)
    table_id      BIGINT NOT NULL DEFAULT 0,  -- the table (0 until made)
    user_ids      TEXT NOT NULL,               -- by seat, JSON; negative: AI
    names         TEXT NOT NULL,               -- by seat, JSON
    done          BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE INDEX tournament_tables_table ON tournament_tables (table_id);
CREATE TABLE tournament_results (
    tournament_id BIGINT NOT NULL,
    round_no      BIGINT NOT NULL,
    board_no      BIGINT NOT NULL,  -- 1-based within the round
    table_no      BIGINT NOT NULL,
    delta         TEXT NOT NULL,     -- each seat's change of total, JSON
    match_no      BIGINT NOT NULL,  -- the table's match that played the board
    created_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, round_no, board_no, table_no)
);
CREATE TABLE tournament_pars (
    tournament_id BIGINT NOT NULL,
    round_no      BIGINT NOT NULL,
    board_no      BIGINT NOT NULL,
    moves         TEXT NOT NULL,     -- the strong AIs' moves, JSON
    delta         TEXT NOT NULL,     -- each seat's change of total, JSON
    created_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, round_no, board_no)
);
CREATE TABLE tournament_posts (
    tournament_id BIGINT NOT NULL,
    what          TEXT NOT NULL,     -- checkin, dropped, round:2, finished, cancelled, ...
    created_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, what)
);
CREATE TABLE tournament_settings (
    guild_id BIGINT PRIMARY KEY,
    role_id  BIGINT NOT NULL DEFAULT 0,  -- who may organise besides Manage Server (0: none)
    rated    BIGINT NOT NULL DEFAULT 0,  -- a finished event changes the ratings
    timezone TEXT NOT NULL DEFAULT ''    -- IANA name start times are read in ('': UTC)
);
