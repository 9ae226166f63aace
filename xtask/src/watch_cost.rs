//! `cargo xtask watch-cost [--games N] [--tail N] [--batch N] [--arena PATH]`:
//! what `arena watch` costs following a long run (issue 70: "a run of
//! 1,000,000 games is followed at under 1 s of CPU per update, with
//! bounded memory"). Plays configs/report-10k.ron at `--games` games (as
//! `cargo xtask scale` makes its long runs: random movers, an SPRT that
//! cannot decide; a finished one in the scratch folder is reused), copies
//! it into a watched folder with its last `--tail` games cut off, starts
//! `arena watch` on it, and measures from `/proc/PID/task/*/schedstat`
//! (CPU) and `/proc/PID/status` (memory):
//!
//! - catching up with the journal (wall, CPU, resident memory);
//! - refreshes with no new game (CPU per refresh);
//! - the cut games appended `--batch` at a time every half second, as a
//!   fast run writes them (CPU per refresh, the mean and the most of any
//!   half second), until the run is complete;
//! - the most resident memory, and whether `live.json`'s figures then
//!   equal the `results.json` that `arena report` writes of the journal.
//!
//! Outputs go to a tmpfs folder (/dev/shm) when there is one.

use crate::{scale, Result};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How often the watcher refreshes (`arena::watch::REFRESH`).
const REFRESH: Duration = arena::watch::REFRESH;

struct Options {
    games: u64,
    tail: u64,
    batch: u64,
    arena: Option<PathBuf>,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        games: 1_000_000,
        tail: 20_000,
        batch: 200,
        arena: None,
    };
    let mut words = args.iter();
    let number = |w: Option<&String>, name: &str| -> Result<u64> {
        w.and_then(|t| t.replace('_', "").parse().ok())
            .ok_or(format!("{name} needs a number"))
    };
    while let Some(word) = words.next() {
        match word.as_str() {
            "--games" => o.games = number(words.next(), "--games")?,
            "--tail" => o.tail = number(words.next(), "--tail")?,
            "--batch" => o.batch = number(words.next(), "--batch")?.max(1),
            "--arena" => {
                let path = words.next().ok_or("--arena needs the path of a binary")?;
                o.arena = Some(PathBuf::from(path));
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.tail == 0 || o.tail >= o.games {
        return Err("--tail must be at least 1 and below --games".into());
    }
    Ok(o)
}

/// Runs the measurement; true when the figures matched.
pub fn run(args: &[String]) -> Result<bool> {
    let o = options(args)?;
    let (binary, base) = crate::scale::binary_and_scratch(o.arena.clone())?;
    let dir = base.join("arena-xtask-watch-cost");
    let played = dir.join(format!("run-{}", o.games));
    if scale::games_played(&played).ok() != Some(o.games) {
        let _ = std::fs::remove_dir_all(&played);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let config = scale::write_config(&dir, o.games)?;
        println!("playing {} games into {}", o.games, played.display());
        crate::check(Command::new(&binary).args([
            "run",
            &config.display().to_string(),
            "--out",
            &played.display().to_string(),
            "--quiet",
        ]))?;
    }
    let watched = dir.join("watched");
    let _ = std::fs::remove_dir_all(&watched);
    let run = watched.join("run");
    std::fs::create_dir_all(&run).map_err(|e| format!("{}: {e}", run.display()))?;
    let copy = |name: &str| {
        std::fs::copy(played.join(name), run.join(name)).map_err(|e| format!("{name}: {e}"))
    };
    copy("tournament.json")?;
    let rest = split_journal(
        &played.join("journal.jsonl"),
        &run.join("journal.jsonl"),
        o.tail,
    )?;
    let spawned = Instant::now();
    let mut w = Watcher::start(&binary, &watched)?;
    let outcome = measure(&o, &mut w, spawned, &rest, &run, &binary, &played);
    let _ = w.child.kill();
    let _ = w.child.wait();
    outcome
}

/// Copies the journal `from` to `to` but its last `tail` lines, which it
/// gives (only those are held).
fn split_journal(from: &Path, to: &Path, tail: u64) -> Result<Vec<String>> {
    let open = || std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()));
    let total = BufReader::new(open()?).lines().count() as u64;
    let keep = total.saturating_sub(tail);
    let out = std::fs::File::create(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let mut out = std::io::BufWriter::new(out);
    let mut rest = Vec::new();
    for (i, line) in BufReader::new(open()?).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", from.display()))?;
        if (i as u64) < keep {
            writeln!(out, "{line}").map_err(|e| format!("{}: {e}", to.display()))?;
        } else {
            rest.push(line);
        }
    }
    out.flush().map_err(|e| format!("{}: {e}", to.display()))?;
    Ok(rest)
}

