-- PostgreSQL: 005_turn_pings.sql (64-bit ids).
CREATE TABLE turn_pings (
    user_id BIGINT PRIMARY KEY
);
