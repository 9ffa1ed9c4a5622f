-- Several servers on one PostgreSQL database: a client's command (an action, a claim)
-- that reaches a server not owning its table is forwarded to the owner through this
-- table; the owner applies it and writes its answer (the protocol message) here.
CREATE TABLE forwarded (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    body TEXT NOT NULL,
    answer TEXT,
    created_ms BIGINT NOT NULL
);

-- Which servers have a seat's player following a table: `left_ms` is NULL while the
-- player is connected through `node`, else when the player left it. A claim reads every
-- server's row, so a player connected elsewhere is never claimed from.
CREATE TABLE presence (
    table_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    node TEXT NOT NULL,
    left_ms BIGINT,
    PRIMARY KEY (table_id, player_id, node)
);
