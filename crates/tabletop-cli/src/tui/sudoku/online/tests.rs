//! The online sudoku screen against a real server on 127.0.0.1: a 4×4 puzzle solved to
//! the end with keys, through a dropped connection, with a refused entry, a pencil mark
//! and a mistake on the way, while a spectator watches; and a picture of the screen.

use std::time::Duration;

use crossterm::event::KeyCode;
use serde_json::json;
use sudoku_core::{Game, Grid};
use tabletop_play::{Seat, Viewer};

use super::*;
use crate::online::remote::Create;
use crate::tui::online_testing::{Proxy, TestServer, assert_logged, tick_until};
use crate::tui::testing::{ch, ctrl, drive, key, render, text};
use crate::tui::{App, ThemeKind};

const LIMIT: Duration = Duration::from_secs(30);

fn press(screen: &mut OnlineSudoku, event: Event) -> Option<String> {
    let mut ctx = Ctx::default();
    screen.handle(&event, &mut ctx);
    ctx.take_message()
}

/// The arrow keys from the cursor to (r, c).
fn walk_to(screen: &mut OnlineSudoku, r: usize, c: usize) {
    for _ in 0..8 {
        let (cr, cc) = screen.editor.cursor;
        let arrow = match (cr.cmp(&r), cc.cmp(&c)) {
            (std::cmp::Ordering::Less, _) => KeyCode::Down,
            (std::cmp::Ordering::Greater, _) => KeyCode::Up,
            (_, std::cmp::Ordering::Less) => KeyCode::Right,
            (_, std::cmp::Ordering::Greater) => KeyCode::Left,
            _ => return,
        };
        press(screen, key(arrow));
    }
    assert_eq!(screen.editor.cursor, (r, c));
}

/// The server's grid as the screen has it.
fn grid(screen: &OnlineSudoku) -> Grid {
    screen.session().view().expect("a view").state.grid.clone()
}

/// Ticks until the entry sent is answered (nothing in flight, a newer view or a
/// refusal); returns what the screen said meanwhile.
fn answered(screen: &mut OnlineSudoku, version: u64) -> Vec<String> {
    tick_until(screen, LIMIT, "the answer to the entry", |s| {
        let client = &s.session().client;
        client.pending.is_none()
            && client.queue.is_empty()
            && s.session().view().is_some_and(|v| v.version > version)
    })
}

/// The symbol drawn at the digit place of cell (r, c) by the last draw.
fn drawn_digit(screen: &mut OnlineSudoku, r: usize, c: usize) -> String {
    drawn_cell(screen, r, c).symbol().to_owned()
}

/// What is drawn at the digit place of cell (r, c), with its style.
fn drawn_cell(screen: &mut OnlineSudoku, r: usize, c: usize) -> ratatui::buffer::Cell {
    let buffer = render(screen, 80, 22, &Theme::dark());
    let g = screen.hits.grid.expect("the grid is drawn");
    let (x, y) = g.cell_origin(r, c);
    let (dy, dx) = g.digit_offset();
    buffer[((x + dx) as u16, (y + dy) as u16)].clone()
}