/// Writes (or appends) `lines` to `path`.
fn write_lines(path: &Path, lines: &[String], append: bool) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    f.write_all(text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The measurement's phases, printed as a table.
fn measure(
    o: &Options,
    w: &mut Watcher,
    spawned: Instant,
    rest: &[String],
    run: &Path,
    binary: &Path,
    played: &Path,
) -> Result<bool> {
    let start = o.games - o.tail;
    // From the start: the watcher reads before it serves.
    w.until(Duration::from_secs(600), |v| {
        v["games"].as_u64() == Some(start)
    })?;
    let catch_up = (spawned.elapsed(), w.cpu()?);
    let caught_rss = w.memory("VmRSS")?;
    // The full figures follow the first refresh without new games.
    std::thread::sleep(4 * REFRESH);
    let idle = w.per_refresh(20 * REFRESH, || Ok(()))?;
    let mut batches = rest.chunks(o.batch as usize);
    let appended = w.per_refresh(
        REFRESH * (rest.len() as u32).div_ceil(o.batch as u32),
        || match batches.next() {
            Some(b) => write_lines(&run.join("journal.jsonl"), b, true),
            None => Ok(()),
        },
    )?;
    let live = w.until(Duration::from_secs(60), |v| {
        v["games"].as_u64() == Some(o.games) && v["state"] == "complete"
    })?;
    // The figures of the run's end, computed in full once games stop.
    std::thread::sleep(4 * REFRESH);
    let live = w.get_json("/run/run/live.json").unwrap_or(live);
    // What `arena report` computes of the same journal (the played run's
    // results.json may be of another build).
    crate::check(Command::new(binary).args(["report", &run.display().to_string()]))?;
    let path = run.join("results.json");
    let disk: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?,
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let equal = live["results"] == disk;
    let peak = w.memory("VmHWM")?;
    println!("| what | figure |");
    println!("| --- | ---: |");
    println!(
        "| catching up with {start} games ({:.0} MB of journal) | {:.1} s wall, {:.1} s CPU |",
        file_mb(&played.join("journal.jsonl")),
        catch_up.0.as_secs_f64(),
        catch_up.1
    );
    println!("| resident memory once caught up | {caught_rss} MB |");
    println!(
        "| a refresh with no new game (mean; most in one half second) | {:.2} ms CPU; {:.2} ms |",
        idle.0 * 1e3,
        idle.1 * 1e3
    );
    println!(
        "| a refresh with {} new games (mean; most in one half second) | {:.1} ms CPU; {:.1} ms |",
        o.batch,
        appended.0 * 1e3,
        appended.1 * 1e3
    );
    println!("| most resident memory | {peak} MB |");
    println!("| live.json's figures equal `arena report`'s results.json at the end | {equal} |");
    Ok(equal)
}

fn file_mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// `arena watch` of a folder, on a free port.
struct Watcher {
    child: Child,
    addr: String,
}

impl Watcher {
    fn start(binary: &Path, root: &Path) -> Result<Watcher> {
        let mut child = Command::new(binary)
            .args(["watch", &root.display().to_string()])
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        let mut line = String::new();
        let out = child.stdout.take().ok_or("no stdout")?;
        BufReader::new(out)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let addr = line
            .trim()
            .strip_prefix("arena watch: http://")
            .and_then(|a| a.strip_suffix('/'))
            .ok_or(format!("arena watch said {line:?}"))?
            .to_string();
        Ok(Watcher { child, addr })
    }

    /// CPU seconds its threads have run so far (the first field of each
    /// `/proc/PID/task/TID/schedstat`, in nanoseconds: finer than
    /// `/proc/PID/stat`'s clock ticks of 10 ms).
    fn cpu(&self) -> Result<f64> {
        let tasks = format!("/proc/{}/task", self.child.id());
        let mut ns = 0u64;
        for task in std::fs::read_dir(&tasks).map_err(|e| format!("{tasks}: {e}"))? {
            let path = task.map_err(|e| e.to_string())?.path().join("schedstat");
            // A thread that ended meanwhile is left out.
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            ns += text
                .split_whitespace()
                .next()
                .and_then(|f| f.parse::<u64>().ok())
                .ok_or(format!("{}: no run time", path.display()))?;
        }
        Ok(ns as f64 / 1e9)
    }

    /// A line of `/proc/PID/status` in MB (`VmRSS`, `VmHWM`).
    fn memory(&self, key: &str) -> Result<u64> {
        let path = format!("/proc/{}/status", self.child.id());
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}:")))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .map(|kb| kb / 1024)
            .ok_or(format!("{path}: no {key}"))
    }

    /// For `length`, calls `each` every refresh; the CPU per refresh:
    /// the mean, and the most of any one refresh.
    fn per_refresh(
        &self,
        length: Duration,
        mut each: impl FnMut() -> Result<()>,
    ) -> Result<(f64, f64)> {
        let began = Instant::now();
        let first = self.cpu()?;
        let mut last = first;
        let mut most: f64 = 0.0;
        let mut n = 0u32;
        while began.elapsed() < length {
            each()?;
            std::thread::sleep(REFRESH);
            let now = self.cpu()?;
            most = most.max(now - last);
            last = now;
            n += 1;
        }
        Ok(((last - first) / f64::from(n.max(1)), most))
    }

    fn get_json(&self, path: &str) -> Result<serde_json::Value> {
        let mut s = TcpStream::connect(&self.addr).map_err(|e| e.to_string())?;
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        s.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
        let mut bytes = Vec::new();
        s.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&bytes);
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        serde_json::from_str(body).map_err(|e| format!("{path}: {e}"))
    }

    /// Polls the run's `live.json` until `ok`, for at most `limit`.
    fn until(
        &self,
        limit: Duration,
        ok: impl Fn(&serde_json::Value) -> bool,
    ) -> Result<serde_json::Value> {
        let began = Instant::now();
        loop {
            if let Ok(v) = self.get_json("/run/run/live.json") {
                if ok(&v) {
                    return Ok(v);
                }
            }
            if began.elapsed() > limit {
                return Err(format!("live.json not there after {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
