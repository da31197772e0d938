-- Tables (one live table per channel), their seats, the append-only move log,
-- matches and hands (the score sheet's rows).
CREATE TABLE tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    host_id       INTEGER NOT NULL,
    preset        TEXT    NOT NULL,
    rules         TEXT    NOT NULL,          -- Rules.to_json()
    timer         INTEGER NOT NULL DEFAULT 0, -- turn timer in seconds, 0 = none
    status        TEXT    NOT NULL,          -- seating | playing | finished | ended | abandoned
    match_no      INTEGER NOT NULL DEFAULT 0, -- current match (0 = not started)
    dealer        INTEGER NOT NULL DEFAULT 0, -- first dealer of the current match
    message_id    INTEGER,                   -- the public table message
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL,
    last_human_at REAL    NOT NULL
);
CREATE UNIQUE INDEX tables_one_live_per_channel
    ON tables(channel_id) WHERE status IN ('seating', 'playing', 'finished');
CREATE INDEX tables_by_status ON tables(status);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,                        -- NULL for an AI seat
    name     TEXT    NOT NULL,
    is_ai    INTEGER NOT NULL DEFAULT 0,
    ai_level TEXT    NOT NULL DEFAULT '',
    away     INTEGER NOT NULL DEFAULT 0,     -- a human seat an AI plays for until "I'm back"
    missed   INTEGER NOT NULL DEFAULT 0,     -- turns missed in a row
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE moves (
    table_id   INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    move       TEXT    NOT NULL,             -- bot.game.serialize.move_to_json
    user_id    INTEGER,                      -- who made it (NULL: dealing, AI, timer)
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, match_no, seq)
) WITHOUT ROWID;

CREATE TABLE matches (
    table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no    INTEGER NOT NULL,
    rules       TEXT    NOT NULL,
    dealer      INTEGER NOT NULL,
    seats       TEXT    NOT NULL,            -- JSON list of {user_id, name, is_ai}
    status      TEXT    NOT NULL,            -- playing | won | ended | abandoned
    winners     TEXT    NOT NULL DEFAULT '[]',
    totals      TEXT    NOT NULL DEFAULT '[]',
    started_at  REAL    NOT NULL,
    finished_at REAL,
    PRIMARY KEY (table_id, match_no)
);

CREATE TABLE hands (
    table_id   INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    result     TEXT    NOT NULL,             -- JSON: end, dealer, declarer, contract, delta, totals
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, match_no, hand_no)
);
