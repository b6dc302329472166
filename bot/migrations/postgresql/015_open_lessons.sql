-- The lesson exercise each person has open in a channel and their unfinished try
-- (see ../015_open_lessons.sql).
CREATE TABLE coach_open_lessons (
    user_id     BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    lesson      INTEGER,
    try_lesson  INTEGER,
    try_actions TEXT,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, channel_id)
);
CREATE INDEX coach_open_lessons_updated ON coach_open_lessons (updated_at);
