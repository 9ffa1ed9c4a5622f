//! What goes through the table: placing your fleet (the candidate ship, rotating, picking
//! up, random and cleared fleets), starting the battle, your shots and the hint, and the
//! computer's shooter on the worker.

use battleship_core::ai::{Bot, Lookahead, PlacementStrategy};
use battleship_core::{Coord, FleetError, Mark, Placement, Ship};
use tabletop_play::Action;
use tabletop_play::battleship::{Input, seat_of};

use super::{BattleshipScreen, Phase, YOU, short_problem, shot_text};
use crate::battleship::{computer_places, shot_of};
use crate::tui::Ctx;

impl BattleshipScreen {
    /// A fresh shooter of this game's level, built in the worker (it need not be `Send`).
    pub(super) fn make_bot(&mut self) {
        self.stop_bot();
        let (level, rules) = (self.current.level, self.rules.clone());
        self.thinker
            .run(move |bot| *bot = Some(level.shooter(&rules)));
    }

    /// Tells the computer's shooter to forget what it learnt (a new battle, an undo).
    pub(super) fn bot_new_game(&mut self) {
        self.stop_bot();
        self.thinker.run(|bot| {
            if let Some(b) = bot {
                b.new_game();
            }
        });
    }

    /// Forgets the shot being aimed or waiting (after undo, load or a new game): a stale
    /// answer is dropped when it comes.
    pub(super) fn stop_bot(&mut self) {
        self.bot_due = None;
        self.aim = None;
        self.thinker.cancel();
    }

    /// The ship that would go at the cursor, while ships are left to place.
    pub(super) fn candidate(&self) -> Option<Ship> {
        match &self.phase {
            Phase::Placing(p) if !p.placement.missing().is_empty() => {
                Some(Ship::new(self.cursor, self.orientation, self.selected_len))
            }
            _ => None,
        }
    }

    /// Everything wrong with the candidate ship, from the engine.
    pub(super) fn candidate_problems(&self) -> Option<FleetError> {
        let Phase::Placing(p) = &self.phase else {
            return None;
        };
        let ship = self.candidate()?;
        let problems = p.placement.problems_if(&ship);
        (!problems.is_empty()).then_some(FleetError { problems })
    }

    /// Keeps the length being placed among the lengths still to place.
    pub(super) fn fix_selection(&mut self) {
        if let Phase::Placing(p) = &self.phase {
            let missing = p.placement.missing();
            if !missing.contains(&self.selected_len)
                && let Some(&len) = missing.first()
            {
                self.selected_len = len;
            }
        }
    }

    pub(super) fn rotate(&mut self) {
        self.orientation = self.orientation.flipped();
    }

