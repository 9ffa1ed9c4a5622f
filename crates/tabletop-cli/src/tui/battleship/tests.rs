//! Tests of the battleship screen: snapshots at 80×24, placing by keys and by mouse, random
//! events that must never panic, and the drawn screen of the README (the battle, the host's
//! keys, settings and saves are tested in `tests_play.rs`).

use std::time::{Duration, Instant};

use battleship_core::ai::{Level, PlacementStrategy};
use battleship_core::{Coord, Game, Orientation, Player, Ship};
use crossterm::event::{Event, KeyCode, MouseButton, MouseEventKind};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::buffer::Buffer;

use super::placer::Button;
use super::{BattleshipScreen, Settings};
use crate::tui::testing::{ch, click, key, mouse, render, right_click, text};
use crate::tui::{Ctx, GameScreen, Handled, Theme};

pub(super) const SEED: u64 = 7;

pub(super) fn screen_with(level: u8, random_fleet: bool, seed: u64) -> BattleshipScreen {
    let settings = Settings {
        classic: false,
        level: Level::new(level).expect("a level"),
        placement: PlacementStrategy::Uniform,
        random_fleet,
    };
    BattleshipScreen::new(settings, ChaCha8Rng::seed_from_u64(seed))
}

pub(super) fn cell(name: &str) -> Coord {
    name.parse().expect("a cell")
}

pub(super) fn ship(text: &str) -> Ship {
    text.parse().expect("a ship")
}

pub(super) fn draw(s: &mut BattleshipScreen) -> Buffer {
    render(s, 80, 24, &Theme::dark())
}

/// Sends one event; returns whether the screen used it and what it said.
pub(super) fn send(s: &mut BattleshipScreen, event: Event) -> (Handled, Option<String>) {
    let mut ctx = Ctx::default();
    let handled = s.handle(&event, &mut ctx);
    (handled, ctx.take_message())
}

/// Lets the computer shoot until it is your turn or the game is over (ticks 0.6 s apart).
pub(super) fn settle(s: &mut BattleshipScreen) {
    let mut now = Instant::now();
    for _ in 0..1000 {
        let game = s.game().expect("the battle");
        if game.is_over() || game.side_to_move() == Player::First {
            return;
        }
        now += Duration::from_millis(600);
        s.tick(now, &mut Ctx::default());
    }
    panic!("the computer never finished its turn");
}

/// Draws (to learn the layout) and clicks the terminal cell at the top left of `c` on
/// your grid (`mine`) or the enemy's.
pub(super) fn click_cell(
    s: &mut BattleshipScreen,
    mine: bool,
    c: Coord,
) -> (Handled, Option<String>) {
    draw(s);
    let grid = if mine { s.layout.mine } else { s.layout.enemy };
    let (x, y) = grid.expect("a grid on screen").origin(c);
    let pressed = send(s, click(x, y));
    // A terminal sends the release too; at the same cell it changes nothing.
    let (_, said) = send(s, mouse(MouseEventKind::Up(MouseButton::Left), x, y));
    assert_eq!(said, None);
    pressed
}

/// Presses the left button on `from` of your grid, drags to `to` and releases there.
fn drag(s: &mut BattleshipScreen, from: Coord, to: Coord) -> Option<String> {
    draw(s);
    let grid = s.layout.mine.expect("your grid");
    let ((x, y), (tx, ty)) = (grid.origin(from), grid.origin(to));
    send(s, click(x, y));
    send(s, mouse(MouseEventKind::Drag(MouseButton::Left), tx, ty));
    send(s, mouse(MouseEventKind::Up(MouseButton::Left), tx, ty)).1
}

pub(super) fn click_button(s: &mut BattleshipScreen, button: Button) -> (Handled, Option<String>) {
    draw(s);
    let (x, y) = s.layout.button(button).expect("the button is drawn");
    send(s, click(x, y))
}

pub(super) fn hover(s: &mut BattleshipScreen, c: Coord) {
    draw(s);
    let (x, y) = s.layout.mine.expect("your grid").origin(c);
    send(s, mouse(MouseEventKind::Moved, x, y));
}

