//! The rule set: grid size, fleet and every variant switch.

use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

/// The largest grid side the engine supports (columns `a`…`j`, rows `1`…`10`).
pub const MAX_SIDE: u8 = 10;
/// The longest ship the engine supports.
pub const MAX_SHIP_LEN: u8 = 6;
/// The largest number of ships in a fleet.
pub const MAX_SHIPS: usize = 15;

/// Why a custom rule set was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The grid is empty or larger than 10×10.
    #[error("the grid must be between 1×1 and 10×10, not {width}×{height}")]
    GridSize {
        /// Requested number of columns.
        width: u8,
        /// Requested number of rows.
        height: u8,
    },
    /// The fleet has no ship or too many ships.
    #[error("a fleet must have between 1 and 15 ships, not {0}")]
    FleetSize(usize),
    /// A ship is longer than the grid allows or than the engine supports.
    #[error("a ship of length {0} does not fit (lengths go from 1 to 6 and must fit in the grid)")]
    ShipLength(u8),
}

/// A rule set: every difference between Russian and classic Battleship is a field.
///
/// `Rules::default()` is [`Rules::russian`], the rule set of the spec.
///
/// ```
/// use battleship_core::Rules;
/// let rules = Rules::default();
/// assert_eq!(rules.fleet(), &[4, 3, 3, 2, 2, 2, 1, 1, 1, 1]);
/// assert!(!rules.ships_may_touch());
/// assert!(!Rules::classic().extra_shot_on_hit());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RulesRepr", into = "RulesRepr")]
pub struct Rules {
    width: u8,
    height: u8,
    fleet: Vec<u8>,
    ships_may_touch: bool,
    extra_shot_on_hit: bool,
    reveal_around_sunk: bool,
}

#[derive(Serialize, Deserialize)]
struct RulesRepr {
    width: u8,
    height: u8,
    fleet: Vec<u8>,
    ships_may_touch: bool,
    extra_shot_on_hit: bool,
    reveal_around_sunk: bool,
}

impl TryFrom<RulesRepr> for Rules {
    type Error = RulesError;
    fn try_from(r: RulesRepr) -> Result<Rules, RulesError> {
        Rules::custom(r.width, r.height, &r.fleet).map(|rules| {
            rules
                .with_ships_may_touch(r.ships_may_touch)
                .with_extra_shot_on_hit(r.extra_shot_on_hit)
                .with_reveal_around_sunk(r.reveal_around_sunk)
        })
    }
}

impl From<Rules> for RulesRepr {
    fn from(r: Rules) -> RulesRepr {
        RulesRepr {
            width: r.width,
            height: r.height,
            fleet: r.fleet,
            ships_may_touch: r.ships_may_touch,
            extra_shot_on_hit: r.extra_shot_on_hit,
            reveal_around_sunk: r.reveal_around_sunk,
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::russian()
    }
}

impl Rules {
    /// Russian rules: 10×10, ships 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, no touching (not even at a
    /// corner), a hit or a sinking earns another shot, the cells around a sunk ship are
    /// revealed as water.
    pub fn russian() -> Rules {
        Rules {
            width: 10,
            height: 10,
            fleet: alloc::vec![4, 3, 3, 2, 2, 2, 1, 1, 1, 1],
            ships_may_touch: false,
            extra_shot_on_hit: true,
            reveal_around_sunk: true,
        }
    }

    /// Classic rules: 10×10, ships 5, 4, 3, 3, 2, ships may touch, the turn passes after
    /// every shot, nothing is revealed around a sunk ship (its sinking is announced).
    pub fn classic() -> Rules {
        Rules {
            width: 10,
            height: 10,
            fleet: alloc::vec![5, 4, 3, 3, 2],
            ships_may_touch: true,
            extra_shot_on_hit: false,
            reveal_around_sunk: false,
        }
    }

    /// A custom grid and fleet with the Russian switches (no touching, extra shot on hit,
    /// reveal around sunk ships); change them with the `with_*` methods.
    ///
    /// The fleet is stored longest ship first.
    pub fn custom(width: u8, height: u8, fleet: &[u8]) -> Result<Rules, RulesError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(RulesError::GridSize { width, height });
        }
        if fleet.is_empty() || fleet.len() > MAX_SHIPS {
            return Err(RulesError::FleetSize(fleet.len()));
        }
        for &len in fleet {
            if len == 0 || len > MAX_SHIP_LEN || len > width.max(height) {
                return Err(RulesError::ShipLength(len));
            }
        }
        let mut fleet = fleet.to_vec();
        fleet.sort_unstable_by(|a, b| b.cmp(a));
        Ok(Rules {
            width,
            height,
            fleet,
            ships_may_touch: false,
            extra_shot_on_hit: true,
            reveal_around_sunk: true,
        })
    }

    /// The same rules with `ships_may_touch` set.
    pub fn with_ships_may_touch(mut self, yes: bool) -> Rules {
        self.ships_may_touch = yes;
        self
    }

    /// The same rules with `extra_shot_on_hit` set.
    pub fn with_extra_shot_on_hit(mut self, yes: bool) -> Rules {
        self.extra_shot_on_hit = yes;
        self
    }

    /// The same rules with `reveal_around_sunk` set.
    pub fn with_reveal_around_sunk(mut self, yes: bool) -> Rules {
        self.reveal_around_sunk = yes;
        self
    }

    /// Number of columns.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// The ship lengths, longest first.
    pub fn fleet(&self) -> &[u8] {
        &self.fleet
    }

    /// Number of ships of length `len` in the fleet.
    pub fn ships_of_len(&self, len: u8) -> usize {
        self.fleet.iter().filter(|&&l| l == len).count()
    }

    /// Total number of ship cells in a fleet.
    pub fn fleet_cells(&self) -> usize {
        self.fleet.iter().map(|&l| usize::from(l)).sum()
    }

    /// Whether two ships may share an edge or a corner (they may never overlap).
    pub fn ships_may_touch(&self) -> bool {
        self.ships_may_touch
    }

    /// Whether a hit (or a sinking) lets the shooter shoot again.
    pub fn extra_shot_on_hit(&self) -> bool {
        self.extra_shot_on_hit
    }

    /// Whether the cells around a sunk ship are marked as water on the shooter's view.
    pub fn reveal_around_sunk(&self) -> bool {
        self.reveal_around_sunk
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}, fleet", self.width, self.height)?;
        for len in &self.fleet {
            write!(f, " {len}")?;
        }
        write!(
            f,
            ", ships {} touch, {}, {}",
            if self.ships_may_touch {
                "may"
            } else {
                "may not"
            },
            if self.extra_shot_on_hit {
                "a hit shoots again"
            } else {
                "turns alternate"
            },
            if self.reveal_around_sunk {
                "water revealed around sunk ships"
            } else {
                "nothing revealed around sunk ships"
            }
        )
    }
}
