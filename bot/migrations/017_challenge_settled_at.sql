-- A person who declined a challenge is not challenged again by the same challenger at once
-- (outside review atk41c, F3: decline, challenge again, decline... pinged them 3 times a
-- minute for as long as the challenger went on; docs/limits.md).
-- settled_at: when a challenge was declined or withdrawn (NULL before, and for the
-- other ends); Starting.challenge holds a new challenge to the same person for a while.
ALTER TABLE challenges ADD COLUMN settled_at REAL;
-- Storage.refused_challenge reads the latest refusal from one person to another.
CREATE INDEX challenges_refused ON challenges (challenger_id, opponent_id, settled_at)
    WHERE status IN ('declined', 'withdrawn');
