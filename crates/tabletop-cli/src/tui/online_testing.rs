//! What the tests of the online screens share: a real server on 127.0.0.1 (in process,
//! over a temporary SQLite file), a loopback proxy in front of it whose connections a
//! test can cut (a network drop), and a loop that ticks a screen until something holds.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tabletop_server::{Config, Server};
use tempfile::TempDir;

use super::{Ctx, GameScreen};
use crate::online::ConnectArgs;

/// A server on its own runtime, stopped when dropped.
pub struct TestServer {
    rt: Option<tokio::runtime::Runtime>,
    /// Its address.
    pub addr: SocketAddr,
    /// The folder of its database (and the tests' identity files), removed when dropped
    /// (after the runtime: fields drop in order).
    pub dir: TempDir,
}

impl TestServer {
    /// Starts a server over a new SQLite file on a free loopback port.
    pub fn start(name: &str) -> TestServer {
        let dir = crate::test_support::temp_dir(&format!("tui-{name}"));
        let config = Config {
            listen: "127.0.0.1:0".parse().expect("an address"),
            database: format!("sqlite://{}", dir.path().join("server.db").display()),
            bot_threads: 1,
            messages_per_second: 1000,
            message_burst: 1000,
            ..Config::default()
        };
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let addr = rt.block_on(async move {
            let server = Server::start(config).await.expect("the server starts");
            let addr = server.local_addr();
            // The server runs until its runtime is shut down.
            std::mem::forget(server);
            addr
        });
        TestServer {
            rt: Some(rt),
            addr,
            dir,
        }
    }

    /// The arguments of `--connect URL` with an identity file of `who`'s.
    pub fn args(&self, url: &str, who: &str) -> ConnectArgs {
        ConnectArgs {
            connect: Some(url.to_owned()),
            identity: Some(self.dir.path().join(format!("{who}.json"))),
            ..ConnectArgs::default()
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

/// A loopback TCP proxy to a server: [`Proxy::cut`] closes every connection through it
/// and turns new ones away (the network is down) until [`Proxy::restore`].
pub struct Proxy {
    /// Its address.
    pub addr: SocketAddr,
    open: Arc<Mutex<Vec<TcpStream>>>,
    down: Arc<AtomicBool>,
}

impl Proxy {
    /// A proxy to `server`, accepting on a thread of its own until the test ends.
    pub fn start(server: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let addr = listener.local_addr().expect("an address");
        let open = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&open);
        let down = Arc::new(AtomicBool::new(false));
        let is_down = Arc::clone(&down);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if is_down.load(Ordering::SeqCst) {
                    let _ = client.shutdown(std::net::Shutdown::Both);
                    continue;
                }
                let Ok(upstream) = TcpStream::connect(server) else {
                    continue;
                };
                let pipe = |mut from: TcpStream, mut to: TcpStream| {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                };
                if let (Ok(c), Ok(u)) = (client.try_clone(), upstream.try_clone()) {
                    pipe(c, u);
                }
                if let (Ok(c), Ok(u)) = (client.try_clone(), upstream.try_clone()) {
                    pipe(u, c);
                }
                let mut open = kept.lock().expect("the list of connections");
                open.push(client);
                open.push(upstream);
            }
        });
        Proxy { addr, open, down }
    }

    /// The proxy's WebSocket URL.
    pub fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// Lets connections through again.
    pub fn restore(&self) {
        self.down.store(false, Ordering::SeqCst);
    }

    /// Closes every connection through the proxy and turns new ones away.
    pub fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for stream in self.open.lock().expect("the list").drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// Fails unless a screen session's `log` has a line containing `text`.
pub fn assert_logged(log: &[String], text: &str) {
    assert!(
        log.iter().any(|l| l.contains(text)),
        "no {text:?} in {log:?}"
    );
}

/// Ticks `screen` every 10 ms until `done` holds (failing after `limit`); returns the
/// messages it said meanwhile.
pub fn tick_until<S: GameScreen + ?Sized>(
    screen: &mut S,
    limit: Duration,
    what: &str,
    mut done: impl FnMut(&S) -> bool,
) -> Vec<String> {
    let start = Instant::now();
    let mut said = Vec::new();
    loop {
        let mut ctx = Ctx::default();
        screen.tick(Instant::now(), &mut ctx);
        said.extend(ctx.take_message());
        if done(screen) {
            return said;
        }
        assert!(
            start.elapsed() < limit,
            "timed out waiting for {what}; said: {said:?}; status: {}",
            screen.status()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
