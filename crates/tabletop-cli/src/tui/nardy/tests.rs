//! Tests of the nardy screen: the driver, snapshots, input by keys and by mouse, the
//! README's picture and random events (the screen in play is tested in `tests_play.rs`).

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEventKind};
use nardy_core::Position;
use proptest::prelude::*;
use ratatui::buffer::Buffer;

use super::*;
use crate::tui::testing::{ch, click, key, mouse, render, render_app, text};
use crate::tui::{App, ThemeKind};

/// You as White against the random bot (the fastest), hints by the greedy level (no
/// database to build).
pub(super) fn settings(seed: u64) -> Settings {
    Settings {
        white: None,
        black: Some(Level::MIN),
        rules: Rules::default(),
        seed,
        hint_level: Level::new(3).expect("level 3"),
    }
}

/// A screen with a clock that the test moves, and the messages it said.
pub(super) struct Driver {
    pub(super) s: NardyScreen,
    pub(super) now: Instant,
    pub(super) messages: Vec<String>,
}

impl Driver {
    pub(super) fn new(seed: u64) -> Driver {
        Driver::with(NardyScreen::new(settings(seed)))
    }

    pub(super) fn with(s: NardyScreen) -> Driver {
        Driver {
            s,
            now: Instant::now(),
            messages: Vec::new(),
        }
    }

    pub(super) fn said(&mut self, ctx: &mut Ctx) {
        if let Some(m) = ctx.take_message() {
            self.messages.push(m);
        }
    }

    pub(super) fn last_message(&self) -> &str {
        self.messages.last().map_or("", String::as_str)
    }

    pub(super) fn send(&mut self, event: Event) -> Handled {
        let mut ctx = Ctx::default();
        let handled = self.s.handle(&event, &mut ctx);
        self.said(&mut ctx);
        handled
    }

    pub(super) fn tick(&mut self, millis: u64) -> bool {
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
    pub(super) fn wait_for_human(&mut self) {
        for _ in 0..10_000 {
            if self.s.game().outcome().is_some() || self.s.builder.is_some() {
                self.tick(50);
                return;
            }
            self.tick(100);
        }
        panic!("the bots never handed over");
    }

    pub(super) fn draw(&mut self) -> Buffer {
        render(&mut self.s, 80, 24, &Theme::dark())
    }

    /// Moves the cursor to `target` with arrow keys.
    pub(super) fn key_to(&mut self, target: Spot) {
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
    pub(super) fn cell_of(&mut self, target: Spot) -> (u16, u16) {
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
    pub(super) fn click_on(&mut self, target: Spot) -> Handled {
        let (x, y) = self.cell_of(target);
        let handled = self.send(click(x, y));
        self.send(mouse(MouseEventKind::Up(MouseButton::Left), x, y));
        handled
    }

    /// A press on `from`, a drag over to `to` and the release there.
    pub(super) fn drag(&mut self, from: Spot, to: Spot) {
        let (x, y) = self.cell_of(from);
        let (tx, ty) = self.cell_of(to);
        self.send(click(x, y));
        self.send(mouse(MouseEventKind::Drag(MouseButton::Left), tx, ty));
        self.send(mouse(MouseEventKind::Up(MouseButton::Left), tx, ty));
    }

    pub(super) fn mover(&self) -> Color {
        self.s.game().side_to_move()
    }

    /// The engine's first legal step of the turn in progress.
    pub(super) fn first_step(&self) -> Step {
        self.s
            .builder
            .as_ref()
            .expect("a person's turn")
            .legal_steps()[0]
    }

    pub(super) fn spot_to(&self, step: Step) -> Spot {
        step.to().map_or(Spot::Tray(self.mover()), Spot::Point)
    }

    /// Plays the engine's first legal step with keys.
    pub(super) fn step_by_keys(&mut self) {
        let step = self.first_step();
        self.key_to(Spot::Point(step.from()));
        self.send(key(KeyCode::Enter));
        assert_eq!(self.s.selected, Some(step.from()));
        let to = self.spot_to(step);
        self.key_to(to);
        self.send(key(KeyCode::Enter));
    }

    /// Plays the engine's first legal step with two clicks.
    pub(super) fn step_by_clicks(&mut self) {
        let step = self.first_step();
        assert_eq!(self.click_on(Spot::Point(step.from())), Handled::Yes);
        assert_eq!(self.s.selected, Some(step.from()));
        let to = self.spot_to(step);
        assert_eq!(self.click_on(to), Handled::Yes);
    }

    /// Plays whole turns for the person, each step with `play`, until the game has
    /// `turns` turns or is over; returns the number of steps played.
    pub(super) fn play_until(&mut self, turns: usize, play: fn(&mut Driver)) -> usize {
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

    pub(super) fn played(&self) -> Vec<Step> {
        self.s
            .builder
            .as_ref()
            .map(|b| b.played().to_vec())
            .unwrap_or_default()
    }
}

pub(super) fn snapshot(name: &str, buffer: &Buffer) {
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
