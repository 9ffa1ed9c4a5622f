//! Embeds the built browser app (`web/` with its generated `web/pkg`) in the server, so
//! that `tabletop serve` alone serves it at `/`. Writes `$OUT_DIR/web_files.rs`: a list
//! of `(path, include_bytes!(…))`, empty when the app has not been built (a fresh clone,
//! or this crate packaged alone); the server then serves a page that says how to build it.
//! A generated `include_bytes!` list keeps the files as they are; the wasm and the bots'
//! files beside it (`pkg/*.bin`: reversi's pattern weights and nardy's network, which
//! the page's worker fetches for the bots that need them) are also gzipped here, once
//! (`$OUT_DIR/NAME.gz`, in `GZIPPED`), for the clients that accept it.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The app's files: the page, its modules and styles, the games' modules, the generated
/// bindings and the weights beside them; never the tests or the README.
fn app_files(web: &Path) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for dir in ["", "games", "pkg"] {
        let Ok(entries) = std::fs::read_dir(web.join(dir)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.'))
            .filter(|n| {
                [".html", ".js", ".css", ".wasm", ".bin"]
                    .iter()
                    .any(|x| n.ends_with(x))
            })
            .collect();
        names.sort();
        for name in names {
            let path = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            files.push((path, web.join(dir).join(&name)));
        }
    }
    files
}

/// `bytes` gzipped at the best compression.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    // A directory is scanned as a whole: building the app (web/pkg) or editing a page file
    // embeds the new files.
    println!("cargo::rerun-if-changed={}", web.display());
    let built = web.join("pkg/tabletop_wasm_bg.wasm").is_file() && web.join("index.html").is_file();
    let mut out =
        String::from("/// The embedded app: (path, bytes), empty when it was not built.\n");
    out.push_str("pub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    if built {
        for (name, path) in app_files(&web) {
            let path = path.canonicalize().expect("a listed file exists");
            writeln!(
                out,
                "    ({name:?}, include_bytes!({:?})),",
                path.display().to_string()
            )
            .expect("writing to a string");
        }
    }
    out.push_str("];\n");
    out.push_str(
        "/// The gzipped copies of the large files (the wasm, the weights): (path, gzip bytes).\n\
         pub(crate) static GZIPPED: &[(&str, &[u8])] = &[\n",
    );
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    if built {
        for (name, path) in app_files(&web)
            .into_iter()
            .filter(|(n, _)| n.ends_with(".wasm") || n.ends_with(".bin"))
        {
            let gz = out_dir.join(format!("{}.gz", name.replace('/', "_")));
            std::fs::write(
                &gz,
                gzip(&std::fs::read(&path).expect("a listed file reads")),
            )
            .expect("OUT_DIR is writable");
            writeln!(
                out,
                "    ({name:?}, include_bytes!({:?})),",
                gz.display().to_string()
            )
            .expect("writing to a string");
        }
    }
    out.push_str("];\n");
    let dest = out_dir.join("web_files.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
