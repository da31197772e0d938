-- Moves taken out of a match's log because they could not be replayed (text that is not
-- JSON, a move the engine refuses): kept as they were stored, with why and when, so that a
-- table can go on from the moves before them and nothing is thrown away.
CREATE TABLE set_aside_moves (
    table_id     INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no     INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    move         TEXT    NOT NULL,           -- the stored text, unparsed
    user_id      INTEGER,
    created_at   REAL    NOT NULL,
    reason       TEXT    NOT NULL,
    set_aside_at REAL    NOT NULL
);
CREATE INDEX set_aside_moves_by_table ON set_aside_moves(table_id, match_no, seq);
