-- The console table's stopped clock (see ../010_paused_clock.sql).
ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;