#[test]
fn a_sudoku_at_a_server_solved_through_a_dropped_connection_while_watched() {
    let server = TestServer::start("sudoku");
    let proxy = Proxy::start(server.addr);
    let create = Create {
        seats: vec![json!("me")],
        rules: json!({"size": 4}),
    };
    let mut screen = OnlineSudoku::start(&server.args(&proxy.url(), "sol"), create).unwrap();
    tick_until(&mut screen, LIMIT, "the puzzle", |s| s.session().my_turn());
    assert_eq!(screen.title(), "Sudoku online · 4×4");
    let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert!(board.contains("Online table t"), "{board}");
    assert!(board.contains("[notes]"), "{board}");
    let puzzle = screen.session().view().unwrap().state.puzzle.clone();
    // The test knows the answer; the screen does not (the server keeps the solution).
    let solution = Game::new(puzzle.clone()).unwrap().solution().clone();
    let empties: Vec<(usize, usize)> = (0..16)
        .map(|i| (i / 4, i % 4))
        .filter(|&(r, c)| puzzle.get(r, c).is_none())
        .collect();
    // The cursor starts on the first empty cell, as offline.
    assert_eq!(screen.editor.cursor, empties[0]);

    // A spectator opens the table by its id and sees the entries as they come.
    let table = screen.session().client.table.clone().unwrap();
    let mut watch = server.args(&format!("ws://{}/", server.addr), "eve");
    watch.table = Some(table);
    let none = Create {
        seats: Vec::new(),
        rules: json!(null),
    };
    let mut watcher = OnlineSudoku::start(&watch, none).unwrap();
    tick_until(&mut watcher, LIMIT, "the spectator's view", |s| {
        s.session().view().is_some()
    });
    assert_eq!(watcher.session().seat(), None);
    assert_eq!(
        press(&mut watcher, ch('1')).unwrap(),
        "Waiting for the solver"
    );

    // A given refuses a digit: the server says why, and the grid stays as it was.
    let (gr, gc) = (0..16)
        .map(|i| (i / 4, i % 4))
        .find(|&(r, c)| puzzle.get(r, c).is_some())
        .unwrap();
    let other = puzzle.get(gr, gc).unwrap() % 4 + 1;
    walk_to(&mut screen, gr, gc);
    let version = screen.session().view().unwrap().version;
    press(&mut screen, ch(char::from(b'0' + other)));
    let said = tick_until(&mut screen, LIMIT, "the refusal", |s| {
        s.session().client.pending.is_none() && s.session().client.queue.is_empty()
    });
    assert!(said.iter().any(|m| m.contains("given")), "{said:?}");
    tick_until(&mut screen, LIMIT, "the time's view", |s| {
        s.session().view().is_some_and(|v| v.version > version)
    });
    assert_eq!(grid(&screen), puzzle);

    // A pencil mark goes to the server and comes back in its view.
    let (r, c) = empties[0];
    walk_to(&mut screen, r, c);
    let want = solution.get(r, c).unwrap();
    press(&mut screen, ch('p'));
    let version = screen.session().view().unwrap().version;
    press(&mut screen, ch(char::from(b'0' + want)));
    answered(&mut screen, version);
    let notes = screen.session().view().unwrap().state.notes[r * 4 + c];
    assert_eq!(Digits::from_bits(notes), Digits::single(want));
    let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert!(
        board.contains(&format!("r{}c{}: notes {want}", r + 1, c + 1)),
        "{board}"
    );
    press(&mut screen, ch('p'));

    // A wrong digit, the same as a given of the cell's row, column or box, is played,
    // counted and said by the server, drawn as a conflict; it is then cleared.
    let size = puzzle.size();
    let wrong = (0..16)
        .map(|i| (i / 4, i % 4))
        .filter(|&(pr, pc)| pr == r || pc == c || size.box_of(pr, pc) == size.box_of(r, c))
        .find_map(|(pr, pc)| puzzle.get(pr, pc))
        .expect("a given among the cell's peers");
    let version = screen.session().view().unwrap().version;
    press(&mut screen, ch(char::from(b'0' + wrong)));
    let said = answered(&mut screen, version);
    assert!(said.iter().any(|m| m.contains("mistake")), "{said:?}");
    assert_eq!(screen.session().view().unwrap().state.mistakes, 1);
    let drawn = drawn_cell(&mut screen, r, c);
    assert_eq!(drawn.symbol(), wrong.to_string());
    assert_eq!(drawn.fg, Theme::dark().bad.fg.unwrap(), "a conflict");
    assert!(screen.status().contains("1 mistake"), "{}", screen.status());
    let version = screen.session().view().unwrap().version;
    press(&mut screen, key(KeyCode::Delete));
    answered(&mut screen, version);
    assert_eq!(grid(&screen).get(r, c), None);

    // Hints and undo stay offline.
    assert!(
        press(&mut screen, ch('t'))
            .unwrap()
            .contains("offline only")
    );

    // Every empty cell by keys; halfway, the network drops with an entry in flight.
    let half = empties.len() / 2;
    for (i, &(r, c)) in empties.iter().enumerate() {
        walk_to(&mut screen, r, c);
        let digit = solution.get(r, c).unwrap();
        let version = screen.session().view().unwrap().version;
        press(&mut screen, ch(char::from(b'0' + digit)));
        if i == half {
            assert!(screen.session().client.pending.is_some(), "in flight");
            proxy.cut();
            tick_until(&mut screen, LIMIT, "the drop", |s| {
                s.session().client.reconnecting
            });
            let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
            assert!(board.contains("reconnecting…"), "{board}");
            assert!(
                screen.status().contains("reconnecting"),
                "{}",
                screen.status()
            );
            // Nothing is sent meanwhile: the screen says so.
            let said = press(&mut screen, key(KeyCode::Right)).unwrap_or_default();
            assert!(said.is_empty(), "{said}");
            press(&mut screen, key(KeyCode::Left));
            proxy.restore();
        }
        answered(&mut screen, version);
        // The screen draws the server's grid: the digit is in.
        assert_eq!(grid(&screen).get(r, c), Some(digit));
        assert_eq!(drawn_digit(&mut screen, r, c), digit.to_string());
    }
    assert_logged(&screen.session().log, "Connection back");
    tick_until(&mut screen, LIMIT, "the end", |s| {
        s.session().view().is_some_and(|v| v.ending.is_some())
    });
    assert_eq!(grid(&screen), solution);
    let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert_eq!(board.matches("Game over: solved in").count(), 1, "{board}");
    assert!(!board.contains("[notes]"), "{board}");
    assert!(
        screen.status().contains("with 1 mistake"),
        "{}",
        screen.status()
    );
    // The spectator saw every entry, to the end.
    tick_until(&mut watcher, LIMIT, "the spectator's end", |s| {
        s.session().view().is_some_and(|v| v.ending.is_some())
    });
    assert_eq!(grid(&watcher), solution);
    let board = text(&render(&mut watcher, 80, 22, &Theme::dark()));
    assert!(board.contains("Game over: solved in"), "{board}");

    // The host keeps saves, undo and new games off.
    let mut app = App::new(Box::new(screen), ThemeKind::Dark);
    drive(&mut app, &[ctrl('s')], 80, 24);
    assert!(app.message().unwrap().contains("off in online play"));
    drive(&mut app, &[ch('u')], 80, 24);
    assert!(app.message().unwrap().contains("off in online play"));
}

