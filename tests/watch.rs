//! `arena watch`, through the binary: what it serves (the index, a run's
//! page and its figures, equal to results.json), and its promises: read
//! only, nothing outside the root or beyond the page's files, every run's
//! text escaped, bad and oversized requests refused, slow clients unable
//! to stall others, SIGTERM answered at once with 130. Every test talks
//! to 127.0.0.1 only and is bounded in time.

use crate::util::repo;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test.
pub fn tmp(name: &str) -> PathBuf {
    crate::util::fresh("watch", name)
}

/// Plays a round robin of two random movers (`rounds` pairs) into `out`.
pub fn played(dir: &Path, out: &Path, rounds: u64) {
    let config = dir.join(format!("rr-{rounds}.ron"));
    let text = format!(
        "Tournament(\n  name: \"rr\",\n  engines: [Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: Random, seed: 2))],\n  format: RoundRobin(rounds: {rounds}),\n  book: (file: {:?}, order: Sequential, start: 0),\n  concurrency: 1,\n  seed: 1,\n  out: \"out\",\n)\n",
        repo("openings/all-4ply.txt"),
    );
    std::fs::write(&config, text).unwrap();
    let out_arg = out.to_str().unwrap();
    let r = crate::util::arena_in_within(
        dir,
        &["run", config.to_str().unwrap(), "--out", out_arg, "--quiet"],
        Duration::from_secs(60),
    );
    assert!(r.status.success(), "{}", crate::util::stderr(&r));
}

/// `arena watch ROOT` on a free port of 127.0.0.1, killed when dropped.
pub struct Watcher {
    /// The watcher's process.
    pub child: Child,
    /// Where it listens (`127.0.0.1:PORT`).
    pub addr: String,
}

impl Watcher {
    /// Starts it with `more` arguments and reads the address it prints.
    pub fn start(root: &Path, more: &[&str]) -> Watcher {
        Watcher::start_to(root, more, Stdio::piped())
    }

    /// As [`Watcher::start`], its standard error going to `stderr`.
    pub fn start_to(root: &Path, more: &[&str], stderr: Stdio) -> Watcher {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["watch", root.to_str().unwrap(), "--listen", "127.0.0.1:0"])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("arena watch: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("no address line: {line:?}")
            })
            .to_string();
        Watcher { child, addr }
    }

    /// The raw response to `request` (sent as is).
    pub fn raw(&self, request: &[u8]) -> Response {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(request).unwrap();
        let mut bytes = Vec::new();
        let _ = s.read_to_end(&mut bytes);
        Response::parse(&bytes)
    }

    /// `METHOD path`, the connection closed after it.
    pub fn request(&self, method: &str, path: &str) -> Response {
        let req = format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        self.raw(req.as_bytes())
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path)
    }

    /// `GET path` parsed as JSON (status 200 checked).
    pub fn json(&self, path: &str) -> serde_json::Value {
        let r = self.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        serde_json::from_str(&r.body).unwrap()
    }

    /// Polls `GET path` (JSON) until `ok` holds, for at most `limit`.
    pub fn until(
        &self,
        path: &str,
        limit: Duration,
        ok: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let v = self.json(path);
            if ok(&v) {
                return v;
            }
            assert!(start.elapsed() < limit, "{path} after {limit:?}: {v}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status, headers (names lowercased), body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    fn parse(bytes: &[u8]) -> Response {
        let text = String::from_utf8_lossy(bytes);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_string()))
            .collect();
        Response {
            status,
            headers,
            body: body.to_string(),
        }
    }

    /// The header `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Every file under `dir` with its length and modification time.
fn listing(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let m = std::fs::symlink_metadata(e.path()).unwrap();
            if m.is_dir() {
                stack.push(e.path());
            }
            all.push((e.path(), m.len(), m.modified().unwrap()));
        }
    }
    all.sort();
    all
}

