use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEventKind};
use nardy_core::{Position, Scoring};
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use tabletop_play::Player;

use super::*;
use crate::tui::testing::{ch, click, key, mouse, render, render_app, text};
use crate::tui::{App, ThemeKind};

/// You as White against the random bot (the fastest), hints by the greedy level (no
/// database to build).
fn settings(seed: u64) -> Settings {
    Settings {
        white: None,
        black: Some(Level::MIN),
        rules: Rules::default(),
        seed,
        hint_level: Level::new(3).expect("level 3"),
    }
}

/// A screen with a clock that the test moves, and the messages it said.
struct Driver {
    s: NardyScreen,
    now: Instant,
    messages: Vec<String>,
}

impl Driver {
    fn new(seed: u64) -> Driver {
        Driver::with(NardyScreen::new(settings(seed)))
    }

    fn with(s: NardyScreen) -> Driver {
        Driver {
            s,
            now: Instant::now(),
            messages: Vec::new(),
        }
    }

    fn said(&mut self, ctx: &mut Ctx) {
        if let Some(m) = ctx.take_message() {
            self.messages.push(m);
        }
    }

    fn last_message(&self) -> &str {
        self.messages.last().map_or("", String::as_str)
    }

    fn send(&mut self, event: Event) -> Handled {
        let mut ctx = Ctx::default();
        let handled = self.s.handle(&event, &mut ctx);
        self.said(&mut ctx);
        handled
    }

    fn tick(&mut self, millis: u64) -> bool {
        self.now += Duration::from_millis(millis);
        let mut ctx = Ctx::default();
        let mut changed = self.s.tick(self.now, &mut ctx);
        // A bot's answer comes from the worker: wait for it and tick again at the same
        // moment, so the test sees what a person would see at that time.
        for _ in 0..3 {
            if !self.s.wait_bot() {
                break;
            }
            changed |= self.s.tick(self.now, &mut ctx);
        }
        self.said(&mut ctx);
        changed
    }

    /// Ticks until a person is to move or the game is over.
    fn wait_for_human(&mut self) {
        for _ in 0..10_000 {
            if self.s.game().outcome().is_some() || self.s.builder.is_some() {
                self.tick(50);
                return;
            }
            self.tick(100);
        }
        panic!("the bots never handed over");
    }

    fn draw(&mut self) -> Buffer {
        render(&mut self.s, 80, 24, &Theme::dark())
    }

    /// Moves the cursor to `target` with arrow keys.
    fn key_to(&mut self, target: Spot) {
        for _ in 0..40 {
            if self.s.cursor == target {
                return;
            }
            let ((row, col), (to_row, to_col)) = (self.s.cursor.grid(), target.grid());
            let code = if row != to_row {
                if to_row < row {
                    KeyCode::Up
                } else {
                    KeyCode::Down
                }
            } else if to_col < col {
                KeyCode::Left
            } else {
                KeyCode::Right
            };
            assert_eq!(self.send(key(code)), Handled::Yes);
        }
        panic!("the cursor never reached {target:?}");
    }

    /// Draws, then clicks in the middle of `target`'s rectangle.
    /// The screen cell in the middle of a spot as last drawn.
    fn cell_of(&mut self, target: Spot) -> (u16, u16) {
        self.draw();
        let &(rect, _) = self
            .s
            .hits
            .iter()
            .find(|(_, s)| *s == target)
            .expect("the spot is drawn");
        (rect.x + 1, rect.y + rect.height / 2)
    }

    /// A click as a terminal sends it: the press, then the release at the same cell.
    fn click_on(&mut self, target: Spot) -> Handled {
        let (x, y) = self.cell_of(target);
        let handled = self.send(click(x, y));
        self.send(mouse(MouseEventKind::Up(MouseButton::Left), x, y));
        handled
    }

    /// A press on `from`, a drag over to `to` and the release there.
    fn drag(&mut self, from: Spot, to: Spot) {
        let (x, y) = self.cell_of(from);
        let (tx, ty) = self.cell_of(to);
        self.send(click(x, y));
        self.send(mouse(MouseEventKind::Drag(MouseButton::Left), tx, ty));
        self.send(mouse(MouseEventKind::Up(MouseButton::Left), tx, ty));
    }

    fn mover(&self) -> Color {
        self.s.game().side_to_move()
    }