/// Moves the cursor to `c` with arrow keys from wherever it is.
pub(super) fn go(s: &mut BattleshipScreen, c: Coord) {
    while s.cursor().col() > c.col() {
        send(s, key(KeyCode::Left));
    }
    while s.cursor().col() < c.col() {
        send(s, ch('l'));
    }
    while s.cursor().row() > c.row() {
        send(s, ch('k'));
    }
    while s.cursor().row() < c.row() {
        send(s, key(KeyCode::Down));
    }
}

/// Every cell in snake order (a1…j1, j2…a2, …), the way a player walks the grid by keys.
pub(super) fn snake() -> Vec<Coord> {
    let mut cells = Vec::new();
    for row in 0..10u8 {
        for k in 0..10u8 {
            let col = if row % 2 == 0 { k } else { 9 - k };
            cells.push(Coord::new(col, row).expect("on the grid"));
        }
    }
    cells
}

/// A battle begun with your random fleet (Enter starts it).
pub(super) fn battle(level: u8, seed: u64) -> BattleshipScreen {
    let mut s = screen_with(level, true, seed);
    let (_, said) = send(&mut s, key(KeyCode::Enter));
    assert!(said.expect("a message").contains("battle begins"));
    assert!(s.game().is_some());
    s
}

pub(super) fn game(s: &BattleshipScreen) -> &Game {
    s.game().expect("the battle")
}

// ------------------------------------------------------------------ snapshots

#[test]
fn snapshot_placement_start() {
    let mut s = screen_with(5, false, SEED);
    let buffer = draw(&mut s);
    let t = text(&buffer);
    assert!(
        t.contains("Your fleet") && t.contains("Ships to place"),
        "{t}"
    );
    assert!(t.contains("[auto]") && t.contains("[start battle]"), "{t}");
    assert_eq!(s.status(), "4-cell across at a1: fits · 10 left");
    insta::assert_snapshot!("placement_start", format!("{buffer:?}"));
}

#[test]
fn snapshot_placement_forbidden_spot_is_drawn_bad_with_the_reason() {
    let mut s = screen_with(5, false, SEED);
    send(&mut s, key(KeyCode::Enter)); // a1 h 4
    go(&mut s, cell("c2"));
    send(&mut s, ch('r'));
    // a vertical 3-ship at c2 touches a1 h 4 under Russian rules
    let status = s.status();
    assert_eq!(status, "3-cell down at c2: touches a1 h 4 · 9 left");
    let buffer = draw(&mut s);
    let t = text(&buffer);
    assert!(t.contains("Not here: ships a1 h 4 and c2"), "{t}");
    // the candidate's cells use the `bad` style
    let (x, y) = s.layout.mine.expect("grid").origin(cell("c3"));
    assert_eq!(buffer[(x + 1, y)].symbol(), "■");
    assert_eq!(buffer[(x + 1, y)].style().fg, Theme::dark().bad.fg);
    insta::assert_snapshot!("placement_bad", format!("{buffer:?}"));
}

/// A battle after a few shots by keys, with a hint shown.
pub(super) fn midgame() -> BattleshipScreen {
    let mut s = battle(3, SEED);
    for c in ["e5", "c3", "h8", "b7", "f2", "i4"] {
        if game(&s).is_over() {
            break;
        }
        go(&mut s, cell(c));
        send(&mut s, key(KeyCode::Enter));
        settle(&mut s);
    }
    s
}

#[test]
fn snapshot_battle_midgame_with_a_hint() {
    let mut s = midgame();
    assert!(game(&s).history().len() >= 8);
    let (_, said) = send(&mut s, ch('t'));
    let said = said.expect("a hint message");
    assert!(
        said.starts_with("Hint: ") && said.ends_with("% a ship)"),
        "{said}"
    );
    let hint = s.hint.expect("a hint cell");
    assert_eq!(s.cursor(), hint, "the cursor jumps to the hint");
    assert!(game(&s).view(Player::First).tracking().can_shoot(hint));
    let buffer = draw(&mut s);
    let t = text(&buffer);
    assert!(t.contains("Enemy waters") && t.contains("Afloat:"), "{t}");
    insta::assert_snapshot!("battle_midgame", format!("{buffer:?}"));
}

