//! Grid notation, drawing, validation and serde.

use crate::common;

use common::pattern_solution;
use sudoku_core::{Grid, GridError, ParseGridError, Size, Unit, puzzle_lines};

const P9: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";

#[test]
fn every_size_round_trips_through_the_line_format() {
    for size in Size::ALL {
        let g = pattern_solution(size);
        assert!(g.is_full() && g.is_consistent(), "{size}");
        let line = g.to_string();
        assert_eq!(line.len(), size.cells());
        let back: Grid = line.parse().unwrap();
        assert_eq!(back, g);
        assert_eq!(back.size(), size);
        // Lower case letters and surrounding whitespace / Windows line ends are accepted.
        let lower: Grid = format!("  {}\r\n", line.to_lowercase()).parse().unwrap();
        assert_eq!(lower, g);
    }
    let g: Grid = P9.parse().unwrap();
    assert_eq!(g.to_string(), P9);
    assert_eq!(g.clue_count(), 35);
    let zeros: Grid = P9.replace('.', "0").parse().unwrap();
    assert_eq!(zeros, g);
}

#[test]
fn parse_errors_name_the_position_and_character() {
    assert_eq!("123".parse::<Grid>(), Err(ParseGridError::WrongLength(3)));
    let mut bad = P9.to_owned();
    bad.replace_range(12..13, "x");
    assert_eq!(
        bad.parse::<Grid>(),
        Err(ParseGridError::InvalidChar {
            row: 2,
            col: 4,
            ch: 'x'
        })
    );
    let msg = bad.parse::<Grid>().unwrap_err().to_string();
    assert!(
        msg.contains("row 2, column 4") && msg.contains("'x'"),
        "{msg}"
    );
    // 7 does not exist in a 6×6 grid.
    let six = format!("7{}", ".".repeat(35));
    assert_eq!(
        six.parse::<Grid>(),
        Err(ParseGridError::SymbolTooLarge {
            row: 1,
            col: 1,
            ch: '7',
            size: Size::Six
        })
    );
    // Q is beyond 25; G beyond 9.
    let nine_g = format!("{}G", ".".repeat(80));
    assert!(matches!(
        nine_g.parse::<Grid>(),
        Err(ParseGridError::SymbolTooLarge { row: 9, col: 9, .. })
    ));
    let big = format!("..0{}", ".".repeat(253));
    assert_eq!(
        big.parse::<Grid>(),
        Err(ParseGridError::ZeroInLargeGrid {
            row: 1,
            col: 3,
            size: Size::Sixteen
        })
    );
    // Multibyte characters count as one cell each and are reported as such.
    let uni = format!("é{}", ".".repeat(15));
    assert_eq!(
        uni.parse::<Grid>(),
        Err(ParseGridError::InvalidChar {
            row: 1,
            col: 1,
            ch: 'é'
        })
    );
}

#[test]
fn pretty_draws_box_separators() {
    let g: Grid = P9.parse().unwrap();
    let drawn = g.pretty().to_string();
    let lines: Vec<&str> = drawn.lines().collect();
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[0], ". . 4 | 3 . . | 2 . 9");
    assert_eq!(lines[3], "------+-------+------");
    let six = pattern_solution(Size::Six).pretty().to_string();
    assert_eq!(six.lines().next().unwrap(), "1 2 3 | 4 5 6");
    assert_eq!(six.lines().nth(2).unwrap(), "------+------");
}

#[test]
fn conflicts_name_units_and_cells() {
    let mut g: Grid = P9.parse().unwrap();
    assert!(g.conflicts().is_empty());
    // Put a 4 at r1c1: clashes with the 4 at r1c3 in row 1 and box 1.
    g.set(0, 0, Some(4)).unwrap();
    let c = g.conflicts();
    assert_eq!(c.len(), 2, "{c:?}");
    assert_eq!(c[0].unit, Unit::Row(0));
    assert_eq!(c[0].symbol, 4);
    assert_eq!(c[0].cells, vec![(0, 0), (0, 2)]);
    assert_eq!(c[1].unit, Unit::Box(0));
    assert_eq!(c[0].to_string(), "4 appears in row 1 at r1c1, r1c3");
    // A column clash.
    let mut g: Grid = P9.parse().unwrap();
    g.set(8, 2, Some(4)).unwrap();
    assert!(g.conflicts().iter().any(|c| c.unit == Unit::Column(2)));
}

#[test]
fn get_set_and_from_cells_check_their_input() {
    let mut g = Grid::empty(Size::Four);
    g.set(3, 3, Some(4)).unwrap();
    assert_eq!(g.get(3, 3), Some(4));
    g.set(3, 3, None).unwrap();
    assert_eq!(g.get(3, 3), None);
    assert!(Grid::from_cells(Size::Four, &[0; 15]).is_err());
    assert!(Grid::from_cells(Size::Four, &[5; 16]).is_err());
    // Out of range: `get` says nothing is there, `set` refuses and changes nothing.
    assert_eq!(Grid::empty(Size::Four).get(4, 0), None);
    let before = g.clone();
    assert_eq!(
        g.set(0, 4, Some(1)),
        Err(GridError::OutsideGrid {
            row: 0,
            col: 4,
            size: Size::Four
        })
    );
    assert_eq!(
        g.set(1, 1, Some(5)),
        Err(GridError::BadValue {
            index: 5,
            value: 5,
            size: Size::Four
        })
    );
    assert!(g.set(1, 1, Some(0)).is_err());
    assert_eq!(g, before);
}

#[test]
fn puzzle_lines_skip_comments_and_keep_line_numbers() {
    let text = format!("# header\n\n{P9}\r\n  # indented comment\nbad line\n");
    let lines: Vec<_> = puzzle_lines(&text).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].line, 3);
    assert_eq!(lines[0].grid.as_ref().unwrap().to_string(), P9);
    assert_eq!(lines[1].line, 5);
    assert!(lines[1].grid.is_err());
}

#[test]
fn serde_uses_the_line_format_and_validates() {
    let g: Grid = P9.parse().unwrap();
    let bytes = postcard::to_allocvec(&g).unwrap();
    let back: Grid = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, g);
    let bad = postcard::to_allocvec(&"12345").unwrap();
    assert!(postcard::from_bytes::<Grid>(&bad).is_err());
    assert!(postcard::from_bytes::<Grid>(&bytes[..10]).is_err());
}
