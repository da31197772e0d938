-- PostgreSQL: 003_set_aside_moves.sql (64-bit ids, double precision times).
CREATE TABLE set_aside_moves (
    table_id     BIGINT  NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
    match_no     INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    move         TEXT    NOT NULL,
    user_id      BIGINT,
    created_at   DOUBLE PRECISION NOT NULL,
    reason       TEXT    NOT NULL,
    set_aside_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX set_aside_moves_by_table ON set_aside_moves(table_id, match_no, seq);
