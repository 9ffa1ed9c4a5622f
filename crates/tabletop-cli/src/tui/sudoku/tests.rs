//! Tests of the sudoku screen: the helpers, snapshots and random events (the screen in
//! play is tested in `tests_play.rs`).

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudoku_core::logic::{Difficulty, Hint};
use sudoku_core::{Game, Grid, Move, Size, generate};
use tabletop_play::Seat;
use tabletop_play::sudoku::Input;

use super::{Button, Settings, SudokuScreen};
use crate::tui::testing::{ch, click, key, render, text};
use crate::tui::{Ctx, GameScreen, Handled, Theme};

/// An easy 9×9 puzzle (singles only).
pub(super) const EASY9: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
/// A 4×4 puzzle: solution 1234 3412 2143 4321.
pub(super) const FOUR: &str = "1......2..4..3..";

pub(super) fn screen_of(puzzle: &str) -> SudokuScreen {
    let game = Game::new(puzzle.parse().expect("a puzzle")).expect("proper");
    SudokuScreen::from_parts(
        game,
        Some(Difficulty::Easy),
        Settings::default(),
        ChaCha8Rng::seed_from_u64(1),
    )
}

/// A proper puzzle of a big size: a random solved grid with its diagonal emptied (each
/// empty cell is the last of its row).
pub(super) fn big_screen(size: Size) -> SudokuScreen {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut grid = generate::solved_grid(size, &mut rng);
    for i in 0..size.side() {
        grid.set(i, i, None).expect("in the grid");
    }
    let settings = Settings {
        size,
        ..Settings::default()
    };
    SudokuScreen::from_parts(Game::new(grid).expect("proper"), None, settings, rng)
}

/// Sends one event; returns whether it was handled and what the screen said.
pub(super) fn send(screen: &mut SudokuScreen, event: Event) -> (Handled, Option<String>) {
    let mut ctx = Ctx::default();
    let handled = screen.handle(&event, &mut ctx);
    (handled, ctx.take_message())
}

pub(super) fn type_keys(screen: &mut SudokuScreen, keys: &str) {
    for c in keys.chars() {
        send(screen, ch(c));
    }
}

pub(super) fn draw80(screen: &mut SudokuScreen) -> ratatui::buffer::Buffer {
    render(screen, 80, 24, &Theme::dark())
}

pub(super) fn solution_digit(screen: &SudokuScreen, r: usize, c: usize) -> u8 {
    screen.game().solution().get(r, c).expect("a full solution")
}

/// The arrow keys from the cursor to (r, c).
pub(super) fn walk_to(screen: &mut SudokuScreen, r: usize, c: usize) {
    while screen.editor.cursor.0 < r {
        send(screen, key(KeyCode::Down));
    }
    while screen.editor.cursor.0 > r {
        send(screen, key(KeyCode::Up));
    }
    while screen.editor.cursor.1 < c {
        send(screen, key(KeyCode::Right));
    }
    while screen.editor.cursor.1 > c {
        send(screen, key(KeyCode::Left));
    }
}

/// Plays `mv` at the screen's table.
pub(super) fn play(s: &mut SudokuScreen, mv: Move) {
    s.table
        .apply(Seat(0), tabletop_play::Action::Play(Input::Move(mv)))
        .expect("legal");
}

/// Writes the solution's digit into each of `cells` through the table.
pub(super) fn enter_solution(
    s: &mut SudokuScreen,
    cells: impl IntoIterator<Item = (usize, usize)>,
) {
    for (r, c) in cells {
        let digit = solution_digit(s, r, c);
        play(
            s,
            Move::Enter {
                row: r,
                col: c,
                digit,
            },
        );
    }
}

pub(super) fn empty_cells(screen: &SudokuScreen) -> Vec<(usize, usize)> {
    let n = screen.side();
    (0..n * n)
        .filter(|&i| screen.game().grid().cells()[i] == 0)
        .map(|i| (i / n, i % n))
        .collect()
}

pub(super) fn click_cell(screen: &mut SudokuScreen, r: usize, c: usize) -> Handled {
    draw80(screen);
    let (x, y) = screen.view.cell_point(r, c).expect("the cell is drawn");
    send(screen, click(x, y)).0
}

pub(super) fn click_button(screen: &mut SudokuScreen, button: Button) -> Option<String> {
    draw80(screen);
    let (x, y) = screen
        .view
        .button_point(button)
        .expect("the button is drawn");
    let (handled, said) = send(screen, click(x, y));
    assert_eq!(handled, Handled::Yes, "{button:?}");
    said
}

