-- Games already active when 003 added turn timers got no deadline, so they never timed
-- out. Give each one that waits for a person a full turn from now (the guild's turn
-- timeout, 3600 s unless the guild set another) and a reminder at half time, as a new
-- turn gets. Games waiting for the bot keep no deadline (the bot never times out).
-- The player to move is the SPN's second field: 'b' (Black) or 'w' (White).
UPDATE games SET
    deadline = (julianday('now') - 2440587.5) * 86400.0
        + COALESCE((SELECT s.turn_timeout FROM guild_settings s WHERE s.guild_id = games.guild_id), 3600),
    remind_at = (julianday('now') - 2440587.5) * 86400.0
        + COALESCE((SELECT s.turn_timeout FROM guild_settings s WHERE s.guild_id = games.guild_id), 3600) / 2.0
WHERE status = 'active'
    AND deadline IS NULL
    AND (
        (substr(spn, instr(spn, ' ') + 1, 1) = 'b' AND black_level IS NULL)
        OR (substr(spn, instr(spn, ' ') + 1, 1) = 'w' AND white_level IS NULL)
    );
