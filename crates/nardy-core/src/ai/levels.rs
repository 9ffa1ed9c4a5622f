//! The searching bots behind the levels, and what they share.

use alloc::boxed::Box;
use alloc::sync::Arc;

use rand::Rng;

use crate::ai::bearoff::{BearoffDb, WithBearoff};
use crate::ai::eval::{Evaluator, HandEval};
use crate::ai::network::Network;
use crate::ai::search::{Search, SearchConfig};
use crate::dice::Dice;
use crate::movegen::Move;
use crate::position::Position;
use crate::rules::Rules;

/// What the strong levels need and may share between bots (between threads too): the
/// bear-off database (7 MB, built on its first use in about a second) and the network.
#[derive(Debug, Clone)]
pub struct Resources {
    /// The exact bear-off database.
    pub db: Arc<BearoffDb>,
    /// The learned evaluation.
    pub network: Arc<Network>,
}

impl Resources {
    /// Builds the database and loads the shipped network (the `shipped-weights`
    /// feature).
    #[cfg(feature = "shipped-weights")]
    pub fn new() -> Resources {
        Resources::with_network(Network::shipped())
    }

    /// The database (built on its first use) and `network`, read at run time with
    /// [`Network::from_bytes`]: what a frontend built without the shipped weights gives
    /// the learned levels.
    pub fn with_network(network: Network) -> Resources {
        Resources {
            db: Arc::new(BearoffDb::new()),
            network: Arc::new(network),
        }
    }

    /// The learned evaluation, exact where the database knows the answer.
    pub fn learned(&self) -> WithBearoff<Arc<Network>> {
        WithBearoff {
            db: self.db.clone(),
            inner: self.network.clone(),
        }
    }
}

#[cfg(feature = "shipped-weights")]
impl Default for Resources {
    fn default() -> Resources {
        Resources::new()
    }
}

/// A bot that plays the best turn of a [`Search`], optionally with noise: each turn's
/// equity gets a random error (a sum of three uniform draws, standard deviation
/// `noise`) before the best is taken, which makes the deliberate mistakes of the weak
/// levels.
#[derive(Debug, Clone)]
pub struct SearchBot<E> {
    /// The search it plays with.
    pub search: Search<E>,
    /// Standard deviation of the error added to each equity (0: none).
    pub noise: f32,
}

impl<E: Evaluator> SearchBot<E> {
    /// A bot searching with `evaluator` under `rules`.
    pub fn new(evaluator: E, rules: Rules, config: SearchConfig, noise: f32) -> SearchBot<E> {
        SearchBot {
            search: Search::new(evaluator, rules, config),
            noise,
        }
    }

    /// The turn this bot plays, `None` when the game is over.
    pub fn pick(&mut self, position: &Position, dice: Dice, rng: &mut dyn Rng) -> Option<Move> {
        if crate::ai::game_over(position, &self.search.rules) {
            return None;
        }
        let ranked = self.search.rank(position, dice);
        if self.noise <= 0.0 || ranked.len() <= 1 {
            return ranked.into_iter().next().map(|r| r.mv);
        }
        let mut best: Option<(f32, usize)> = None;
        for (i, r) in ranked.iter().enumerate() {
            let u = |rng: &mut dyn Rng| (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 - 0.5;
            // Three uniforms on ±0.5 have variance 1/4: scale to `noise`.
            let e = r.equity + 2.0 * self.noise * (u(rng) + u(rng) + u(rng));
            if best.is_none_or(|(b, _)| e > b) {
                best = Some((e, i));
            }
        }
        best.map(|(_, i)| ranked[i].mv.clone())
    }
}

/// The bot of a level that needs no [`Resources`] (1 to 3, numbered as
/// [`Level`](crate::ai::Level)), `None` for the learned levels.
pub(crate) fn hand_bot(level: u8, rules: &Rules) -> Option<Box<dyn crate::ai::Bot>> {
    let hand = |noise| SearchBot::new(HandEval, *rules, SearchConfig::plies(0), noise);
    match level {
        0 | 1 => Some(Box::new(crate::ai::RandomBot::new(*rules))),
        2 => Some(Box::new(hand(0.06))),
        3 => Some(Box::new(hand(0.0))),
        _ => None,
    }
}

/// The bot of a learned level (4: 0 plies, 5: 1 ply, 6 and above: 2 plies) with the
/// database and network of `resources`.
pub(crate) fn learned_bot(
    level: u8,
    rules: &Rules,
    resources: &Resources,
) -> Box<dyn crate::ai::Bot> {
    let plies = level.clamp(4, 6) - 4;
    Box::new(SearchBot::new(
        resources.learned(),
        *rules,
        SearchConfig::plies(plies),
        0.0,
    ))
}

impl<E: Evaluator> crate::ai::Bot for SearchBot<E> {
    fn choose_move(&mut self, position: &Position, dice: Dice, rng: &mut dyn Rng) -> Option<Move> {
        self.pick(position, dice, rng)
    }
}
