//! The playable game: moves and their notation, undo/redo, check and verify, mistakes and
//! time, hints, saves (binary and text).

use std::time::Duration;

use proptest::prelude::*;
use sudoku_core::logic::Hint;
use sudoku_core::{
    Candidates, Digits, Game, Grid, LoadError, Move, Outcome, ParseMoveError, PlayError,
    SAVE_FORMAT, Verdict,
};

const PUZZLE: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
const SOLUTION: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

fn game() -> Game {
    Game::new(PUZZLE.parse().unwrap()).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn digits(ds: &[u8]) -> Digits {
    let mut d = Digits::EMPTY;
    for &x in ds {
        d.insert(x);
    }
    d
}

#[test]
fn the_move_notation_round_trips_and_reports_mistakes() {
    for text in [
        "r1c1 8",
        "r9c9 1",
        "r16c16 G",
        "clear r3c5",
        "note r3c5 1 2",
        "notes r3c5 3 9",
        "notes r3c5",
        "notes all",
        "solve",
    ] {
        assert_eq!(mv(text).to_string(), text);
    }
    assert_eq!(
        mv("R3C5 7"),
        Move::Enter {
            row: 2,
            col: 4,
            digit: 7
        }
    );
    assert_eq!(mv("r1c1 10").to_string(), "r1c1 A");
    assert_eq!(mv("  note   r2c2 2 1 2 ").to_string(), "note r2c2 1 2");
    for (text, err) in [
        ("", ParseMoveError::Unknown(String::new())),
        ("hello", ParseMoveError::Unknown("hello".into())),
        ("r0c1 5", ParseMoveError::BadCell("r0c1".into())),
        ("r1c26 5", ParseMoveError::BadCell("r1c26".into())),
        ("r1c+1 5", ParseMoveError::BadCell("r1c+1".into())),
        ("r1c1 0", ParseMoveError::BadDigit("0".into())),
        ("r1c1 Q", ParseMoveError::BadDigit("Q".into())),
        ("r1c1 26", ParseMoveError::BadDigit("26".into())),
        ("r1c1", ParseMoveError::Unknown("r1c1".into())),
        ("r1c1 1 2", ParseMoveError::Unknown("r1c1 1 2".into())),
        ("note r1c1", ParseMoveError::Unknown("note r1c1".into())),
        ("clear", ParseMoveError::Unknown("clear".into())),
        ("notes all 3", ParseMoveError::Unknown("notes all 3".into())),
        ("solve now", ParseMoveError::Unknown("solve now".into())),
    ] {
        assert_eq!(text.parse::<Move>(), Err(err), "{text:?}");
    }
}

#[test]
fn a_new_game_needs_a_proper_puzzle() {
    assert!(Game::new(".".repeat(81).parse().unwrap()).is_err());
    assert!(Game::new("11..............".parse().unwrap()).is_err());
    let g = game();
    assert_eq!(g.solution().to_string(), SOLUTION);
    assert_eq!(g.grid(), g.puzzle());
    assert_eq!(g.moves().len(), 0);
    assert_eq!(g.outcome(), None);
}

#[test]
fn play_undo_and_redo_walk_through_every_action() {
    let mut g = game();
    let start = g.clone();
    let script = [
        "r1c1 8",
        "r1c2 5", // wrong (6)
        "r1c2 6", // replaces the entry
        "note r1c5 1 7",
        "note r1c5 7", // toggles 7 off
        "notes r1c6 1 2 3",
        "notes all",
        "clear r1c2",
    ];
    let mut states = vec![g.clone()];
    for text in script {
        g.play(mv(text)).unwrap_or_else(|e| panic!("{text}: {e}"));
        states.push(g.clone());
    }
    assert_eq!(g.entry(0, 0), Some(8));
    assert_eq!(g.entry(0, 1), None);
    assert_eq!(g.mistakes(), 1);
    // notes all gave r1c2 its candidates (the entry 6 was there), and clear emptied it.
    assert_eq!(g.notes(0, 1), Digits::EMPTY);
    let cands = Candidates::new(states[6].grid());
    assert_eq!(g.notes(0, 4), cands.candidates(4));
    assert_eq!(states[4].notes(0, 4), digits(&[1, 7]));
    assert_eq!(states[5].notes(0, 4), digits(&[1]));
    assert_eq!(states[6].notes(0, 5), digits(&[1, 2, 3]));
    // Undo walks back through every state; the mistake stays counted.
    for i in (0..script.len()).rev() {
        assert_eq!(g.undo(), Some(mv(script[i])));
        let mut expected = states[i].clone();
        assert_eq!(g.grid(), expected.grid(), "after undoing {}", script[i]);
        for r in 0..9 {
            for c in 0..9 {
                assert_eq!(g.notes(r, c), expected.notes(r, c));
            }
        }
        assert_eq!(g.moves().len(), i);
        while expected.undo().is_some() {}
    }
    assert_eq!(g.undo(), None);
    assert_eq!(g.mistakes(), 1);
    assert_eq!(g.grid(), start.grid());
    // Redo replays them all, in order.
    for (i, text) in script.iter().enumerate() {
        assert_eq!(g.redo(), Some(mv(text)));
        assert_eq!(g.grid(), states[i + 1].grid());
    }
    assert_eq!(g.redo(), None);
    // A new move after an undo drops what could be redone.
    g.undo();
    g.play(mv("r2c1 3")).unwrap();
    assert_eq!(g.redo_moves(), []);
    assert_eq!(g.redo(), None);
}

#[test]
fn entering_a_digit_takes_it_out_of_its_peers_notes_and_undo_gives_them_back() {
    let mut g = game();
    g.play(Move::FillNotes).unwrap();
    let notes = |g: &Game| -> Vec<Digits> { (0..81).map(|i| g.notes(i / 9, i % 9)).collect() };
    let before = notes(&g);
    // r1c1 is empty; its solution is 8, a candidate of some of its peers.
    let peer = |i: usize| {
        let (r, c) = (i / 9, i % 9);
        i != 0 && (r == 0 || c == 0 || (r < 3 && c < 3))
    };
    assert!((0..81).any(|i| peer(i) && before[i].contains(8)));
    assert!((0..81).any(|i| !peer(i) && i != 0 && before[i].contains(8)));
    g.play(mv("r1c1 8")).unwrap();
    let after = notes(&g);
    for i in 0..81 {
        let want = if i == 0 {
            Digits::EMPTY
        } else if peer(i) {
            before[i] - Digits::single(8)
        } else {
            before[i]
        };
        assert_eq!(after[i], want, "r{}c{}", i / 9 + 1, i % 9 + 1);
    }
    // Undo gives every peer its notes back exactly; redo takes them out again.
    assert_eq!(g.undo(), Some(mv("r1c1 8")));
    assert_eq!(notes(&g), before);
    assert_eq!(g.redo(), Some(mv("r1c1 8")));
    assert_eq!(notes(&g), after);
    // A save replays the moves: the same notes after loading.
    let loaded = Game::from_bytes(&g.to_bytes()).unwrap();
    assert_eq!(loaded, g);
    // Writing the same digit again changes nothing, as before.
    assert_eq!(g.play(mv("r1c1 8")), Err(PlayError::NoChange));
}

#[test]
fn a_refused_move_leaves_the_game_unchanged() {
    let mut g = game();
    g.play(mv("r1c1 8")).unwrap();
    g.play(mv("note r1c2 6")).unwrap();
    g.undo();
    let before = g.clone();
    for (text, err) in [
        ("r1c3 4", PlayError::Given { row: 0, col: 2 }),
        ("clear r1c3", PlayError::Given { row: 0, col: 2 }),
        ("note r1c3 1", PlayError::Given { row: 0, col: 2 }),
        ("r1c1 8", PlayError::NoChange),
        ("clear r1c2", PlayError::NoChange),
        ("notes r1c2", PlayError::NoChange),
        ("note r1c1 3", PlayError::Filled { row: 0, col: 0 }),
        ("notes r1c1 3", PlayError::Filled { row: 0, col: 0 }),
        (
            "r10c1 1",
            PlayError::OutsideGrid {
                row: 9,
                col: 0,
                size: sudoku_core::Size::Nine,
            },
        ),
        (
            "r1c2 A",
            PlayError::BadDigit {
                digit: 10,
                size: sudoku_core::Size::Nine,
            },
        ),
        (
            "note r1c2 1 P",
            PlayError::BadDigit {
                digit: 25,
                size: sudoku_core::Size::Nine,
            },
        ),
    ] {
        assert_eq!(g.play(mv(text)), Err(err), "{text}");
        assert_eq!(g, before, "{text}");
    }
    // Once solved, the game is over: nothing more is played, but undo works.
    g.play(Move::Solve).unwrap();
    let solved = g.clone();
    assert_eq!(g.play(mv("clear r1c1")), Err(PlayError::Solved));
    assert_eq!(g.play(Move::Solve), Err(PlayError::Solved));
    assert_eq!(g, solved);
    assert_eq!(g.undo(), Some(Move::Solve));
    assert_eq!(g.grid().get(0, 0), Some(8));
}

#[test]
fn check_names_the_wrong_entries_and_counts_the_solutions_left() {
    let mut g = game();
    let check = g.check();
    assert!(check.is_consistent());
    assert_eq!((check.wrong.len(), check.solutions), (0, 1));
    g.play(mv("r1c1 8")).unwrap();
    g.play(mv("r9c9 8")).unwrap(); // right: 8
    assert!(g.check().is_consistent());
    g.play(mv("r1c2 5")).unwrap(); // wrong: 6
    g.play(mv("r5c5 1")).unwrap(); // wrong: 5
    let check = g.check();
    assert_eq!(check.wrong, [(0, 1), (4, 4)]);
    assert_eq!(check.solutions, 0);
    assert!(!check.is_consistent());
    assert_eq!(g.mistakes(), 2);
    let givens = PUZZLE.chars().filter(|&c| c != '.').count();
    assert_eq!(g.verify(), Verdict::Incomplete(81 - givens - 4));
}

#[test]
fn verify_tells_correct_from_complete_with_errors() {
    let mut g = game();
    // Fill every empty cell from the solution but r1c1 (8), which gets a 1.
    let solution: Grid = SOLUTION.parse().unwrap();
    for r in 0..9 {
        for c in 0..9 {
            if !g.is_given(r, c) && (r, c) != (0, 0) {
                let digit = solution.get(r, c).unwrap();
                g.play(Move::Enter {
                    row: r,
                    col: c,
                    digit,
                })
                .unwrap();
            }
        }
    }
    assert_eq!(g.verify(), Verdict::Incomplete(1));
    g.play(mv("r1c1 1")).unwrap();
    assert_eq!(g.verify(), Verdict::Wrong(vec![(0, 0)]));
    assert_eq!(g.outcome(), None);
    g.add_elapsed(Duration::from_millis(90_500));
    g.play(mv("r1c1 8")).unwrap();
    assert_eq!(g.verify(), Verdict::Correct);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            elapsed: Duration::from_millis(90_500),
            mistakes: 1,
            revealed: false
        })
    );
    assert!(matches!(g.hint(), Ok(Hint::Solved)));
}