    /// The engine's first legal step of the turn in progress.
    fn first_step(&self) -> Step {
        self.s
            .builder
            .as_ref()
            .expect("a person's turn")
            .legal_steps()[0]
    }

    fn spot_to(&self, step: Step) -> Spot {
        step.to().map_or(Spot::Tray(self.mover()), Spot::Point)
    }

    /// Plays the engine's first legal step with keys.
    fn step_by_keys(&mut self) {
        let step = self.first_step();
        self.key_to(Spot::Point(step.from()));
        self.send(key(KeyCode::Enter));
        assert_eq!(self.s.selected, Some(step.from()));
        let to = self.spot_to(step);
        self.key_to(to);
        self.send(key(KeyCode::Enter));
    }

    /// Plays the engine's first legal step with two clicks.
    fn step_by_clicks(&mut self) {
        let step = self.first_step();
        assert_eq!(self.click_on(Spot::Point(step.from())), Handled::Yes);
        assert_eq!(self.s.selected, Some(step.from()));
        let to = self.spot_to(step);
        assert_eq!(self.click_on(to), Handled::Yes);
    }

    /// Plays whole turns for the person, each step with `play`, until the game has
    /// `turns` turns or is over; returns the number of steps played.
    fn play_until(&mut self, turns: usize, play: fn(&mut Driver)) -> usize {
        for steps in 0..2_000 {
            self.wait_for_human();
            if self.s.game().outcome().is_some() || self.s.game().history().len() >= turns {
                return steps;
            }
            let before = (self.s.game().history().len(), self.played());
            play(self);
            assert_ne!(
                (self.s.game().history().len(), self.played()),
                before,
                "the step was not played: {}",
                self.last_message()
            );
        }
        panic!("the game did not end");
    }

    fn played(&self) -> Vec<Step> {
        self.s
            .builder
            .as_ref()
            .map(|b| b.played().to_vec())
            .unwrap_or_default()
    }
}

fn snapshot(name: &str, buffer: &Buffer) {
    insta::assert_snapshot!(name, format!("{buffer:?}"));
}

#[test]
fn start_screen() {
    let mut d = Driver::new(0);
    assert_eq!(d.mover(), Color::White);
    assert_eq!(d.s.game().dice().to_string(), "32");
    let buffer = d.draw();
    let t = text(&buffer);
    assert!(t.contains("White to play [3] [2]"), "{t}");
    assert!(t.contains("pips 360"), "{t}");
    snapshot("nardy_start", &buffer);
}

#[test]
fn selection_highlights_the_destinations() {
    let mut d = Driver::new(0);
    d.send(key(KeyCode::Enter));
    assert_eq!(d.s.selected, Some(24));
    assert_eq!(d.s.targets(), vec![21, 22]);
    let buffer = d.draw();
    assert!(text(&buffer).contains("24 goes to: 21 22"));
    snapshot("nardy_selected", &buffer);
}

#[test]
fn a_step_by_keys_and_its_undo() {
    let mut d = Driver::new(0);
    d.send(key(KeyCode::Enter));
    // 24 → 21 is three points to the left along the top row.
    for _ in 0..3 {
        d.send(ch('h'));
    }
    assert_eq!(d.s.cursor, Spot::Point(21));
    d.send(key(KeyCode::Enter));
    assert_eq!(d.played(), vec!["24/21".parse().unwrap()]);
    assert_eq!(d.s.remaining_dice(), vec![2]);
    let shown = d.s.shown_position();
    assert_eq!(
        (shown.count(Color::White, 24), shown.count(Color::White, 21)),
        (14, 1)
    );
    // Backspace takes the step back; the game itself never changed.
    assert_eq!(d.send(key(KeyCode::Backspace)), Handled::Yes);
    assert!(d.played().is_empty());
    assert_eq!(d.s.shown_position(), Position::start());
    assert!(d.s.game().history().is_empty());
    assert_eq!(d.last_message(), "Took back 24/21");
}

