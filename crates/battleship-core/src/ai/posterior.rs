//! The posterior shooter: the lookahead's whole-fleet sampling, plain.

use alloc::vec::Vec;

use rand::Rng;

use super::{Bot, Lookahead, cell_or_any};
use crate::coord::Coord;
use crate::rules::Rules;
use crate::tracking::Tracking;

/// The whole-fleet shooter: a population of fleets kept consistent with every
/// observation by Gibbs moves, shooting the most likely cell (a wounded ship first).
///
/// It runs on the same bitboard machinery as [`Lookahead`], with a smaller population, no
/// lookahead and no exact counting: plain whole-fleet sampling.
///
/// ```
/// use battleship_core::ai::Posterior;
/// use battleship_core::{Rules, Tracking};
/// use rand::SeedableRng;
/// let rules = Rules::russian();
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let mut bot = Posterior::new(&rules);
/// let p = bot.probabilities(&Tracking::new(rules.clone()), &mut rng).unwrap();
/// let total: f64 = p.iter().sum();
/// assert!((total - 20.0).abs() < 1e-6);
/// ```
#[derive(Debug, Clone)]
pub struct Posterior(Lookahead);

/// The number of fleets the posterior shooter keeps.
const PARTICLES: usize = 24;

impl Posterior {
    /// A posterior shooter for `rules`.
    pub fn new(rules: &Rules) -> Posterior {
        Posterior(
            Lookahead::new(rules)
                .with_effort(PARTICLES, 2)
                .with_candidates(1)
                .with_exact_below(0)
                .with_halo_penalty(0.0)
                .with_information_weight(0.0),
        )
    }

    /// The same shooter with `particles` fleets and `sweeps` Gibbs sweeps per decision
    /// (more is stronger and slower; the default is 24 and 2).
    pub fn with_effort(self, particles: usize, sweeps: usize) -> Posterior {
        Posterior(self.0.with_effort(particles, sweeps))
    }

    /// The estimated probability that each cell (index `row * width + col`) holds a ship
    /// afloat, given everything in `t` (cells already hit count as occupied). Updates the
    /// population as [`Bot::choose_move`] does. `None` if no consistent fleet was found.
    pub fn probabilities<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<Vec<f64>> {
        self.0.probabilities(t, rng)
    }

    /// The index of the cell to shoot, if the shooter found one.
    pub(super) fn choose_index<R: Rng + ?Sized>(
        &mut self,
        t: &Tracking,
        rng: &mut R,
    ) -> Option<usize> {
        self.0.choose_index(t, rng)
    }

    /// Forgets the sampled fleets.
    pub(super) fn new_game(&mut self) {
        self.0.new_game();
    }
}

impl Bot for Posterior {
    fn choose_move(&mut self, tracking: &Tracking, rng: &mut dyn Rng) -> Option<Coord> {
        let cell = self.choose_index(tracking, rng);
        cell_or_any(cell, tracking, rng)
    }

    fn new_game(&mut self) {
        Posterior::new_game(self);
    }
}
