-- The community record: players, guild settings, recorded (won) matches with per-seat
-- aggregates, and what leaderboards read (per-player-per-day summaries, ratings), all kept
-- in the transaction that records a match. guild_id 0 in these tables: a match outside a
-- guild (Discord ids are never 0), so that the keys need no NULL.
CREATE TABLE players (
    id         INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL,             -- human | ai
    user_id    INTEGER,                      -- Discord user id (humans)
    level      TEXT    NOT NULL DEFAULT '',  -- AI level (one row per level)
    name       TEXT    NOT NULL,             -- a human's last display name
    first_seen REAL    NOT NULL,
    last_seen  REAL    NOT NULL
);
CREATE UNIQUE INDEX players_by_user ON players(user_id) WHERE kind = 'human';
CREATE UNIQUE INDEX players_by_level ON players(level) WHERE kind = 'ai';

-- Users who chose to appear on the global leaderboards (no player row needed yet).
CREATE TABLE global_opt_ins (
    user_id INTEGER PRIMARY KEY
);

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    default_preset TEXT    NOT NULL DEFAULT 'russian',
    turn_timer     INTEGER NOT NULL DEFAULT 300,
    language       TEXT    NOT NULL DEFAULT '',  -- '' = the server's preferred locale
    ai_rated       INTEGER NOT NULL DEFAULT 0,   -- matches with an AI seat count for ratings
    web            INTEGER NOT NULL DEFAULT 0
);

ALTER TABLE seats ADD COLUMN player_id INTEGER REFERENCES players(id);

CREATE TABLE match_records (
    id          INTEGER PRIMARY KEY,         -- the public match id (#123)
    guild_id    INTEGER NOT NULL,            -- 0: outside a guild
    table_id    INTEGER NOT NULL,
    match_no    INTEGER NOT NULL,
    preset      TEXT    NOT NULL,
    family      TEXT    NOT NULL,            -- rating family
    started_at  REAL    NOT NULL,
    finished_at REAL    NOT NULL,
    hands       INTEGER NOT NULL,
    rated       INTEGER NOT NULL,
    excluded    INTEGER NOT NULL DEFAULT 0,  -- removed from the record by an admin
    recorded_at REAL    NOT NULL,
    excluded_at REAL,
    UNIQUE (table_id, match_no)
);
CREATE INDEX match_records_by_guild ON match_records(guild_id, finished_at);
CREATE INDEX match_records_by_time ON match_records(finished_at);

-- A seat of a recorded match with its hand aggregates (a recompute needs no hands).
CREATE TABLE match_seats (
    match_id         INTEGER NOT NULL REFERENCES match_records(id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    player_id        INTEGER NOT NULL REFERENCES players(id),
    name             TEXT    NOT NULL,       -- as shown at the table then
    total            INTEGER NOT NULL,
    winner           INTEGER NOT NULL,
    barrel_win       INTEGER NOT NULL,
    rated            INTEGER NOT NULL,       -- rated against the other rated seats
    hands            INTEGER NOT NULL,
    points           INTEGER NOT NULL,       -- sum of the hand deltas
    contracts_made   INTEGER NOT NULL,
    contracts_failed INTEGER NOT NULL,
    rospisat         INTEGER NOT NULL,
    dashes           INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_seats_by_player ON match_seats(player_id, match_id);

-- Humans' totals per guild, preset and UTC day (day = floor(finished_at / 86400)) over the
-- matches not excluded: a leaderboard for a period sums at most that many days of rows.
CREATE TABLE player_days (
    guild_id         INTEGER NOT NULL,
    day              INTEGER NOT NULL,
    preset           TEXT    NOT NULL,
    player_id        INTEGER NOT NULL,
    matches          INTEGER NOT NULL,
    wins             INTEGER NOT NULL,
    hands            INTEGER NOT NULL,
    points           INTEGER NOT NULL,
    contracts_made   INTEGER NOT NULL,
    contracts_failed INTEGER NOT NULL,
    rospisat         INTEGER NOT NULL,
    dashes           INTEGER NOT NULL,
    barrel_wins      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, day, preset, player_id)
) WITHOUT ROWID;
CREATE INDEX player_days_by_player ON player_days(player_id, guild_id);

-- The all-time sums of player_days per guild and preset, and over every guild (guild_id
-- -1): an all-time leaderboard reads one row per player and preset.
CREATE TABLE player_totals (
    guild_id         INTEGER NOT NULL,
    preset           TEXT    NOT NULL,
    player_id        INTEGER NOT NULL,
    matches          INTEGER NOT NULL,
    wins             INTEGER NOT NULL,
    hands            INTEGER NOT NULL,
    points           INTEGER NOT NULL,
    contracts_made   INTEGER NOT NULL,
    contracts_failed INTEGER NOT NULL,
    rospisat         INTEGER NOT NULL,
    dashes           INTEGER NOT NULL,
    barrel_wins      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, preset, player_id)
) WITHOUT ROWID;
CREATE INDEX player_totals_by_player ON player_totals(player_id, guild_id);

-- Current ratings (OpenSkill Plackett-Luce) per guild and family; value = mu - 3 sigma.
CREATE TABLE ratings (
    guild_id  INTEGER NOT NULL,
    family    TEXT    NOT NULL,
    player_id INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    value     REAL    NOT NULL,
    matches   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, family, player_id)
) WITHOUT ROWID;
CREATE INDEX ratings_by_player ON ratings(player_id);

CREATE TABLE rating_history (
    guild_id  INTEGER NOT NULL,
    family    TEXT    NOT NULL,
    player_id INTEGER NOT NULL,
    match_id  INTEGER NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    at        REAL    NOT NULL,
    PRIMARY KEY (guild_id, family, player_id, match_id)
) WITHOUT ROWID;

-- Everyone who already sat at a table becomes a player: humans from the seats and the
-- matches' seat lists (the last name seen), AI players one per level.
WITH seen(user_id, name, at) AS (
    SELECT s.user_id, s.name, t.updated_at FROM seats s JOIN tables t ON t.id = s.table_id
     WHERE s.user_id IS NOT NULL AND s.is_ai = 0
    UNION ALL
    SELECT json_extract(j.value, '$.user_id'), json_extract(j.value, '$.name'), m.started_at
      FROM (SELECT * FROM matches WHERE json_valid(seats) AND json_type(seats) = 'array') m,
           json_each(m.seats) j
     WHERE j.type = 'object' AND json_type(j.value, '$.user_id') = 'integer'
       AND NOT IFNULL(json_extract(j.value, '$.ai'), 0)
),
ranked AS (
    SELECT user_id, IFNULL(name, '') AS name, MIN(at) OVER w AS first_seen,
           MAX(at) OVER w AS last_seen,
           ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY at DESC) AS rn
      FROM seen WINDOW w AS (PARTITION BY user_id)
)
INSERT INTO players (kind, user_id, level, name, first_seen, last_seen)
SELECT 'human', user_id, '', name, first_seen, last_seen FROM ranked WHERE rn = 1;

INSERT INTO players (kind, user_id, level, name, first_seen, last_seen)
SELECT 'ai', NULL, s.ai_level, MIN(s.name), MIN(t.created_at), MAX(t.updated_at)
  FROM seats s JOIN tables t ON t.id = s.table_id WHERE s.is_ai = 1 GROUP BY s.ai_level;

UPDATE seats SET player_id = CASE WHEN is_ai
    THEN (SELECT id FROM players p WHERE p.kind = 'ai' AND p.level = seats.ai_level)
    ELSE (SELECT id FROM players p WHERE p.kind = 'human' AND p.user_id = seats.user_id) END;