#[test]
fn a_step_by_clicks_completes_the_turn() {
    let mut d = Driver::new(0);
    assert_eq!(d.click_on(Spot::Point(24)), Handled::Yes);
    assert_eq!(d.click_on(Spot::Point(22)), Handled::Yes);
    assert_eq!(d.played(), vec!["24/22".parse().unwrap()]);
    // The moved checker, then 3 more: the turn is complete and goes to the game at once.
    assert_eq!(d.click_on(Spot::Point(22)), Handled::Yes);
    assert_eq!(d.s.targets(), vec![19]);
    assert_eq!(d.click_on(Spot::Point(19)), Handled::Yes);
    let history = d.s.game().history();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].mv.to_string(), "24/22 22/19");
    assert_eq!(d.mover(), Color::Black);
    assert!(d.s.builder.is_none());
    // A click outside the board is left to the host.
    assert_eq!(d.send(click(79, 23)), Handled::No);
}

#[test]
fn a_checker_dragged_to_a_destination_plays_the_step() {
    let mut d = Driver::new(0);
    // Released on a point it cannot reach: the checker stays selected, nothing played.
    d.drag(Spot::Point(24), Spot::Point(23));
    assert_eq!(d.s.selected, Some(24));
    assert!(d.played().is_empty());
    // Pressed and released on the selected checker: a click, which deselects it.
    d.click_on(Spot::Point(24));
    assert_eq!(d.s.selected, None);
    d.drag(Spot::Point(24), Spot::Point(22));
    assert_eq!(d.played(), vec!["24/22".parse().unwrap()]);
    // Dragging the checker already selected works too.
    d.click_on(Spot::Point(22));
    assert_eq!(d.s.selected, Some(22));
    d.drag(Spot::Point(22), Spot::Point(19));
    assert_eq!(d.s.game().history()[0].mv.to_string(), "24/22 22/19");
    // A release with no press on a checker first is left to the host.
    assert_eq!(
        d.send(mouse(MouseEventKind::Up(MouseButton::Left), 1, 1)),
        Handled::No
    );
}

#[test]
fn the_panel_buttons_and_the_right_button() {
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    d.step_by_clicks();
    assert_eq!(d.played().len(), 1);
    let t = text(&d.draw());
    assert!(t.contains("[step back] [hints]"), "{t}");
    let button = |d: &Driver, b: Button| {
        let &(r, _) = d.s.buttons.iter().find(|(_, x)| *x == b).expect("drawn");
        click(r.x + 1, r.y)
    };
    assert_eq!(d.send(button(&d, Button::StepBack)), Handled::Yes);
    assert!(d.played().is_empty());
    d.step_by_clicks();
    assert_eq!(d.send(crate::tui::testing::right_click(3, 3)), Handled::Yes);
    assert!(d.played().is_empty());
    d.draw();
    d.send(button(&d, Button::Hints));
    assert!(d.s.hints.is_some());
    d.draw();
    d.send(button(&d, Button::Hints));
    assert!(d.s.hints.is_none());
    // A forced turn offers to play it.
    let mut d = Driver::new(1);
    d.draw();
    d.send(button(&d, Button::OnlyTurn));
    assert_eq!(d.s.game().history().len(), 1);
}

#[test]
fn tab_visits_the_movable_checkers_then_the_destinations() {
    let mut d = Driver::new(0);
    d.s.cursor = Spot::Point(1);
    d.send(key(KeyCode::Tab));
    assert_eq!(d.s.cursor, Spot::Point(24));
    d.send(key(KeyCode::Enter));
    d.send(key(KeyCode::Tab));
    assert_eq!(d.s.cursor, Spot::Point(21));
    d.send(key(KeyCode::Tab));
    assert_eq!(d.s.cursor, Spot::Point(22));
    d.send(key(KeyCode::BackTab));
    assert_eq!(d.s.cursor, Spot::Point(21));
}

