//! The server's parser of a client's text frame (`tabletop_server::protocol::parse`, what
//! each session runs on every frame): arbitrary bytes never panic, a refused frame gets an
//! error with a code, and an accepted message written back as JSON parses to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabletop_server::protocol::{ClientMessage, ServerMessage, parse};

fn check(text: &str) {
    match parse(text) {
        Ok(message) => {
            let again = serde_json::to_string(&message).expect("a message writes as JSON");
            assert_eq!(parse(&again).ok(), Some(message), "{again}");
        }
        Err(ServerMessage::Error { code, .. }) => assert!(!code.is_empty()),
        Err(other) => panic!("parse answered {other:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    // The server reads only text frames (UTF-8); every byte string becomes one here.
    let text = String::from_utf8_lossy(data);
    check(&text);
    // Also as the fields of a message of a known type (picked by the first byte), so the
    // fuzzer reaches each message's fields quickly.
    if let Some((&pick, rest)) = data.split_first() {
        let kind = ClientMessage::TYPES[usize::from(pick) % ClientMessage::TYPES.len()];
        let rest = String::from_utf8_lossy(rest);
        check(&format!(r#"{{"type":"{kind}","id":"f",{rest}"#));
    }
});
