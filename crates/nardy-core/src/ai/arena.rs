//! Games between two bots with seeded dice, for matches with duplicate dice.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::ai::Bot;
use crate::game::Game;
use crate::position::Color;
use crate::rules::Rules;

/// Turns after which [`play_game`] gives up on a game (no real game comes near).
pub const MAX_GAME_TURNS: usize = 5_000;

/// Plays a whole game under `rules` with the dice of `seed` (the roll-off and every
/// throw come from the game's own generator, so the same seed throws the same dice
/// whatever the bots play) and the bots' generator seeded from `seed` too. Both bots get
/// [`Bot::new_game`] first. Swapping the bots with the same seed gives the other half of
/// a duplicate pair: each bot then plays with the dice the other had.
///
/// ```
/// use nardy_core::{Rules, ai::{Level, play_game}};
/// let rules = Rules::default();
/// let mut a = Level::MIN.bot_without_resources(&rules).unwrap();
/// let mut b = "greedy".parse::<Level>()?.bot_without_resources(&rules).unwrap();
/// let game = play_game(&rules, 7, a.as_mut(), b.as_mut());
/// assert!(game.outcome().is_some());
/// # Ok::<(), nardy_core::ai::ParseLevelError>(())
/// ```
pub fn play_game(rules: &Rules, seed: u64, white: &mut dyn Bot, black: &mut dyn Bot) -> Game {
    let mut game = Game::new(*rules, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_B075);
    white.new_game();
    black.new_game();
    for _ in 0..MAX_GAME_TURNS {
        if game.outcome().is_some() {
            break;
        }
        let bot: &mut dyn Bot = match game.side_to_move() {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let Some(mv) = bot.choose_move(game.position(), game.dice(), &mut rng) else {
            break;
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    game
}
