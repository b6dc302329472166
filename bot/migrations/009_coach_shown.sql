-- What each person was shown last by the coach in a guild, so `/seega solve` answers it:
-- a puzzle (`kind` 'puzzle' for one asked with new:true, 'daily' for the puzzle of the
-- day, `item` its id) or a lesson's exercise (`kind` 'lesson', `item` its number). One
-- row per person and guild, replaced at each showing; kept in the database so the
-- answer reaches the same thing after a restart or through another bot process.
CREATE TABLE coach_shown (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    item     TEXT    NOT NULL,
    shown_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
