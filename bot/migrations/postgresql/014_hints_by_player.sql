-- /seega stats counts a player's games with hints (Storage.games_with_hints): with only
-- the (game_id, user_id) index the query walked every game of the guild and probed the
-- hints of each, 83-90 ms a call with 100,000 games, and 20 such calls at once held every
-- other read of the bot's one SQLite connection for 1.7 s (outside review, stop 39).
-- Indexed by player, the query starts from that player's hints: 0.16 ms.
CREATE INDEX coach_hints_user ON coach_hints (user_id, game_id);
