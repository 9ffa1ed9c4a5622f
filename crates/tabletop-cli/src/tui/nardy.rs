//! Long Nardy full screen.

use super::{GameScreen, Placeholder};

/// The game with its default settings, for the games menu.
pub fn default_screen() -> Box<dyn GameScreen> {
    Box::new(Placeholder("Long Nardy"))
}
