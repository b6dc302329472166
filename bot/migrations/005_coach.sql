-- The coach: stored reviews, hints used, puzzle ratings and attempts, lesson progress,
-- and the coach's per-guild settings (kept apart from guild_settings on purpose).
CREATE TABLE coach_reviews (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    max_nodes  INTEGER NOT NULL,
    data       TEXT    NOT NULL,
    created_at REAL    NOT NULL
);

CREATE TABLE coach_hints (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX coach_hints_game ON coach_hints (game_id, user_id);

CREATE TABLE coach_puzzle_ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    rating      REAL    NOT NULL DEFAULT 1500.0,
    rd          REAL    NOT NULL DEFAULT 350.0,
    vol         REAL    NOT NULL DEFAULT 0.06,
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    current     TEXT,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX coach_puzzle_board ON coach_puzzle_ratings (guild_id, rating DESC);

CREATE TABLE coach_puzzle_attempts (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    puzzle_id  TEXT    NOT NULL,
    solved     INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, puzzle_id)
);

CREATE TABLE coach_lessons (
    user_id INTEGER NOT NULL,
    lesson  TEXT    NOT NULL,
    done_at REAL    NOT NULL,
    PRIMARY KEY (user_id, lesson)
);

CREATE TABLE coach_settings (
    guild_id   INTEGER PRIMARY KEY,
    hint_limit INTEGER NOT NULL DEFAULT 3
);