#[test]
fn illegal_input_says_why_and_changes_nothing() {
    let mut d = Driver::new(0);
    d.s.cursor = Spot::Point(12);
    d.send(key(KeyCode::Enter));
    assert_eq!(d.s.selected, None);
    assert!(d.last_message().starts_with("No White checker on point 12"));
    d.s.cursor = Spot::Point(24);
    d.send(key(KeyCode::Enter));
    d.s.cursor = Spot::Point(12);
    d.send(key(KeyCode::Enter));
    assert!(
        d.last_message().starts_with("Illegal: 24/12"),
        "{}",
        d.last_message()
    );
    assert!(d.played().is_empty());
    d.send(key(KeyCode::Backspace));
    assert!(d.last_message().starts_with("No step of this turn"));
    // Black's tray is not White's.
    d.s.cursor = Spot::Tray(Color::Black);
    d.send(key(KeyCode::Enter));
    assert!(d.last_message().starts_with("That is Black's tray"));
    // Keys the host owns are left to it.
    for k in ['q', 'u', 'U', 'n', '?'] {
        assert_eq!(d.send(ch(k)), Handled::No, "{k}");
    }
    assert_eq!(d.send(key(KeyCode::Esc)), Handled::No);
    assert_eq!(d.send(key(KeyCode::F(1))), Handled::No);
    let ctrl_s = Event::Key(KeyEvent::new(
        KeyCode::Char('s'),
        crossterm::event::KeyModifiers::CONTROL,
    ));
    assert_eq!(d.send(ctrl_s), Handled::No);
}

#[test]
fn the_only_legal_turn_is_announced_and_played_with_a() {
    // Seed 1 opens with 6-3 from the start: one checker leaves the head, 24/15 either way.
    let mut d = Driver::new(1);
    d.tick(10);
    assert_eq!(
        d.last_message(),
        "Only one legal turn: 24/18 18/15 (press a to play it)"
    );
    d.send(ch('a'));
    assert_eq!(d.s.game().history()[0].mv.to_string(), "24/18 18/15");
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    assert!(d.s.info.moves > 1);
    d.send(ch('a'));
    assert!(
        d.last_message()
            .ends_with("legal turns: choose one (t ranks them)")
    );
    assert_eq!(d.s.game().history().len(), 2);
}

#[test]
fn the_bot_turn_is_shown_step_by_step() {
    let mut d = Driver::new(0);
    let mut ctx = Ctx::default();
    d.s.play_step(24, Some(21), &mut ctx);
    d.s.play_step(21, Some(19), &mut ctx);
    assert_eq!(d.mover(), Color::Black);
    let dice = d.s.game().dice().to_play().len();
    d.tick(10);
    d.tick(300);
    assert!(d.s.anim.is_none(), "the bot waits before its first step");
    d.tick(300);
    let mut shown = Vec::new();
    for _ in 0..100 {
        if d.s.game().history().len() == 2 {
            break;
        }
        if let Some(a) = &d.s.anim {
            shown.push(a.builder.played().len());
        }
        d.tick(100);
    }
    let bot = &d.s.game().history()[1];
    assert_eq!(bot.color, Color::Black);
    // Each step stays on screen for five ticks of 100 ms.
    let steps = bot.mv.steps().len();
    assert!(steps <= dice);
    for k in 1..=steps {
        let n = shown.iter().filter(|&&s| s == k).count();
        assert!((4..=6).contains(&n), "step {k} shown {n} times: {shown:?}");
    }
}

#[test]
fn undo_takes_back_the_turn_and_the_reply_and_redo_replays_them() {
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let game = d.s.game().clone();
    assert_eq!(game.history().len(), 2);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    assert!(d.s.game().history().is_empty());
    assert_eq!(d.s.game().dice(), Driver::new(0).s.game().dice());
    assert!(d.s.builder.is_some());
    d.s.redo(&mut ctx);
    assert_eq!(*d.s.game(), game);
    // A step in progress is taken back first, then whole turns.
    d.step_by_keys();
    d.s.undo(&mut ctx);
    assert!(d.played().is_empty());
    assert_eq!(*d.s.game(), game);
}

#[test]
fn keys_are_handled_while_the_bot_thinks_and_undo_drops_its_answer() {
    use std::sync::{Arc, Barrier};
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    while d.s.game().history().is_empty() {
        d.step_by_keys();
    }
    assert!(d.s.builder.is_none(), "the bot is to move");
    // Hold the worker so the bot's thinking is surely still pending below.
    let gate = Arc::new(Barrier::new(2));
    let g = Arc::clone(&gate);
    d.s.thinker.run(move |_| {
        g.wait();
    });
    let rng = d.s.bot_rng.clone();
    d.s.tick(d.now, &mut ctx);
    assert!(d.s.thinking());
    assert!(d.s.status().ends_with("thinking…"), "{}", d.s.status());
    assert_eq!(
        d.send(key(KeyCode::Esc)),
        Handled::No,
        "the host gets its keys"
    );
    let cursor = d.s.cursor;
    d.send(key(KeyCode::Left));
    assert_ne!(d.s.cursor, cursor, "the cursor moves while the bot thinks");
    d.s.undo(&mut ctx);
    assert!(!d.s.thinking(), "undo drops the pending answer");
    assert!(d.s.game().history().is_empty() && d.s.builder.is_some());
    gate.wait();
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(20));
        d.tick(1000);
    }
    assert!(
        d.s.game().history().is_empty(),
        "the stale answer was not played"
    );
    assert_eq!(d.s.bot_rng, rng, "nor its generator adopted");
}

