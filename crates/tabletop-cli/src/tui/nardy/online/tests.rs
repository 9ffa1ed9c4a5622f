//! The online nardy screen against a real server and its bot: several turns played with
//! keys, a connection cut in the middle, a refused step, a resignation, the dice checked.

use std::time::Duration;

use crossterm::event::KeyCode;
use serde_json::json;

use super::*;
use crate::online::client::DiceCheck;
use crate::online::remote::Create;
use crate::tui::online_testing::{Proxy, TestServer, assert_logged, tick_until};
use crate::tui::testing::{ch, ctrl, drive, key, render, text};
use crate::tui::{App, ThemeKind};

const LIMIT: Duration = Duration::from_secs(30);

fn press(screen: &mut OnlineNardy, event: Event) -> Option<String> {
    let mut ctx = Ctx::default();
    screen.handle(&event, &mut ctx);
    ctx.take_message()
}

/// The panel's pip line of `color` as drawn.
fn pips(board: &str, color: Color) -> String {
    let at = board
        .find(&format!("{color}: "))
        .expect("the player's line");
    let line = board[at..].lines().nth(1).expect("the pips line");
    line.split("pips").nth(1).expect("pips").trim().to_owned()
}

/// Plays this seat's turn with keys (Tab to a checker that can move, Enter, Tab to its
/// first destination, Enter), each step waiting for the server's view; returns the steps.
/// With `cut`, the connection drops right after the first step is sent: the screen says
/// it is reconnecting, and the step (resent under its id) is played once.
fn play_turn(screen: &mut OnlineNardy, mut cut: Option<&Proxy>) -> Vec<Step> {
    let mut played = Vec::new();
    let turns = |s: &OnlineNardy| s.session().view().map_or(0, |v| v.state.history.len());
    let before = turns(screen);
    while screen.session().my_turn() && turns(screen) == before {
        let version = screen.session().view().expect("a view").version;
        for event in [key(KeyCode::Tab), key(KeyCode::Enter), key(KeyCode::Tab)] {
            press(screen, event);
        }
        let from = screen.selected.expect("a checker selected");
        let to = match screen.cursor {
            Spot::Point(p) => p,
            Spot::Tray(_) => 0,
        };
        let step = *screen
            .steps()
            .iter()
            .find(|s| s.from() == from && s.to().unwrap_or(0) == to)
            .expect("the step is legal");
        press(screen, key(KeyCode::Enter));
        if let Some(proxy) = cut.take() {
            assert!(
                screen.session().client.pending.is_some(),
                "the step is in flight"
            );
            proxy.cut();
            tick_until(screen, LIMIT, "the drop", |s| {
                s.session().client.reconnecting
            });
            let board = text(&render(screen, 80, 22, &crate::tui::Theme::dark()));
            assert!(board.contains("reconnecting…"), "{board}");
            assert!(
                screen.status().contains("reconnecting"),
                "{}",
                screen.status()
            );
            proxy.restore();
        }
        tick_until(screen, LIMIT, "the step's view", |s| {
            s.session().view().is_some_and(|v| v.version > version)
                && s.session().client.pending.is_none()
        });
        // The board shows the server's position after the step.
        let board = text(&render(screen, 80, 22, &crate::tui::Theme::dark()));
        let view = screen.session().view().expect("a view");
        for color in Color::ALL {
            let pos = &view.state.position;
            let want = format!(
                "{:>3}  off {:>2}",
                pos.pip_count(color),
                pos.borne_off(color)
            );
            assert_eq!(pips(&board, color).trim(), want.trim(), "{board}");
        }
        let state = &view.state;
        let done = state.played.last() == Some(&step)
            || state
                .history
                .iter()
                .rev()
                .find(|r| r.color == Color::White)
                .is_some_and(|r| r.mv.steps().last() == Some(&step));
        assert!(done, "the step {step} is not the server's last: {state:?}");
        played.push(step);
    }
    played
}

#[test]
fn a_nardy_game_at_a_server_through_a_dropped_connection() {
    let server = TestServer::start("nardy");
    let proxy = Proxy::start(server.addr);
    let create = Create {
        seats: vec![json!("me"), json!({"bot": 1})],
        rules: json!(null),
    };
    let mut screen = OnlineNardy::start(&server.args(&proxy.url(), "ann"), create).unwrap();
    tick_until(&mut screen, LIMIT, "the first dice", |s| {
        s.session().view().is_some_and(|v| v.state.dice.is_some())
    });
    let board = text(&render(&mut screen, 80, 22, &crate::tui::Theme::dark()));
    assert!(board.contains("Online table t"), "{board}");
    assert_eq!(
        screen.title(),
        "Long Nardy online · White: you · Black: bot 1"
    );
    for turn in 0..4 {
        tick_until(&mut screen, LIMIT, "White's turn", |s| {
            s.session().my_turn()
        });
        // On the third turn the network drops with a step in flight; the link comes back
        // by itself and the game goes on from the server's state.
        let steps = play_turn(&mut screen, (turn == 2).then_some(&proxy));
        assert!(!steps.is_empty());
    }
    assert_logged(&screen.session().log, "Connection back");
    // A step the table refuses is said, and changes nothing.
    tick_until(&mut screen, LIMIT, "White's turn", |s| {
        s.session().my_turn()
    });
    let version = screen.session().view().unwrap().version;
    let mut ctx = Ctx::default();
    // A White checker moved by a distance no die or sum of dice left makes (a sum
    // would be a legal combined step).
    let state = &screen.session().view().unwrap().state;
    let mut sums = vec![0u8];
    for &d in &state.dice_left {
        let more: Vec<u8> = sums.iter().map(|s| s + d).collect();
        sums.extend(more);
    }
    let bad = (1..=24u8)
        .filter(|&p| state.position.count(Color::White, p) > 0)
        .flat_map(|p| (1..=6u8).map(move |d| (p, d)))
        .find(|&(p, d)| p > d && !sums.contains(&d))
        .map(|(p, d)| json!({"step": [p, p - d]}))
        .expect("an illegal step");
    assert!(screen.session.play(bad, &mut ctx));
    let said = tick_until(&mut screen, LIMIT, "the refusal", |s| {
        s.session().client.pending.is_none()
    });
    assert!(said.iter().any(|m| m.contains("cannot move")), "{said:?}");
    assert_eq!(screen.session().view().unwrap().version, version);
    // The host keeps saves and new games off.
    let mut app = App::new(Box::new(screen), ThemeKind::Dark);
    drive(&mut app, &[ctrl('s')], 80, 24);
    assert!(app.message().unwrap().contains("off in online play"));
    drive(&mut app, &[ch('r'), ch('r')], 80, 24);
    let frame = tick_app_until(&mut app, |frame| frame.contains("Dice verified"));
    assert!(frame.contains("(you lose)"), "{frame}");
    let _ = DiceCheck::None;
}

/// Ticks the whole host until its frame shows what `done` wants; returns that frame.
fn tick_app_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    let start = std::time::Instant::now();
    loop {
        app.tick(std::time::Instant::now());
        let frame = text(&drive(app, &[], 80, 24));
        if done(&frame) {
            return frame;
        }
        assert!(start.elapsed() < LIMIT, "timed out: {frame}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