#[test]
fn watch_serves_each_run_s_figures_as_results_json_holds_them_and_nothing_else() {
    let dir = tmp("serves");
    let root = dir.join("root");
    played(&dir, &root.join("nightly/a"), 20);
    // A run outside the root, reached by a symbolic link from inside it.
    played(&dir, &dir.join("outside"), 5);
    std::os::unix::fs::symlink(dir.join("outside"), root.join("link")).unwrap();
    let before = listing(&root);
    let w = Watcher::start(&root, &[]);
    assert!(w.addr.starts_with("127.0.0.1:"), "{}", w.addr);
    let rows = w.json("/runs.json");
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["name"], "nightly/a");
    assert_eq!(rows[0]["kind"], "round robin");
    assert_eq!(rows[0]["state"], "complete");
    assert_eq!(rows[0]["games"], 40);
    let live = w.json("/run/nightly/a/live.json");
    let disk: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("nightly/a/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        live["results"], disk,
        "live.json's figures are results.json's"
    );
    assert_eq!(live["last_games"].as_array().unwrap().len(), 12);
    for path in [
        "/",
        "/runs.json",
        "/run/nightly/a/",
        "/run/nightly/a/live.json",
        "/run/nightly/a/figures.html",
        "/static/watch.js",
        "/static/report.css",
    ] {
        let r = w.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            r.header("content-security-policy"),
            Some("default-src 'self'"),
            "{path}"
        );
    }
    let page = w.get("/run/nightly/a/").body;
    assert!(
        page.contains("<svg") && page.contains("/static/watch.js"),
        "{page}"
    );
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "no inline script or style"
    );
    assert_eq!(w.request("HEAD", "/").status, 200);
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let r = w.request(method, "/run/nightly/a/live.json");
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(
            r.header("content-security-policy"),
            Some("default-src 'self'")
        );
    }
    for path in [
        "/run/nightly/a/journal.jsonl",
        "/run/nightly/a/results.json",
        "/run/nightly/a/tournament.json",
        "/run/nightly/../nightly/a/",
        "/run/%2e%2e/root/nightly/a/",
        "/run/nightly%2fa%2f..%2f..%2f..%2foutside/",
        "/run/link/",
        "/run/link/live.json",
        "/run/%2Fetc/",
        "//etc/passwd",
        "/etc/passwd",
        "/static/../Cargo.toml",
        "/static/%2e%2e/Cargo.toml",
        "/nightly/a/journal.jsonl",
        "/run/nightly/a/%zz",
    ] {
        assert_eq!(w.get(path).status, 404, "{path}");
    }
    let absolute = w.raw(
        b"GET http://127.0.0.1/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(absolute.status, 404);
    // Refused by hyper before the service runs: the policy is there too.
    let mut big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ".to_vec();
    big.extend(std::iter::repeat_n(b'a', 20 * 1024));
    big.extend(b"\r\n\r\n");
    for (request, status) in [
        (&b"NOT A REQUEST\r\n\r\n"[..], 400),
        (&b"GET / HTTP/1.1\r\nHost x\r\n\r\n"[..], 400),
        (&big[..], 431),
    ] {
        let r = w.raw(request);
        assert_eq!(r.status, status);
        assert_eq!(
            r.header("content-security-policy"),
            Some("default-src 'self'"),
            "{status}"
        );
    }
    assert_eq!(listing(&root), before, "nothing written under the root");
}

#[test]
fn a_name_from_a_journal_shows_as_text_never_as_markup() {
    let dir = tmp("escape");
    let root = dir.join("root");
    played(&dir, &dir.join("plain"), 3);
    // The run's files rewritten by hand, engine b renamed.
    let evil = "<script>alert(1)</script>";
    std::fs::create_dir_all(root.join("evil")).unwrap();
    for file in ["tournament.json", "journal.jsonl"] {
        let text = std::fs::read_to_string(dir.join("plain").join(file)).unwrap();
        let text = text.replace("\"b\"", &serde_json::to_string(evil).unwrap());
        std::fs::write(root.join("evil").join(file), text).unwrap();
    }
    // And a run whose folder's name is markup.
    let folder = "<img src=x onerror=alert(1)>";
    played(&dir, &root.join(folder), 1);
    let w = Watcher::start(&root, &[]);
    let live = w.json("/run/evil/live.json");
    assert_eq!(live["games"], 6, "{live}");
    let last = &live["last_games"][0];
    assert!(last["black"] == evil || last["white"] == evil, "{last}");
    for path in ["/run/evil/", "/run/evil/figures.html"] {
        let body = w.get(path).body;
        assert!(!body.contains(evil), "{path} holds the name as markup");
        assert!(
            body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{path}: {body}"
        );
    }
    let index = w.get("/").body;
    assert!(!index.contains(folder), "{index}");
    assert!(
        index.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{index}"
    );
    let page = w.get("/run/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E/");
    assert_eq!(page.status, 200);
    assert!(!page.body.contains(folder), "{}", page.body);
}

