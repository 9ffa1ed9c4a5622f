//! The settings menu: who plays each side, the rules of the next game, the hints' level.

use nardy_core::ai::Level;
use nardy_core::{BlockCheck, Color, HeadException, Opening, Scoring};
use tabletop_play::Action;
use tabletop_play::nardy::seat_of;

use super::play::seat_players;
use super::{HINT_LEVELS, NardyScreen};
use crate::tui::{Choice, Ctx};

/// The values of a player setting: a person, then each level.
fn player_values() -> Vec<String> {
    std::iter::once("human".to_owned())
        .chain(
            Level::ALL
                .iter()
                .map(|l| format!("bot: {} ({})", l.name(), l.get())),
        )
        .collect()
}

fn player_index(player: Option<Level>) -> usize {
    player.map_or(0, |l| usize::from(l.get()))
}

impl NardyScreen {
    /// The settings of the menu: the players now, the rules of the next game, the hints.
    pub(super) fn menu_choices(&self) -> Vec<Choice> {
        let r = &self.settings.rules;
        let two = |label, a: &str, b: &str, second: bool| Choice {
            label,
            values: vec![a.to_owned(), b.to_owned()],
            current: usize::from(second),
        };
        vec![
            Choice {
                label: "White",
                values: player_values(),
                current: player_index(self.settings.white),
            },
            Choice {
                label: "Black",
                values: player_values(),
                current: player_index(self.settings.black),
            },
            two(
                "Opening (next game)",
                "roll-off dice",
                "reroll",
                r.opening == Opening::Reroll,
            ),
            two(
                "Two from the head (next game)",
                "6-6, 4-4, 3-3",
                "any blocked double",
                r.head_exception == HeadException::AnyBlockedDouble,
            ),
            two(
                "Six-point block checked (next game)",
                "after every step",
                "at the end of the turn",
                r.block_check == BlockCheck::EndOfTurn,
            ),
            two(
                "Scoring (next game)",
                "oin 1, mars 2",
                "oin 1, mars 2, koks 3",
                r.scoring == Scoring::WithKoks,
            ),
            two("Last-roll tie (next game)", "no", "yes", r.last_roll_tie),
            Choice {
                label: "Hints ranked by",
                values: HINT_LEVELS
                    .iter()
                    .filter_map(|&n| Level::new(n))
                    .map(|l| format!("{} ({})", l.name(), l.get()))
                    .collect(),
                current: HINT_LEVELS
                    .iter()
                    .position(|&n| n == self.settings.hint_level.get())
                    .unwrap_or(0),
            },
        ]
    }

    /// Sets a value of the menu: a player at once (at the table too), a rule from the next
    /// game on, the hints' level.
    pub(super) fn apply_choice(&mut self, choice: usize, value: usize, ctx: &mut Ctx) {
        let second = value == 1;
        let r = &mut self.settings.rules;
        match choice {
            0 | 1 => {
                let player = match value {
                    0 => None,
                    n => match u8::try_from(n).ok().and_then(Level::new) {
                        Some(l) => Some(l),
                        None => return,
                    },
                };
                let color = if choice == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                match color {
                    Color::White => self.settings.white = player,
                    Color::Black => self.settings.black = player,
                }
                let seat = seat_of(color);
                // A person's steps in progress go back before a bot takes the seat over.
                if player.is_some() && self.table.to_act() == Some(seat) {
                    while !self.table.game().played().is_empty() {
                        if self.table.apply(seat, Action::Undo).is_err() {
                            break;
                        }
                    }
                }
                seat_players(&mut self.table, self.settings.players());
                let i = color.index();
                self.thinker.run(move |bots| bots[i] = None);
                self.preload();
                ctx.say(format!("{color}: {}, from now on", self.player_name(color)));
                if self.replay.is_empty() && self.game().side_to_move() == color {
                    self.reset_turn();
                }
                return;
            }
            2 => {
                r.opening = if second {
                    Opening::Reroll
                } else {
                    Opening::RollOff
                }
            }
            3 => {
                r.head_exception = if second {
                    HeadException::AnyBlockedDouble
                } else {
                    HeadException::Strict
                }
            }
            4 => {
                r.block_check = if second {
                    BlockCheck::EndOfTurn
                } else {
                    BlockCheck::EveryStep
                }
            }
            5 => {
                r.scoring = if second {
                    Scoring::WithKoks
                } else {
                    Scoring::Standard
                }
            }
            6 => r.last_roll_tie = second,
            7 => {
                if let Some(level) = HINT_LEVELS.get(value).and_then(|&n| Level::new(n)) {
                    self.settings.hint_level = level;
                    self.hints = None;
                    self.preload();
                    ctx.say(format!(
                        "Hints ranked by level {}, from now on",
                        level.name()
                    ));
                }
                return;
            }
            _ => return,
        }
        ctx.say("Rules changed: they apply from the next game (n)");
    }
}
