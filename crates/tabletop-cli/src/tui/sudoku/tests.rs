//! Tests of the sudoku screen: snapshots, input by keys and by mouse, whole games, random
//! events, and the drawn screen of the README.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use sudoku_core::logic::{Difficulty, Hint};
use sudoku_core::{Game, Grid, Move, Size, generate};
use tabletop_play::sudoku::{Input, Sudoku};
use tabletop_play::{Seat, Table};

use super::{Button, Settings, SudokuScreen};
use crate::tui::app::App;
use crate::tui::testing::{ch, click, drive, key, render, text};
use crate::tui::{Ctx, GameScreen, Handled, Theme, ThemeKind};

/// An easy 9×9 puzzle (singles only).
const EASY9: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
/// A 4×4 puzzle: solution 1234 3412 2143 4321.
const FOUR: &str = "1......2..4..3..";

fn screen_of(puzzle: &str) -> SudokuScreen {
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
fn big_screen(size: Size) -> SudokuScreen {
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
fn send(screen: &mut SudokuScreen, event: Event) -> (Handled, Option<String>) {
    let mut ctx = Ctx::default();
    let handled = screen.handle(&event, &mut ctx);
    (handled, ctx.take_message())
}

fn type_keys(screen: &mut SudokuScreen, keys: &str) {
    for c in keys.chars() {
        send(screen, ch(c));
    }
}

fn draw80(screen: &mut SudokuScreen) -> ratatui::buffer::Buffer {
    render(screen, 80, 24, &Theme::dark())
}

fn solution_digit(screen: &SudokuScreen, r: usize, c: usize) -> u8 {
    screen.game().solution().get(r, c).expect("a full solution")
}

/// The arrow keys from the cursor to (r, c).
fn walk_to(screen: &mut SudokuScreen, r: usize, c: usize) {
    while screen.cursor.0 < r {
        send(screen, key(KeyCode::Down));
    }
    while screen.cursor.0 > r {
        send(screen, key(KeyCode::Up));
    }
    while screen.cursor.1 < c {
        send(screen, key(KeyCode::Right));
    }
    while screen.cursor.1 > c {
        send(screen, key(KeyCode::Left));
    }
}

/// Plays `mv` at the screen's table.
fn play(s: &mut SudokuScreen, mv: Move) {
    s.table
        .apply(Seat(0), tabletop_play::Action::Play(Input::Move(mv)))
        .expect("legal");
}

/// Writes the solution's digit into each of `cells` through the table.
fn enter_solution(s: &mut SudokuScreen, cells: impl IntoIterator<Item = (usize, usize)>) {
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

fn empty_cells(screen: &SudokuScreen) -> Vec<(usize, usize)> {
    let n = screen.side();
    (0..n * n)
        .filter(|&i| screen.game().grid().cells()[i] == 0)
        .map(|i| (i / n, i % n))
        .collect()
}

fn click_cell(screen: &mut SudokuScreen, r: usize, c: usize) -> Handled {
    draw80(screen);
    let (x, y) = screen.view.cell_point(r, c).expect("the cell is drawn");
    send(screen, click(x, y)).0
}

fn click_button(screen: &mut SudokuScreen, button: Button) -> Option<String> {
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
    assert_eq!(s.cursor, (0, 2));
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
    s.cursor = (4, 4);
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
    s.cursor = (8, 8);
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

// --- input ----------------------------------------------------------------------------

#[test]
fn a_digit_by_keys() {
    let mut s = screen_of(EASY9);
    assert_eq!(s.cursor, (0, 0));
    let d = solution_digit(&s, 0, 0);
    type_keys(&mut s, &d.to_string());
    assert_eq!(s.game().grid().get(0, 0), Some(d));
    assert_eq!(s.game().mistakes(), 0);
    // hjkl and arrows move, wrapping at the edges.
    type_keys(&mut s, "h");
    assert_eq!(s.cursor, (0, 8));
    send(&mut s, key(KeyCode::Down));
    type_keys(&mut s, "jk");
    assert_eq!(s.cursor, (1, 8));
    // A given refuses a digit, and the screen says why.
    s.cursor = (0, 2);
    let (_, said) = send(&mut s, ch('5'));
    assert_eq!(
        said.as_deref(),
        Some("Illegal: r1c3 is a given of the puzzle and cannot be changed")
    );
    // 0, Delete and Backspace clear.
    s.cursor = (0, 0);
    type_keys(&mut s, "0");
    assert_eq!(s.game().grid().get(0, 0), None);
}

#[test]
fn a_digit_by_mouse() {
    let mut s = screen_of(EASY9);
    assert_eq!(click_cell(&mut s, 4, 2), Handled::Yes);
    assert_eq!(s.cursor, (4, 2));
    let d = solution_digit(&s, 4, 2);
    click_button(&mut s, Button::Digit(d));
    assert_eq!(s.game().grid().get(4, 2), Some(d));
    click_button(&mut s, Button::Clear);
    assert_eq!(s.game().grid().get(4, 2), None);
    // A click on a border or beside the grid does nothing.
    draw80(&mut s);
    assert_eq!(send(&mut s, click(0, 23)).0, Handled::No);
}

#[test]
fn notes_by_keys_and_by_mouse() {
    let mut s = screen_of(EASY9);
    type_keys(&mut s, "p12");
    assert!(s.notes_mode);
    let notes: Vec<u8> = s.game().notes(0, 0).iter().collect();
    assert_eq!(notes, [1, 2]);
    type_keys(&mut s, "1");
    assert_eq!(s.game().notes(0, 0).iter().collect::<Vec<_>>(), [2]);
    type_keys(&mut s, "p");
    assert!(!s.notes_mode);
    // By mouse: the notes toggle, then digits.
    click_cell(&mut s, 0, 1);
    click_button(&mut s, Button::Notes);
    assert!(s.notes_mode);
    click_button(&mut s, Button::Digit(8));
    assert!(s.game().notes(0, 1).contains(8));
    // Fill every candidate: r1c1's notes become its candidates.
    click_button(&mut s, Button::Fill);
    assert_eq!(s.game().moves().last(), Some(&Move::FillNotes));
    let cands = sudoku_core::Candidates::new(s.game().grid()).candidates(0);
    assert_eq!(s.game().notes(0, 0), cands);
    // The notes of a cell show in the panel.
    s.cursor = (0, 0);
    let t = text(&draw80(&mut s));
    assert!(t.contains("r1c1: notes "), "{t}");
}

#[test]
fn a_digit_leaves_the_notes_of_its_row_column_and_box_and_undo_brings_them_back() {
    // After a (pencil in every candidate), a digit typed in a cell leaves its peers' notes.
    let mut s = screen_of(EASY9);
    type_keys(&mut s, "a");
    let (r, c) = (1, 6);
    let d = solution_digit(&s, r, c);
    assert!(s.game().notes(r, c).contains(d));
    let before: Vec<_> = (0..81).map(|i| s.game().notes(i / 9, i % 9)).collect();
    let peer = |i: usize| {
        let (pr, pc) = (i / 9, i % 9);
        (pr, pc) != (r, c) && (pr == r || pc == c || (pr / 3, pc / 3) == (r / 3, c / 3))
    };
    assert!((0..81).any(|i| peer(i) && before[i].contains(d)));
    walk_to(&mut s, r, c);
    type_keys(&mut s, &d.to_string());
    assert_eq!(s.game().grid().get(r, c), Some(d));
    for i in (0..81).filter(|&i| peer(i)) {
        assert!(
            !s.game().notes(i / 9, i % 9).contains(d),
            "r{}c{}",
            i / 9 + 1,
            i % 9 + 1
        );
    }
    let mut ctx = Ctx::default();
    s.undo(&mut ctx);
    let after: Vec<_> = (0..81).map(|i| s.game().notes(i / 9, i % 9)).collect();
    assert_eq!(after, before);
}

#[test]
fn undo_and_redo_through_the_host() {
    let mut s = screen_of(EASY9);
    let d = solution_digit(&s, 0, 0);
    type_keys(&mut s, &d.to_string());
    // u, U, n, q, ?, Esc and Ctrl keys are the host's.
    for c in ['u', 'U', 'n', 'q', '?'] {
        assert_eq!(send(&mut s, ch(c)).0, Handled::No, "{c}");
    }
    assert_eq!(send(&mut s, key(KeyCode::Esc)).0, Handled::No);
    let ctrl_s = Event::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL));
    assert_eq!(send(&mut s, ctrl_s).0, Handled::No);
    let mut ctx = Ctx::default();
    s.undo(&mut ctx);
    assert_eq!(s.game().grid().get(0, 0), None);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some(&*format!("Took back r1c1 {d}"))
    );
    s.redo(&mut ctx);
    assert_eq!(s.game().grid().get(0, 0), Some(d));
    s.redo(&mut ctx);
    assert_eq!(ctx.take_message().as_deref(), Some("Nothing to redo"));
    // The palette's undo too.
    click_button(&mut s, Button::Undo);
    assert_eq!(s.game().grid().get(0, 0), None);
}

#[test]
fn a_whole_game_by_keys_alone() {
    let mut s = screen_of(EASY9);
    for (r, c) in empty_cells(&s) {
        walk_to(&mut s, r, c);
        let d = solution_digit(&s, r, c);
        let (handled, said) = send(&mut s, ch(char::from(b'0' + d)));
        assert_eq!(handled, Handled::Yes);
        if s.game().outcome().is_some() {
            assert_eq!(
                said.as_deref(),
                Some("Solved in 0:00 with 0 mistakes! n: a new game")
            );
        }
    }
    let outcome = s.game().outcome().expect("solved");
    assert_eq!((outcome.mistakes, outcome.revealed), (0, false));
    assert!(s.status().starts_with("Solved in 0:00 with 0 mistakes!"));
}

#[test]
fn a_whole_game_by_mouse_alone() {
    let mut s = screen_of(EASY9);
    for (r, c) in empty_cells(&s) {
        assert_eq!(click_cell(&mut s, r, c), Handled::Yes);
        let d = solution_digit(&s, r, c);
        click_button(&mut s, Button::Digit(d));
    }
    assert!(
        s.game()
            .outcome()
            .is_some_and(|o| !o.revealed && o.mistakes == 0)
    );
    // The new-game offer is a button too; the new puzzle comes from the seeded generator.
    click_button(&mut s, Button::NewGame);
    assert!(s.game().outcome().is_none());
    assert_eq!(s.level, Some(Difficulty::Medium));
    assert_eq!(s.game().size(), Size::Nine);
}

#[test]
fn a_four_by_four_game_by_hints_alone() {
    // t shows the step, t again plays it: hints alone solve the puzzle.
    let mut s = screen_of(FOUR);
    for _ in 0..40 {
        if s.game().outcome().is_some() {
            break;
        }
        type_keys(&mut s, "tt");
    }
    assert!(s.game().outcome().is_some(), "{}", s.game().grid());
    assert_eq!(s.game().mistakes(), 0);
}

#[test]
fn hints_name_a_wrong_entry_first_and_play_its_removal() {
    let mut s = screen_of(EASY9);
    let d = solution_digit(&s, 0, 0);
    let wrong = d % 9 + 1;
    type_keys(&mut s, &wrong.to_string());
    assert_eq!(s.game().mistakes(), 1);
    s.cursor = (8, 8);
    type_keys(&mut s, "t");
    assert!(matches!(s.hint, Some(Hint::WrongEntry { cell: 0, .. })));
    let t = text(&draw80(&mut s));
    assert!(t.contains("r1c1"), "{t}");
    type_keys(&mut s, "t");
    assert_eq!(s.game().grid().get(0, 0), None);
    assert_eq!(s.cursor, (0, 0));
    assert!(s.hint.is_none());
}

#[test]
fn an_elimination_hint_plays_on_the_notes() {
    // A puzzle whose first step past singles is an elimination: apply hints until one
    // only removes candidates; the notes then lose exactly those.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let Ok(game) = Game::new(puzzle.parse().expect("a puzzle")) else {
        return;
    };
    let mut s = SudokuScreen::from_parts(
        game,
        None,
        Settings::default(),
        ChaCha8Rng::seed_from_u64(3),
    );
    for _ in 0..200 {
        type_keys(&mut s, "t");
        match s.hint.clone() {
            Some(Hint::Step(step)) if step.placements.is_empty() => {
                type_keys(&mut s, "t");
                assert!(s.keeps_notes());
                for &(cell, d) in &step.eliminations {
                    assert!(!s.game().notes(cell / 9, cell % 9).contains(d));
                }
                return;
            }
            Some(_) => type_keys(&mut s, "t"),
            None => break,
        }
    }
    panic!("no elimination step met");
}

