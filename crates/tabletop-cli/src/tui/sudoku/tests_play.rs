//! Tests of the sudoku screen in play: input by keys and by mouse, whole games, hints,
//! check and verify, the clock, choices, saves and the drawn screen of the README.

use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use sudoku_core::logic::{Difficulty, Hint};
use sudoku_core::{Game, Move, Size};
use tabletop_play::sudoku::{Input, Sudoku};
use tabletop_play::{Seat, Table};

use super::tests::{
    EASY9, FOUR, big_screen, click_button, click_cell, draw80, empty_cells, enter_solution, play,
    screen_of, send, solution_digit, type_keys, walk_to,
};
use super::{Button, Settings, SudokuScreen};
use crate::tui::app::App;
use crate::tui::testing::{ch, click, drive, key, render, text};
use crate::tui::{Ctx, GameScreen, Handled, Theme, ThemeKind};

// --- input ----------------------------------------------------------------------------

#[test]
fn a_digit_by_keys() {
    let mut s = screen_of(EASY9);
    assert_eq!(s.editor.cursor, (0, 0));
    let d = solution_digit(&s, 0, 0);
    type_keys(&mut s, &d.to_string());
    assert_eq!(s.game().grid().get(0, 0), Some(d));
    assert_eq!(s.game().mistakes(), 0);
    // hjkl and arrows move, wrapping at the edges.
    type_keys(&mut s, "h");
    assert_eq!(s.editor.cursor, (0, 8));
    send(&mut s, key(KeyCode::Down));
    type_keys(&mut s, "jk");
    assert_eq!(s.editor.cursor, (1, 8));
    // A given refuses a digit, and the screen says why.
    s.editor.cursor = (0, 2);
    let (_, said) = send(&mut s, ch('5'));
    assert_eq!(
        said.as_deref(),
        Some("Illegal: r1c3 is a given of the puzzle and cannot be changed")
    );
    // 0, Delete and Backspace clear.
    s.editor.cursor = (0, 0);
    type_keys(&mut s, "0");
    assert_eq!(s.game().grid().get(0, 0), None);
}

#[test]
fn a_digit_by_mouse() {
    let mut s = screen_of(EASY9);
    assert_eq!(click_cell(&mut s, 4, 2), Handled::Yes);
    assert_eq!(s.editor.cursor, (4, 2));
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
    assert!(s.editor.notes_mode);
    let notes: Vec<u8> = s.game().notes(0, 0).iter().collect();
    assert_eq!(notes, [1, 2]);
    type_keys(&mut s, "1");
    assert_eq!(s.game().notes(0, 0).iter().collect::<Vec<_>>(), [2]);
    type_keys(&mut s, "p");
    assert!(!s.editor.notes_mode);
    // By mouse: the notes toggle, then digits.
    click_cell(&mut s, 0, 1);
    click_button(&mut s, Button::Notes);
    assert!(s.editor.notes_mode);
    click_button(&mut s, Button::Digit(8));
    assert!(s.game().notes(0, 1).contains(8));
    // Fill every candidate: r1c1's notes become its candidates.
    click_button(&mut s, Button::Fill);
    assert_eq!(s.game().moves().last(), Some(&Move::FillNotes));
    let cands = sudoku_core::Candidates::new(s.game().grid()).candidates(0);
    assert_eq!(s.game().notes(0, 0), cands);
    // The notes of a cell show in the panel.
    s.editor.cursor = (0, 0);
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
    s.editor.cursor = (8, 8);
    type_keys(&mut s, "t");
    assert!(matches!(s.hint, Some(Hint::WrongEntry { cell: 0, .. })));
    let t = text(&draw80(&mut s));
    assert!(t.contains("r1c1"), "{t}");
    type_keys(&mut s, "t");
    assert_eq!(s.game().grid().get(0, 0), None);
    assert_eq!(s.editor.cursor, (0, 0));
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
    assert_eq!(s.editor.cursor, (0, 0));
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
