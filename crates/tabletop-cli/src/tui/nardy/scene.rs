//! The local screen's [`Scene`]: what its table, the turn in progress and a bot's turn
//! being shown put on the board.

use nardy_core::Color;

use super::board::{Scene, Tone};
use super::{Button, NardyScreen};

/// The dice of a turn, each with whether it is still to play (`remaining`).
pub(super) fn dice_marks(all: Vec<u8>, mut remaining: Vec<u8>) -> Vec<(u8, bool)> {
    all.into_iter()
        .map(|d| match remaining.iter().position(|&r| r == d) {
            Some(i) => {
                remaining.remove(i);
                (d, true)
            }
            None => (d, false),
        })
        .collect()
}

/// The line under the board when no hints are shown.
pub(super) const KEYS_LINE: &str =
    "Enter/click select, then a ◆ point · Tab next · Backspace/right-click step back";

impl NardyScreen {
    /// What the board shows now.
    pub(super) fn scene(&self) -> Scene {
        let pos = self.shown_position();
        let game = self.game();
        let to_move = game.side_to_move();
        let played = match (&self.anim, &self.builder) {
            (Some(a), _) => a.builder.played().to_vec(),
            (None, Some(b)) => b.played().to_vec(),
            _ => Vec::new(),
        };
        let note = if self.info.passing {
            Some("no legal move: the turn passes".to_owned())
        } else if let (Some(b), Some(p)) = (&self.builder, self.selected) {
            let to: Vec<String> = b
                .destinations(p)
                .iter()
                .map(|&d| if d == 0 { "off".into() } else { d.to_string() })
                .collect();
            Some(format!("{p} goes to: {}", to.join(" ")))
        } else if self.builder.is_some() {
            match &self.info.only {
                Some(mv) => Some(format!("only turn: {mv} (a)")),
                None => Some(format!("{} legal turns", self.info.moves)),
            }
        } else if self.anim.is_some() || self.settings.player(to_move).is_some() {
            Some("the bot is moving…".to_owned())
        } else {
            None
        };
        let mut buttons = Vec::new();
        if let Some(b) = &self.builder {
            if !b.played().is_empty() {
                buttons.push((Button::StepBack, "[step back]"));
            } else if self.info.only.is_some() {
                buttons.push((Button::OnlyTurn, "[play it]"));
            }
            let hints = if self.hints.is_some() {
                "[hide hints]"
            } else {
                "[hints]"
            };
            buttons.push((Button::Hints, hints));
        }
        Scene {
            pos,
            cursor: self.cursor,
            selected: self.selected,
            targets: self.targets(),
            mover: self
                .builder
                .as_ref()
                .map_or(pos.side_to_move(), |b| b.start().side_to_move()),
            last: self.last_steps(),
            last_color: self.last_color(),
            names: Color::ALL.map(|c| self.player_name(c)),
            to_move,
            over: game
                .outcome()
                .map(|o| (o.to_string(), "n: new game".to_owned())),
            dice: dice_marks(game.dice().to_play(), self.remaining_dice()),
            played,
            note,
            last_turn: game.history().last().map(|r| {
                let head = format!("last: {} {}-{}", r.color, r.dice.high(), r.dice.low());
                (head, r.mv.to_string())
            }),
            buttons,
            bottom: self.bottom_lines(),
        }
    }

    /// The hints, or a reminder of the keys.
    fn bottom_lines(&self) -> Vec<(String, Tone)> {
        let Some(hints) = &self.hints else {
            return vec![(KEYS_LINE.to_owned(), Tone::Dim)];
        };
        let head = format!(
            "{:<29} {:>6}  {:>6}  {:>5}",
            format!(
                "Hints ({}): {} turns",
                hints.level.name(),
                hints.ranked.len()
            ),
            "equity",
            "loss",
            "win"
        );
        let mut lines = vec![(head, Tone::Accent)];
        for (i, r) in hints.ranked.iter().enumerate() {
            let line = format!(
                "{:>3}. {:<24} {:+.3}  {:>6.3}  {:>4.1}%",
                i + 1,
                r.mv.to_string(),
                r.equity,
                0.0 - r.loss + 0.0,
                100.0 * r.probabilities.win
            );
            lines.push((line, if i == 0 { Tone::Good } else { Tone::Normal }));
        }
        lines
    }
}
