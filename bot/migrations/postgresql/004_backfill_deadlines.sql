-- Games already active when 003 added turn timers got no deadline (see ../004_backfill_deadlines.sql):
-- each one that waits for a person gets a full turn from now and a reminder at half time.
-- The player to move is the SPN's second field: 'b' (Black) or 'w' (White).
UPDATE games SET
    deadline = extract(epoch FROM now())
        + COALESCE((SELECT s.turn_timeout FROM guild_settings s WHERE s.guild_id = games.guild_id), 3600),
    remind_at = extract(epoch FROM now())
        + COALESCE((SELECT s.turn_timeout FROM guild_settings s WHERE s.guild_id = games.guild_id), 3600) / 2.0
WHERE status = 'active'
    AND deadline IS NULL
    AND (
        (split_part(spn, ' ', 2) = 'b' AND black_level IS NULL)
        OR (split_part(spn, ' ', 2) = 'w' AND white_level IS NULL)
    );
