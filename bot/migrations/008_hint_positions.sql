-- The position a hint was taken at (the number of actions played before it), so the
-- same hint asked for again before anything is played is not counted twice (a newcomer
-- asked twice in a row and lost a hint to it). NULL for hints taken before this column.
ALTER TABLE coach_hints ADD COLUMN ply INTEGER;
