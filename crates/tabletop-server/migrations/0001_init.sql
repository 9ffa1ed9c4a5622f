-- Tabletop server schema, version 1. Portable SQL: SQLite and PostgreSQL read it alike
-- (TEXT and BIGINT columns only; no AUTOINCREMENT or SERIAL: ids are random strings).

-- Players: guests (a token hash) and, later, named accounts.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    name TEXT UNIQUE,
    password_hash TEXT,
    created_ms BIGINT NOT NULL
);

-- Tables: the setup that made them, the invite code, the status and the save (hex of
-- tabletop_play's TTPL save, the whole log; it holds secrets until the game ends).
CREATE TABLE game_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    invite TEXT NOT NULL UNIQUE,
    public BIGINT NOT NULL,
    status TEXT NOT NULL,
    version BIGINT NOT NULL,
    save TEXT NOT NULL,
    ending TEXT,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX game_tables_open ON game_tables (status, public);

-- Who sits where: a player, a bot level, or nobody yet (an open seat).
CREATE TABLE seats (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player_id TEXT,
    bot BIGINT,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_player ON seats (player_id);

-- Every version's events (JSON array), committed before they are sent.
CREATE TABLE events (
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- Client command ids already applied: a resent command is applied once.
CREATE TABLE commands (
    player_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    table_id TEXT NOT NULL,
    version BIGINT NOT NULL,
    PRIMARY KEY (player_id, client_id)
);
CREATE INDEX commands_table ON commands (table_id);
