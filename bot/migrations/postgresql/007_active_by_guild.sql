-- A server's games in progress (see ../007_active_by_guild.sql).
CREATE INDEX games_active_guild ON games (guild_id, id) WHERE status = 'active';
