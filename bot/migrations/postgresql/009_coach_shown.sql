-- What each person was shown last by the coach in a guild (see ../009_coach_shown.sql).
CREATE TABLE coach_shown (
    guild_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    kind     TEXT   NOT NULL,
    item     TEXT   NOT NULL,
    shown_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
