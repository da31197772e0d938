-- The daily challenge (docs/daily.md): each board's par, every move of a player's board,
-- each finished board's result (one row, written with the board's last move), and the
-- servers' choices.
CREATE TABLE daily_pars (
    board      TEXT PRIMARY KEY,      -- 2026-11-27/russian/0
    moves      TEXT NOT NULL,         -- the strong AIs' moves, JSON
    delta      TEXT NOT NULL,         -- each seat's change of total, JSON
    created_at REAL NOT NULL
);
CREATE TABLE daily_moves (
    user_id    INTEGER NOT NULL,
    board      TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    move       TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (user_id, board, seq)
);
CREATE TABLE daily_results (
    user_id     INTEGER NOT NULL,
    board       TEXT NOT NULL,
    day         TEXT NOT NULL,
    preset      TEXT NOT NULL,
    number      INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    result      INTEGER NOT NULL,
    par         INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (user_id, board)
);
CREATE INDEX daily_results_day ON daily_results (day, preset);
CREATE TABLE daily_settings (
    guild_id    INTEGER PRIMARY KEY,
    preset      TEXT NOT NULL DEFAULT '',
    channel_id  INTEGER NOT NULL DEFAULT 0,
    summary_day TEXT NOT NULL DEFAULT ''
);
