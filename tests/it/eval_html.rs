//! `toolscout eval --html`: the report is one self-contained file (no script, no external reference),
//! and a real headless browser (Debian `chromium`) renders its charts: the screenshot holds the line
//! colour of every ranker — checked on the pixels, not on the markup.

use std::process::Command;

use crate::support::{index, root, run_ok, toolscout};

/// The colours of the first four series (eval/src/html.rs).
const COLOURS: [[u8; 3]; 4] = [[0x1f, 0x77, 0xb4], [0xd6, 0x27, 0x28], [0x2c, 0xa0, 0x2c], [0xff, 0x7f, 0x0e]];

#[test]
fn the_html_report_renders_its_curves_in_a_headless_browser() {
    let dir = tempfile::tempdir().expect("tempdir");
    let html = dir.path().join("report.html");
    run_ok(
        toolscout()
            .args(["eval", "--index"])
            .arg(index())
            .arg("--queries")
            .arg(root().join("data/eval/indep-demo.jsonl"))
            .args(["--near-miss", "--baseline", "all", "--html"])
            .arg(&html),
    );
    let page = std::fs::read_to_string(&html).expect("report");
    for forbidden in ["<script", " src=", " href=", "url("] {
        assert!(!page.contains(forbidden), "not self-contained: {forbidden}");
    }
    assert_eq!(page.matches("<svg").count(), 2, "two charts");
    assert!(page.contains("id-001"), "the per-query table");

    let png = dir.path().join("report.png");
    let shot = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1000"])
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .expect("chromium is installed by scripts/setup-chromium.sh");
    assert!(png.exists(), "no screenshot: {}", String::from_utf8_lossy(&shot.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).expect("png")));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("frame");
    assert_eq!((info.width, info.height), (1280, 1000));
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    for colour in COLOURS {
        let n = pixels.iter().filter(|p| p[..3] == colour).count();
        assert!(n >= 40, "ranker colour {colour:02x?} drawn on {n} pixels: the charts did not render");
    }
    let white = pixels.iter().filter(|p| p[..3] == [255, 255, 255]).count();
    assert!(white < pixels.len() * 97 / 100, "the page is blank");
}
