-- PostgreSQL: 007_hand_analyses.sql (64-bit ids, double precision times).
CREATE TABLE hand_analyses (
    table_id   BIGINT  NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no   INTEGER NOT NULL,
    hand_no    INTEGER NOT NULL,
    analysis   TEXT    NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, match_no, hand_no)
);
