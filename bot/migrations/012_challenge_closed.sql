-- A pending challenge is closed ('closed') when a game starts in its channel, or when
-- it is accepted while the channel has a game: its Accept would otherwise start a game
-- nobody meant long after (play-test: two crossing rematch challenges, one accepted,
-- the other accepted again once that game ended). game_id names the game that closed it.
-- SQLite cannot change a CHECK constraint: the table is rebuilt with the same columns.
CREATE TABLE challenges_new (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    challenger_id   INTEGER NOT NULL,
    challenger_name TEXT    NOT NULL,
    opponent_id     INTEGER NOT NULL,
    opponent_name   TEXT    NOT NULL,
    size            INTEGER NOT NULL,
    variant         TEXT    NOT NULL,
    color           TEXT    NOT NULL CHECK (color IN ('black', 'white', 'random')),
    thread          INTEGER NOT NULL DEFAULT 0,
    status          TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'withdrawn', 'closed')),
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL,
    game_id         INTEGER REFERENCES games (id)
);
INSERT INTO challenges_new (id, guild_id, channel_id, challenger_id, challenger_name, opponent_id, opponent_name,
                            size, variant, color, thread, status, created_at, expires_at, game_id)
    SELECT id, guild_id, channel_id, challenger_id, challenger_name, opponent_id, opponent_name,
           size, variant, color, thread, status, created_at, expires_at, game_id FROM challenges;
DROP TABLE challenges;
ALTER TABLE challenges_new RENAME TO challenges;
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';
-- The pending challenges of a channel (closed when a game starts there; crossing ones).
CREATE INDEX challenges_channel_pending ON challenges (channel_id) WHERE status = 'pending';
