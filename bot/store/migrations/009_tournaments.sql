-- Tournaments with duplicate deals (docs/tournaments.md): the events, their entrants, the
-- tables of each round, every board's result at every table (written with the board's last
-- move), the boards' pars, what was posted (so that a restart never posts twice) and the
-- servers' choices.
CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    message_id       INTEGER NOT NULL DEFAULT 0,
    organiser_id     INTEGER NOT NULL,
    name             TEXT NOT NULL,
    preset           TEXT NOT NULL,
    boards           INTEGER NOT NULL,
    rounds           INTEGER NOT NULL,
    start_at         REAL NOT NULL,
    checkin_minutes  INTEGER NOT NULL,
    round_minutes    INTEGER NOT NULL,
    status           TEXT NOT NULL,
    round_no         INTEGER NOT NULL DEFAULT 0,
    round_started_at REAL NOT NULL DEFAULT 0,
    created_at       REAL NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    rating        REAL NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    strikes       INTEGER NOT NULL DEFAULT 0,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    dropped       INTEGER NOT NULL DEFAULT 0,
    joined_at     REAL NOT NULL,
    final_rank    INTEGER NOT NULL DEFAULT 0,  -- 0: not ranked, or not finished
    PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL DEFAULT 0,  -- the thread (0 until opened)
    table_id      INTEGER NOT NULL DEFAULT 0,  -- the table (0 until made)
    user_ids      TEXT NOT NULL,               -- by seat, JSON; negative: AI
    names         TEXT NOT NULL,               -- by seat, JSON
    done          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE INDEX tournament_tables_table ON tournament_tables (table_id);
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    board_no      INTEGER NOT NULL,  -- 1-based within the round
    table_no      INTEGER NOT NULL,
    delta         TEXT NOT NULL,     -- each seat's change of total, JSON
    match_no      INTEGER NOT NULL,  -- the table's match that played the board
    created_at    REAL NOT NULL,
    PRIMARY KEY (tournament_id, round_no, board_no, table_no)
);
CREATE TABLE tournament_pars (
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    board_no      INTEGER NOT NULL,
    moves         TEXT NOT NULL,     -- the strong AIs' moves, JSON
    delta         TEXT NOT NULL,     -- each seat's change of total, JSON
    created_at    REAL NOT NULL,
    PRIMARY KEY (tournament_id, round_no, board_no)
);
CREATE TABLE tournament_posts (
    tournament_id INTEGER NOT NULL,
    what          TEXT NOT NULL,     -- checkin, dropped, round:2, finished, cancelled, ...
    created_at    REAL NOT NULL,
    PRIMARY KEY (tournament_id, what)
);
CREATE TABLE tournament_settings (
    guild_id INTEGER PRIMARY KEY,
    role_id  INTEGER NOT NULL DEFAULT 0,  -- who may organise besides Manage Server (0: none)
    rated    INTEGER NOT NULL DEFAULT 0,  -- a finished event changes the ratings
    timezone TEXT NOT NULL DEFAULT ''     -- IANA name start times are read in ('': UTC)
);
