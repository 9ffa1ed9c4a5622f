//! Computer players and the exact endgame solver. The bots issue fills this module.
