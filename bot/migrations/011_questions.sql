-- A private question a player answers with one of two buttons ("Resign this game?":
-- Resign or Cancel), kept in the database so that it is answered exactly once: the
-- first press moves status from 'pending' with a conditional UPDATE (a Resign in the
-- same transaction as the game's end), and a second press, from another device, another
-- bot process or after a restart, finds it answered and changes nothing. Asking stores
-- a row and leaves the game (and its version) alone, so a bot turn being thought about
-- is not thrown away.
CREATE TABLE questions (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('resign')),
    status      TEXT    NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'resigned', 'cancelled')),
    created_at  REAL    NOT NULL,
    answered_at REAL
);
CREATE INDEX questions_game ON questions (game_id);
