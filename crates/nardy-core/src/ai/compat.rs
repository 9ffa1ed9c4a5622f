//! Temporary: the shared names until the API branch lands.
use crate::position::{Color, Position};
impl Position {
    pub(crate) fn side_to_move(&self) -> Color {
        self.turn
    }
}
impl Color {
    pub(crate) const fn other(self) -> Color {
        self.opponent()
    }
}
