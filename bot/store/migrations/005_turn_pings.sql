-- Users who asked to be told in the channel when their turn comes (/optin ping).
CREATE TABLE turn_pings (
    user_id INTEGER PRIMARY KEY
);