/// Plays a whole game by keys: the cursor walks the enemy grid in snake order and Enter
/// shoots each cell (known water and cells already shot are refused and skipped).
pub(super) fn play_to_end_by_keys(s: &mut BattleshipScreen) {
    for c in snake() {
        if game(s).is_over() {
            break;
        }
        go(s, c);
        send(s, key(KeyCode::Enter));
        settle(s);
    }
}

#[test]
fn snapshot_game_over_reveals_the_enemy_fleet() {
    // the hunting computer sinks a fleet in far fewer shots than walking the grid
    let mut s = battle(2, 8);
    play_to_end_by_keys(&mut s);
    let g = game(&s).clone();
    let outcome = g.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Player::Second);
    let buffer = draw(&mut s);
    let t = text(&buffer);
    assert!(t.contains("Enemy fleet"), "{t}");
    assert!(
        t.contains(&format!("The computer wins in {} shots", outcome.shots)),
        "{t}"
    );
    // every enemy ship cell is drawn as a ship, hit or not
    let grid = s.layout.enemy.expect("enemy grid");
    for sh in g.fleet(Player::Second).ships() {
        for c in sh.cells() {
            let (x, y) = grid.origin(c);
            assert_ne!(buffer[(x + 1, y)].symbol(), "·", "{c} is revealed");
        }
    }
    assert!(s.status().starts_with(&format!(
        "Computer wins in {} shots · n: new",
        outcome.shots
    )));
    insta::assert_snapshot!("game_over", format!("{buffer:?}"));
}

// ------------------------------------------------------------------ placement input

#[test]
fn placement_by_keys_with_rotate_undo_and_redo() {
    let mut s = screen_with(5, false, SEED);
    send(&mut s, key(KeyCode::Enter));
    assert_eq!(s.placement().expect("placing").ships(), &[ship("a1 h 4")]);
    go(&mut s, cell("a3"));
    send(&mut s, ch('r'));
    assert_eq!(s.orientation(), Orientation::Vertical);
    send(&mut s, ch(' '));
    assert_eq!(
        s.placement().unwrap().ships(),
        &[ship("a1 h 4"), ship("a3 v 3")]
    );
    // a touching spot is refused with the engine's reason, nothing changes
    go(&mut s, cell("b6"));
    let (_, said) = send(&mut s, key(KeyCode::Enter));
    assert_eq!(said.unwrap(), "Illegal: touches a3 v 3");
    assert_eq!(s.placement().unwrap().ships().len(), 2);
    // Backspace takes back the last ship; the host's redo puts it back
    send(&mut s, key(KeyCode::Backspace));
    assert_eq!(s.placement().unwrap().ships(), &[ship("a1 h 4")]);
    s.redo(&mut Ctx::default());
    assert_eq!(s.placement().unwrap().ships().len(), 2);
    s.undo(&mut Ctx::default());
    s.undo(&mut Ctx::default());
    assert!(s.placement().unwrap().ships().is_empty());
    // Tab chooses the next length to place, Shift-Tab the one before
    assert_eq!(s.selected_len(), 3);
    send(&mut s, key(KeyCode::Tab));
    assert_eq!(s.selected_len(), 2);
    send(&mut s, key(KeyCode::BackTab));
    assert_eq!(s.selected_len(), 3);
    // Enter on a placed ship picks it up; x does too
    go(&mut s, cell("d4"));
    send(&mut s, key(KeyCode::Enter));
    assert_eq!(s.placement().unwrap().ships(), &[ship("d4 v 3")]);
    go(&mut s, cell("d5"));
    send(&mut s, key(KeyCode::Enter));
    assert!(s.placement().unwrap().ships().is_empty());
    assert_eq!((s.cursor(), s.selected_len()), (cell("d4"), 3));
    // Enter before the fleet is complete does not start
    send(&mut s, key(KeyCode::Enter));
    send(&mut s, ch('x'));
    assert!(s.placement().unwrap().ships().is_empty());
}