#[test]
fn the_hint_names_a_wrong_entry_first_then_a_step() {
    let mut g = game();
    let Ok(Hint::Step(step)) = g.hint() else {
        panic!("a step expected")
    };
    assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
    g.play(mv("r1c2 5")).unwrap();
    let hint = g.hint().unwrap();
    assert!(matches!(
        hint,
        Hint::WrongEntry {
            cell: 1,
            entered: 5,
            ..
        }
    ));
    assert_eq!(
        hint.to_string(),
        "The 5 in r1c2 is wrong: it is not the digit of the solution."
    );
}

#[test]
fn time_adds_up_and_saturates() {
    let mut g = game();
    g.add_elapsed(Duration::from_millis(1500));
    g.add_elapsed(Duration::from_micros(2500));
    assert_eq!(g.elapsed(), Duration::from_millis(1502));
    g.add_elapsed(Duration::MAX);
    assert_eq!(g.elapsed(), Duration::from_millis(u64::MAX));
}

/// A game with every kind of move, some taken back.
fn mid_game() -> Game {
    let mut g = game();
    for text in [
        "r1c1 8",
        "r1c2 5",
        "notes all",
        "note r2c1 3",
        "notes r2c2 1 2",
        "r9c9 8",
        "clear r1c2",
        "r5c5 5",
    ] {
        g.play(mv(text)).unwrap();
    }
    g.undo();
    g.undo();
    g.add_elapsed(Duration::from_secs(75));
    g
}

