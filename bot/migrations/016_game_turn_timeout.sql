-- A game keeps the turn time it started with (outside review atk41c, F4): the time per
-- turn was read from the server's settings at every turn, so a moderator playing a game
-- could shorten their opponent's clock mid-game (1h -> 30s) and win on time.
-- turn_timeout: seconds per turn, copied from guild_settings when the game starts.
-- NULL for games started before this column: they go on reading the server's setting.
ALTER TABLE games ADD COLUMN turn_timeout INTEGER;
