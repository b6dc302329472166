-- A game keeps the turn time it started with (see ../016_game_turn_timeout.sql).
ALTER TABLE games ADD COLUMN turn_timeout INTEGER;
