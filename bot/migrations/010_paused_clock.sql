-- The console table stops a game's clock while it is closed (docs/commands.md, console).
-- paused_at: when the table closed with this game in play, NULL while the clock runs.
-- A paused game's deadline and reminder are not applied; resuming moves both by the
-- time the table was closed and clears paused_at (any turn played clears it too).
ALTER TABLE games ADD COLUMN paused_at REAL;
