//! Perft counts: the start position against the published values (Edax / OEIS
//! A124004), and FFO endgame positions against a deliberately simple reference
//! implementation written here.

use reversi_core::{Color, Move, Position, Rules, Square, perft, perft_divide};

/// Published perft values from the start position, depth 1 to 9 (spec).
const START: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

#[test]
fn perft_from_the_start_matches_the_published_values() {
    let start = Position::start();
    assert_eq!(perft(&start, 0), 1);
    for (depth, &expected) in (1..).zip(START.iter()) {
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_10_matches_edax() {
    assert_eq!(perft(&Position::start(), 10), 24_571_056);
}

/// About half a second of CPU in release; run with `cargo test --release -- --ignored`.
#[test]
#[ignore = "long: perft 11 (212 million leaves)"]
fn perft_11_matches_edax() {
    assert_eq!(perft(&Position::start(), 11), 212_258_216);
}

#[test]
fn white_first_start_has_the_same_counts_by_symmetry() {
    let start = Rules::with_first(Color::White).start_position();
    assert_eq!(start.side_to_move(), Color::White);
    for (depth, &expected) in (1..).zip(START[..7].iter()) {
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_divide_adds_up_to_perft() {
    let start = Position::start();
    let parts = perft_divide(&start, 6);
    assert_eq!(parts.len(), 4);
    // The four first moves are symmetric: 8200 / 4 each.
    for (_, n) in &parts {
        assert_eq!(*n, 2050);
    }
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), perft(&start, 6));
}

/// Square-by-square reference: walk every direction with coordinates, recompute
/// everything, no bit tricks.
mod reference {
    /// `board[i]`: 0 empty, 1 side to move, 2 opponent.
    pub type Board = [u8; 64];

    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];

    pub fn flips(board: &Board, sq: usize) -> Vec<usize> {
        let mut all = Vec::new();
        if board[sq] != 0 {
            return all;
        }
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        for (df, dr) in DIRS {
            let mut line = Vec::new();
            let (mut x, mut y) = (f + df, r + dr);
            while (0..8).contains(&x) && (0..8).contains(&y) && board[(y * 8 + x) as usize] == 2 {
                line.push((y * 8 + x) as usize);
                x += df;
                y += dr;
            }
            if !line.is_empty()
                && (0..8).contains(&x)
                && (0..8).contains(&y)
                && board[(y * 8 + x) as usize] == 1
            {
                all.extend(line);
            }
        }
        all
    }

    pub fn moves(board: &Board) -> Vec<usize> {
        (0..64).filter(|&sq| !flips(board, sq).is_empty()).collect()
    }

    fn swap(board: &Board) -> Board {
        board.map(|c| match c {
            1 => 2,
            2 => 1,
            _ => 0,
        })
    }

    pub fn perft(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = moves(board);
        if moves.is_empty() {
            let passed = swap(board);
            if self::moves(&passed).is_empty() {
                return 0;
            }
            return perft(&passed, depth - 1);
        }
        moves
            .into_iter()
            .map(|sq| {
                let mut next = *board;
                for f in flips(board, sq) {
                    next[f] = 1;
                }
                next[sq] = 1;
                perft(&swap(&next), depth - 1)
            })
            .sum()
    }
}

fn to_reference(pos: &Position) -> reference::Board {
    let mut board = [0u8; 64];
    for sq in Square::ALL {
        let bit = sq.bit();
        board[sq.index() as usize] = if pos.player() & bit != 0 {
            1
        } else if pos.opponent() & bit != 0 {
            2
        } else {
            0
        };
    }
    board
}

/// The FFO suites shipped in `data/reversi/` (copied from the shared data set).
const FFO_FILES: [&str; 4] = [
    "fforum-1-19.obf",
    "fforum-20-39.obf",
    "fforum-40-59.obf",
    "fforum-60-79.obf",
];

/// The text of a file of `data/reversi/`; a missing file fails the test with its path.
fn data_file(name: &str) -> String {
    let path = format!(
        "{}/{name}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/reversi")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the test data file {path}: {e}"))
}

fn ffo_positions() -> Vec<Position> {
    let mut all = Vec::new();
    for name in FFO_FILES {
        let text = data_file(name);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            all.push(
                line.parse()
                    .unwrap_or_else(|e| panic!("{name}: {line}: {e}")),
            );
        }
    }
    // FFO #1 to #79, in order.
    assert_eq!(all.len(), 79, "the four FFO files hold positions #1 to #79");
    all
}

/// A few FFO positions written out, so the test does not depend on the data directory.
const FFO_SAMPLES: [&str; 3] = [
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;",
    "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O; G5:+0;",
    "---OOOO----OOO----XOXOXX--XOOXXX--XOOXXX--XOOOXX--OXXX-X--XXXX-- X; C2:+20;",
];

#[test]
fn perft_on_ffo_positions_matches_the_reference() {
    let mut positions: Vec<Position> = FFO_SAMPLES.iter().map(|s| s.parse().unwrap()).collect();
    positions.extend(ffo_positions().into_iter().step_by(7));
    for pos in &positions {
        let board = to_reference(pos);
        for depth in 1..=4 {
            assert_eq!(
                perft(pos, depth),
                reference::perft(&board, depth),
                "{pos} depth {depth}"
            );
        }
    }
}

#[test]
fn ffo_files_parse_and_every_annotated_move_is_legal() {
    for name in FFO_FILES {
        let text = data_file(name);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let pos: Position = line.parse().unwrap();
            for note in line.split(';').skip(1) {
                let Some((mv, _score)) = note.trim().split_once(':') else {
                    continue;
                };
                let mv: Move = mv.parse().unwrap();
                assert!(pos.is_legal(mv), "{line}: {mv}");
            }
        }
    }
}

#[test]
fn the_solutions_table_agrees_with_the_ffo_files() {
    // `ffo20-59_solutions.csv`: id, board, side to move, empties, best moves, best score.
    let positions = ffo_positions();
    let table = data_file("ffo20-59_solutions.csv");
    let rows: Vec<&str> = table.lines().skip(1).filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 40);
    for row in rows {
        let fields: Vec<&str> = row.split(',').collect();
        let id: usize = fields[0].parse().unwrap();
        let pos: Position = format!("{} {}", fields[1], fields[2]).parse().unwrap();
        assert_eq!(pos, positions[id - 1], "FFO #{id}");
        assert_eq!(pos.empty_count().to_string(), fields[3], "FFO #{id}");
    }
}

#[test]
fn positions_with_passes_and_game_ends_match_the_reference() {
    // Late positions reached by random play exercise passes and finished games.
    let mut state = 12345u64;
    for _ in 0..200 {
        let mut pos = Position::start();
        loop {
            let list = pos.legal_moves();
            if list.is_empty() || pos.empty_count() <= 6 {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = list[(state >> 33) as usize % list.len()];
            pos.play(mv).unwrap();
        }
        let board = to_reference(&pos);
        for depth in 1..=7 {
            assert_eq!(
                perft(&pos, depth),
                reference::perft(&board, depth),
                "{pos} {depth}"
            );
        }
    }
}
