-- A server's games in progress, found without reading any other server's games or this
-- server's finished ones: /seega games lists them and every new game counts a player's
-- (the cap of docs/limits.md), both on requests any member can repeat.
CREATE INDEX games_active_guild ON games (guild_id, id) WHERE status = 'active';
