-- A finished table's rematch: the table made from it with the sides swapped (one only).
ALTER TABLE game_tables ADD COLUMN rematch TEXT;
