-- PostgreSQL: 002_locale_and_looks.sql (64-bit ids, no WITHOUT ROWID).
ALTER TABLE tables ADD COLUMN locale TEXT NOT NULL DEFAULT '';

CREATE TABLE looks (
    table_id   BIGINT  NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, match_no, hand_no, seat)
);
