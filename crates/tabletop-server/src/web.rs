//! The browser app over plain HTTP: `GET /` (without a WebSocket upgrade) and the app's
//! files, from the copy embedded at build time (`build.rs`) or from a folder given at
//! start (`tabletop serve --web DIR`, for development). Every answer has its content
//! type, an ETag and `Cache-Control: no-cache` (the names do not change between builds,
//! so the browser asks again and gets `304 Not Modified` while nothing changed). The
//! embedded wasm, reversi's weights (`pkg/reversi-patterns.bin`) and nardy's network
//! (`pkg/nardy-weights.bin`) go gzipped
//! (`Content-Encoding: gzip`, compressed once by `build.rs`) to a client whose
//! `Accept-Encoding` takes gzip.

use std::borrow::Cow;
use std::path::PathBuf;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// Where the browser app comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum WebApp {
    /// The copy embedded in the binary when it was built (a page saying how to build the
    /// app when it was not there).
    #[default]
    Embedded,
    /// The files of a folder, read at each request (`web/` after the wasm build).
    Dir(PathBuf),
}

/// Marks the page as served by a game server: the app then shows the lobby.
const MARK: &str = "<meta name=\"tabletop-server\" content=\"1\">";

/// The page served at `/` when the app was not built into this binary.
const NOT_BUILT: &str = "<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Tabletop server</title></head>
<body><h1>Tabletop server</h1>
<p>This server speaks the game protocol on a WebSocket at this address, but its binary was
built without the browser app. Build the app, then the server, from the repository's root:</p>
<pre>cargo install wasm-bindgen-cli --version 0.2.100 --locked
cargo build --target wasm32-unknown-unknown --profile wasm -p tabletop-wasm
wasm-bindgen --target web --no-typescript --out-dir web/pkg target/wasm32-unknown-unknown/wasm/tabletop_wasm.wasm
cp crates/reversi-core/src/ai/patterns.bin web/pkg/reversi-patterns.bin
cp crates/nardy-core/src/ai/weights.bin web/pkg/nardy-weights.bin
cargo build --release -p tabletop-cli</pre>
<p>or serve the folder: <code>tabletop serve --web web</code>.</p>
</body></html>
";

impl WebApp {
    /// Whether the embedded copy holds the app (the wasm was built before the server).
    pub fn embedded_app() -> bool {
        !embedded::FILES.is_empty()
    }

    /// The answer to `GET path` (the request's path, starting with `/`).
    pub(crate) async fn get(&self, path: &str, headers: &HeaderMap) -> Response {
        let Some(name) = file_name(path) else {
            return not_found();
        };
        let Some(kind) = content_type(&name) else {
            return not_found();
        };
        let bytes: Cow<'static, [u8]> = match self {
            WebApp::Embedded => match embedded::FILES.iter().find(|(n, _)| *n == name) {
                Some((_, bytes)) => Cow::Borrowed(bytes),
                None if name == "index.html" && !WebApp::embedded_app() => {
                    Cow::Borrowed(NOT_BUILT.as_bytes())
                }
                None => return not_found(),
            },
            WebApp::Dir(dir) => match tokio::fs::read(dir.join(&name)).await {
                Ok(bytes) => Cow::Owned(bytes),
                Err(_) => return not_found(),
            },
        };
        let bytes = if name == "index.html" {
            Cow::Owned(marked(&bytes))
        } else {
            bytes
        };
        // The gzipped copy, when this file has one (embedded only) and the client takes it.
        let gzipped = match self {
            WebApp::Embedded => embedded::GZIPPED.iter().find(|(n, _)| *n == name),
            WebApp::Dir(_) => None,
        };
        let (bytes, gzip) = match gzipped {
            Some((_, gz)) if accepts_gzip(headers) => (Cow::Borrowed(*gz), true),
            _ => (bytes, false),
        };
        let etag = format!("\"{}\"", hex(&Sha256::digest(&bytes)[..12]));
        let fresh = headers
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
        let mut response = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            (StatusCode::OK, bytes.into_owned()).into_response()
        };
        let h = response.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        if let Ok(v) = HeaderValue::from_str(&etag) {
            h.insert(header::ETAG, v);
        }
        if gzipped.is_some() {
            h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        if gzip {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        response
    }
}

/// The file a request path names, relative to the app's folder; `None` for anything
/// that could leave it or reach what is not the app: `..`, hidden names, backslashes,
/// escapes, the tests.
fn file_name(path: &str) -> Option<String> {
    let rest = path.strip_prefix('/')?;
    if rest.is_empty() {
        return Some("index.html".into());
    }
    let segments: Vec<&str> = rest.split('/').collect();
    let clean = segments.iter().all(|s| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    });
    (clean && segments[0] != "tests").then(|| segments.join("/"))
}

/// Whether a request's `Accept-Encoding` takes gzip (`gzip` or `*`, without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// The content type of a file the app serves, by its extension; `None`: not served.
fn content_type(name: &str) -> Option<&'static str> {
    let ext = name.rsplit_once('.')?.1;
    Some(match ext {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        // reversi's pattern weights and nardy's network, fetched by the page's worker
        "bin" => "application/octet-stream",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        _ => return None,
    })
}

/// The page with the server's mark in its head.
fn marked(page: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    match text.find("</head>") {
        Some(at) => format!("{}{MARK}\n{}", &text[..at], &text[at..]).into_bytes(),
        None => page.to_vec(),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found\n",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_inside_the_app_are_files() {
        assert_eq!(file_name("/").as_deref(), Some("index.html"));
        assert_eq!(
            file_name("/games/nardy.js").as_deref(),
            Some("games/nardy.js")
        );
        for bad in [
            "/../Cargo.toml",
            "/games/../../x.js",
            "/.git/config",
            "//etc/passwd",
            "/a%2e%2e/x.js",
            "/games\\x.js",
            "/tests/harness.js",
            "/games/",
        ] {
            assert_eq!(file_name(bad), None, "{bad}");
        }
        assert_eq!(
            content_type("pkg/tabletop_wasm_bg.wasm"),
            Some("application/wasm")
        );
        assert_eq!(content_type("README.md"), None);
    }

    #[test]
    fn gzip_is_sent_only_to_who_takes_it() {
        let with = |value: &str| {
            let mut h = HeaderMap::new();
            h.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(value).unwrap(),
            );
            accepts_gzip(&h)
        };
        assert!(with("gzip, deflate, br"));
        assert!(with("br;q=1.0, GZIP;q=0.5"));
        assert!(with("*"));
        assert!(!with("gzip;q=0"));
        assert!(!with("br, deflate"));
        assert!(!with("identity"));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn the_page_is_marked_as_served() {
        let page = marked(b"<html><head><title>x</title></head><body></body></html>");
        let page = String::from_utf8(page).unwrap();
        assert!(page.contains(&format!("{MARK}\n</head>")), "{page}");
    }
}
