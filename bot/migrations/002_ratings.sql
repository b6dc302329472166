-- Glicko-2 ratings per guild and board size, and every change to them.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    size       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    rating     REAL    NOT NULL DEFAULT 1500.0,
    rd         REAL    NOT NULL DEFAULT 350.0,
    vol        REAL    NOT NULL DEFAULT 0.06,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, size, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, size, rating DESC);

CREATE TABLE rating_history (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    size       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    before     REAL    NOT NULL,
    after      REAL    NOT NULL,
    rd_before  REAL    NOT NULL,
    rd_after   REAL    NOT NULL,
    created_at REAL    NOT NULL
);
CREATE INDEX rating_history_user ON rating_history (guild_id, user_id, id);