    pub(super) fn next_length(&mut self, forward: bool) {
        let Phase::Placing(p) = &self.phase else {
            return;
        };
        let mut lens = p.placement.missing();
        lens.dedup();
        if lens.is_empty() {
            return;
        }
        let at = lens
            .iter()
            .position(|&l| l == self.selected_len)
            .unwrap_or(0);
        let n = lens.len();
        let next = if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        };
        self.selected_len = lens[next];
    }

    pub(super) fn select_length(&mut self, len: u8, ctx: &mut Ctx) {
        let Phase::Placing(p) = &self.phase else {
            return;
        };
        if p.placement.missing().contains(&len) {
            self.selected_len = len;
        } else {
            ctx.say(format!(
                "Every {len}-cell ship is placed: pick one up to move it"
            ));
        }
    }

    /// Enter or a click on your grid while placing: pick up the ship under the cursor,
    /// place the ship being placed, or (Enter, fleet complete) start the battle.
    pub(super) fn place_or_pick(&mut self, click: bool, ctx: &mut Ctx) {
        let Phase::Placing(p) = &self.phase else {
            return;
        };
        let complete = p.placement.missing().is_empty();
        if complete && !click {
            self.start_battle(ctx);
            return;
        }
        if p.placement.ships().iter().any(|s| s.covers(self.cursor)) {
            self.pick_up(ctx);
            return;
        }
        if complete {
            ctx.say("Fleet complete: click [start battle]");
            return;
        }
        let Some(ship) = self.candidate() else {
            return;
        };
        let Phase::Placing(p) = &mut self.phase else {
            return;
        };
        let mut next = p.placement.clone();
        match next.place(ship) {
            Ok(()) => {
                p.change(next);
                ctx.say(format!("Placed {ship}"));
                self.fix_selection();
            }
            Err(e) => ctx.say(match e.problems.first() {
                Some(p) => format!("Illegal: {}", short_problem(p)),
                None => format!("Illegal: {e}"),
            }),
        }
    }

    /// Takes the ship under the cursor off the grid; it becomes the ship being placed.
    pub(super) fn pick_up(&mut self, ctx: &mut Ctx) {
        let Phase::Placing(p) = &mut self.phase else {
            return;
        };
        let mut next = p.placement.clone();
        let Some(ship) = next.remove(self.cursor) else {
            ctx.say(format!("No ship at {}", self.cursor));
            return;
        };
        p.change(next);
        self.selected_len = ship.len();
        if ship.len() > 1 {
            self.orientation = ship.orientation();
        }
        self.cursor = ship.bow();
        ctx.say(format!("Picked up {ship}"));
    }

    pub(super) fn auto(&mut self, ctx: &mut Ctx) {
        let Phase::Placing(p) = &mut self.phase else {
            return;
        };
        let fleet = PlacementStrategy::Uniform.place(&self.rules, &self.sampler, &mut self.rng);
        p.change(Placement::from_fleet(self.rules.clone(), &fleet));
        ctx.say("A random fleet");
    }

    pub(super) fn clear(&mut self, ctx: &mut Ctx) {
        let Phase::Placing(p) = &mut self.phase else {
            return;
        };
        if p.placement.ships().is_empty() {
            return;
        }
        p.change(Placement::new(self.rules.clone()));
        self.selected_len = self.rules.fleet().first().copied().unwrap_or(1);
        ctx.say("Every ship is off the grid");
    }

    pub(super) fn start_battle(&mut self, ctx: &mut Ctx) {
        let Phase::Placing(p) = &self.phase else {
            return;
        };
        let missing = p.placement.missing();
        if !missing.is_empty() {
            let lens: Vec<String> = missing.iter().map(u8::to_string).collect();
            ctx.say(format!(
                "Place the rest first: {} (a: all at random)",
                lens.join(" ")
            ));
            return;
        }
        let mine = match p.placement.finish() {
            Ok(fleet) => fleet,
            Err(e) => {
                ctx.say(format!("The fleet is not ready: {e}"));
                return;
            }
        };
        if let Err(e) = self
            .table
            .apply(seat_of(YOU), Action::Play(Input::Place(mine)))
        {
            ctx.say(format!("The fleet is not ready: {e}"));
            return;
        }
        let placed = computer_places(
            &mut self.table,
            self.current.placement,
            &self.sampler,
            &mut self.rng,
        );
        if let Err(e) = placed {
            ctx.say(format!("The fleet is not ready: {}", e.message()));
            return;
        }
        self.phase = Phase::Battle;
        self.bot_new_game();
        self.cursor = Coord::from_index(0, self.rules.width());
        self.clear_hint();
        ctx.say("The battle begins: you shoot first");
    }

    pub(super) fn shoot(&mut self, ctx: &mut Ctx) {
        let Some(game) = self.game() else {
            return;
        };
        let cell = self.cursor;
        if game.is_over() {
            ctx.say("The game is over: n starts a new one");
            return;
        }
        if game.side_to_move() != YOU {
            ctx.say("Wait: the computer is shooting");
            return;
        }
        // The rules allow it, but it is a sure miss that loses the turn (as in line mode).
        if game.view(YOU).tracking().mark(cell) == Mark::Water {
            ctx.say(format!("{cell} is known water"));
            return;
        }
        match self
            .table
            .apply(seat_of(YOU), Action::Play(Input::Shoot(cell)))
        {
            Ok(events) => {
                self.hint = None;
                self.shade = None;
                if let Some((_, cell, result)) = shot_of(&events) {
                    ctx.say(shot_text(YOU, cell, result));
                }
            }
            Err(e) => ctx.say(format!("Illegal: {e}")),
        }
    }

    pub(super) fn give_hint(&mut self, ctx: &mut Ctx) {
        let Some(game) = self.table.game().game() else {
            return;
        };
        if game.is_over() || game.side_to_move() != YOU {
            ctx.say("A hint is for your turn");
            return;
        }
        // The hinter samples fleets and learns as it goes, so asking again would move the
        // hint: the hint for these shots is given again until the next shot.
        let shots = game.history();
        let cached = self
            .hint_cache
            .as_ref()
            .filter(|(at, _, _)| at[..] == shots[..])
            .map(|(_, cell, p)| (*cell, p.clone()));
        let (cell, probabilities) = match cached {
            Some(hint) => hint,
            None => {
                let tracking = game.view(YOU).tracking();
                let hinter = self
                    .hinter
                    .get_or_insert_with(|| Lookahead::new(&self.rules));
                // a copy of the generator, so that asking for a hint changes nothing in
                // the game
                let mut rng = self.rng.clone();
                let probabilities = hinter.probabilities(tracking, &mut rng);
                let Some(cell) = hinter.choose_move(tracking, &mut rng) else {
                    ctx.say("No cell is left to shoot");
                    return;
                };
                self.hint_cache = Some((shots.to_vec(), cell, probabilities.clone()));
                (cell, probabilities)
            }
        };
        self.hint = Some(cell);
        self.cursor = cell;
        let chance = probabilities
            .as_ref()
            .and_then(|p| p.get(cell.index(self.rules.width())).copied())
            .map(|p| format!(" ({:.0}% a ship)", p * 100.0))
            .unwrap_or_default();
        self.shade = probabilities;
        ctx.say(format!("Hint: {cell}{chance}"));
    }

    pub(super) fn clear_hint(&mut self) {
        self.hint = None;
        self.shade = None;
    }
}
