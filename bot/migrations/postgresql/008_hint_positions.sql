-- The position a hint was taken at (see ../008_hint_positions.sql).
ALTER TABLE coach_hints ADD COLUMN ply INTEGER;
