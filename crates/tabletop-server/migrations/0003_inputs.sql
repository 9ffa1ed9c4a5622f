-- What each version applied (JSON: an action with its seat and time, or a clock tick),
-- so that a table is rebuilt as its snapshot (game_tables.save at game_tables.version)
-- followed by the inputs after it, and a move need not rewrite the whole save. Rows
-- written before this migration have none: their effect is in the snapshot.
ALTER TABLE events ADD COLUMN input TEXT;
