//! `report.html` as people open it: a default `dxdiff verify` run's report rendered by headless
//! Chromium (Debian's `chromium`, which `.ci/run` installs): the screenshot is not blank, the
//! console stays silent, and clicking a column header sorts the table. A planted bug's report
//! shows the counterexample with its disassembly, WGSL and differing words.

use crate::support::*;

use std::path::{Path, PathBuf};

/// The Chromium binary, if one is installed.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        eprintln!("skipped: no chromium on PATH (.ci/run installs Debian's)");
    }
    found
}

/// Open `page` headless: `--screenshot` writes `shot` (when given) and the page's console
/// messages come back from stderr (`INFO:CONSOLE` lines, whatever their level).
fn open(browser: &Path, page: &Path, shot: Option<&Path>, scratch: &Path) -> Vec<String> {
    let mut c = std::process::Command::new(browser);
    c.args([
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-logging=stderr",
        "--window-size=1400,1800",
    ])
    .arg(format!(
        "--user-data-dir={}",
        scratch.join("profile").display()
    ));
    match shot {
        Some(s) => c.arg(format!("--screenshot={}", s.display())),
        None => c.arg("--dump-dom"),
    };
    let out = c
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_string)
        .collect()
}

/// Share of the screenshot's pixels that are not white, and how many distinct colours it has.
fn ink(png_path: &Path) -> (f64, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(png_path).expect("screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let px = &buf[..info.buffer_size()];
    let mut colours = std::collections::BTreeSet::new();
    let mut inked = 0usize;
    let mut total = 0usize;
    for p in px.chunks(channels) {
        total += 1;
        if p[..3].iter().any(|v| *v < 240) {
            inked += 1;
        }
        colours.insert([p[0], p[1], p[2]]);
    }
    (inked as f64 / total.max(1) as f64, colours.len())
}

#[test]
fn the_default_verify_report_renders_and_sorts_in_chromium() {
    let Some(browser) = chromium() else {
        return;
    };
    let _turn = gpu_turn();
    let dir = temp("html", "verify");
    let Some(out) = with_adapter(
        dxdiff()
            .args(["verify", "-q", "--out"])
            .arg(&dir)
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let page = dir.join("report.html");
    let html = std::fs::read_to_string(&page).expect("report.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    // One file: nothing is fetched.
    assert!(!html.contains("src=") && !html.contains("href=\"http"));
    assert!(html.contains("Adapted lanes per catalog entry") && html.contains("<svg"));
    let shot = dir.join("shot.png");
    let console = open(&browser, &page, Some(&shot), &dir);
    assert!(console.is_empty(), "console: {console:?}");
    let (share, colours) = ink(&shot);
    assert!(
        share > 0.03 && colours > 16,
        "blank? {share} inked, {colours} colours"
    );
    // Clicking "adapted" twice sorts the programs by it, most first: the first row is the
    // program with the most adapted lanes in report.json.
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("json"))
            .expect("parses");
    let most = report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .map(|p| p["counts"]["adapted"].as_u64().unwrap_or(0))
        .max()
        .expect("a program");
    let check = dir.join("check.html");
    std::fs::write(
        &check,
        html.replace(
            "</body>",
            "<script>var t = document.querySelector('table.sortable'); var h = Array.prototype.find.call(t.querySelectorAll('th'), function (th) { return th.textContent === 'adapted'; }); h.click(); h.click(); console.log('first: ' + t.tBodies[0].rows[0].cells[h.cellIndex].textContent);</script></body>",
        ),
    )
    .expect("write");
    let console = open(&browser, &check, None, &dir);
    assert_eq!(console.len(), 1, "{console:?}");
    assert!(
        console[0].contains(&format!("\"first: {most}\"")),
        "{console:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_counterexample_shows_its_program_translation_and_words() {
    let _turn = gpu_turn();
    let dir = temp("html", "planted");
    let Some(out) = with_adapter(
        dxdiff()
            .args([
                "verify",
                "-q",
                "--cases",
                "2000",
                "--profile",
                "exact",
                "--out",
            ])
            .arg(&dir)
            .plant(Some(UDIV_BUG))
            .output()
            .expect("runs"),
    ) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    let start = html
        .find("id=\"cx-udiv\"")
        .expect("the udiv counterexample");
    let cx = &html[start..];
    assert!(
        cx.contains("udiv o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw"),
        "{cx}"
    );
    assert!(cx.contains("@fragment"), "{cx}");
    // The differing word: D3D's 0xffffffff for a division by zero beside the GPU's.
    assert!(cx.contains("0xffffffff"), "{cx}");
    assert!(html.contains("href=\"#cx-udiv\""));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).expect("json"))
            .expect("parses");
    let udiv = report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .find(|p| p["name"] == "udiv")
        .expect("udiv");
    assert!(
        !udiv["detail"]["words"]
            .as_array()
            .expect("words")
            .is_empty()
    );
    // Every differing lane is in the histogram.
    let c = &udiv["counts"];
    let differing = c["within"].as_u64().unwrap_or(0)
        + c["adapted"].as_u64().unwrap_or(0)
        + c["mismatch"].as_u64().unwrap_or(0);
    let hist: u64 = udiv["distance"]
        .as_array()
        .expect("distance")
        .iter()
        .filter_map(serde_json::Value::as_u64)
        .sum();
    assert_eq!(hist, differing);
    let _ = std::fs::remove_dir_all(&dir);
}
