-- Games, challenges and per-guild settings.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    size        INTEGER NOT NULL,
    options     TEXT    NOT NULL DEFAULT '',
    setup       TEXT,
    black_id    INTEGER NOT NULL,
    black_name  TEXT    NOT NULL,
    black_level TEXT,
    white_id    INTEGER NOT NULL,
    white_name  TEXT    NOT NULL,
    white_level TEXT,
    actions     TEXT    NOT NULL DEFAULT '',
    spn         TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'finished', 'cancelled', 'corrupt')),
    result      TEXT,
    reason      TEXT,
    version     INTEGER NOT NULL DEFAULT 0,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    ended_at    REAL
);
-- One active game per channel (a thread is a channel).
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_channel ON games (channel_id, id);
CREATE INDEX games_guild ON games (guild_id, id);
CREATE INDEX games_black ON games (guild_id, black_id, id);
CREATE INDEX games_white ON games (guild_id, white_id, id);

CREATE TABLE challenges (
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
                    CHECK (status IN ('pending', 'accepted', 'declined', 'expired', 'withdrawn')),
    created_at      REAL    NOT NULL,
    expires_at      REAL    NOT NULL,
    game_id         INTEGER REFERENCES games (id)
);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    turn_timeout      INTEGER NOT NULL DEFAULT 3600,
    challenge_timeout INTEGER NOT NULL DEFAULT 600,
    default_variant   TEXT    NOT NULL DEFAULT 'standard'
);