#[test]
fn a_forced_pass_is_announced_and_played() {
    // White's only checkers are on the head, behind five black points: only a 6 moves.
    let position: Position = "24:15/23:3,22:3,21:3,20:3,19:3 w".parse().unwrap();
    let game = (0..100)
        .map(|seed| Game::from_position(Rules::default(), position, seed).unwrap())
        .find(Game::must_pass)
        .expect("a roll without a 6");
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    assert!(d.s.builder.is_none());
    d.tick(10);
    assert!(
        d.last_message()
            .ends_with("has no legal move: the turn passes")
    );
    d.send(key(KeyCode::Enter));
    assert!(d.last_message().ends_with("the turn passes"));
    d.tick(1000);
    assert!(d.s.game().history()[0].mv.is_pass());
}

#[test]
fn a_forced_pass_after_a_persons_turn_is_shown_from_the_tables_events() {
    // White primes 11 to 7: Black, all on its head (12), moves with a 6 only.
    let position: Position = "11:3,10:3,9:3,8:3,7:3/12:15 w".parse().unwrap();
    let (game, mv) = (0..200)
        .find_map(|seed| {
            let game = Game::from_position(Rules::default(), position, seed).unwrap();
            let mv = game.legal_moves()[0].clone();
            let mut after = game.clone();
            after.play(&mv).unwrap();
            after.must_pass().then_some((game, mv))
        })
        .expect("a reply without a 6");
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    let mut ctx = Ctx::default();
    for step in mv.steps() {
        d.s.play_step(step.from(), step.to(), &mut ctx);
    }
    // The table has played Black's pass; the screen shows it before White's next turn.
    assert_eq!(d.s.table.game().game().history().len(), 2);
    assert_eq!(d.s.game().history().len(), 1);
    assert!(d.s.builder.is_none());
    d.tick(10);
    assert!(
        d.last_message().starts_with("Black rolls ")
            && d.last_message()
                .ends_with("has no legal move: the turn passes"),
        "{}",
        d.last_message()
    );
    d.tick(1000);
    assert!(d.s.game().history()[1].mv.is_pass());
    assert!(d.s.builder.is_some(), "White is to move again");
}

#[test]
fn bearing_off_by_the_tray_and_by_key() {
    let position: Position = "6:3,5:3,4:3,3:3,2:3/12:15 w".parse().unwrap();
    let game = Game::from_position(Rules::default(), position, 0).unwrap();
    let mut d = Driver::with(NardyScreen::with_game(settings(0), game));
    let b = d.s.builder.clone().unwrap();
    let off: Vec<Step> = b
        .legal_steps()
        .into_iter()
        .filter(|s| s.is_bear_off())
        .collect();
    assert!(!off.is_empty(), "{}", b.dice());
    let from = off[0].from();
    d.key_to(Spot::Point(from));
    d.send(key(KeyCode::Enter));
    assert!(d.s.targets().contains(&0));
    d.key_to(Spot::Tray(Color::White));
    d.send(key(KeyCode::Enter));
    assert_eq!(d.s.shown_position().borne_off(Color::White), 1);
    // The second die by `o` on the cursor's checker, or the game's next turn.
    d.send(key(KeyCode::Backspace));
    d.key_to(Spot::Point(from));
    d.send(ch('o'));
    assert_eq!(d.s.shown_position().borne_off(Color::White), 1);
}