#[test]
fn a_whole_fleet_by_keys_then_enter_starts() {
    let mut s = screen_with(5, false, SEED);
    // the valid fleet of docs/rules/battleship.md
    for sh in [
        "a1 h 4", "a3 h 3", "e3 h 3", "a5 h 2", "d5 h 2", "g5 h 2", "a7 h 1", "c7 h 1", "e7 h 1",
        "g7 h 1",
    ] {
        let sh = ship(sh);
        while s.selected_len() != sh.len() {
            send(&mut s, key(KeyCode::Tab));
        }
        go(&mut s, sh.bow());
        let (_, said) = send(&mut s, key(KeyCode::Enter));
        assert!(said.unwrap().starts_with("Placed"));
    }
    assert!(s.status().starts_with("Fleet complete"));
    send(&mut s, key(KeyCode::Enter));
    let g = game(&s);
    assert_eq!(g.fleet(Player::First).ships().len(), 10);
    assert_eq!(
        g.fleet(Player::First).ship_at(cell("g7")),
        Some(&ship("g7 h 1"))
    );
}

#[test]
fn placement_by_mouse_with_hover_rotate_pick_up_and_buttons() {
    let mut s = screen_with(5, false, SEED);
    hover(&mut s, cell("c5"));
    assert_eq!(s.cursor(), cell("c5"));
    // right click rotates (and moves the ship under the mouse)
    draw(&mut s);
    let (x, y) = s.layout.mine.unwrap().origin(cell("c4"));
    send(&mut s, right_click(x, y));
    assert_eq!(
        (s.cursor(), s.orientation()),
        (cell("c4"), Orientation::Vertical)
    );
    click_cell(&mut s, true, cell("c4"));
    assert_eq!(s.placement().unwrap().ships(), &[ship("c4 v 4")]);
    // a click on a placed ship picks it up, a click elsewhere puts it down
    click_cell(&mut s, true, cell("c6"));
    assert!(s.placement().unwrap().ships().is_empty());
    click_cell(&mut s, true, cell("h2"));
    assert_eq!(s.placement().unwrap().ships(), &[ship("h2 v 4")]);
    // the list of lengths is clickable
    draw(&mut s);
    let (r, _) = *s.layout.lengths.iter().find(|(_, l)| *l == 1).unwrap();
    send(&mut s, click(r.x, r.y));
    assert_eq!(s.selected_len(), 1);
    // [undo], [clear], [auto], then [start battle]
    click_button(&mut s, Button::Undo);
    assert!(s.placement().unwrap().ships().is_empty());
    click_button(&mut s, Button::Rotate);
    assert_eq!(s.orientation(), Orientation::Horizontal);
    let (_, said) = click_button(&mut s, Button::Start);
    assert!(said.unwrap().starts_with("Place the rest first"));
    click_button(&mut s, Button::Auto);
    assert!(s.placement().unwrap().missing().is_empty());
    click_button(&mut s, Button::Clear);
    assert!(s.placement().unwrap().ships().is_empty());
    click_button(&mut s, Button::Auto);
    let fleet = s.placement().unwrap().finish().expect("a valid fleet");
    click_button(&mut s, Button::Start);
    assert_eq!(game(&s).fleet(Player::First), &fleet);
}

#[test]
fn a_placed_ship_dragged_to_a_new_spot_moves_there() {
    let mut s = screen_with(5, false, SEED);
    send(&mut s, ch('r'));
    click_cell(&mut s, true, cell("c4"));
    assert_eq!(s.placement().unwrap().ships(), &[ship("c4 v 4")]);
    // Held by its third cell, the ship keeps that grip: dropped on e7, its bow is on e5.
    let said = drag(&mut s, cell("c6"), cell("e7"));
    assert_eq!(said.as_deref(), Some("Placed e5 v 4"));
    assert_eq!(s.placement().unwrap().ships(), &[ship("e5 v 4")]);
    // Dropped where it does not fit, it stays in hand with the engine's reason.
    let said = drag(&mut s, cell("e5"), cell("e10")).unwrap();
    assert!(said.starts_with("Illegal: "), "{said}");
    assert!(s.placement().unwrap().ships().is_empty());
    assert_eq!((s.cursor(), s.selected_len()), (cell("e10"), 4));
}

#[test]
fn auto_placement_is_seeded_and_valid() {
    let fleet = |seed| {
        let mut s = screen_with(5, false, seed);
        send(&mut s, ch('a'));
        s.placement().unwrap().finish().expect("a valid fleet")
    };
    assert_eq!(fleet(3), fleet(3));
    assert_ne!(fleet(3), fleet(4));
}

// ------------------------------------------------------------------ robustness

