-- The language of a table's public messages (a Discord locale such as "pl"; '' = English),
-- and who has looked at his cards in a hand where blind bids are allowed (a player who
-- looked may no longer bid blind; the engine cannot see eyes, the bot can).
ALTER TABLE tables ADD COLUMN locale TEXT NOT NULL DEFAULT '';

CREATE TABLE looks (
    table_id   INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, match_no, hand_no, seat)
) WITHOUT ROWID;