#[test]
fn check_and_verify_report_and_highlight() {
    let mut s = screen_of(EASY9);
    let (_, said) = send(&mut s, ch('v'));
    assert_eq!(said.as_deref(), Some("Not complete: 46 cells still empty."));
    let d = solution_digit(&s, 0, 0);
    type_keys(&mut s, &(d % 9 + 1).to_string());
    let (_, said) = send(&mut s, ch('c'));
    assert_eq!(
        said.as_deref(),
        Some("1 entry is wrong: r1c1; no solution is left with it.")
    );
    assert_eq!(
        s.report.as_ref().map(|r| r.wrong.clone()),
        Some(vec![(0, 0)])
    );
    let t = text(&draw80(&mut s));
    assert!(t.contains("Check"), "{t}");
    // Any change drops the report.
    type_keys(&mut s, "0");
    assert!(s.report.is_none());
    click_button(&mut s, Button::Check);
    assert!(
        s.report
            .as_ref()
            .is_some_and(|r| r.text.starts_with("No entries yet"))
    );
    click_button(&mut s, Button::Verify);
    assert!(s.report.as_ref().is_some_and(|r| r.title == "Verify"));
}

#[test]
fn two_key_and_letter_entry_on_sixteen() {
    let mut s = big_screen(Size::Sixteen);
    let n = 16;
    // The empty cells are the diagonal; the cursor starts on r1c1.
    assert_eq!(s.cursor, (0, 0));
    let want = solution_digit(&s, 0, 0);
    // A letter is a symbol: G = 16.
    type_keys(&mut s, "G");
    assert_eq!(s.game().grid().get(0, 0), Some(16));
    type_keys(&mut s, "0");
    // 1 then 6 is 16; 1 then Enter is 1; 1 alone is 1 after the wait.
    type_keys(&mut s, "16");
    assert_eq!(s.game().grid().get(0, 0), Some(16));
    type_keys(&mut s, "1");
    assert_eq!(
        s.game().grid().get(0, 0),
        Some(16),
        "waiting for a second digit"
    );
    send(&mut s, key(KeyCode::Enter));
    assert_eq!(s.game().grid().get(0, 0), Some(1));
    type_keys(&mut s, "1");
    let mut ctx = Ctx::default();
    assert!(s.tick(Instant::now() + Duration::from_secs(2), &mut ctx));
    assert_eq!(s.game().grid().get(0, 0), Some(1));
    // 1 then 9 (no 19 on 16×16) is 1 then 9.
    type_keys(&mut s, "19");
    assert_eq!(s.game().grid().get(0, 0), Some(9));
    // 2-9 go at once.
    type_keys(&mut s, "7");
    assert_eq!(s.game().grid().get(0, 0), Some(7));
    // Lower-case letters stay commands: c checks.
    type_keys(&mut s, "c");
    assert!(s.report.is_some());
    // Solve it by keys: the diagonal.
    for i in 0..n {
        walk_to(&mut s, i, i);
        let d = solution_digit(&s, i, i);
        if d >= 10 {
            type_keys(&mut s, &d.to_string());
        } else {
            type_keys(&mut s, &d.to_string());
            send(&mut s, key(KeyCode::Enter));
        }
    }
    assert!(s.game().outcome().is_some(), "{want}");
}

