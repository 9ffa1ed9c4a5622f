-- Nardy dice commitments: each person's seat's contribution to the dice (hex, 32 bytes),
-- stored once before the first roll. The server's own seed is in the table's setup.
CREATE TABLE dice_seeds (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    seed TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
