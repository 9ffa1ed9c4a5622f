//! What goes through the table: starting the battle with your fleet, your shots and the
//! hint, the computer's shooter on the worker, and the scene of the battle.

use battleship_core::ai::{Bot, Lookahead};
use battleship_core::{Coord, Mark};
use tabletop_play::battleship::{Input, seat_of};
use tabletop_play::{Action, Viewer};

use super::scene::{Battle, Scene, Tone, result_words};
use super::{BattleshipScreen, COMPUTER, Phase, YOU, shot_text};
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

    pub(super) fn start_battle(&mut self, ctx: &mut Ctx) {
        let Phase::Placing(p) = &self.phase else {
            return;
        };
        let mine = match p.fleet() {
            Ok(fleet) => fleet,
            Err(e) => {
                ctx.say(e);
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
        self.target = Coord::from_index(0, self.rules.width());
        self.clear_hint();
        ctx.say("The battle begins: you shoot first");
    }

    pub(super) fn shoot(&mut self, ctx: &mut Ctx) {
        let Some(game) = self.game() else {
            return;
        };
        let cell = self.target;
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
        self.target = cell;
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

    /// What the screen shows: the placer, or the battle from the table (which has a game
    /// once both fleets are on it).
    pub(super) fn scene(&self) -> Option<Scene<'_>> {
        let game = match &self.phase {
            Phase::Placing(p) => return Some(Scene::Placing(p, Vec::new())),
            Phase::Battle => self.game()?,
        };
        let over = game.is_over();
        let mine = game.view(YOU);
        let last = |who| {
            game.history()
                .iter()
                .rev()
                .find(|(p, _, _)| *p == who)
                .copied()
        };
        let words = |who| {
            let name = if who == YOU { "You" } else { "Computer" };
            last(who).map(|(_, cell, result)| format!("{name}: {cell} {}", result_words(result)))
        };
        // the table's view of your seat: the enemy fleet only once the game is over
        let view = self.table.view(Viewer::Seat(seat_of(YOU)));
        let turn = match game.outcome() {
            Some(o) if o.winner == YOU => (
                format!("You win in {} shots!  n: new game", o.shots),
                Tone::Good,
            ),
            Some(o) => (
                format!(
                    "The computer wins in {} shots. Its fleet is shown above.  n: new game",
                    o.shots
                ),
                Tone::Bad,
            ),
            None if game.side_to_move() == YOU => (
                if self.rules.extra_shot_on_hit() {
                    "Your turn: Enter or click to shoot (a hit shoots again)".to_owned()
                } else {
                    "Your turn: Enter or click to shoot".to_owned()
                },
                Tone::Accent,
            ),
            None => ("The computer is aiming…".to_owned(), Tone::Dim),
        };
        Some(Scene::Battle(Box::new(Battle {
            rules: self.rules.clone(),
            fleet: Some(mine.fleet().clone()),
            incoming: mine.incoming().clone(),
            tracking: mine.tracking().clone(),
            enemy_fleet: view.state.fleets[seat_of(COMPUTER).index()].clone(),
            over,
            cursor: Some(self.target),
            hint: self.hint,
            shade: self.shade.clone(),
            last_theirs: last(COMPUTER).map(|(_, c, _)| c),
            last_mine: last(YOU).map(|(_, c, _)| c),
            last_words: [words(COMPUTER), words(YOU)],
            turn,
            titles: [
                "Your fleet",
                if over { "Enemy fleet" } else { "Enemy waters" },
            ],
            legend: "■ ship  X hit  • miss  ~ water  · unknown  t: hint",
            lines: Vec::new(),
        })))
    }
}
