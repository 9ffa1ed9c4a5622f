//! The online battleship screen: snapshots of the battle and of the end drawn from a
//! table's view, then whole games against a real server and its bot — the fleet laid out
//! and sent, every shot by keys or clicks through a connection cut in the middle, a shot
//! the server refuses, the end with the enemy fleet shown and the fleets verified; and a
//! resignation while placing.

use std::time::{Duration, Instant};

use battleship_core::Rules;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::json;
use tabletop_play::battleship::new_table;
use tabletop_play::{Action, Player, Seat, Viewer};

use super::*;
use crate::online::remote::Create;
use crate::tui::online_testing::{Proxy, TestServer, assert_logged, tick_until};
use crate::tui::testing::{ch, click, ctrl, drive, key, render, text};
use crate::tui::{App, ThemeKind};

const LIMIT: Duration = Duration::from_secs(30);

fn press(screen: &mut OnlineBattleship, event: Event) -> Option<String> {
    let mut ctx = Ctx::default();
    screen.handle(&event, &mut ctx);
    ctx.take_message()
}

fn cell(name: &str) -> Coord {
    name.parse().expect("a cell")
}

/// Draws a scene alone at 80×22.
fn draw_scene(scene: &Scene) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(80, 22)).expect("test backend");
    terminal
        .draw(|frame| {
            let area = frame.area();
            scene::draw(scene, frame.buffer_mut(), area, &Theme::dark());
        })
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// A table of two remote players with seeded fleets and the first shots of both.
fn a_table() -> tabletop_play::Table<tabletop_play::battleship::Battleship> {
    let rules = Rules::russian();
    let sampler = sampler_for(&rules);
    let mut table = new_table(rules, [Player::Remote; 2]);
    for seat in [Seat(0), Seat(1)] {
        let fleet = sampler.sample_seeded(u64::from(seat.0) + 3);
        table
            .apply(seat, Action::Play(Input::Place(fleet)))
            .expect("a fleet");
    }
    for name in ["a1", "e5", "c3", "j10", "b2"] {
        let seat = table.to_act().expect("a seat to act");
        table
            .apply(seat, Action::Play(Input::Shoot(cell(name))))
            .expect("a shot");
    }
    table
}

#[test]
fn snapshot_online_battle_from_a_view() {
    let table = a_table();
    let view = table.view(Viewer::Seat(Seat(0)));
    let lines = vec![
        ("Online table tEXAMPLE".to_owned(), Tone::Normal),
        (
            "Clock: the first shooter 4:51 · the second shooter 5:00".to_owned(),
            Tone::Normal,
        ),
        ("Connection lost: reconnecting…".to_owned(), Tone::Bad),
    ];
    let turn = (
        "Your turn: Enter or click to shoot".to_owned(),
        Tone::Accent,
    );
    let battle = battle(&view, Some(0), cell("f6"), turn, lines);
    // Your fleet with the shots at it, your shots at the enemy; no enemy ship shown.
    assert!(battle.enemy_fleet.is_none());
    let buffer = draw_scene(&Scene::Battle(Box::new(battle)));
    insta::assert_snapshot!("online_battle", format!("{buffer:?}"));
}

#[test]
fn snapshot_online_end_shows_the_enemy_fleet_and_the_check() {
    let mut table = a_table();
    table.apply(Seat(1), Action::Resign).expect("a resignation");
    let view = table.view(Viewer::Seat(Seat(0)));
    let lines = vec![(
        "Fleets verified: both match the server's commitments.".to_owned(),
        Tone::Good,
    )];
    let turn = (
        "You win by resignation in 3 shots · q: leave".to_owned(),
        Tone::Accent,
    );
    let battle = battle(&view, Some(0), cell("f6"), turn, lines);
    assert!(battle.enemy_fleet.is_some());
    let buffer = draw_scene(&Scene::Battle(Box::new(battle)));
    let board = text(&buffer);
    assert!(board.contains("Enemy fleet"), "{board}");
    insta::assert_snapshot!("online_end", format!("{buffer:?}"));
}

/// The three characters drawn for `c` on the grid of `layout` (`mine` or the enemy's).
fn drawn(screen: &mut OnlineBattleship, mine: bool, c: Coord) -> String {
    let buffer = render(screen, 80, 22, &Theme::dark());
    let grid = if mine {
        screen.layout.mine
    } else {
        screen.layout.enemy
    };
    let (x, y) = grid.expect("a grid").origin(c);
    (x..x + 3)
        .map(|x| buffer[(x, y)].symbol().to_owned())
        .collect::<String>()
        .trim()
        .to_owned()
}

