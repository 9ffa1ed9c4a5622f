//! The browser app over plain HTTP beside the WebSocket at `/`: the page and its files
//! with their content types and ETags, 404 for anything else (and for every way out of
//! the app's folder), the embedded wasm gzipped for a client that takes it, and the
//! protocol still at `/` for an upgrade.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use tabletop_server::{Config, Server, WebApp};

use crate::support::{Client, temp_db};

/// One HTTP/1.1 request on a fresh connection: (status, headers in lower case, body).
fn http(addr: SocketAddr, method: &str, path: &str, extra: &str) -> (u16, String, Vec<u8>) {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        tcp,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..end]).to_lowercase();
    let status = head[9..12].parse().unwrap();
    (status, head, raw[end + 4..].to_vec())
}

fn header<'a>(head: &'a str, name: &str) -> &'a str {
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or("")
}

async fn start(web: WebApp) -> (tempfile::TempDir, Server) {
    let (dir, db) = temp_db();
    let config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: format!("sqlite://{}", db.display()),
        bot_threads: 1,
        ..Config::default()
    };
    (dir, Server::start_with(config, web).await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_is_served_beside_the_protocol_and_nothing_else_is() {
    let site = tempfile::tempdir().unwrap();
    let app = site.path().join("web");
    std::fs::create_dir_all(app.join("games")).unwrap();
    std::fs::create_dir_all(app.join("tests")).unwrap();
    std::fs::write(
        app.join("index.html"),
        "<html><head><title>t</title></head><body>app</body></html>",
    )
    .unwrap();
    std::fs::write(app.join("app.js"), "export const x = 1;\n").unwrap();
    std::fs::write(app.join("games/nardy.js"), "export default {};\n").unwrap();
    std::fs::write(app.join("README.md"), "notes\n").unwrap();
    std::fs::write(app.join("tests/harness.js"), "secret\n").unwrap();
    std::fs::write(app.join(".env"), "secret\n").unwrap();
    std::fs::write(site.path().join("outside.js"), "secret\n").unwrap();
    let (_db, server) = start(WebApp::Dir(app)).await;
    let addr = server.local_addr();

    let (code, head, page) = tokio::task::spawn_blocking(move || http(addr, "GET", "/", ""))
        .await
        .unwrap();
    assert_eq!(code, 200);
    assert_eq!(header(&head, "content-type"), "text/html; charset=utf-8");
    assert_eq!(header(&head, "cache-control"), "no-cache");
    let page = String::from_utf8(page).unwrap();
    assert!(
        page.contains("<meta name=\"tabletop-server\" content=\"1\">"),
        "the page knows a server serves it: {page}"
    );
    let checks = tokio::task::spawn_blocking(move || {
        let (code, head, body) = http(addr, "GET", "/games/nardy.js", "");
        assert_eq!(
            (code, header(&head, "content-type")),
            (200, "text/javascript; charset=utf-8")
        );
        assert_eq!(body, b"export default {};\n");
        // The ETag answers a second visit with 304 and no body.
        let etag = header(&head, "etag").to_owned();
        assert!(etag.starts_with('"'), "{head}");
        let (code, _, body) = http(
            addr,
            "GET",
            "/games/nardy.js",
            &format!("If-None-Match: {etag}\r\n"),
        );
        assert_eq!((code, body.len()), (304, 0));
        for path in [
            "/nothing.js",
            "/README.md",
            "/tests/harness.js",
            "/.env",
            "/../outside.js",
            "/games/../../outside.js",
            "/games/%2e%2e/%2e%2e/outside.js",
            "/games",
        ] {
            let (code, _, body) = http(addr, "GET", path, "");
            assert_eq!(code, 404, "{path}");
            assert!(!String::from_utf8_lossy(&body).contains("secret"), "{path}");
        }
        assert_eq!(
            http(addr, "POST", "/app.js", "Content-Length: 0\r\n").0,
            405
        );
        assert_eq!(http(addr, "GET", "/health", "").2, b"ok\n");
    });
    checks.await.unwrap();

    // The protocol is where it was: a WebSocket at `/`.
    let client = Client::guest(&format!("ws://{addr}/")).await;
    assert!(client.player.starts_with('p'), "{}", client.player);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_copy_serves_the_app_or_says_how_to_build_it() {
    let (_db, server) = start(WebApp::Embedded).await;
    let addr = server.local_addr();
    tokio::task::spawn_blocking(move || {
        let (code, head, page) = http(addr, "GET", "/", "");
        assert_eq!(
            (code, header(&head, "content-type")),
            (200, "text/html; charset=utf-8")
        );
        let page = String::from_utf8(page).unwrap();
        let (code, head, _) = http(addr, "GET", "/pkg/tabletop_wasm_bg.wasm", "");
        if WebApp::embedded_app() {
            assert!(
                page.contains("<script type=\"module\" src=\"app.js\">"),
                "{page}"
            );
            assert_eq!(
                (code, header(&head, "content-type")),
                (200, "application/wasm")
            );
            // Gzipped (at build time) for a client that takes it, the same bytes inside.
            let (_, raw_head, raw) = http(addr, "GET", "/pkg/tabletop_wasm_bg.wasm", "");
            assert_eq!(header(&raw_head, "content-encoding"), "", "{raw_head}");
            assert_eq!(header(&raw_head, "vary"), "accept-encoding");
            assert!(raw.starts_with(b"\0asm"));
            let (code, gz_head, gz) = http(
                addr,
                "GET",
                "/pkg/tabletop_wasm_bg.wasm",
                "Accept-Encoding: gzip, deflate, br\r\n",
            );
            assert_eq!(code, 200);
            assert_eq!(header(&gz_head, "content-encoding"), "gzip", "{gz_head}");
            assert_eq!(header(&gz_head, "content-type"), "application/wasm");
            assert_eq!(header(&gz_head, "vary"), "accept-encoding");
            assert_ne!(header(&gz_head, "etag"), header(&raw_head, "etag"));
            assert!(gz.len() * 2 < raw.len(), "{} of {}", gz.len(), raw.len());
            let mut unzipped = Vec::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_end(&mut unzipped)
                .unwrap();
            assert!(unzipped == raw, "the gzip holds the wasm");
            let refused = http(
                addr,
                "GET",
                "/pkg/tabletop_wasm_bg.wasm",
                "Accept-Encoding: gzip;q=0\r\n",
            );
            assert_eq!(header(&refused.1, "content-encoding"), "");
            // Reversi's weights and nardy's network, which the worker fetches: there, as
            // they are and gzipped, with an ETag.
            for (path, file) in [
                (
                    "/pkg/reversi-patterns.bin",
                    &include_bytes!("../../../reversi-core/src/ai/patterns.bin")[..],
                ),
                (
                    "/pkg/nardy-weights.bin",
                    &include_bytes!("../../../nardy-core/src/ai/weights.bin")[..],
                ),
            ] {
                let (code, raw_head, raw) = http(addr, "GET", path, "");
                assert_eq!(
                    (code, header(&raw_head, "content-type")),
                    (200, "application/octet-stream"),
                    "{path}"
                );
                assert!(raw == file, "{path}: the shipped file, as it is");
                let (code, gz_head, gz) = http(addr, "GET", path, "Accept-Encoding: gzip\r\n");
                assert_eq!(code, 200);
                assert_eq!(header(&gz_head, "content-encoding"), "gzip", "{gz_head}");
                assert!(
                    gz.len() < raw.len(),
                    "{path}: {} of {}",
                    gz.len(),
                    raw.len()
                );
                let mut unzipped = Vec::new();
                flate2::read::GzDecoder::new(&gz[..])
                    .read_to_end(&mut unzipped)
                    .unwrap();
                assert!(unzipped == file, "{path}: the gzip holds the file");
                let etag = header(&gz_head, "etag");
                let again = http(
                    addr,
                    "GET",
                    path,
                    &format!("Accept-Encoding: gzip\r\nIf-None-Match: {etag}\r\n"),
                );
                assert_eq!((again.0, again.2.len()), (304, 0), "{path}");
            }
            // The page itself goes as it is.
            let (_, page_head, _) = http(addr, "GET", "/", "Accept-Encoding: gzip\r\n");
            assert_eq!(header(&page_head, "content-encoding"), "");
        } else {
            assert!(page.contains("wasm-bindgen --target web"), "{page}");
            assert!(page.contains("web/pkg/nardy-weights.bin"), "{page}");
            assert_eq!(code, 404);
        }
        assert_eq!(http(addr, "GET", "/tests/harness.js", "").0, 404);
    })
    .await
    .unwrap();
    server.stop().await;
}
