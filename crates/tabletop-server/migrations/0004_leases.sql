-- Which server owns a table while several share one PostgreSQL database: it runs the
-- table's bots and clock until its lease expires (it renews it while it lives).
CREATE TABLE leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