/// What the enemy grid must show for a mark of the view (before the end).
fn glyph(mark: Mark) -> &'static str {
    match mark {
        Mark::Unknown => "·",
        Mark::Miss => "•",
        Mark::Water => "~",
        Mark::Hit => "X",
        Mark::Sunk => "■",
    }
}

/// Walks the aim to `c` with the arrow keys.
fn walk(screen: &mut OnlineBattleship, c: Coord) {
    while screen.target.col() != c.col() {
        let k = if screen.target.col() < c.col() {
            KeyCode::Right
        } else {
            KeyCode::Left
        };
        press(screen, key(k));
    }
    while screen.target.row() != c.row() {
        let k = if screen.target.row() < c.row() {
            KeyCode::Down
        } else {
            KeyCode::Up
        };
        press(screen, key(k));
    }
}

#[test]
fn a_battleship_game_at_a_server_through_a_dropped_connection() {
    let started = Instant::now();
    let server = TestServer::start("battleship");
    let proxy = Proxy::start(server.addr);
    let create = Create {
        seats: vec![json!("me"), json!({"bot": 1})],
        rules: json!(null),
    };
    let mut screen = OnlineBattleship::start(&server.args(&proxy.url(), "cap"), create).unwrap();
    tick_until(&mut screen, LIMIT, "the placer", |s| s.placing());
    assert_eq!(
        screen.title(),
        "Battleship online · first shooter: you · second shooter: bot 1"
    );
    let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert!(board.contains("Online table t"), "{board}");
    assert!(board.contains("[send fleet]"), "{board}");
    // Another random fleet, taken back and drawn again; then Enter sends it.
    let first = screen.placer.as_ref().unwrap().placement.clone();
    assert_eq!(
        press(&mut screen, ch('a')).as_deref(),
        Some("A random fleet")
    );
    press(&mut screen, key(KeyCode::Backspace));
    assert_eq!(screen.placer.as_ref().unwrap().placement, first);
    press(&mut screen, ch('a'));
    let fleet = screen
        .placer
        .as_ref()
        .unwrap()
        .fleet()
        .expect("a whole fleet");
    press(&mut screen, key(KeyCode::Enter));
    tick_until(&mut screen, LIMIT, "the battle", |s| {
        !s.placing() && s.session().my_turn()
    });
    // The view has the fleet sent, and the screen draws it.
    let view = screen.session().view().unwrap();
    assert_eq!(view.state.fleets[0].as_ref(), Some(&fleet));
    let bow = fleet.ships()[0].bow();
    assert_eq!(drawn(&mut screen, true, bow), "■");

    let mut shots = 0;
    let mut refused = false;
    let mut cut = false;
    loop {
        tick_until(&mut screen, LIMIT, "your turn or the end", |s| {
            s.session().my_turn() || s.session().view().is_some_and(|v| v.ending.is_some())
        });
        let view = screen.session().view().unwrap();
        if view.ending.is_some() {
            break;
        }
        let version = view.version;
        let tracking = view.state.tracking[0].clone();
        if shots == 6 && !refused {
            // A cell shot already: the server refuses it, says why, and nothing changes.
            let again = view.state.shots.iter().find(|s| s.0 == Seat(0)).unwrap().1;
            walk(&mut screen, again);
            press(&mut screen, key(KeyCode::Enter));
            let said = tick_until(&mut screen, LIMIT, "the refusal", |s| {
                s.session().client.pending.is_none()
            });
            assert!(
                said.iter().any(|m| m.contains("already shot at")),
                "{said:?}"
            );
            assert_eq!(screen.session().view().unwrap().version, version);
            refused = true;
            continue;
        }
        let target = (0..100)
            .map(|i| Coord::from_index(i, 10))
            .find(|&c| tracking.mark(c) == Mark::Unknown)
            .expect("a cell to shoot");
        if shots % 2 == 0 {
            walk(&mut screen, target);
            press(&mut screen, key(KeyCode::Enter));
        } else {
            render(&mut screen, 80, 22, &Theme::dark());
            let (x, y) = screen.layout.enemy.unwrap().origin(target);
            press(&mut screen, click(x + 1, y));
        }
        assert!(
            screen.session().client.pending.is_some(),
            "the shot is sent"
        );
        shots += 1;
        if shots == 10 {
            // The network drops with the shot in flight; the link comes back by itself and
            // the shot (resent under its id) is fired once.
            proxy.cut();
            tick_until(&mut screen, LIMIT, "the drop", |s| {
                s.session().client.reconnecting
            });
            let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
            assert!(board.contains("reconnecting…"), "{board}");
            proxy.restore();
            cut = true;
        }
        // (and the link back, should the shot's answer have come before the cut)
        tick_until(&mut screen, LIMIT, "the shot's view", |s| {
            s.session().client.pending.is_none()
                && !s.session().client.reconnecting
                && s.session().view().is_some_and(|v| v.version > version)
        });
        if shots == 10 {
            assert_logged(&screen.session().log, "Connection back");
        }
        // The enemy grid shows what the server's view says of the cell shot.
        let view = screen.session().view().unwrap().clone();
        let mark = view.state.tracking[0].mark(target);
        assert_ne!(mark, Mark::Unknown, "{target} was shot");
        if view.ending.is_none() {
            assert_eq!(drawn(&mut screen, false, target), glyph(mark), "{target}");
        }
        // The bot's shots at your grid show too.
        if let Some(&(_, theirs, _)) = view.state.shots.iter().rev().find(|s| s.0 == Seat(1)) {
            let on_yours = view.state.tracking[1].mark(theirs);
            let want = match on_yours {
                Mark::Miss => "•",
                _ => "X■",
            };
            let got = drawn(&mut screen, true, theirs);
            assert!(
                !got.is_empty() && want.contains(got.as_str()),
                "{theirs}: {got} for {on_yours:?}"
            );
        }
        assert!(shots <= 100, "too many shots");
    }
    assert!(
        refused && cut,
        "the refusal and the drop came before the end"
    );
    // The end: the result, the enemy fleet drawn, the fleets verified.
    tick_until(&mut screen, LIMIT, "the fleet check", |s| {
        s.fleet_check().is_some()
    });
    let (ok, words) = screen.fleet_check().unwrap().clone();
    assert!(ok, "{words}");
    assert!(words.starts_with("Fleets verified"), "{words}");
    let board = text(&render(&mut screen, 80, 22, &Theme::dark()));
    assert!(board.contains("Enemy fleet"), "{board}");
    assert!(board.contains("Fleets verified"), "{board}");
    assert!(board.contains("q: leave"), "{board}");
    let status = screen.status();
    assert!(status.contains("fleets verified"), "{status}");
    let view = screen.session().view().unwrap().clone();
    let enemy = view.state.fleets[1]
        .as_ref()
        .expect("the enemy fleet at the end");
    for ship in enemy.ships() {
        let bow = ship.bow();
        if view.state.tracking[0].mark(bow) == Mark::Unknown {
            assert_eq!(drawn(&mut screen, false, bow), "■", "{ship}");
        }
    }
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn resigning_while_placing_ends_the_game_and_the_host_keeps_local_keys_off() {
    let server = TestServer::start("battleship-resign");
    let url = format!("ws://{}/", server.addr);
    let create = Create {
        seats: vec![json!({"bot": 2}), json!("me")],
        rules: json!(null),
    };
    let mut screen = OnlineBattleship::start(&server.args(&url, "ned"), create).unwrap();
    // The bot shoots first: it places first, then this seat lays out its fleet.
    tick_until(&mut screen, LIMIT, "the placer", |s| {
        s.placing() && s.session().view().is_some_and(|v| v.state.placed[0])
    });
    assert_eq!(
        screen.title(),
        "Battleship online · first shooter: bot 2 · second shooter: you"
    );
    // `r` turns the ship being placed; `R R` resigns.
    let before = screen.placer.as_ref().unwrap().orientation;
    press(&mut screen, ch('r'));
    assert_ne!(screen.placer.as_ref().unwrap().orientation, before);
    let mut app = App::new(Box::new(screen), ThemeKind::Dark);
    drive(&mut app, &[ctrl('s')], 80, 24);
    assert!(app.message().unwrap().contains("off in online play"));
    drive(&mut app, &[ch('R'), ch('R')], 80, 24);
    let start = Instant::now();
    let frame = loop {
        app.tick(Instant::now());
        let frame = text(&drive(&mut app, &[], 80, 24));
        if frame.contains("Fleets verified") {
            break frame;
        }
        assert!(start.elapsed() < LIMIT, "timed out: {frame}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(frame.contains("You lose by resignation"), "{frame}");
    // Only the bot's fleet was placed: it is shown and checked.
    assert!(frame.contains("Enemy fleet"), "{frame}");
}