/// A view of a known puzzle (the server's are random) on a screen connected to a real
/// server, drawn at 80×22.
#[test]
fn snapshot_online_sudoku() {
    let server = TestServer::start("sudoku-picture");
    let create = Create {
        seats: vec![json!("me")],
        rules: json!({"size": 9}),
    };
    let url = format!("ws://{}/", server.addr);
    let mut screen = OnlineSudoku::start(&server.args(&url, "pic"), create).unwrap();
    tick_until(&mut screen, LIMIT, "the puzzle", |s| s.session().my_turn());
    let game = Game::new(super::super::tests::EASY9.parse().unwrap()).unwrap();
    let mut table = tabletop_play::sudoku::new_table(game);
    for mv in ["r1c1 8", "r1c2 1", "note r1c5 1 5", "r2c1 3"] {
        let mv: Move = mv.parse().unwrap();
        let input = tabletop_play::sudoku::Input::Move(mv);
        table
            .apply(Seat(0), tabletop_play::Action::Play(input))
            .unwrap();
    }
    screen.session.client.view = Some(table.view(Viewer::Seat(Seat(0))));
    screen.follow_view();
    screen.editor.cursor = (1, 0);
    // The table's id and the server's port (always five digits: an ephemeral port) vary.
    let id = screen.session().client.table.clone().unwrap();
    let port = format!(":{}/", server.addr.port());
    let picture = text(&render(&mut screen, 80, 22, &Theme::dark()))
        .replace(&id, &format!("t{}", "·".repeat(id.chars().count() - 1)))
        .replace(&port, ":·····/");
    insta::assert_snapshot!("online_sudoku", picture);
}

/// 6×6 and 9×9 puzzles of the server, with a clock: drawn whole at 80×22 with the clock
/// under the grid, and played with the mouse (a cell, then a digit of the palette).
#[test]
fn six_and_nine_by_mouse_with_a_clock() {
    let server = TestServer::start("sudoku-sizes");
    let url = format!("ws://{}/", server.addr);
    for (side, who) in [(6, "six"), (9, "nine")] {
        let create = Create {
            seats: vec![json!("me")],
            rules: json!({ "size": side }),
        };
        let mut args = server.args(&url, who);
        args.clock = Some((5, 0));
        let mut screen = OnlineSudoku::start(&args, create).unwrap();
        tick_until(&mut screen, LIMIT, "the puzzle", |s| s.session().my_turn());
        assert_eq!(screen.title(), format!("Sudoku online · {side}×{side}"));
        let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
        assert!(board.contains("Clock: the solver "), "{board}");
        let g = screen.hits.grid.expect("the whole grid fits");
        assert_eq!(g.n, side);
        let puzzle = screen.session().view().unwrap().state.puzzle.clone();
        let (r, c) = (0..side * side)
            .map(|i| (i / side, i % side))
            .rev()
            .find(|&(r, c)| puzzle.get(r, c).is_none())
            .unwrap();
        let (x, y) = screen.hits.cell_point(r, c).unwrap();
        press(&mut screen, crate::tui::testing::click(x, y));
        assert_eq!(screen.editor.cursor, (r, c));
        let (x, y) = screen.hits.button_point(Button::Digit(2)).unwrap();
        let version = screen.session().view().unwrap().version;
        press(&mut screen, crate::tui::testing::click(x, y));
        answered(&mut screen, version);
        assert_eq!(grid(&screen).get(r, c), Some(2));
        assert_eq!(drawn_digit(&mut screen, r, c), "2");
    }
}
