//! `tabletop serve --web DIR` as a process: it serves the folder's page at `/` beside the
//! protocol, and refuses a folder without a page with a clear message.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use crate::serve::KillOnDrop;
use crate::support::temp_dir;

#[test]
fn serve_web_serves_the_folder_and_refuses_one_without_a_page() {
    let tmp = temp_dir("web");
    let dir = tmp.path();
    let db = format!("sqlite://{}", dir.join("s.sqlite").display());
    let out = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--database",
            &db,
            "--web",
        ])
        .arg(dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no index.html in that folder"), "{err}");

    std::fs::write(
        dir.join("index.html"),
        "<html><head></head><body>the page</body></html>",
    )
    .unwrap();
    let dir_text = dir.display().to_string();
    let (child, addr) = crate::serve::start_serve(&[
        "--listen",
        "127.0.0.1:0",
        "--database",
        &db,
        "--web",
        &dir_text,
    ]);
    let mut child = KillOnDrop(child);
    let mut tcp = TcpStream::connect(&addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        tcp,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    tcp.read_to_string(&mut reply).unwrap();
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(reply.contains("the page"), "{reply}");
    assert!(reply.contains("<meta name=\"tabletop-server\""), "{reply}");
}