// --- snapshots -------------------------------------------------------------------------

#[test]
fn snapshot_start() {
    let mut s = screen_of(EASY9);
    insta::assert_snapshot!("sudoku_start", format!("{:?}", draw80(&mut s)));
}

#[test]
fn snapshot_selection_with_same_digit_and_conflict() {
    let mut s = screen_of(EASY9);
    // A 4 in r1c1 clashes with the given 4 of r1c3; then select that given.
    type_keys(&mut s, "4");
    assert_eq!(s.game().grid().get(0, 0), Some(4));
    type_keys(&mut s, "ll");
    assert_eq!(s.editor.cursor, (0, 2));
    let buffer = draw80(&mut s);
    let t = text(&buffer);
    assert!(t.contains("r1c3: given 4"), "{t}");
    insta::assert_snapshot!("sudoku_selection_conflict", format!("{buffer:?}"));
}

#[test]
fn snapshot_mid_game_with_notes() {
    let mut s = screen_of(EASY9);
    enter_solution(&mut s, [(0, 0), (0, 1), (1, 0)]);
    type_keys(&mut s, "a");
    s.editor.cursor = (4, 4);
    let buffer = draw80(&mut s);
    assert!(text(&buffer).contains("r5c5: notes"), "{}", text(&buffer));
    insta::assert_snapshot!("sudoku_mid_game_notes", format!("{buffer:?}"));
}

#[test]
fn snapshot_hint() {
    let mut s = screen_of(EASY9);
    let (_, said) = send(&mut s, ch('t'));
    assert!(said.is_some_and(|m| m.ends_with("(t plays it)")));
    let Some(Hint::Step(step)) = s.hint.clone() else {
        panic!("a step: {:?}", s.hint)
    };
    let buffer = draw80(&mut s);
    // The explanation is in the panel (wrapped: its first words are on one line).
    let first_words: String = step
        .explanation
        .split(' ')
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text(&buffer).contains(&first_words), "{}", text(&buffer));
    insta::assert_snapshot!("sudoku_hint", format!("{buffer:?}"));
}

#[test]
fn snapshot_solved() {
    let mut s = screen_of(EASY9);
    let cells = empty_cells(&s);
    enter_solution(&mut s, cells);
    let buffer = draw80(&mut s);
    assert!(
        text(&buffer).contains("Solved in 0:00"),
        "{}",
        text(&buffer)
    );
    assert!(text(&buffer).contains("[new game]"));
    insta::assert_snapshot!("sudoku_solved", format!("{buffer:?}"));
}

#[test]
fn snapshot_four_and_sixteen() {
    let mut s = screen_of(FOUR);
    insta::assert_snapshot!("sudoku_start_4x4", text(&draw80(&mut s)));
    let mut s = big_screen(Size::Sixteen);
    insta::assert_snapshot!("sudoku_start_16x16", text(&draw80(&mut s)));
}

#[test]
fn twenty_five_needs_a_bigger_terminal_and_fits_in_one() {
    let mut s = big_screen(Size::TwentyFive);
    let small = text(&draw80(&mut s));
    assert!(
        small.contains("The 25×25 grid needs a terminal area of at"),
        "{small}"
    );
    assert!(s.view.grid.is_none());
    let big = text(&render(&mut s, 110, 33, &Theme::dark()));
    assert!(big.contains("[P]") && big.contains("┌"), "{big}");
    assert!(s.view.grid.is_some());
}

