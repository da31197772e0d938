-- Seconds a table keeps a finished hand's last trick and result on show before it deals the
-- next hand (unless every person at the table presses "Next hand" sooner); 0 = no pause.
ALTER TABLE tables ADD COLUMN pause INTEGER NOT NULL DEFAULT 8;
