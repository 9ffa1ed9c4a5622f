//! The online reversi screen against a second player on a raw WebSocket, to the end of
//! the game: moves by keys and clicks, a refused square, the same final position on both.

use std::time::Duration;

use crossterm::event::KeyCode;
use serde_json::{Value, json};
use tungstenite::Message;

use super::*;
use crate::online::remote::Create;
use crate::tui::online_testing::{TestServer, tick_until};
use crate::tui::testing::{click, key, render, text};

const LIMIT: Duration = Duration::from_secs(30);

fn press(screen: &mut OnlineReversi, event: Event) -> Option<String> {
    let mut ctx = Ctx::default();
    screen.handle(&event, &mut ctx);
    ctx.take_message()
}

/// The second player: joins with `invite` and plays the first legal move of each view
/// that asks it to, until the game is over; returns its last view.
fn second_player(url: String, invite: String) -> Value {
    let (mut ws, _) = tungstenite::connect(url.as_str()).expect("the server answers");
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    let send = |ws: &mut tungstenite::WebSocket<_>, v: Value| {
        ws.send(Message::text(v.to_string())).expect("send");
    };
    send(&mut ws, json!({"type": "hello", "protocol": 1}));
    send(
        &mut ws,
        json!({"type": "join", "id": "j", "invite": invite}),
    );
    let mut next = 0;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the second player timed out"
        );
        let Message::Text(frame) = ws.read().expect("a message") else {
            continue;
        };
        let message: Value = serde_json::from_str(&frame).unwrap();
        match message["type"].as_str().unwrap_or("") {
            "joined" => {
                let table = message["table"].clone();
                send(&mut ws, json!({"type": "open", "id": "o", "table": table}));
            }
            "view" => {
                let view = &message["view"];
                if !view["ending"].is_null() {
                    return view.clone();
                }
                if view["to_act"] == json!(1) {
                    next += 1;
                    let mv = view["state"]["legal"][0].clone();
                    let act = json!({"type": "act", "id": format!("a{next}"),
                        "table": message["table"], "action": {"play": mv}});
                    send(&mut ws, act);
                }
            }
            "error" => panic!("the second player was refused: {message}"),
            _ => {}
        }
    }
}

/// The disc counts the panel shows, `(black, white)`.
fn counts(screen: &mut OnlineReversi) -> (String, String) {
    let board = text(&render(screen, 80, 22, &crate::tui::Theme::dark()));
    let count = |name: &str| {
        let line = board
            .lines()
            .find(|l| l.contains(name))
            .expect("a count line");
        line.split_whitespace().last().unwrap().to_owned()
    };
    (count("Black "), count("White "))
}

#[test]
fn a_reversi_game_at_a_server_to_the_end_against_a_second_player() {
    let server = TestServer::start("reversi");
    let url = format!("ws://{}/", server.addr);
    let create = Create {
        seats: vec![json!("me"), json!("open")],
        rules: json!(null),
    };
    // With a clock of 5 minutes a side plus 3 s a move.
    let mut args = server.args(&url, "bea");
    args.clock = Some((5, 3));
    let mut screen = OnlineReversi::start(&args, create).unwrap();
    tick_until(&mut screen, LIMIT, "the invite", |s| {
        s.session().client.invite.is_some() && s.session().client.status == "open"
    });
    let board = text(&render(&mut screen, 80, 22, &crate::tui::Theme::dark()));
    let invite = screen.session().client.invite.clone().unwrap();
    assert!(board.contains(&format!("Invite code {invite}")), "{board}");
    let second = std::thread::spawn(move || second_player(url, invite));
    tick_until(&mut screen, LIMIT, "Black's first move", |s| {
        s.session().my_turn()
    });
    assert_eq!(
        screen.title(),
        "Reversi online · Black: you · White: opponent"
    );
    let board = text(&render(&mut screen, 80, 22, &crate::tui::Theme::dark()));
    assert!(board.contains("Clock: Black (X) 4:5"), "{board}");
    assert!(board.contains("White (O) 5:00"), "{board}");
    // a1 is not a legal first move: the server refuses it and says why; nothing changes.
    screen.cursor = (0, 0);
    press(&mut screen, key(KeyCode::Enter));
    let said = tick_until(&mut screen, LIMIT, "the refusal", |s| {
        s.session().client.pending.is_none()
    });
    assert!(said.iter().any(|m| m.contains("a1")), "{said:?}");
    assert_eq!(screen.session().view().unwrap().version, 0);
    let mut moves = 0;
    loop {
        tick_until(&mut screen, LIMIT, "Black's turn or the end", |s| {
            s.session().my_turn() || s.session().view().is_some_and(|v| v.ending.is_some())
        });
        if screen.session().view().unwrap().ending.is_some() {
            break;
        }
        let version = screen.session().view().unwrap().version;
        let sq = screen.legal().iter().next().expect("a legal move");
        if moves % 2 == 0 {
            // By keys: the cursor walks to the square.
            let (f, r) = (sq.file() as i8, sq.rank() as i8);
            let (cf, cr) = (screen.cursor.0 as i8, screen.cursor.1 as i8);
            let horizontal = if f > cf {
                KeyCode::Right
            } else {
                KeyCode::Left
            };
            let vertical = if r > cr { KeyCode::Down } else { KeyCode::Up };
            for _ in 0..(f - cf).abs() {
                press(&mut screen, key(horizontal));
            }
            for _ in 0..(r - cr).abs() {
                press(&mut screen, key(vertical));
            }
            assert_eq!(screen.cursor(), sq);
            press(&mut screen, key(KeyCode::Enter));
        } else {
            render(&mut screen, 80, 22, &crate::tui::Theme::dark());
            let (x, y) = screen.cell_of(sq);
            press(&mut screen, click(x, y));
        }
        moves += 1;
        tick_until(&mut screen, LIMIT, "the move's view", |s| {
            s.session().client.pending.is_none()
                && s.session().view().is_some_and(|v| v.version > version)
        });
        // The board shows the server's position (White may have answered already): the
        // move is in, the square is taken, the counts agree.
        let view = screen.session().view().unwrap();
        let pos = view.state.position;
        assert!(view.state.moves.contains(&Move::Place(sq)));
        assert!(pos.piece_at(sq).is_some());
        let want = (
            pos.count(Color::Black).to_string(),
            pos.count(Color::White).to_string(),
        );
        assert_eq!(counts(&mut screen), want);
    }
    let last = second.join().expect("the second player");
    let view = screen.session().view().unwrap();
    assert_eq!(
        serde_json::to_value(view.state.position).unwrap(),
        last["state"]["position"]
    );
    let ending = view.ending.as_ref().unwrap();
    let result = screen.session().client.game.result(ending, view, Some(0));
    let board = text(&render(&mut screen, 80, 22, &crate::tui::Theme::dark()));
    assert!(board.contains("Game over"), "{board}");
    assert!(screen.status().contains(&result), "{}", screen.status());
    assert!(moves >= 10, "{moves} moves");
}