#[test]
fn the_clock_counts_in_ticks_and_stops_when_solved() {
    let mut s = screen_of(FOUR);
    let mut ctx = Ctx::default();
    let t0 = Instant::now();
    s.tick(t0, &mut ctx);
    assert!(!s.tick(t0 + Duration::from_millis(400), &mut ctx));
    assert!(
        s.tick(t0 + Duration::from_millis(1500), &mut ctx),
        "a new second redraws"
    );
    assert_eq!(s.game().elapsed(), Duration::from_millis(1500));
    assert!(
        s.status().starts_with("0:01 · 0 mistakes · 12 to fill"),
        "{}",
        s.status()
    );
    play(&mut s, Move::Solve);
    s.tick(t0 + Duration::from_secs(9), &mut ctx);
    assert_eq!(s.game().elapsed(), Duration::from_millis(1500));
    assert!(s.status().starts_with("The solution is shown."));
}

#[test]
fn choices_apply_from_the_next_game() {
    let mut s = screen_of(FOUR);
    let choices = s.choices();
    assert_eq!(
        choices.iter().map(|c| c.label).collect::<Vec<_>>(),
        ["Difficulty", "Size", "Symmetry"]
    );
    assert_eq!(choices[1].values[choices[1].current], "9×9");
    let mut ctx = Ctx::default();
    s.choose(1, 0, &mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Size 4×4 from the next new game (n)")
    );
    s.choose(0, 0, &mut ctx);
    s.choose(2, 0, &mut ctx);
    s.choose(7, 7, &mut ctx);
    s.choose(0, 99, &mut ctx);
    assert_eq!(
        s.game().puzzle().to_string(),
        FOUR,
        "the game in play stays"
    );
    s.new_game(&mut ctx);
    assert_eq!(s.game().size(), Size::Four);
    assert_eq!(s.level, Some(Difficulty::Easy));
    assert_eq!(s.title(), "Sudoku · 4×4 · easy");
}

