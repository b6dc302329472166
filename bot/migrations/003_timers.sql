-- Turn timers and offers to end by count.
-- deadline: when the player to move loses by timeout; remind_at: when to remind them
-- (half time), NULL once the reminder is sent; end_offer: the colour that offered an end.
ALTER TABLE games ADD COLUMN deadline REAL;
ALTER TABLE games ADD COLUMN remind_at REAL;
ALTER TABLE games ADD COLUMN end_offer TEXT;
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_remind ON games (remind_at) WHERE status = 'active' AND remind_at IS NOT NULL;
