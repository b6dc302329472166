-- The language a member chose with /seega language (en or ar), kept across restarts and
-- shared by every process on the database; no row: follow the member's Discord client.
CREATE TABLE user_languages (
    user_id  INTEGER PRIMARY KEY,
    language TEXT    NOT NULL CHECK (language IN ('en', 'ar'))
);