#[test]
fn a_big_new_puzzle_is_announced_then_made_at_the_next_tick() {
    let mut s = screen_of(FOUR);
    let mut ctx = Ctx::default();
    s.choose(1, 3, &mut ctx);
    s.new_game(&mut ctx);
    assert_eq!(
        ctx.take_message().as_deref(),
        Some("Making a medium 16×16 puzzle…")
    );
    assert_eq!(s.game().size(), Size::Four, "not yet");
    assert!(s.tick(Instant::now(), &mut ctx));
    assert_eq!(s.game().size(), Size::Sixteen);
    assert_eq!(s.title(), "Sudoku · 16×16 · medium");
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    let settings = Settings {
        size: Size::Four,
        ..Settings::default()
    };
    let a = SudokuScreen::new(settings, 11).expect("a puzzle");
    let b = SudokuScreen::new(settings, 11).expect("a puzzle");
    assert_eq!(a.game().puzzle(), b.game().puzzle());
    assert_eq!(a.level, Some(Difficulty::Easy));
}

#[test]
fn save_and_load_round_trip_and_a_bad_file_changes_nothing() {
    let mut s = screen_of(EASY9);
    type_keys(&mut s, "p12");
    let bytes = s.save();
    let mut t = screen_of(FOUR);
    t.load(&bytes).expect("a save");
    assert_eq!(t.table, s.table);
    assert_eq!(t.title(), "Sudoku · 9×9");
    let before = t.table.clone();
    assert!(t.load(b"not a save").is_err());
    assert_eq!(t.table, before);
}

