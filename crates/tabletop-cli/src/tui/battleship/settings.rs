//! The settings of the game against the computer (rules, the computer's level and fleet,
//! your fleet at the start) and the menu's choices of them.

use std::sync::{Arc, Mutex, OnceLock};

use battleship_core::ai::{Level, PlacementStrategy};
use battleship_core::{Rules, UniformFleets};

use crate::tui::Choice;

/// The choices of the menu, in order.
const CHOICE_RULES: usize = 0;
const CHOICE_LEVEL: usize = 1;
const CHOICE_PLACEMENT: usize = 2;
const CHOICE_FLEET: usize = 3;

/// The sampler of uniform fleets for `rules`, built once per rule set and process (it
/// takes a noticeable part of a second to build, and new games and tests need it often).
pub(super) fn sampler_for(rules: &Rules) -> Arc<UniformFleets> {
    type Samplers = Vec<(Rules, Arc<UniformFleets>)>;
    static CACHE: OnceLock<Mutex<Samplers>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut cache = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, s)) = cache.iter().find(|(r, _)| r == rules) {
        return Arc::clone(s);
    }
    let sampler = Arc::new(UniformFleets::new(rules));
    cache.push((rules.clone(), Arc::clone(&sampler)));
    sampler
}

/// The settings of a game: they apply from the next new game when changed in the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Classic rules (5 4 3 3 2, ships may touch, turns alternate) instead of Russian.
    pub classic: bool,
    /// The computer's shooter.
    pub level: Level,
    /// How the computer lays out its fleet.
    pub placement: PlacementStrategy,
    /// Whether your fleet starts laid out at random (you may still move its ships) rather
    /// than on an empty grid.
    pub random_fleet: bool,
}

impl Default for Settings {
    /// What `tabletop battleship` plays: Russian rules against the strongest shooter,
    /// your fleet laid out at random to start with.
    fn default() -> Settings {
        Settings {
            classic: false,
            level: Level::MAX,
            placement: PlacementStrategy::Uniform,
            random_fleet: true,
        }
    }
}

impl Settings {
    pub(super) fn rules(&self) -> Rules {
        if self.classic {
            Rules::classic()
        } else {
            Rules::russian()
        }
    }

    /// The choices of the menu.
    pub(super) fn choices(&self) -> Vec<Choice> {
        vec![
            Choice {
                label: "Rules",
                values: vec!["Russian".to_owned(), "classic".to_owned()],
                current: usize::from(self.classic),
            },
            Choice {
                label: "Computer",
                values: Level::ALL
                    .iter()
                    .map(|l| format!("{} {}", l.get(), l.name()))
                    .collect(),
                current: Level::ALL
                    .iter()
                    .position(|&l| l == self.level)
                    .unwrap_or(0),
            },
            Choice {
                label: "Computer's fleet",
                values: vec!["uniform".to_owned(), "border".to_owned()],
                current: usize::from(self.placement == PlacementStrategy::Border),
            },
            Choice {
                label: "Your fleet at the start",
                values: vec!["at random".to_owned(), "empty grid".to_owned()],
                current: usize::from(!self.random_fleet),
            },
        ]
    }

    /// Applies a choice of the menu; says what changed.
    pub(super) fn choose(&mut self, choice: usize, value: usize) -> Option<String> {
        let said = match (choice, value) {
            (CHOICE_RULES, 0 | 1) => {
                self.classic = value == 1;
                format!("Rules: {}", if value == 1 { "classic" } else { "Russian" })
            }
            (CHOICE_LEVEL, _) if value < Level::ALL.len() => {
                self.level = Level::ALL[value];
                format!("Computer: {}", self.level.name())
            }
            (CHOICE_PLACEMENT, 0 | 1) => {
                self.placement = if value == 1 {
                    PlacementStrategy::Border
                } else {
                    PlacementStrategy::Uniform
                };
                format!("Computer's fleet: {}", self.placement.name())
            }
            (CHOICE_FLEET, 0 | 1) => {
                self.random_fleet = value == 0;
                format!(
                    "Your fleet starts {}",
                    if value == 0 {
                        "at random"
                    } else {
                        "on an empty grid"
                    }
                )
            }
            _ => return None,
        };
        Some(said)
    }
}