#[test]
fn a_save_round_trips_with_its_history() {
    let g = mid_game();
    let bytes = g.to_bytes();
    assert_eq!(&bytes[..6], b"TTSU\x01\x00");
    assert_eq!(SAVE_FORMAT.magic(), *b"TTSU");
    let loaded = Game::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, g);
    let mut a = loaded.clone();
    let mut b = g.clone();
    assert_eq!(a.redo(), b.redo());
    assert_eq!(a, b);
    while a.undo().is_some() {}
    assert_eq!(a.grid(), a.puzzle());
}

#[test]
fn a_damaged_save_is_refused() {
    let bytes = mid_game().to_bytes();
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Game::from_bytes(&longer), Err(LoadError::Corrupt));
    assert_eq!(
        Game::from_bytes(&bytes[..bytes.len() - 1]),
        Err(LoadError::Corrupt)
    );
    assert!(matches!(
        Game::from_bytes(b"TTRV\x01\x00"),
        Err(LoadError::NotASave { .. })
    ));
    let mut newer = bytes.clone();
    newer[4] = 2;
    assert!(matches!(
        Game::from_bytes(&newer),
        Err(LoadError::NewerVersion { found: 2, .. })
    ));
    // Every truncation is refused without a panic.
    for len in 0..bytes.len() {
        assert!(Game::from_bytes(&bytes[..len]).is_err(), "{len} bytes");
    }
}

