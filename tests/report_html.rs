//! `report.html` from real runs of the binary (`run`, `report`, `merge`),
//! rendered by a real browser: headless Chromium reads the page from
//! `file://`, its DOM must hold the expected figures and the Elo of
//! `results.json`, and its screenshots at desktop and phone widths must not
//! be blank. Without `chromium` on the PATH (`.ci/run` installs Debian's)
//! the browser half says why and is skipped.

use crate::util::{repo, stderr};
use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The longest a Chromium call may take before it is killed.
const BROWSER_LIMIT: Duration = Duration::from_secs(60);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-report-html-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn arena(args: &[&str]) -> Output {
    let out = crate::util::arena(args);
    assert!(
        matches!(out.status.code(), Some(0 | 3)),
        "arena {args:?}: {}",
        stderr(&out)
    );
    out
}

/// A small SPRT config (the two feature-weight engines at depth 1, at most
/// 12 pairs) writing into `out`.
fn sprt_config(dir: &Path, out: &Path) -> PathBuf {
    let r = |p: &str| repo(p).display().to_string();
    let config = dir.join("sprt.ron");
    let text = format!(
        "Tournament(name: \"html-sprt\", engines: [Path({:?}), Path({:?})], \
         format: Sprt(elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05, model: Normalized, max_pairs: 12), \
         book: (file: {:?}, order: Random, start: 0), seed: 5, concurrency: 2, \
         limit: Some(Depth(1)), out: {:?})",
        r("engines/features-v1.ron"),
        r("engines/features-v2.ron"),
        r("openings/balanced-8ply.txt"),
        path(out),
    );
    std::fs::write(&config, text).unwrap();
    config
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn run_report_and_merge_write_the_page_and_a_browser_draws_it() {
    let dir = scratch("all");
    let sprt = dir.join("sprt");
    let config = sprt_config(&dir, &sprt);
    arena(&["run", path(&config), "--quiet"]);
    let page = read(&sprt.join("report.html"));
    assert!(
        page.contains("<svg id=\"llr\""),
        "an SPRT's page has its LLR"
    );

    // `report` rebuilds the same page from the journal (dated by it).
    std::fs::remove_file(sprt.join("report.html")).unwrap();
    arena(&["report", path(&sprt)]);
    assert_eq!(read(&sprt.join("report.html")), page);

    // Shards and their merge.
    for k in ["1/2", "2/2"] {
        let out = dir.join(format!("shard-{}", &k[..1]));
        arena(&[
            "run",
            path(&config),
            "--shard",
            k,
            "--out",
            path(&out),
            "--quiet",
        ]);
        assert!(read(&out.join("report.html")).contains(&format!("no verdict (shard {k})")));
    }
    let merged = dir.join("merged");
    let (a, b) = (dir.join("shard-1"), dir.join("shard-2"));
    arena(&["merge", path(&a), path(&b), "--out", path(&merged)]);
    let merged_page = read(&merged.join("report.html"));
    assert!(merged_page.contains("merged from shards"));

    let quick = dir.join("quick");
    let q = repo("configs/quick.ron");
    arena(&[
        "run",
        path(&q),
        "--rounds",
        "1",
        "--out",
        path(&quick),
        "--quiet",
    ]);
    assert!(read(&quick.join("report.html")).contains("<svg id=\"crosstable-heatmap\""));

    let Some(chromium) = crate::util::program(
        "chromium",
        "the browser half: .ci/run installs Debian's chromium",
    ) else {
        return;
    };
    in_the_browser(&chromium, &dir, &sprt, &quick);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The DOM and screenshots of both pages in Chromium.
fn in_the_browser(chromium: &Path, dir: &Path, sprt: &Path, quick: &Path) {
    let dom = dump_dom(chromium, dir, &sprt.join("report.html"));
    for id in [
        "llr",
        "elo-over-pairs",
        "pentanomial",
        "disc-histogram",
        "llr-narrow",
    ] {
        assert!(
            dom.contains(&format!("<svg id=\"{id}\"")),
            "no svg#{id} in the DOM"
        );
    }
    assert!(dom.contains("id=\"opening-table\""));
    header_elo_is_the_results_elo(&dom, &read(&sprt.join("results.json")));

    let dom = dump_dom(chromium, dir, &quick.join("report.html"));
    for id in [
        "ratings",
        "crosstable-heatmap",
        "pentanomial",
        "disc-histogram",
    ] {
        assert!(
            dom.contains(&format!("<svg id=\"{id}\"")),
            "no svg#{id} in the DOM"
        );
    }
    assert!(!dom.contains("<svg id=\"llr\""), "a round-robin has no LLR");

    for (page, name) in [(sprt, "sprt"), (quick, "quick")] {
        for (width, height) in [(1280, 2000), (390, 2000)] {
            let png = dir.join(format!("{name}-{width}.png"));
            screenshot(
                chromium,
                dir,
                &page.join("report.html"),
                &png,
                (width, height),
            );
            not_blank(&png, (width, height), 50);
        }
    }
}

/// The Elo shown in the page's header (`<span id="header-elo" ...
/// data-elo="E">12.34 ± 5.67</span>`) is `results.json`'s.
fn header_elo_is_the_results_elo(dom: &str, results: &str) {
    let json: serde_json::Value = serde_json::from_str(results).unwrap();
    let elo = json["head_to_head"]["elo"]
        .as_f64()
        .expect("a finite Elo in results.json (the test's engines are close)");
    let at = dom
        .find("id=\"header-elo\"")
        .expect("the header shows an Elo");
    let span = &dom[at..];
    let data = span.split("data-elo=\"").nth(1).unwrap();
    let data: f64 = data[..data.find('"').unwrap()].parse().unwrap();
    assert_eq!(data, elo, "data-elo");
    let text = &span[span.find('>').unwrap() + 1..];
    let shown = text.split(" ± ").next().unwrap().trim();
    let expected = format!("{elo:.2}");
    let expected = expected
        .strip_prefix('-')
        .filter(|r| r.trim_matches(['0', '.']).is_empty())
        .unwrap_or(&expected);
    assert_eq!(shown, expected, "the header's Elo");
}

/// Chromium, headless, without a sandbox, GPU or anything reaching the
/// network (but a server on this machine the page is from), with a profile of its own under `dir`.
pub(crate) fn browser(chromium: &Path, dir: &Path) -> Command {
    let profile = dir.join(format!("profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut c = Command::new(chromium);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Runs `command` with its output in `out`, killing it and its process
/// group after [`BROWSER_LIMIT`].
pub(crate) fn bounded(mut command: Command, out: &Path) {
    use std::os::unix::process::CommandExt;
    let file = File::create(out).unwrap();
    let mut child = command
        .stdout(file)
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium failed: {status}");
            return;
        }
        if start.elapsed() > BROWSER_LIMIT {
            let group = i32::try_from(child.id()).unwrap();
            // SAFETY: kill(2) on the process group this test started.
            unsafe { libc::kill(-group, libc::SIGKILL) };
            let _ = child.wait();
            panic!("chromium took more than {BROWSER_LIMIT:?}; killed");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn url(page: &Path) -> String {
    format!("file://{}", page.canonicalize().unwrap().display())
}

fn dump_dom(chromium: &Path, dir: &Path, page: &Path) -> String {
    let mut c = browser(chromium, dir);
    c.arg("--dump-dom").arg(url(page));
    let out = dir.join("dom.html");
    bounded(c, &out);
    read(&out)
}

fn screenshot(chromium: &Path, dir: &Path, page: &Path, png: &Path, (w, h): (u32, u32)) {
    let mut c = browser(chromium, dir);
    c.arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={w},{h}"))
        .arg(url(page));
    bounded(c, &dir.join("screenshot.log"));
}

/// The screenshot `png` is `size` and shows a page: more than `colours`
/// colours, and plenty of pixels that are not the background.
pub(crate) fn not_blank(png: &Path, (w, h): (u32, u32), least: usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (w, h), "{}", png.display());
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let colours: HashSet<&[u8]> = pixels.iter().map(|p| &p[..channels.min(3)]).collect();
    let background = pixels[0];
    let ink = pixels.iter().filter(|p| **p != background).count();
    assert!(
        colours.len() > least,
        "{}: {} colours",
        png.display(),
        colours.len()
    );
    let share = ink as f64 / pixels.len() as f64;
    assert!(
        share > 0.03,
        "{}: {:.1}% not background",
        png.display(),
        100.0 * share
    );
}
