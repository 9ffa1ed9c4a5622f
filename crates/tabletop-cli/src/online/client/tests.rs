//! The client's handling of messages and drops, without a server.

use std::sync::mpsc::{self, Receiver};

use serde_json::json;

use super::*;
use crate::online::reversi::Reversi;

/// A client that has opened table `t1` as seat 0, with what it sends.
fn opened() -> (Client<Reversi>, Receiver<Value>) {
    let (tx, rx) = mpsc::channel();
    let mut client = Client::new(
        Reversi,
        "ws://127.0.0.1:1".to_owned(),
        PathBuf::from("unused.json"),
        tx,
        Painter::plain(),
        Out::Print,
    );
    let opened = json!({"type": "opened", "id": "x-1", "table": "t1", "seat": 0});
    assert!(!client.message(&opened).unwrap());
    (client, rx)
}

#[test]
fn unknown_messages_and_fields_are_ignored() {
    let (mut client, _rx) = opened();
    // A later protocol's message type, and fields this client does not know (the
    // dice `seed` of a parallel change, say): nothing breaks, the known part counts.
    let seed = json!({"type": "seed", "table": "t1", "commit": "ab12"});
    assert!(!client.message(&seed).unwrap());
    let table = json!({"type": "table", "table": "t1", "status": "playing",
        "seats": ["person", "person"], "dice": {"commitments": [null, null]}});
    assert!(!client.message(&table).unwrap());
    assert_eq!(client.status, "playing");
    let mut view = serde_json::to_value(
        tabletop_play::reversi::new_table(Default::default(), [tabletop_play::Player::Remote; 2])
            .view(tabletop_play::Viewer::Seat(tabletop_play::Seat(0))),
    )
    .unwrap();
    view["future_field"] = json!(42);
    let message = json!({"type": "view", "table": "t1", "view": view, "extra": true});
    assert!(!client.message(&message).unwrap());
    assert_eq!(client.view.as_ref().map(|v| v.version), Some(0));
    // Garbage in a known message is skipped, not a crash.
    let bad = json!({"type": "events", "table": "t1", "version": "x", "events": [1, {}]});
    assert!(!client.message(&bad).unwrap());
}

#[test]
fn a_move_in_flight_is_resent_with_its_id_after_a_drop() {
    let (mut client, rx) = opened();
    let view = serde_json::to_value(
        tabletop_play::reversi::new_table(Default::default(), [tabletop_play::Player::Remote; 2])
            .view(tabletop_play::Viewer::Seat(tabletop_play::Seat(0))),
    )
    .unwrap();
    client.status = "playing".to_owned();
    client
        .message(&json!({"type": "view", "table": "t1", "view": view}))
        .unwrap();
    assert!(!client.line("d3"));
    let act = rx.try_recv().unwrap();
    assert_eq!(act["type"], "act");
    assert_eq!(act["action"], json!({"play": {"Place": 19}}));
    // The connection drops and comes back: the table is opened again since the last
    // version seen, then the same act goes again.
    client.note(Note::Dropped("test".to_owned())).unwrap();
    client
        .note(Note::Connected {
            again: true,
            token: None,
        })
        .unwrap();
    let open = rx.try_recv().unwrap();
    assert_eq!(open["type"], "open");
    assert_eq!(open["since"], json!(0));
    assert_eq!(rx.try_recv().unwrap(), act);
    // Its answer (a duplicate) settles it; another move may go.
    let acked = json!({"type": "acked", "id": act["id"], "table": "t1", "version": 1,
        "duplicate": true});
    client.message(&acked).unwrap();
    assert!(client.pending.is_none());
}