/// The body of a save, to write impossible ones.
#[derive(serde::Serialize)]
struct Body {
    puzzle: Grid,
    moves: Vec<Move>,
    redo: Vec<Move>,
    mistakes: u32,
    elapsed_ms: u64,
}

#[test]
fn a_save_that_breaks_the_rules_is_refused() {
    let puzzle: Grid = PUZZLE.parse().unwrap();
    let save = |puzzle: &Grid, moves: &[&str], redo: &[&str], mistakes: u32| {
        SAVE_FORMAT.encode(&Body {
            puzzle: puzzle.clone(),
            moves: moves.iter().map(|m| mv(m)).collect(),
            redo: redo.iter().map(|m| mv(m)).collect(),
            mistakes,
            elapsed_ms: 0,
        })
    };
    let illegal = |bytes: Vec<u8>| match Game::from_bytes(&bytes) {
        Err(LoadError::Illegal(why)) => why,
        other => panic!("{other:?}"),
    };
    assert!(Game::from_bytes(&save(&puzzle, &["r1c1 8"], &["r1c2 6"], 0)).is_ok());
    assert_eq!(
        illegal(save(&puzzle, &["r1c3 1"], &[], 0)),
        "move 1 (r1c3 1) is illegal: r1c3 is a given of the puzzle and cannot be changed"
    );
    assert_eq!(
        illegal(save(&puzzle, &["r1c1 1"], &[], 0)),
        "the save counts 0 mistakes but its moves enter 1 wrong digits"
    );
    assert!(illegal(save(&puzzle, &[], &["r1c3 1"], 0)).starts_with("a move to redo"));
    let empty: Grid = ".".repeat(81).parse().unwrap();
    assert_eq!(
        illegal(save(&empty, &[], &[], 0)),
        "the puzzle has more than one solution"
    );
    // Notes with a bit beyond the grid's digits.
    let bad_notes = SAVE_FORMAT.encode(&Body {
        puzzle,
        moves: vec![Move::SetNotes {
            row: 0,
            col: 0,
            digits: Digits::from_bits(1 << 20),
        }],
        redo: vec![],
        mistakes: 0,
        elapsed_ms: 0,
    });
    assert!(illegal(bad_notes).contains("21 is not a digit"));
    // A cell far outside the grid is named without overflowing.
    let far = SAVE_FORMAT.encode(&Body {
        puzzle: PUZZLE.parse().unwrap(),
        moves: vec![Move::Clear {
            row: usize::MAX,
            col: 0,
        }],
        redo: vec![],
        mistakes: 0,
        elapsed_ms: 0,
    });
    assert!(illegal(far).contains("is outside the 9×9 grid"));
}

