//! `cargo xtask scale [--quick] [--games N,N] [--workers N,N]
//! [--plain-workers N,N] [--long-workers N,N] [--strace]
//! [--long-only | --short-only] [--arena PATH]`:
//! what a run costs per game as workers and games grow (issue 69). Runs
//! configs/report-10k.ron (random movers, an SPRT that cannot decide, so
//! what is measured is the bookkeeping) on this checkout's release build:
//! one machine with `--quiet` and with plain lines (stdout to a file, as a
//! CI job gets it), then 1, 4, 16, 64 and 256 workers (`arena run CONFIG
//! --out DIR --worker ID --concurrency 1 --quiet`, all started at once on
//! one folder) followed by `arena report DIR`, and 64 workers in plain
//! lines (`--plain-workers`: without `--quiet`, stdout to files, as a
//! Slurm array's workers run); then one machine and 4 (`--long-workers`)
//! workers at 100,000 and 1,000,000 games (the config's `max_pairs`
//! changed in a generated copy). Outputs go to a tmpfs folder (/dev/shm).
//!
//! Columns: wall time; CPU per game, user + system of every process (from
//! `wait4` of each child); read and write calls (`syscr` + `syscw` of
//! `/proc/PID/io`, read while the child is a zombie, so at no cost to the
//! run) per game of all processes, and per second of one worker. With
//! `--strace`, a second pass of each worker row under `strace -f -c -e
//! trace=%file,%desc` counts every file-system call (opens, stats,
//! directory reads, reads, writes, syncs); its times are not shown, as
//! tracing slows the run. `--arena PATH` measures that binary (another
//! commit's build) instead of this checkout's; `--long-only` runs only the
//! rows of `--games`, `--short-only` only the 10,000-game rows.

use crate::{build_arena, root, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One measured run: its processes' totals.
#[derive(Clone, Copy, Default)]
struct Cost {
    wall: Duration,
    cpu: Duration,
    /// Read and write calls of every process.
    calls: u64,
    /// The workers' own CPU and calls (the report's left out).
    worker_cpu: Duration,
    worker_calls: u64,
}

/// What `arena` is asked to do in a row.
#[derive(Clone, Copy)]
enum Kind {
    Quiet,
    Lines,
    Workers(usize),
    /// Workers without `--quiet`, their plain lines to files.
    WorkersLines(usize),
}

impl Kind {
    fn label(self) -> String {
        match self {
            Kind::Quiet => "one machine, --quiet".into(),
            Kind::Lines => "one machine, plain lines".into(),
            Kind::Workers(1) => "1 worker".into(),
            Kind::Workers(n) => format!("{n} workers"),
            Kind::WorkersLines(n) => format!("{n} workers, plain lines"),
        }
    }
}

/// The options of the task.
struct Options {
    workers: Vec<usize>,
    /// Worker counts run in plain lines too.
    plain: Vec<usize>,
    /// Worker counts of the rows of `long`.
    long_workers: Vec<usize>,
    long: Vec<u64>,
    strace: bool,
    /// Whether the 10,000-game rows are run (`--long-only`: not).
    short: bool,
    /// A binary to measure instead of this checkout's release build.
    arena: Option<PathBuf>,
}

fn options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        workers: vec![1, 4, 16, 64, 256],
        plain: vec![64],
        long_workers: vec![4],
        long: vec![100_000, 1_000_000],
        strace: false,
        arena: None,
        short: true,
    };
    let list = |w: Option<&String>, name: &str| -> Result<Vec<u64>> {
        let w = w.ok_or(format!("{name} needs a list of numbers, as 1,4,16"))?;
        w.split(',')
            .map(|n| {
                n.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("{name} {w}: give whole numbers of at least 1"))
            })
            .collect()
    };
    let mut words = args.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--quick" => {
                o.workers = vec![1, 4];
                o.plain = vec![4];
                o.long = vec![100_000];
            }
            "--workers" => {
                o.workers = list(words.next(), "--workers")?
                    .into_iter()
                    .map(|n| n as usize)
                    .collect();
            }
            "--plain-workers" => {
                o.plain = list(words.next(), "--plain-workers")?
                    .into_iter()
                    .map(|n| n as usize)
                    .collect();
            }
            "--long-workers" => {
                o.long_workers = list(words.next(), "--long-workers")?
                    .into_iter()
                    .map(|n| n as usize)
                    .collect();
            }
            "--games" => o.long = list(words.next(), "--games")?,
            "--strace" => o.strace = true,
            "--long-only" if o.long.is_empty() => {
                return Err("--short-only and --long-only leave nothing to run".into())
            }
            "--long-only" => o.short = false,
            "--short-only" if !o.short => {
                return Err("--short-only and --long-only leave nothing to run".into())
            }
            "--short-only" => o.long.clear(),
            "--arena" => {
                let path = words.next().ok_or("--arena needs the path of a binary")?;
                o.arena = Some(PathBuf::from(path));
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(o)
}

