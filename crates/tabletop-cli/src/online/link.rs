//! The connection to the server, on its own thread: a blocking WebSocket polled every few
//! milliseconds for both directions. It says `hello` with the kept token, and when the
//! connection drops it connects again by itself, with a growing pause between attempts,
//! for a bounded time. What to do after a reconnection (open the table again with
//! `since`, resend an unacknowledged move) is the client's: the link only tells it.

use std::sync::mpsc::{Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::Message;

use super::tls::{self, Socket, Tls};

/// What the link tells the client.
#[derive(Debug)]
pub enum Note {
    /// Connected and welcomed (`again`: after a drop); `token` is a new guest's token.
    Connected {
        /// Whether this is a reconnection.
        again: bool,
        /// The token of a new guest, to keep.
        token: Option<String>,
    },
    /// A message of the server (a JSON object with a `type`).
    Message(Value),
    /// The connection dropped: the link is trying again.
    Dropped(String),
    /// The link gave up (the server is unreachable or refused the identity).
    Failed(String),
}

/// How long a read waits before the link looks for messages to send.
const POLL: Duration = Duration::from_millis(20);
/// Silence after which the link pings the server.
const PING_AFTER: Duration = Duration::from_secs(15);
/// Silence after which the connection counts as dropped.
const SILENCE: Duration = Duration::from_secs(40);
/// How long the server may take to answer `hello`.
const HELLO_WAIT: Duration = Duration::from_secs(10);
/// The longest pause between two connection attempts.
const MAX_PAUSE: Duration = Duration::from_secs(4);
/// How long the link keeps trying after a drop before it gives up.
const GIVE_UP: Duration = Duration::from_secs(120);

/// Runs the link until the client goes away (its sender is dropped) or the link gives
/// up. `notes` wraps each note into the client's input type.
pub fn run<T>(
    url: String,
    tls: Tls,
    mut token: Option<String>,
    outgoing: Receiver<Value>,
    notes: Sender<T>,
    wrap: fn(Note) -> T,
) {
    let tell = |note: Note| notes.send(wrap(note)).is_ok();
    let mut again = false;
    loop {
        let mut pause = Duration::from_millis(250);
        let since = Instant::now();
        let mut socket = loop {
            match connect(&url, &tls, token.as_deref()) {
                Ok((socket, new_token)) => {
                    // Whatever the client sent while there was no connection is stale: it
                    // sends again what matters once it hears of the new connection.
                    while outgoing.try_recv().is_ok() {}
                    if new_token.is_some() {
                        token.clone_from(&new_token);
                    }
                    if !tell(Note::Connected {
                        again,
                        token: new_token,
                    }) {
                        return;
                    }
                    break socket;
                }
                Err(Fatal(message)) => {
                    tell(Note::Failed(message));
                    return;
                }
                Err(Retry(message)) => {
                    // The first connection fails at once: the user may have mistyped.
                    if !again || since.elapsed() > GIVE_UP {
                        tell(Note::Failed(message));
                        return;
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(MAX_PAUSE);
                }
            }
        };
        match pump(&mut socket, &outgoing, &tell) {
            Ok(()) => {
                let _ = socket.close(None);
                return;
            }
            Err(why) => {
                if !tell(Note::Dropped(why)) {
                    return;
                }
                again = true;
            }
        }
    }
}

/// Why a connection attempt failed: worth trying again, or not.
pub(crate) enum Failure {
    /// The server or the network may come back.
    Retry(String),
    /// Trying again cannot help.
    Fatal(String),
}
use Failure::{Fatal, Retry};

/// Whether a socket read failed only because its read timeout passed (the socket is
/// fine: read again).
pub(crate) fn read_timed_out(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(e) if matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    ))
}

/// Connects and says hello; the new guest's token, if the server made one.
pub(crate) fn connect(
    url: &str,
    tls: &Tls,
    token: Option<&str>,
) -> Result<(Socket, Option<String>), Failure> {
    let mut socket = tls::open(url, tls)?;
    // A server that says nothing within this time counts as a dropped connection.
    set_timeout(&socket, HELLO_WAIT);
    let mut hello = json!({"type": "hello", "protocol": 1});
    if let Some(token) = token {
        hello["token"] = json!(token);
    }
    socket
        .send(Message::text(hello.to_string()))
        .map_err(|e| Retry(format!("{url}: {e}")))?;
    loop {
        let message = socket.read().map_err(|e| Retry(format!("{url}: {e}")))?;
        let Message::Text(text) = message else {
            continue;
        };
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| Fatal(format!("{url} is not a tabletop server: {e}")))?;
        match value.get("type").and_then(Value::as_str) {
            Some("welcome") => {
                let token = value
                    .get("token")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                set_timeout(&socket, POLL);
                return Ok((socket, token));
            }
            Some("error") => {
                let code = value.get("code").and_then(Value::as_str).unwrap_or("");
                let message = value.get("message").and_then(Value::as_str).unwrap_or("");
                return Err(Fatal(match code {
                    "bad_token" => format!(
                        "the server does not know your identity ({message}); use another \
                         --identity file, or remove yours to play as a new guest"
                    ),
                    _ => format!("the server refused the connection: {message} ({code})"),
                }));
            }
            _ => {}
        }
    }
}

/// Lets reads wait at most `wait` ([`POLL`] once welcomed, so the loop can send in
/// between).
fn set_timeout(socket: &Socket, wait: Duration) {
    tls::set_read_timeout(socket, wait);
}

/// Moves messages both ways until the client is gone (`Ok`) or the connection drops.
fn pump(
    socket: &mut Socket,
    outgoing: &Receiver<Value>,
    tell: &dyn Fn(Note) -> bool,
) -> Result<(), String> {
    // A silent server is pinged; one that stays silent counts as gone (a network that
    // vanished closes nothing).
    let mut heard = Instant::now();
    let mut pinged = false;
    loop {
        if heard.elapsed() > SILENCE {
            return Err("the server stopped answering".to_owned());
        }
        if !pinged && heard.elapsed() > PING_AFTER {
            socket
                .send(Message::Ping(Default::default()))
                .map_err(|e| e.to_string())?;
            pinged = true;
        }
        loop {
            match outgoing.try_recv() {
                Ok(message) => socket
                    .send(Message::text(message.to_string()))
                    .map_err(|e| e.to_string())?,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        let read = socket.read();
        if read.is_ok() {
            heard = Instant::now();
            pinged = false;
        }
        match read {
            Ok(Message::Text(text)) => {
                // A frame that is not a JSON object is skipped: a later protocol may
                // send what this client does not know.
                if let Ok(value @ Value::Object(_)) = serde_json::from_str::<Value>(&text)
                    && !tell(Note::Message(value))
                {
                    return Ok(());
                }
            }
            Ok(Message::Close(frame)) => {
                let why = frame.map_or_else(String::new, |f| f.reason.to_string());
                return Err(if why.is_empty() {
                    "the server closed the connection".to_owned()
                } else {
                    format!("the server closed the connection: {why}")
                });
            }
            Ok(_) => {}
            Err(e) if read_timed_out(&e) => {}
            Err(e) => return Err(e.to_string()),
        }
    }
}
