-- The challenges a game closed are read by the game's id at every game start
-- (Storage.challenges_closed_by): without an index that read scanned the whole table,
-- which is never pruned (outside review, stop 38: 53 ms a start with a million rows).
CREATE INDEX challenges_game ON challenges (game_id);
