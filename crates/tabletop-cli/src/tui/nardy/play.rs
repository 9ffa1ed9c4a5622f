//! The screen at the table: a person's steps and turns, the table's undo and redo, the
//! bots' turns thought on the worker and played at the table, and what the table played
//! (a bot's turn, forced passes) shown from its events at a readable pace.

use std::time::Instant;

use nardy_core::ai::{Level, Resources};
use nardy_core::{Color, Game, Move, Step};
use tabletop_play::nardy::{Event as TableEvent, Input, Nardy, bot_action, color_of, seat_of};
use tabletop_play::{Action, EventKind, Events, Player, Refusal, Seat, Table};

use super::{BOT_PAUSE, BOT_STEP, BotTurn, NardyScreen, PASS_PAUSE, Shown, Spot, TurnInfo};
use crate::tui::Ctx;

impl NardyScreen {
    /// The seat of the person who asks for undo or redo: the seat to act if a person's,
    /// else the first person's seat.
    pub(super) fn person_seat(&self) -> Option<Seat> {
        self.table
            .to_act()
            .filter(|&s| self.is_human(color_of(s)))
            .or_else(|| {
                Color::ALL
                    .into_iter()
                    .find(|&c| self.is_human(c))
                    .map(seat_of)
            })
    }

    /// Takes the person's turn in progress from the table, when a person is to act and
    /// nothing is left to show.
    pub(super) fn sync(&mut self) {
        let person = self
            .table
            .to_act()
            .is_some_and(|s| self.is_human(color_of(s)));
        self.builder = if person && self.replay.is_empty() {
            self.table.game().builder()
        } else {
            None
        };
    }

    /// Queues the turns of `events` to show: the bots' turns and the forced passes, each
    /// with the game before it (`before` is the game before the first of them).
    pub(super) fn show(&mut self, mut before: Game, events: &Events<Nardy>) {
        for event in events {
            let EventKind::Game(TableEvent::Turn {
                seat, mv, forced, ..
            }) = &event.kind
            else {
                continue;
            };
            if *forced || !self.is_human(color_of(*seat)) {
                self.replay.push_back(Shown {
                    before: before.clone(),
                    mv: mv.clone(),
                });
            }
            if before.play(mv).is_err() {
                break;
            }
        }
    }

    /// Queues the forced passes the table played at once when it took `game` over.
    pub(super) fn show_passes(&mut self, mut game: Game) {
        let played = game.history().len();
        let passes: Vec<Move> = self.table.game().game().history()[played..]
            .iter()
            .map(|r| r.mv.clone())
            .collect();
        for mv in passes {
            let before = game.clone();
            if game.play(&mv).is_err() {
                break;
            }
            self.replay.push_back(Shown { before, mv });
        }
    }

    /// Forgets everything about the turn shown and looks at the next one.
    pub(super) fn reset_turn(&mut self) {
        self.thinker.cancel();
        self.thought = None;
        self.anim = None;
        self.selected = None;
        self.next_at = None;
        self.hints = None;
        self.sync();
        let moves = self.game().legal_moves();
        let passing = moves.len() == 1 && moves[0].is_pass();
        self.info = TurnInfo {
            moves: moves.len(),
            only: (moves.len() == 1 && !passing).then(|| moves[0].clone()),
            passing,
            said: false,
        };
        if self.builder.is_some() {
            let movable = self.movable();
            if !matches!(self.cursor, Spot::Point(p) if movable.contains(&p))
                && let Some(&first) = movable.first()
            {
                self.cursor = Spot::Point(first);
            }
        }
    }

    /// Plays one step of the person's turn at the table; the turn goes to the game when
    /// its steps are complete.
    pub(super) fn play_step(&mut self, from: u8, to: Option<u8>, ctx: &mut Ctx) {
        let Some(seat) = self.table.to_act().filter(|_| self.builder.is_some()) else {
            return;
        };
        let step = match Step::new(from, to) {
            Ok(s) => s,
            Err(e) => {
                ctx.say(format!("Illegal: {e}"));
                return;
            }
        };
        let before = self.game().clone();
        match self.table.apply(seat, Action::Play(Input::Step(step))) {
            Ok(events) => {
                self.selected = None;
                self.cursor = match to {
                    Some(p) => Spot::Point(p),
                    None => Spot::Point(from),
                };
                self.turn_played(before, &events);
            }
            Err(Refusal::Illegal(why)) => ctx.say(format!("Illegal: {step}: {why}")),
            Err(e) => ctx.say(format!("Illegal: {step}: {e}")),
        }
    }

