-- The lesson exercise each person has open in a channel (`lesson`: its number, answered
-- by their next /move or /place there) and their unfinished try (`try_lesson` and
-- `try_actions`: a pair's first cell, a chain's first capture, the played actions only).
-- They lived in the bot's memory, and a restart mid-exercise answered "/move c2 d2" with
-- "no game here"; in the database they survive a restart and reach every bot process.
-- One row per person and channel, the row gone when neither is left. Bounded
-- (bot/storage/coach.py): each person's newest 20 channels, and rows untouched for 30
-- days are not read and are deleted at the next write (the index below).
CREATE TABLE coach_open_lessons (
    user_id     INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    lesson      INTEGER,
    try_lesson  INTEGER,
    try_actions TEXT,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (user_id, channel_id)
);
CREATE INDEX coach_open_lessons_updated ON coach_open_lessons (updated_at);