/// Runs the measurement; true when every run succeeded.
pub fn run(args: &[String]) -> Result<bool> {
    let o = options(args)?;
    let (binary, base) = binary_and_scratch(o.arena.clone())?;
    let dir = base.join(format!("arena-xtask-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    println!("| games | run | wall | CPU per game | read+write calls per game (all processes) | calls per second of one worker | fs calls per game per worker (strace) |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    let mut rows: Vec<(u64, Kind)> = Vec::new();
    if o.short {
        rows.extend([(10_000, Kind::Quiet), (10_000, Kind::Lines)]);
        rows.extend(o.workers.iter().map(|&n| (10_000, Kind::Workers(n))));
        rows.extend(o.plain.iter().map(|&n| (10_000, Kind::WorkersLines(n))));
    }
    for &g in &o.long {
        rows.push((g, Kind::Quiet));
        rows.extend(o.long_workers.iter().map(|&n| (g, Kind::Workers(n))));
    }
    for (n, (games, kind)) in rows.into_iter().enumerate() {
        let config = write_config(&dir, games)?;
        let out = dir.join(format!("run-{n}"));
        let cost = measure(&binary, &config, &out, kind, false)?;
        let played = games_played(&out)?;
        if played != games {
            return Err(format!(
                "{}: {played} games played, not {games}",
                out.display()
            ));
        }
        let _ = std::fs::remove_dir_all(&out);
        let traced = match kind {
            Kind::Workers(w) | Kind::WorkersLines(w) if o.strace => {
                let c = measure(&binary, &config, &out, kind, true)?;
                let _ = std::fs::remove_dir_all(&out);
                Some(c.worker_calls as f64 / games as f64 / w as f64)
            }
            _ => None,
        };
        print_row(games, kind, &cost, traced);
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(true)
}

/// One line of the table.
fn print_row(games: u64, kind: Kind, c: &Cost, traced: Option<f64>) {
    let workers = match kind {
        Kind::Workers(w) | Kind::WorkersLines(w) => w,
        Kind::Quiet | Kind::Lines => 1,
    };
    let per_second = c.worker_calls as f64 / workers as f64 / c.wall.as_secs_f64().max(1e-3);
    println!(
        "| {games} | {} | {:.2} s | {:.1} us | {:.2} | {:.0} | {} |",
        kind.label(),
        c.wall.as_secs_f64(),
        c.cpu.as_secs_f64() * 1e6 / games as f64,
        c.calls as f64 / games as f64,
        per_second,
        traced.map_or("".to_string(), |t| format!("{t:.2}")),
    );
}

/// The games a finished run in `out` played (its results.json's
/// `games_played`).
pub(crate) fn games_played(out: &Path) -> Result<u64> {
    let path = out.join("results.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    json["games_played"]
        .as_u64()
        .ok_or(format!("{}: no games_played", path.display()))
}

/// configs/report-10k.ron playing `games` games, with the book's path
/// made absolute, written into `dir`. Beyond its 10,000 games its SPRT
/// becomes -1 against +1 Elo with error rates of 1e-9 (bounds of about
/// ±20.7), so that the random movers' test still cannot decide (between
/// hypotheses on both sides of equal engines the LLR has no drift; 0
/// against 2 Elo drifts to the lower bound before 500,000 pairs) and every
/// game is played; the bookkeeping is the same.
pub(crate) fn write_config(dir: &Path, games: u64) -> Result<PathBuf> {
    let source = root().join("configs/report-10k.ron");
    let text =
        std::fs::read_to_string(&source).map_err(|e| format!("{}: {e}", source.display()))?;
    let book = root().join("openings/balanced-8ply.txt");
    let text = text
        .replace("max_pairs: 5000", &format!("max_pairs: {}", games / 2))
        .replace(
            "\"../openings/balanced-8ply.txt\"",
            &format!("{:?}", book.display().to_string()),
        );
    let text = if games > 10_000 {
        text.replace(
            "elo0: 0.0, elo1: 2.0, alpha: 0.001, beta: 0.001",
            "elo0: -1.0, elo1: 1.0, alpha: 0.000000001, beta: 0.000000001",
        )
    } else {
        text
    };
    if !text.contains(&format!("max_pairs: {}", games / 2)) {
        return Err(format!(
            "{}: no `max_pairs: 5000` to change",
            source.display()
        ));
    }
    let path = dir.join(format!("scale-{games}.ron"));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Runs `kind` of the run `config` into `out` (under strace when
/// `traced`, counting its calls instead of reading /proc) and adds up
/// its processes.
fn measure(binary: &Path, config: &Path, out: &Path, kind: Kind, traced: bool) -> Result<Cost> {
    let began = Instant::now();
    let cfg = config.display().to_string();
    let out_s = out.display().to_string();
    let mut cost = Cost::default();
    let mut children: Vec<(Child, PathBuf)> = Vec::new();
    match kind {
        Kind::Quiet | Kind::Lines => {
            let mut args = vec!["run", &cfg, "--out", &out_s, "--concurrency", "1"];
            if matches!(kind, Kind::Quiet) {
                args.push("--quiet");
            }
            children.push(spawn(binary, &args, out, "run", traced)?);
        }
        Kind::Workers(n) | Kind::WorkersLines(n) => {
            std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
            for w in 0..n {
                let id = format!("w{w:03}");
                let mut args = vec![
                    "run",
                    &cfg,
                    "--out",
                    &out_s,
                    "--worker",
                    &id,
                    "--concurrency",
                    "1",
                ];
                if matches!(kind, Kind::Workers(_)) {
                    args.push("--quiet");
                }
                children.push(spawn(binary, &args, out, &id, traced)?);
            }
        }
    }
    for (child, trace) in children {
        let (cpu, calls) = reap(child, traced.then_some(trace.as_path()))?;
        cost.worker_cpu += cpu;
        cost.worker_calls += calls;
    }
    if matches!(kind, Kind::Workers(_) | Kind::WorkersLines(_)) {
        let (child, trace) = spawn(binary, &["report", &out_s], out, "report", false)?;
        let (cpu, calls) = reap(child, None)?;
        drop(trace);
        cost.cpu += cpu;
        cost.calls += calls;
    }
    cost.wall = began.elapsed();
    cost.cpu += cost.worker_cpu;
    cost.calls += cost.worker_calls;
    Ok(cost)
}

/// Starts `arena ARGS` with its output in files beside `out` (`NAME.out`,
/// `NAME.err`: plain lines go to a file, not a terminal); under strace
/// when `traced`, its counts into `NAME.strace`.
fn spawn(
    binary: &Path,
    args: &[&str],
    out: &Path,
    name: &str,
    traced: bool,
) -> Result<(Child, PathBuf)> {
    let logs = out.with_extension("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    let file = |ext: &str| {
        let p = logs.join(format!("{name}.{ext}"));
        std::fs::File::create(&p).map_err(|e| format!("{}: {e}", p.display()))
    };
    let trace = logs.join(format!("{name}.strace"));
    let mut command = if traced {
        let mut c = Command::new("strace");
        c.args(["-f", "-c", "-e", "trace=%file,%desc", "-o"])
            .arg(&trace)
            .arg("--")
            .arg(binary);
        c
    } else {
        Command::new(binary)
    };
    let child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(file("out")?)
        .stderr(file("err")?)
        .spawn()
        .map_err(|e| format!("{} {}: cannot start: {e}", binary.display(), args.join(" ")))?;
    Ok((child, trace))
}

/// Waits for `child`: its user + system CPU (its threads and children
/// included) and its read and write calls: from strace's count in
/// `trace` when given, else from `/proc/PID/io` while it is a zombie.
fn reap(child: Child, trace: Option<&Path>) -> Result<(Duration, u64)> {
    let pid = libc::pid_t::try_from(child.id()).map_err(|e| e.to_string())?;
    // SAFETY: an all-zero siginfo is a valid value for waitid to fill.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child without reaping it (WNOWAIT), so
    // its /proc entry stays readable.
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOWAIT,
        )
    };
    if r != 0 {
        return Err(format!("waitid {pid}: {}", std::io::Error::last_os_error()));
    }
    let calls = match trace {
        Some(_) => 0,
        None => proc_calls(pid),
    };
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: reaps our own child, with pointers to live locals.
    if unsafe { libc::wait4(pid, &mut status, 0, &mut usage) } != pid {
        return Err(format!("wait4 {pid}: {}", std::io::Error::last_os_error()));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!(
            "arena (pid {pid}) failed (status {status}); its output is in the .logs folder beside the run"
        ));
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    let cpu = time(usage.ru_utime) + time(usage.ru_stime);
    let calls = match trace {
        Some(t) => strace_total(t)?,
        None => calls,
    };
    Ok((cpu, calls))
}

/// `syscr + syscw` of process `pid` (0 when /proc does not say).
fn proc_calls(pid: libc::pid_t) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("syscr: ")
                .or_else(|| l.strip_prefix("syscw: "))
        })
        .filter_map(|n| n.trim().parse::<u64>().ok())
        .sum()
}

/// The calls of strace's `-c` summary in `path` (its `total` line).
fn strace_total(path: &Path) -> Result<u64> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .find(|l| l.trim_end().ends_with(" total"))
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|n| n.parse().ok())
        .ok_or(format!("{}: no total line", path.display()))
}

/// The arena binary to measure (`arena`, else this checkout's release
/// build, built where cargo was told: CARGO_TARGET_DIR) and the folder
/// runs go to (tmpfs when the machine has /dev/shm).
pub(crate) fn binary_and_scratch(arena: Option<PathBuf>) -> Result<(PathBuf, PathBuf)> {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    let binary = match arena {
        Some(path) => path,
        None => build_arena(&root(), &target)?,
    };
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    Ok((binary, base))
}
