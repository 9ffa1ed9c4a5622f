//! `wss://`: the terminal client's TLS (rustls on ring). A server behind a TLS reverse
//! proxy (docs/server.md) is trusted when its certificate chains to the Mozilla roots
//! compiled into the binary (the same on every system, nothing read from the OS) or to a
//! private CA the user names with `--ca-cert FILE` or `$SSL_CERT_FILE` (PEM). `ws://`
//! stays plain TCP.

use std::net::{TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ClientConfig, RootCertStore};
use tungstenite::client::IntoClientRequest;
use tungstenite::handshake::HandshakeError;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Connector, WebSocket};

use super::link::Failure;
use crate::common::{CliError, CliResult};

/// The client's TLS configuration, made once per run.
pub type Tls = Arc<ClientConfig>;

/// A connected WebSocket, plain or TLS.
pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// How long a TCP connection and the TLS and WebSocket handshakes may take.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);

/// The configuration for a `--connect` address: a usage error unless `url` is `ws://` or
/// `wss://`, then [`config`] with `--ca-cert` (`ca_cert`) or `$SSL_CERT_FILE`.
pub fn for_url(url: &str, ca_cert: Option<&Path>) -> CliResult<Tls> {
    if !(url.starts_with("ws://") || url.starts_with("wss://")) {
        return Err(CliError::usage(format!(
            "--connect takes a ws:// or wss:// address, like ws://127.0.0.1:8080, not '{url}'"
        )));
    }
    config(ca_file(ca_cert).as_deref())
}

/// The private CA file: `--ca-cert`, else `$SSL_CERT_FILE` (empty counts as unset).
pub fn ca_file(chosen: Option<&Path>) -> Option<PathBuf> {
    chosen.map(Path::to_owned).or_else(|| {
        std::env::var_os("SSL_CERT_FILE")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// The configuration that trusts the Mozilla roots and every certificate of `ca_file`
/// (a PEM file); a clear error when the file cannot be read or holds no certificate.
pub fn config(ca_file: Option<&Path>) -> CliResult<Tls> {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(file) = ca_file {
        let shown = file.display();
        let bytes =
            std::fs::read(file).map_err(|e| CliError::usage(format!("--ca-cert {shown}: {e}")))?;
        let mut added = 0;
        for cert in CertificateDer::pem_slice_iter(&bytes) {
            let cert = cert.map_err(|e| {
                CliError::usage(format!(
                    "--ca-cert {shown}: not a PEM certificate file ({e})"
                ))
            })?;
            roots.add(cert).map_err(|e| {
                CliError::usage(format!(
                    "--ca-cert {shown}: a certificate is unusable ({e})"
                ))
            })?;
            added += 1;
        }
        if added == 0 {
            return Err(CliError::usage(format!(
                "--ca-cert {shown}: no certificate in it (PEM, -----BEGIN CERTIFICATE-----)"
            )));
        }
    }
    // ring, not aws-lc-rs: no cmake nor a long C build on a 2-core machine. rustls 0.23.48
    // deprecates it for lacking post-quantum key exchange, which a game's moves can spare.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| CliError::new(format!("TLS: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Opens a WebSocket to `url` (`ws://` or `wss://`), with the TLS handshake and the
/// certificate check for `wss://`; every step bounded by [`HANDSHAKE_WAIT`]. A failure
/// is the user's to fix (an untrusted certificate, a bad address) or worth trying again
/// (the server is down, the network is).
pub fn open(url: &str, tls: &Tls) -> Result<Socket, Failure> {
    let fatal = Failure::Fatal;
    let retry = Failure::Retry;
    let request = url
        .into_client_request()
        .map_err(|e| fatal(format!("{url} is not a WebSocket address: {e}")))?;
    let uri = request.uri();
    let host = uri
        .host()
        .ok_or_else(|| fatal(format!("{url} has no host")))?;
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let secure = uri.scheme_str() == Some("wss");
    let port = uri.port_u16().unwrap_or(if secure { 443 } else { 80 });
    let addrs = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| retry(format!("cannot connect to {url}: {e}")))?;
    let mut last = format!("cannot connect to {url}: the host has no address");
    let stream = addrs
        .into_iter()
        .find_map(
            |addr| match TcpStream::connect_timeout(&addr, HANDSHAKE_WAIT) {
                Ok(stream) => Some(stream),
                Err(e) => {
                    last = format!("cannot connect to {url}: {e}");
                    None
                }
            },
        )
        .ok_or_else(|| retry(last))?;
    let _ = stream.set_nodelay(true);
    // A server that stops answering mid-handshake fails the attempt instead of hanging.
    let _ = stream.set_read_timeout(Some(HANDSHAKE_WAIT));
    let _ = stream.set_write_timeout(Some(HANDSHAKE_WAIT));
    let connector = if secure {
        Connector::Rustls(tls.clone())
    } else {
        Connector::Plain
    };
    match tungstenite::client_tls_with_config(request, stream, None, Some(connector)) {
        Ok((socket, _)) => Ok(socket),
        Err(HandshakeError::Interrupted(_)) => Err(retry(format!(
            "cannot connect to {url}: the server did not finish the handshake"
        ))),
        Err(HandshakeError::Failure(e)) => Err(match certificate_problem(&e) {
            Some(why) => fatal(format!(
                "cannot connect to {url}: the server's certificate is not trusted ({why}); \
                 if a private CA signed it, name its certificate with --ca-cert FILE or \
                 $SSL_CERT_FILE"
            )),
            None if secure && is_tls_error(&e) => fatal(format!("cannot connect to {url}: {e}")),
            None => retry(format!("cannot connect to {url}: {e}")),
        }),
    }
}

/// The rustls error inside a failed handshake, if it is one.
fn rustls_error(e: &tungstenite::Error) -> Option<&rustls::Error> {
    match e {
        tungstenite::Error::Io(io) => io.get_ref()?.downcast_ref::<rustls::Error>(),
        tungstenite::Error::Tls(tungstenite::error::TlsError::Rustls(e)) => Some(e),
        _ => None,
    }
}

/// Whether the handshake failed in TLS itself (a protocol mismatch, a refused alert).
fn is_tls_error(e: &tungstenite::Error) -> bool {
    rustls_error(e).is_some() || matches!(e, tungstenite::Error::Tls(_))
}

/// The certificate check's verdict in words, when that is what failed.
fn certificate_problem(e: &tungstenite::Error) -> Option<String> {
    match rustls_error(e)? {
        rustls::Error::InvalidCertificate(why) => Some(format!("{why:?}")),
        rustls::Error::NoCertificatesPresented => Some("it presented none".to_owned()),
        _ => None,
    }
}

/// Lets reads on `socket` wait at most `wait`, plain or TLS.
pub fn set_read_timeout(socket: &Socket, wait: Duration) {
    let stream = match socket.get_ref() {
        MaybeTlsStream::Plain(stream) => stream,
        MaybeTlsStream::Rustls(tls) => tls.get_ref(),
        _ => return,
    };
    let _ = stream.set_read_timeout(Some(wait));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_without_certificates_is_a_clear_error() {
        let dir = crate::test_support::temp_dir("tls");
        let file = dir.path().join("empty.pem");
        std::fs::write(&file, "not a certificate\n").unwrap();
        let error = config(Some(&file)).err().unwrap();
        assert!(
            error.message().contains("no certificate"),
            "{}",
            error.message()
        );
        let missing = config(Some(&dir.path().join("missing.pem"))).err().unwrap();
        assert!(missing.message().contains("missing.pem"));
        assert!(config(None).is_ok());
    }
}
