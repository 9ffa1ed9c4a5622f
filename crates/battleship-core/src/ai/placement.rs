//! How a computer player lays out its own fleet.

use core::fmt;
use core::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::coord::{Cells, Coord, Geometry};
use crate::fleet::Fleet;
use crate::rules::Rules;
use crate::uniform::UniformFleets;

/// A text that names no placement strategy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown placement '{0}' (placements: uniform, border)")]
pub struct ParsePlacementError(pub alloc::string::String);

/// How a computer player lays out its own fleet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlacementStrategy {
    /// Exactly uniform over all valid fleets.
    Uniform,
    /// Favours the border: the fleet with the most cells on the edge among several uniform
    /// draws (exploits shooters that expect uniform fleets).
    Border,
}

impl PlacementStrategy {
    /// The strategy's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlacementStrategy::Uniform => "uniform",
            PlacementStrategy::Border => "border",
        }
    }

    /// Draws a fleet with `sampler` (built for the same rules).
    pub fn place<R: Rng + ?Sized>(
        self,
        rules: &Rules,
        sampler: &UniformFleets,
        rng: &mut R,
    ) -> Fleet {
        match self {
            PlacementStrategy::Uniform => sampler.sample(rng),
            PlacementStrategy::Border => {
                let geo = Geometry::of(rules);
                let w = rules.width();
                let inner = {
                    let all = geo.all;
                    // cells whose 4 neighbours are all on the grid
                    let mut m = 0u128;
                    for i in Cells(all).indices() {
                        let c = Coord::from_index(i, w);
                        if c.col() > 0
                            && c.row() > 0
                            && c.col() + 1 < w
                            && c.row() + 1 < rules.height()
                        {
                            m |= 1u128 << i;
                        }
                    }
                    m
                };
                let mut best = sampler.sample(rng);
                let score = |f: &Fleet| (f.mask(w).0 & !inner).count_ones();
                let mut best_score = score(&best);
                for _ in 0..15 {
                    let f = sampler.sample(rng);
                    let s = score(&f);
                    if s > best_score {
                        best = f;
                        best_score = s;
                    }
                }
                best
            }
        }
    }
}

impl FromStr for PlacementStrategy {
    type Err = ParsePlacementError;
    fn from_str(s: &str) -> Result<PlacementStrategy, ParsePlacementError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uniform" | "random" => Ok(PlacementStrategy::Uniform),
            "border" | "edge" => Ok(PlacementStrategy::Border),
            _ => Err(ParsePlacementError(s.into())),
        }
    }
}

impl fmt::Display for PlacementStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
