//! `wss://`: a real `tabletop serve` behind a TLS-terminating proxy on loopback (tokio-rustls
//! here, as nginx or Caddy would be in front of a real server), with the committed test
//! certificates of `tests/tls` (a private CA and a certificate for 127.0.0.1 and
//! localhost; `tests/tls/make.sh` made them). Real `tabletop` clients play through it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

use crate::online::{Player, Server, first_legal, invite};
use crate::support::temp_dir;

/// The folder of the test certificates.
pub(crate) fn tls_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls")
}

/// A TLS proxy on a loopback port in front of `backend` (`HOST:PORT`); stops, with its
/// connections, when dropped.
pub(crate) struct TlsProxy {
    /// The port it listens on, on 127.0.0.1.
    pub(crate) port: u16,
    /// How many TLS handshakes it completed.
    pub(crate) handshakes: Arc<AtomicUsize>,
    _runtime: tokio::runtime::Runtime,
}

impl TlsProxy {
    pub(crate) fn start(backend: &str) -> TlsProxy {
        let dir = tls_dir();
        let certs = CertificateDer::pem_file_iter(dir.join("server.pem"))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_file(dir.join("server.key")).unwrap();
        #[allow(deprecated)] // ring, as the client uses
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let port = listener.local_addr().unwrap().port();
        let handshakes = Arc::new(AtomicUsize::new(0));
        let counter = handshakes.clone();
        let backend = backend.to_owned();
        runtime.spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (acceptor, backend, counter) =
                    (acceptor.clone(), backend.clone(), counter.clone());
                tokio::spawn(async move {
                    // A client that does not trust the certificate aborts the handshake.
                    let Ok(mut tls) = acceptor.accept(client).await else {
                        return;
                    };
                    counter.fetch_add(1, Ordering::SeqCst);
                    let Ok(mut server) = TcpStream::connect(&backend).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
                });
            }
        });
        TlsProxy {
            port,
            handshakes,
            _runtime: runtime,
        }
    }
}

#[test]
fn reversi_is_played_through_a_tls_proxy() {
    let tmp = temp_dir("online-tls");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let proxy = TlsProxy::start(server.addr());
    let ca = tls_dir().join("ca.pem");
    // Ann names the CA with --ca-cert and the IP address; Bob with $SSL_CERT_FILE and the
    // host name the certificate also holds.
    let ann_url = format!("wss://127.0.0.1:{}", proxy.port);
    let ca_text = ca.to_str().unwrap();
    let mut ann = Player::start_with(
        "ann",
        dir,
        &["reversi", "--connect", &ann_url, "--ca-cert", ca_text],
        &[("SSL_CERT_FILE", None)],
    );
    let code = invite(&mut ann);
    let bob_url = format!("wss://localhost:{}", proxy.port);
    let mut bob = Player::start_with(
        "bob",
        dir,
        &["reversi", "--connect", &bob_url, "--invite", &code],
        &[("SSL_CERT_FILE", Some(&ca))],
    );
    bob.expect(|l| l == "You play White (O).");
    let line = ann.expect(|l| l.starts_with("Your move, Black (X): "));
    ann.type_line(&first_legal(&line));
    bob.expect(|l| l.starts_with("Black plays "));
    bob.expect(|l| l.starts_with("Your move, White (O): "));
    bob.type_line("resign");
    ann.expect(|l| l == "Game over by resignation: Black wins (you win)");
    bob.expect(|l| l == "Game over by resignation: Black wins (you lose)");
    assert!(ann.finish() && bob.finish());
    assert!(proxy.handshakes.load(Ordering::SeqCst) >= 2);
    // The identity is kept under the wss:// address.
    let identity = std::fs::read_to_string(dir.join("ann.json")).unwrap();
    assert!(identity.contains(&ann_url), "{identity}");
}

#[test]
fn an_untrusted_certificate_is_a_clear_error() {
    let tmp = temp_dir("online-tls");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let proxy = TlsProxy::start(server.addr());
    let url = format!("wss://127.0.0.1:{}", proxy.port);
    // The private CA is not among the compiled-in roots.
    let mut eve = Player::start_with(
        "eve",
        dir,
        &["reversi", "--connect", &url],
        &[("SSL_CERT_FILE", None)],
    );
    let line = eve.expect(|l| l.starts_with("! error: "));
    assert!(
        line.contains(&format!("cannot connect to {url}"))
            && line.contains("certificate is not trusted")
            && line.contains("--ca-cert"),
        "{line}"
    );
    assert!(!eve.finish());
    assert!(!eve.output().contains("panicked"), "{}", eve.output());
    // A CA file that is not one is refused before any connection.
    let bogus = dir.join("bogus.pem");
    std::fs::write(&bogus, "hello\n").unwrap();
    let args = [
        "reversi",
        "--connect",
        &url,
        "--ca-cert",
        bogus.to_str().unwrap(),
    ];
    let mut mallory = Player::start("mallory", dir, &args);
    mallory.expect(|l| l.starts_with("! error: --ca-cert ") && l.contains("no certificate"));
    assert!(!mallory.finish());
    // wss:// to a server that speaks no TLS fails cleanly too.
    let plain = format!("wss://{}", server.addr());
    let mut tom = Player::start_with(
        "tom",
        dir,
        &["reversi", "--connect", &plain],
        &[("SSL_CERT_FILE", None)],
    );
    tom.expect(|l| l.starts_with(&format!("! error: cannot connect to {plain}")));
    assert!(!tom.finish());
    assert_eq!(proxy.handshakes.load(Ordering::SeqCst), 0);
}