#[test]
fn slow_clients_do_not_stall_a_quick_one() {
    let dir = tmp("slow");
    played(&dir, &dir.join("root/a"), 2);
    let w = Watcher::start(&dir.join("root"), &[]);
    let slow: Vec<TcpStream> = (0..100)
        .map(|_| {
            let mut s = TcpStream::connect(&w.addr).unwrap();
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    let r = w.get("/runs.json");
    assert_eq!(r.status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    drop(slow);
}

#[test]
fn sigterm_and_ctrl_c_end_the_watcher_at_once_with_130() {
    let dir = tmp("signals");
    played(&dir, &dir.join("root/a"), 1);
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let mut w = Watcher::start(&dir.join("root"), &[]);
        let pid = i32::try_from(w.child.id()).unwrap();
        // SAFETY: kill(2) of the child this test started.
        unsafe { libc::kill(pid, signal) };
        let start = Instant::now();
        let status = loop {
            if let Some(s) = w.child.try_wait().unwrap() {
                break s;
            }
            assert!(start.elapsed() < Duration::from_secs(5), "still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130));
    }
    let r = crate::util::arena(&["watch", dir.join("nothing").to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = crate::util::stderr(&r);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("nothing"), "{err}");
    let r = crate::util::arena(&["watch", ".", "--listen", "nowhere"]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn a_run_followed_as_it_grows_is_replaced_deleted_and_new_ones_appear() {
    let dir = tmp("grows");
    played(&dir, &dir.join("done"), 10);
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("live")).unwrap();
    let done = dir.join("done");
    std::fs::copy(
        done.join("tournament.json"),
        root.join("live/tournament.json"),
    )
    .unwrap();
    let journal = std::fs::read_to_string(done.join("journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let write = |n: usize| {
        let text: String = lines[..=n].iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(root.join("live/journal.jsonl"), text).unwrap();
    };
    write(4);
    let w = Watcher::start(&root, &[]);
    let limit = Duration::from_secs(10);
    w.until("/run/live/live.json", limit, |v| {
        v["games"] == 4 && v["state"] == "playing"
    });
    // Appended to: read from where it stopped.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(root.join("live/journal.jsonl"))
        .unwrap();
    for l in &lines[5..=12] {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    w.until("/run/live/live.json", limit, |v| v["games"] == 12);
    // Replaced by a shorter journal (--overwrite): the page starts over.
    let fresh = root.join("live/journal.new");
    let text: String = lines[..=2].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&fresh, text).unwrap();
    std::fs::rename(&fresh, root.join("live/journal.jsonl")).unwrap();
    w.until("/run/live/live.json", limit, |v| v["games"] == 2);
    // A new run appears; the first is deleted.
    played(&dir, &root.join("later/b"), 3);
    w.until("/runs.json", limit, |v| {
        v.as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "later/b" && r["games"] == 6)
    });
    std::fs::remove_dir_all(root.join("live")).unwrap();
    w.until("/runs.json", limit, |v| {
        v.as_array()
            .unwrap()
            .iter()
            .any(|r| r["name"] == "live" && r["state"] == "gone")
    });
}

#[test]
fn a_run_of_workers_shows_each_worker_and_the_figures_arena_report_writes() {
    let dir = tmp("workers");
    let config = dir.join("rr.ron");
    let text = format!(
        "Tournament(\n  name: \"rr\",\n  engines: [Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: Random, seed: 2))],\n  format: RoundRobin(rounds: 150),\n  book: (file: {:?}, order: Sequential, start: 0),\n  concurrency: 1,\n  seed: 1,\n  out: \"out\",\n)\n",
        repo("openings/all-4ply.txt"),
    );
    std::fs::write(&config, text).unwrap();
    let out = dir.join("root/shared");
    std::fs::create_dir_all(dir.join("root")).unwrap();
    let w = Watcher::start(&dir.join("root"), &[]);
    let mut children: Vec<Child> = ["w1", "w2", "w3", "w4"]
        .iter()
        .map(|id| crate::workers::worker(&config, &out, id, &[]))
        .collect();
    let start = Instant::now();
    for c in &mut children {
        while c.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(120) {
                children.iter_mut().for_each(|c| drop(c.kill()));
                panic!("the workers did not finish");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let live = w.until("/run/shared/live.json", Duration::from_secs(10), |v| {
        v["games"] == 300
            && v["workers"]
                .as_array()
                .is_some_and(|a| a.len() == 4 && a.iter().all(|w| w["state"] == "ended"))
    });
    for worker in live["workers"].as_array().unwrap() {
        assert!(worker["pid"].as_u64().unwrap() > 0, "{worker}");
        assert!(!worker["host"].as_str().unwrap().is_empty(), "{worker}");
        assert_eq!(worker["state"], "ended", "{worker}");
    }
    let played: u64 = live["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["games"].as_u64().unwrap())
        .sum();
    assert!(played >= 300, "{live}");
    let r = crate::util::arena(&["report", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", crate::util::stderr(&r));
    let disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(
        live["results"], disk,
        "live.json's figures are arena report's"
    );
}

#[test]
fn on_decision_runs_once_for_a_run_seen_playing_when_it_ends() {
    let dir = tmp("decision");
    played(&dir, &dir.join("done"), 4);
    played(&dir, &dir.join("root/over"), 2);
    let root = dir.join("root");
    std::fs::create_dir_all(root.join("live")).unwrap();
    std::fs::copy(
        dir.join("done/tournament.json"),
        root.join("live/tournament.json"),
    )
    .unwrap();
    let journal = std::fs::read_to_string(dir.join("done/journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    let path = root.join("live/journal.jsonl");
    let text: String = lines[..4].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let out = dir.join("decided.jsonl");
    let command = format!("sh -c 'cat >> \"{}\"'", out.display());
    let w = Watcher::start(&root, &["--on-decision", &command]);
    let limit = Duration::from_secs(10);
    w.until("/run/live/live.json", limit, |v| v["state"] == "playing");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    for l in &lines[4..] {
        writeln!(f, "{l}").unwrap();
    }
    drop(f);
    w.until("/run/live/live.json", limit, |v| v["state"] == "complete");
    let start = Instant::now();
    let text = loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        if text.ends_with('\n') || start.elapsed() > limit {
            break text;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // Another second: nothing more (once per run; the run already over
    // when the watcher started never fires).
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    assert_eq!(text.lines().count(), 1, "{text}");
    let row: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(row["name"], "live");
    assert_eq!(row["state"], "complete");
    assert_eq!(row["games"], 8);
}