    /// After a person's action: with the turn complete, shows what the table played after
    /// it and looks at the next turn; else takes the turn in progress again.
    pub(super) fn turn_played(&mut self, before: Game, events: &Events<Nardy>) {
        let done = events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Game(TableEvent::Turn { .. })));
        if done {
            self.show(before, events);
            self.reset_turn();
        } else {
            self.sync();
        }
    }

    pub(super) fn take_back_step(&mut self, ctx: &mut Ctx) {
        let Some(b) = &self.builder else {
            ctx.say("Nothing to take back: it is not your turn");
            return;
        };
        let Some(seat) = self.table.to_act().filter(|_| !b.played().is_empty()) else {
            ctx.say("No step of this turn to take back (u takes back whole turns)");
            return;
        };
        match self.table.apply(seat, Action::Undo) {
            Ok(events) => {
                self.sync();
                for event in &events {
                    if let EventKind::Game(TableEvent::StepTakenBack { step, .. }) = event.kind {
                        self.selected = None;
                        self.cursor = Spot::Point(step.from());
                        ctx.say(format!("Took back {step}"));
                    }
                }
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }

    /// `a`: plays the only legal turn (from the start of the turn: the steps played go
    /// back first).
    pub(super) fn play_only(&mut self, ctx: &mut Ctx) {
        let Some(mv) = self.info.only.clone() else {
            match self.builder {
                Some(_) => ctx.say(format!(
                    "{} legal turns: choose one (t ranks them)",
                    self.info.moves
                )),
                None => ctx.say("It is not your turn"),
            }
            return;
        };
        let Some(seat) = self.table.to_act().filter(|_| self.builder.is_some()) else {
            return;
        };
        let mut table = self.table.clone();
        while !table.game().played().is_empty() {
            if table.apply(seat, Action::Undo).is_err() {
                break;
            }
        }
        let before = table.game().game().clone();
        match table.apply(seat, Action::Play(Input::Turn(mv))) {
            Ok(events) => {
                self.table = table;
                self.turn_played(before, &events);
            }
            Err(e) => ctx.say(format!("Illegal: {e}")),
        }
    }

    /// Plays the bots' turns at the table and shows them and the forced passes at a
    /// readable pace.
    pub(super) fn advance(&mut self, now: Instant, ctx: &mut Ctx) -> bool {
        let mut changed = false;
        if !self.info.said {
            self.info.said = true;
            changed = true;
            let color = self.game().side_to_move();
            let dice = self.game().dice();
            if let Some(outcome) = self.game().outcome() {
                ctx.say(format!("{outcome}. Press n for a new game."));
            } else if self.info.passing {
                ctx.say(format!(
                    "{color} rolls {}-{} and has no legal move: the turn passes",
                    dice.high(),
                    dice.low()
                ));
            } else if let Some(mv) = self.info.only.as_ref().filter(|_| self.builder.is_some()) {
                ctx.say(format!("Only one legal turn: {mv} (press a to play it)"));
            }
        }
        if self.game().outcome().is_some() {
            return changed;
        }
        let at = *self.next_at.get_or_insert(
            now + if self.info.passing {
                PASS_PAUSE
            } else {
                BOT_PAUSE
            },
        );
        // A bot thinks during the pause before its first step, on the worker thread.
        changed |= self.think();
        if now < at {
            return changed;
        }
        if self.replay.is_empty() {
            // The bot's turn goes to the table at once; the screen shows it step by step.
            let Some((seat, _)) = self.table.bot_to_act() else {
                return changed;
            };
            let Some(Some(action)) = self.thought.take() else {
                return changed;
            };
            let before = self.game().clone();
            match self.table.apply(seat, action) {
                Ok(events) => self.show(before, &events),
                Err(e) => {
                    ctx.say(format!("The bot's turn was refused: {e}"));
                    return true;
                }
            }
        }
        if self.info.passing {
            // The table played the pass; it has been shown long enough.
            self.replay.pop_front();
            self.reset_turn();
            return true;
        }
        self.next_at = Some(now + BOT_STEP);
        match self.anim.as_mut() {
            None => {
                let Some(shown) = self.replay.front() else {
                    return changed;
                };
                let Ok(mut builder) = shown.before.builder() else {
                    return changed;
                };
                if let Some(&first) = shown.mv.steps().first()
                    && builder.play(first).is_err()
                {
                    builder.reset();
                }
                let mv = shown.mv.clone();
                self.anim = Some(BotTurn { mv, builder });
            }
            Some(a) => {
                let next = a.builder.played().len();
                match a.mv.steps().get(next) {
                    Some(&step) if a.builder.play(step).is_ok() => {}
                    _ => {
                        self.replay.pop_front();
                        self.reset_turn();
                    }
                }
            }
        }
        true
    }

    /// Asks the worker for the bot's action when a bot is to act at the table and nothing
    /// is asked yet, and takes the answer when it has come; true when the status line
    /// changed.
    pub(super) fn think(&mut self) -> bool {
        if !self.replay.is_empty() {
            return false;
        }
        let Some((seat, _)) = self.table.bot_to_act() else {
            return false;
        };
        let Some(level) = self.settings.player(color_of(seat)) else {
            return false;
        };
        let mut changed = false;
        if self.thought.is_none() && !self.thinker.busy() {
            let resources = if level.needs_resources() {
                match self.resources_ready() {
                    Some(r) => Some(r),
                    None => return false,
                }
            } else {
                None
            };
            let rules = *self.game().rules();
            let nardy = self.table.game().clone();
            let rng = self.bot_rng.clone();
            let i = seat.index();
            self.thinker.ask(move |bots| {
                let mut rng = rng;
                let bot = bots[i].get_or_insert_with(|| match &resources {
                    Some(r) => level.bot_with(&rules, r),
                    None => level.bot(&rules),
                });
                let action = bot_action(&nardy, bot.as_mut(), &mut rng);
                let game = nardy.game();
                (*game.position(), game.dice(), action, rng)
            });
            changed = true;
        }
        if let Some((position, dice, action, rng)) = self.thinker.poll()
            && position == *self.game().position()
            && dice == self.game().dice()
        {
            self.bot_rng = rng;
            self.thought = Some(action);
            changed = true;
        }
        changed
    }

    /// The resources once built, without waiting: `None` while the background build runs.
    pub(super) fn resources_ready(&mut self) -> Option<Resources> {
        if self.resources.is_none() {
            self.preload();
            if self.loading.as_ref().is_some_and(|h| !h.is_finished()) {
                return None;
            }
        }
        Some(self.resources().clone())
    }

    /// Whether a bot is thinking (or waiting for its resources) about the turn to play.
    pub fn thinking(&self) -> bool {
        self.thinker.busy()
            || (self.thought.is_none()
                && self.replay.is_empty()
                && self.loading.is_some()
                && self
                    .table
                    .bot_to_act()
                    .and_then(|(seat, _)| self.settings.player(color_of(seat)))
                    .is_some_and(Level::needs_resources))
    }

    /// Blocks until the resources are built and the bot's answer has come; true if there
    /// was something to wait for (tests step deterministically with it).
    #[cfg(test)]
    pub(super) fn wait_bot(&mut self) -> bool {
        let waited = self.thinking();
        if self.loading.is_some() {
            self.resources();
        }
        self.thinker.wait();
        waited
    }

    /// The table's undo: the steps of the turn in progress, else whole turns back to the
    /// last decision of a person (the bot's reply goes with it), with the same dice.
    pub(super) fn undo_turns(&mut self, ctx: &mut Ctx) {
        if let Some(seat) = self.table.to_act().filter(|_| {
            self.builder
                .as_ref()
                .is_some_and(|b| !b.played().is_empty())
        }) {
            while !self.table.game().played().is_empty() {
                if self.table.apply(seat, Action::Undo).is_err() {
                    break;
                }
            }
            self.selected = None;
            self.sync();
            ctx.say("Took back the steps of this turn");
            return;
        }
        let Some(seat) = self.person_seat() else {
            ctx.say("Nothing to undo");
            return;
        };
        match self.table.apply(seat, Action::Undo) {
            Ok(events) => {
                // The turns come latest first.
                let text: Vec<String> = events
                    .iter()
                    .rev()
                    .filter_map(|e| match &e.kind {
                        EventKind::Game(TableEvent::TurnTakenBack { seat, mv }) => {
                            Some(format!("{} {mv}", color_of(*seat)))
                        }
                        _ => None,
                    })
                    .collect();
                ctx.say(format!("Took back: {}", text.join(", ")));
                self.replay.clear();
                self.reset_turn();
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }

    /// The table's redo: what the last undo took back, up to the next decision of a
    /// person.
    pub(super) fn redo_turns(&mut self, ctx: &mut Ctx) {
        let Some(seat) = self.person_seat() else {
            ctx.say("Nothing to redo");
            return;
        };
        match self.table.apply(seat, Action::Redo) {
            Ok(events) => {
                let text: Vec<String> = events
                    .iter()
                    .filter_map(|e| match &e.kind {
                        EventKind::Game(TableEvent::Turn { seat, mv, .. }) => {
                            Some(format!("{} {mv}", color_of(*seat)))
                        }
                        _ => None,
                    })
                    .collect();
                ctx.say(format!("Replayed: {}", text.join(", ")));
                self.replay.clear();
                self.reset_turn();
            }
            Err(e) => ctx.say(sentence(&e)),
        }
    }
}

/// A refusal of the table as a sentence of the status line.
pub(super) fn sentence(refusal: &Refusal) -> String {
    let text = refusal.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// Seats `players` at `table` where they are not already.
pub(super) fn seat_players(table: &mut Table<Nardy>, players: [Player; 2]) {
    for (i, player) in players.into_iter().enumerate() {
        if table.players().get(i) != Some(&player) {
            // Only a seat the table lacks is refused, and both seats exist.
            let _ = table.set_player(Seat(i as u8), player);
        }
    }
}