/// The character drawn at a cell's digit place (its middle), and the cell's whole text.
fn cell_text(s: &SudokuScreen, buffer: &ratatui::buffer::Buffer, r: usize, c: usize) -> String {
    let g = s.view.grid.expect("a grid");
    let (x, y) = g.cell_origin(r, c);
    let (w, h) = g.cell_size();
    (0..h)
        .map(|dy| {
            (0..w)
                .map(|dx| buffer[((x + dx) as u16, (y + dy) as u16)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn a_lone_note_never_sits_where_a_digit_is_drawn() {
    // The mono theme: only the place tells a note from an entry. r1c1 holds the entry 3,
    // r1c2 the lone note 3, r1c5 the lone note 5 (the middle of a 3×3 mini-grid).
    let mut s = screen_of(EASY9);
    type_keys(&mut s, "3lp3lll5p");
    assert_eq!(s.game().notes(0, 1).iter().collect::<Vec<_>>(), [3]);
    assert_eq!(s.game().notes(0, 4).iter().collect::<Vec<_>>(), [5]);
    s.editor.cursor = (8, 8);
    for (w, h) in [(80, 24), (100, 34)] {
        let buffer = render(&mut s, w, h, &Theme::mono());
        let entry = cell_text(&s, &buffer, 0, 0);
        for (c, d) in [(1, "3"), (4, "5")] {
            let note = cell_text(&s, &buffer, 0, c);
            assert!(note.contains(d), "{w}×{h}: {note:?}");
            assert_ne!(
                note.replace(d, "3"),
                entry,
                "{w}×{h}: the note reads as an entry"
            );
            let (dy, dx) = s.view.grid.expect("a grid").digit_offset();
            let line = note.split('/').nth(dy).expect("a row");
            assert_eq!(line.chars().nth(dx), Some(' '), "{w}×{h}: {note:?}");
        }
        insta::assert_snapshot!(format!("sudoku_lone_notes_{w}x{h}"), text(&buffer));
    }
}

#[test]
fn twenty_five_fits_a_hundred_by_thirty_with_its_palette() {
    // A 100×32 terminal gives the screen 100×30 (the title and status lines).
    let mut s = big_screen(Size::TwentyFive);
    let shown = text(&render(&mut s, 100, 30, &Theme::dark()));
    assert!(s.view.grid.is_some(), "{shown}");
    assert!(
        shown.contains("[P]") && shown.contains("[notes]"),
        "{shown}"
    );
    insta::assert_snapshot!("sudoku_start_25x25_100x30", shown);
    // Every cell can be clicked.
    for (r, c) in [(0, 0), (12, 13), (24, 24)] {
        let (x, y) = s.view.cell_point(r, c).expect("drawn");
        assert!(x < 100 && y < 30);
        assert_eq!(s.view.cell_at(x, y), Some((r, c)));
    }
    // Below it, the message names the area and the window needed.
    let small = text(&render(&mut s, 100, 28, &Theme::dark()));
    assert!(
        small.contains("at least 56×29") && small.contains("a window of 56×31"),
        "{small}"
    );
}

#[test]
fn mono_theme_draws_without_colours() {
    let mut s = screen_of(EASY9);
    let buffer = render(&mut s, 80, 24, &Theme::mono());
    for cell in buffer.content() {
        assert_eq!(cell.fg, ratatui::style::Color::Reset);
        assert_eq!(cell.bg, ratatui::style::Color::Reset);
    }
}

// --- random events ----------------------------------------------------------------------

#[derive(Debug, Clone)]
enum Action {
    Event(Event),
    Draw(u16, u16),
    Tick(u64),
    Undo,
    Redo,
}

fn action() -> impl Strategy<Value = Action> {
    let keys = prop::sample::select(vec![
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Enter,
        KeyCode::Delete,
        KeyCode::Backspace,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::F(1),
    ]);
    let chars = prop::sample::select("0123456789hjklpatcvAGPZ uUnq?x".chars().collect::<Vec<_>>());
    prop_oneof![
        keys.prop_map(|k| Action::Event(key(k))),
        chars.clone().prop_map(|c| Action::Event(ch(c))),
        chars.prop_map(|c| Action::Event(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL
        )))),
        (0u16..100, 0u16..40).prop_map(|(x, y)| Action::Event(click(x, y))),
        (1u16..130, 1u16..45).prop_map(|(w, h)| Action::Draw(w, h)),
        (0u64..3000).prop_map(Action::Tick),
        Just(Action::Undo),
        Just(Action::Redo),
        Just(Action::Event(Event::FocusLost)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_events_never_panic(
        nine in any::<bool>(),
        actions in prop::collection::vec(action(), 1..60),
    ) {
        let mut s = screen_of(if nine { EASY9 } else { FOUR });
        let mut now = Instant::now();
        let mut ctx = Ctx::default();
        render(&mut s, 80, 24, &Theme::dark());
        for a in actions {
            match a {
                Action::Event(e) => {
                    s.handle(&e, &mut ctx);
                }
                Action::Draw(w, h) => {
                    render(&mut s, w, h, &Theme::dark());
                }
                Action::Tick(ms) => {
                    now += Duration::from_millis(ms);
                    s.tick(now, &mut ctx);
                }
                Action::Undo => s.undo(&mut ctx),
                Action::Redo => s.redo(&mut ctx),
            }
            let _ = (s.status(), s.title());
        }
        render(&mut s, 80, 24, &Theme::mono());
        // The grid always holds the givens.
        let puzzle: &Grid = s.game().puzzle();
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                prop_assert_eq!(s.game().grid().cells()[i], v);
            }
        }
    }
}