#[test]
fn hints_rank_every_legal_turn() {
    let mut d = Driver::new(0);
    d.send(ch('t'));
    let hints = d.s.hints.as_ref().expect("hints");
    assert_eq!(hints.ranked.len(), d.s.info.moves);
    assert_eq!(hints.ranked[0].loss, 0.0);
    assert!(hints.ranked.windows(2).all(|w| w[0].loss <= w[1].loss));
    let best = hints.ranked[0].mv.to_string();
    let t = text(&d.draw());
    assert!(t.contains("Hints (greedy): "), "{t}");
    assert!(t.contains(&format!("  1. {best:<24}")), "{t}");
    d.send(ch('t'));
    assert!(d.s.hints.is_none());
}

#[test]
fn menu_choices_apply_players_now_and_rules_next_game() {
    let mut d = Driver::new(0);
    let choices = d.s.choices();
    assert_eq!(choices[0].label, "White");
    assert_eq!(choices[0].current, 0);
    assert_eq!(choices[1].values[choices[1].current], "bot: random (1)");
    let mut ctx = Ctx::default();
    // White becomes a bot at once: the turn goes to the bot.
    d.s.choose(0, 3, &mut ctx);
    assert_eq!(d.s.settings.white, Level::new(3));
    assert!(d.s.builder.is_none());
    d.s.choose(0, 0, &mut ctx);
    assert!(d.s.builder.is_some());
    d.s.choose(5, 1, &mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Rules changed: they apply from the next game (n)")
    );
    assert_eq!(d.s.game().rules().scoring, Scoring::Standard);
    d.s.new_game(&mut ctx);
    assert_eq!(d.s.game().rules().scoring, Scoring::WithKoks);
    assert_eq!(d.s.choices()[5].current, 1);
}

#[test]
fn save_and_load_round_trip() {
    let mut d = Driver::new(0);
    d.play_until(5, Driver::step_by_keys);
    let bytes = d.s.save();
    let mut other = NardyScreen::new(settings(9));
    other.load(&bytes).unwrap();
    assert_eq!(other.game(), d.s.game());
    assert!(other.load(b"not a save").is_err());
    assert_eq!(other.game(), d.s.game());
}

#[test]
fn a_save_holds_the_steps_of_the_turn_in_progress_and_engine_saves_load() {
    let mut d = Driver::new(0);
    d.play_until(3, Driver::step_by_keys);
    d.step_by_keys();
    assert_eq!(d.played().len(), 1);
    let bytes = d.s.save();
    let mut other = NardyScreen::new(settings(9));
    other.load(&bytes).unwrap();
    assert_eq!(other.table, d.s.table);
    assert_eq!(other.builder.as_ref().map(|b| b.played().len()), Some(1));
    // The engine's own save (whole turns) loads too, as a table at its state.
    other.load(&d.s.game().to_bytes()).unwrap();
    assert_eq!(other.game(), d.s.game());
    assert!(
        other
            .builder
            .as_ref()
            .is_some_and(|b| b.played().is_empty())
    );
    assert_eq!(other.table.players(), [Player::Human, Player::Bot(1)]);
}

#[test]
fn redo_is_refused_while_steps_are_played_and_changes_nothing() {
    let mut d = Driver::new(0);
    d.play_until(2, Driver::step_by_keys);
    let mut ctx = Ctx::default();
    d.s.undo(&mut ctx);
    d.step_by_keys();
    let table = d.s.table.clone();
    d.s.redo(&mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Take back the steps of this turn before redoing")
    );
    assert_eq!(d.s.table, table);
    // Backspace is the table's undo of one step; then redo replays both turns.
    d.send(key(KeyCode::Backspace));
    d.s.redo(&mut ctx);
    assert!(ctx.take_message().unwrap().starts_with("Replayed: White "));
    assert_eq!(d.s.game().history().len(), 2);
}

#[test]
fn mid_game_screen() {
    let mut d = Driver::new(0);
    d.play_until(30, Driver::step_by_keys);
    let buffer = d.draw();
    let t = text(&buffer);
    assert!(t.contains("last: Black"), "{t}");
    snapshot("nardy_mid_game", &buffer);
}

#[test]
fn a_whole_game_with_keys_alone() {
    let mut d = Driver::new(0);
    let steps = d.play_until(usize::MAX, Driver::step_by_keys);
    let outcome = d.s.game().outcome().expect("over");
    assert!(steps > 30);
    let buffer = d.draw();
    let t = text(&buffer);
    assert!(t.contains(&format!("{outcome}.")), "{t}");
    assert!(d.s.status().contains("n: new game"));
    snapshot("nardy_game_over", &buffer);
    // Game over: Enter says so; `n` (the host) starts the next game.
    d.send(key(KeyCode::Enter));
    assert!(d.last_message().ends_with("Press n for a new game."));
    d.s.new_game(&mut Ctx::default());
    assert!(d.s.game().outcome().is_none());
}