#[test]
fn the_text_form_round_trips_the_state() {
    let g = mid_game();
    let text = g.to_string();
    assert_eq!(
        text,
        "puzzle ..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..\n\
         entries 85..............................................................................8\n\
         notes r1c5:7 r1c6:1 r1c8:67 r2c1:2 r2c2:12 r2c4:2478 r2c5:247 r2c7:78 r2c8:67 r3c1:29 \
         r3c3:19 r3c4:128 r3c6:15 r3c7:58 r4c1:34 r4c2:3 r4c4:14 r4c5:459 r4c7:59 r5c3:8 r5c4:6 \
         r5c5:5 r5c8:2356 r5c9:26 r6c1:247 r6c3:7 r6c4:146 r6c7:9 r6c8:126 r6c9:26 r7c2:8 \
         r7c3:789 r7c4:247 r7c5:2347 r7c6:4 r7c8:27 r8c1:7 r8c2:1 r8c5:247 r8c9:24 r9c1:57 \
         r9c6:6 r9c8:7\n\
         mistakes 1\n\
         elapsed 75000\n"
    );
    let back: Game = text.parse().unwrap();
    assert_eq!(back.to_string(), text);
    assert_eq!(back.grid(), g.grid());
    assert_eq!(back.mistakes(), 1);
    assert_eq!(back.elapsed(), Duration::from_secs(75));
    assert_eq!(back.moves().len(), 0);
    // Only the puzzle line is needed; wrong entries count as mistakes when none are given.
    let short: Game = format!("puzzle {PUZZLE}\nentries 5{}\n", ".".repeat(80))
        .parse()
        .unwrap();
    assert_eq!(short.mistakes(), 1);
    for bad in [
        "",
        "entries .",
        &format!("puzzle {PUZZLE}\npuzzle {PUZZLE}"),
        &format!("puzzle {PUZZLE}\ncolour red"),
        &format!("puzzle {PUZZLE}\nentries ..1{}", ".".repeat(78)),
        &format!("puzzle {PUZZLE}\nentries 5{}\nmistakes 0", ".".repeat(80)),
        &format!("puzzle {PUZZLE}\nnotes r1c3:1"),
        &format!("puzzle {PUZZLE}\nnotes r1c1:A"),
        &format!("puzzle {PUZZLE}\nnotes r1c1"),
        &format!("puzzle {PUZZLE}\nnotes r1c1:1 r1c1:2"),
        &format!("puzzle {PUZZLE}\nelapsed soon"),
        &format!("puzzle {PUZZLE}\nmistakes 99999999999"),
        &format!("puzzle {}", ".".repeat(81)),
    ] {
        assert!(bad.parse::<Game>().is_err(), "{bad:?}");
    }
}

#[test]
fn the_committed_save_fixture_loads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/game-v1.ttsu");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("fixture {path} is missing: {e}"));
    let g = Game::from_bytes(&bytes).unwrap();
    assert_eq!(g, mid_game());
    assert_eq!(g.to_bytes(), bytes);
}

/// Writes the save fixture (run once with `--ignored` when the format is final).
#[test]
#[ignore]
fn write_the_save_fixture() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/game-v1.ttsu");
    std::fs::write(path, mid_game().to_bytes()).unwrap();
}

/// A random action: mostly legal-looking moves on the 9×9 puzzle, some refused.
fn action() -> impl Strategy<Value = Move> {
    let cell = (0usize..9, 0usize..9);
    prop_oneof![
        4 => (cell.clone(), 1u8..=9).prop_map(|((row, col), digit)| Move::Enter { row, col, digit }),
        1 => cell.clone().prop_map(|(row, col)| Move::Clear { row, col }),
        2 => (cell.clone(), 1u32..512).prop_map(|((row, col), bits)| Move::ToggleNotes {
            row,
            col,
            digits: Digits::from_bits(bits),
        }),
        1 => (cell, 0u32..512).prop_map(|((row, col), bits)| Move::SetNotes {
            row,
            col,
            digits: Digits::from_bits(bits),
        }),
        1 => Just(Move::FillNotes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_actions_undo_to_the_start_and_save_mid_way(
        actions in proptest::collection::vec((action(), 0u8..4), 1..60)
    ) {
        let start = game();
        let mut g = start.clone();
        for (i, (mv, undo)) in actions.iter().enumerate() {
            let before = g.clone();
            match g.play(*mv) {
                Ok(()) => {
                    // Undo then redo gives the same game back.
                    let mut copy = g.clone();
                    prop_assert_eq!(copy.undo(), Some(*mv));
                    prop_assert_eq!(copy.grid(), before.grid());
                    prop_assert_eq!(copy.redo(), Some(*mv));
                    prop_assert_eq!(&copy, &g);
                }
                Err(_) => prop_assert_eq!(&g, &before),
            }
            if *undo == 0 {
                g.undo();
            }
            if i == actions.len() / 2 {
                let loaded = Game::from_bytes(&g.to_bytes()).unwrap();
                prop_assert_eq!(&loaded, &g);
                let text: Game = g.to_string().parse().unwrap();
                prop_assert_eq!(text.to_string(), g.to_string());
            }
        }
        while g.undo().is_some() {}
        prop_assert_eq!(g.grid(), start.grid());
        prop_assert_eq!(g.to_string().replace(&format!("mistakes {}", g.mistakes()), "mistakes 0"),
            start.to_string());
    }
}
