-- The language a member chose with /seega language (see ../006_user_languages.sql).
CREATE TABLE user_languages (
    user_id  BIGINT PRIMARY KEY,
    language TEXT   NOT NULL CHECK (language IN ('en', 'ar'))
);