#[test]
fn a_whole_game_with_the_mouse_alone() {
    let mut d = Driver::new(2);
    let steps = d.play_until(usize::MAX, Driver::step_by_clicks);
    assert!(steps > 30);
    assert!(d.s.game().outcome().is_some());
}

#[test]
fn title_and_status() {
    let d = Driver::new(0);
    assert_eq!(d.s.title(), "Long Nardy · White: you · Black: bot (random)");
    assert_eq!(d.s.status(), "White (you) to play 3-2 · pips W 360 B 360");
    assert!(!d.s.keys().is_empty());
    assert_eq!(d.s.save_name(), "nardy.save");
    assert!(!d.s.in_progress());
    let mut both = settings(0);
    both.black = None;
    let s = NardyScreen::new(both);
    assert_eq!(s.title(), "Long Nardy · White: human · Black: human");
}

/// The 80×24 picture of a mid-game screen for the README, drawn by the host.
#[test]
fn screen_picture_is_up_to_date() {
    let mut d = Driver::new(0);
    d.play_until(30, Driver::step_by_keys);
    d.s.cursor = Spot::Point(d.first_step().from());
    d.send(key(KeyCode::Enter));
    d.send(ch('t'));
    assert!(d.s.in_progress());
    let mut app = App::new(Box::new(d.s), ThemeKind::Mono);
    crate::tui::testing::check_screen_picture("nardy", &render_app(&mut app, 80, 24));
}

fn event() -> impl Strategy<Value = Event> {
    let codes = prop_oneof![
        Just(KeyCode::Left),
        Just(KeyCode::Right),
        Just(KeyCode::Up),
        Just(KeyCode::Down),
        Just(KeyCode::Enter),
        Just(KeyCode::Tab),
        Just(KeyCode::BackTab),
        Just(KeyCode::Backspace),
        Just(KeyCode::Esc),
        prop::sample::select(vec!['h', 'j', 'k', 'l', ' ', 'o', 'a', 't', 'u', 'x'])
            .prop_map(KeyCode::Char),
    ];
    prop_oneof![
        4 => codes.prop_map(key),
        3 => (0u16..90, 0u16..30).prop_map(|(x, y)| click(x, y)),
        1 => (0u16..90, 0u16..30).prop_map(|(x, y)| mouse(MouseEventKind::Moved, x, y)),
    ]
}

/// What the fuzzing does between events: a host call or a draw at some size.
#[derive(Debug, Clone)]
enum Action {
    Event(Event),
    Tick(u64),
    Draw(u16, u16),
    Undo,
    Redo,
    NewGame,
    Choose(usize, usize),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        8 => event().prop_map(Action::Event),
        3 => (0u64..1500).prop_map(Action::Tick),
        2 => (1u16..120, 1u16..45).prop_map(|(w, h)| Action::Draw(w, h)),
        1 => Just(Action::Undo),
        1 => Just(Action::Redo),
        1 => Just(Action::NewGame),
        // Players up to level 3 (no database to build in a test), rules variants.
        1 => (0usize..7, 0usize..4).prop_map(|(c, v)| Action::Choose(c, v)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_events_never_panic(seed in 0u64..1000, actions in prop::collection::vec(action(), 1..80)) {
        let mut d = Driver::new(seed);
        for a in actions {
            let mut ctx = Ctx::default();
            match a {
                Action::Event(e) => { d.send(e); }
                Action::Tick(ms) => { d.tick(ms); }
                Action::Draw(w, h) => { render(&mut d.s, w, h, &Theme::dark()); }
                Action::Undo => d.s.undo(&mut ctx),
                Action::Redo => d.s.redo(&mut ctx),
                Action::NewGame => d.s.new_game(&mut ctx),
                Action::Choose(c, v) => d.s.choose(c, v, &mut ctx),
            }
            let _ = d.s.status();
            let _ = d.s.title();
        }
        render(&mut d.s, 80, 24, &Theme::mono());
    }
}
