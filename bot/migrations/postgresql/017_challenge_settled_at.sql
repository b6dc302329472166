-- When a challenge was declined or withdrawn (see ../017_challenge_settled_at.sql).
ALTER TABLE challenges ADD COLUMN settled_at DOUBLE PRECISION;
CREATE INDEX challenges_refused ON challenges (challenger_id, opponent_id, settled_at)
    WHERE status IN ('declined', 'withdrawn');
