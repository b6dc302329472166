-- Turn timers and offers to end by count (see ../003_timers.sql).
ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN remind_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN end_offer TEXT;
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active' AND deadline IS NOT NULL;
CREATE INDEX games_remind ON games (remind_at) WHERE status = 'active' AND remind_at IS NOT NULL;