fn any_event() -> impl Strategy<Value = Event> {
    let keys = prop::sample::select(vec![
        key(KeyCode::Left),
        key(KeyCode::Right),
        key(KeyCode::Up),
        key(KeyCode::Down),
        key(KeyCode::Enter),
        key(KeyCode::Tab),
        key(KeyCode::BackTab),
        key(KeyCode::Backspace),
        key(KeyCode::Delete),
        ch(' '),
        ch('h'),
        ch('j'),
        ch('k'),
        ch('l'),
        ch('r'),
        ch('a'),
        ch('x'),
        ch('c'),
        ch('t'),
        ch('z'),
    ]);
    let kinds = prop::sample::select(vec![
        MouseEventKind::Moved,
        MouseEventKind::Down(crossterm::event::MouseButton::Left),
        MouseEventKind::Down(crossterm::event::MouseButton::Right),
        MouseEventKind::Drag(crossterm::event::MouseButton::Left),
        MouseEventKind::ScrollUp,
    ]);
    prop_oneof![
        4 => keys,
        3 => (kinds, 0u16..90, 0u16..30).prop_map(|(k, x, y)| mouse(k, x, y)),
    ]
}

#[derive(Debug, Clone)]
enum Step {
    Event(Event),
    Tick,
    Draw(u16, u16),
    Host(u8),
}

fn any_step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => any_event().prop_map(Step::Event),
        2 => Just(Step::Tick),
        2 => (1u16..130, 1u16..50).prop_map(|(w, h)| Step::Draw(w, h)),
        1 => (0u8..6).prop_map(Step::Host),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn random_events_never_panic(steps in prop::collection::vec(any_step(), 1..120), seed in 0u64..1000) {
        let mut s = screen_with(2, seed % 2 == 0, seed);
        let theme = if seed % 3 == 0 { Theme::mono() } else { Theme::dark() };
        let mut now = Instant::now();
        let mut ctx = Ctx::default();
        render(&mut s, 80, 24, &theme);
        for step in steps {
            match step {
                Step::Event(e) => { s.handle(&e, &mut ctx); }
                Step::Tick => { now += Duration::from_millis(600); s.tick(now, &mut ctx); }
                Step::Draw(w, h) => { render(&mut s, w, h, &theme); }
                Step::Host(0) => s.undo(&mut ctx),
                Step::Host(1) => s.redo(&mut ctx),
                Step::Host(2) => s.new_game(&mut ctx),
                Step::Host(3) => { let b = s.save(); s.load(&b).expect("own save loads"); }
                Step::Host(4) => s.choose(seed as usize % 4, 1, &mut ctx),
                Step::Host(_) => { let _ = s.status(); let _ = s.keys(); let _ = s.title(); }
            }
        }
    }
}

// ------------------------------------------------------------------ the README picture

#[test]
fn docs_screen_is_up_to_date() {
    let mut s = midgame();
    crate::tui::testing::check_screen_picture("battleship", &draw(&mut s));
}

#[test]
fn a_hint_is_one_answer_for_one_position() {
    let mut s = battle(1, SEED);
    let first = send(&mut s, ch('t')).1.expect("a hint");
    assert!(first.starts_with("Hint: "), "{first}");
    for _ in 0..3 {
        assert_eq!(send(&mut s, ch('t')).1.expect("a hint"), first);
    }
    // a shot makes a new position, with its own hint
    send(&mut s, key(KeyCode::Enter));
    settle(&mut s);
    let next = send(&mut s, ch('t')).1.expect("a hint");
    assert_eq!(send(&mut s, ch('t')).1.expect("a hint"), next);
}

#[test]
fn an_old_ttbc_save_loads_and_saves_again_as_a_table() {
    let old = include_bytes!("../../../tests/battleship_fixtures/play-v1.ttbc");
    assert!(old.starts_with(b"TTBC"));
    let mut s = screen_with(1, false, SEED);
    s.load(old).expect("an old save loads");
    assert!(s.game().is_some());
    assert_eq!(s.current.level, Level::new(4).unwrap());
    let bytes = s.save();
    assert!(bytes.starts_with(b"TTPL"));
    let mut other = screen_with(1, false, 99);
    other.load(&bytes).expect("loads");
    assert_eq!(other.game(), s.game());
    assert_eq!(other.current.level, Level::new(4).unwrap());
}
