-- A challenge closed because a game started in its channel (see ../012_challenge_closed.sql).
ALTER TABLE challenges DROP CONSTRAINT challenges_status_check;
ALTER TABLE challenges ADD CONSTRAINT challenges_status_check
    CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'withdrawn', 'closed'));
CREATE INDEX challenges_channel_pending ON challenges (channel_id) WHERE status = 'pending';
