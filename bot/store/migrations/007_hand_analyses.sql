-- Each finished hand's analysis as the replay viewer shows it (every seat's decisions, the
-- best moves and the points lost), computed once, the first time the hand is viewed.
CREATE TABLE hand_analyses (
    table_id   INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    analysis   TEXT    NOT NULL,             -- JSON: {"steps": {step: decision}}
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, match_no, hand_no)
);
