//! Tests of the battleship screen.