#[test]
fn draws_at_every_small_size_without_panic() {
    for puzzle in [FOUR, EASY9] {
        let mut s = screen_of(puzzle);
        type_keys(&mut s, "t");
        for w in 1..=90 {
            for h in [1, 2, 5, 12, 13, 22, 24, 31] {
                render(&mut s, w, h, &Theme::dark());
            }
        }
    }
}

/// The 80×24 picture of a mid-game screen in `docs/screens/sudoku.txt`, drawn by the host.
/// `UPDATE_SCREENS=1` rewrites it.
#[test]
fn docs_screen_is_up_to_date() {
    let mut s = screen_of(EASY9);
    // A dozen right entries, pencil marks in three cells, one wrong entry, then a hint.
    let cells: Vec<_> = empty_cells(&s).into_iter().take(12).collect();
    enter_solution(&mut s, cells);
    s.table
        .apply(Seat(0), tabletop_play::Action::Play(Input::Time(192_000)))
        .expect("time");
    for (r, c, digits) in [(6, 1, "78"), (6, 2, "789"), (7, 0, "147")] {
        walk_to(&mut s, r, c);
        type_keys(&mut s, &format!("p{digits}p"));
    }
    walk_to(&mut s, 8, 0);
    type_keys(&mut s, "8");
    walk_to(&mut s, 4, 3);
    // In the real host (title and status lines), the hint asked for with t.
    let mut app = App::new(Box::new(s), ThemeKind::Mono);
    crate::tui::testing::check_screen_picture("sudoku", &drive(&mut app, &[ch('t')], 80, 24));
}

#[test]
fn through_the_host_by_mouse_and_keys() {
    // Where the host puts the screen (below the title line, above the status line), as a
    // probe of the same puzzle draws it.
    let mut probe = screen_of(FOUR);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("test backend");
    terminal
        .draw(|f| probe.draw(f, Rect::new(0, 1, 80, 22), &Theme::dark()))
        .expect("draw");
    let (cx, cy) = probe.view.cell_point(1, 0).expect("r2c1 drawn");
    let (bx, by) = probe
        .view
        .button_point(Button::Digit(3))
        .expect("[3] drawn");
    let mut app = App::new(Box::new(screen_of(FOUR)), ThemeKind::Dark);
    let game = |app: &App| {
        let save = app.screen().expect("a game").save();
        let table = Table::<Sudoku>::from_bytes(&save).expect("a save");
        table.game().game().clone()
    };
    let shown = text(&drive(&mut app, &[click(cx, cy), click(bx, by)], 80, 24));
    assert_eq!(game(&app).grid().get(1, 0), Some(3), "{shown}");
    // The host's u and U take back and play again.
    drive(&mut app, &[ch('u')], 80, 24);
    assert_eq!(game(&app).grid().get(1, 0), None);
    let shown = text(&drive(&mut app, &[ch('U')], 80, 24));
    assert_eq!(game(&app).grid().get(1, 0), Some(3));
    assert!(shown.contains("Played again r2c1 3"), "{shown}");
    // The help overlay at 80×24 has room for every key of the screen.
    let help = text(&drive(&mut app, &[ch('?')], 80, 24));
    for (keys, what) in screen_of(FOUR).keys() {
        assert!(
            help.contains(keys) && help.contains(what),
            "{keys}: {what}\n{help}"
        );
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
