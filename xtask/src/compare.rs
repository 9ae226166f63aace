//! `cargo xtask compare REF [--rounds N] [--paired] -- ARENA_ARGS...`:
//! the user CPU of one arena command built from REF and from this
//! checkout, as a ratio measured in one run on one machine.
//!
//! REF is built in a worktree of its own (`target/xtask/ref-COMMIT`, kept
//! for the next comparison), this checkout into `target/`. Each round runs
//! the command once with each binary:
//!
//! - alternating (the default): one after the other, the other core idle,
//!   the order swapped each round;
//! - `--paired`: both at once, one pinned to each core (taskset), the
//!   cores swapped each round: both runs see the same neighbours, caches
//!   and clock, so each round gives a ratio of its own and a change of 2%
//!   shows where alternating rounds vary by 10%.
//!
//! User CPU comes from wait4(2) of each run (the ratio is of user CPU);
//! wall times are shown beside it. `{out}` in the arguments
//! becomes a fresh folder for each run (a run's output folder), and each
//! run's stdout is kept in `target/xtask/compare/` to be compared.

use crate::{build_arena, check, output, root, scratch, Result};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What to compare, from the command line.
struct Plan {
    reference: String,
    rounds: usize,
    paired: bool,
    args: Vec<String>,
}

fn plan(args: &[String]) -> Result<Plan> {
    let split = args
        .iter()
        .position(|a| a == "--")
        .ok_or("give the arena command after --, e.g. cargo xtask compare main -- bench")?;
    let (ours, arena_args) = (&args[..split], &args[split + 1..]);
    if arena_args.is_empty() {
        return Err("no arena command after --".into());
    }
    let mut plan = Plan {
        reference: String::new(),
        rounds: 5,
        paired: false,
        args: arena_args.to_vec(),
    };
    let mut words = ours.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--paired" => plan.paired = true,
            "--rounds" => {
                let n = words.next().ok_or("--rounds needs a number")?;
                plan.rounds = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or(format!("--rounds {n}: give a whole number of at least 1"))?;
            }
            other if other.starts_with('-') => return Err(format!("unknown flag {other}")),
            other if plan.reference.is_empty() => plan.reference = other.to_string(),
            other => return Err(format!("one REF only, got {other} too")),
        }
    }
    if plan.reference.is_empty() {
        return Err("give the reference commit (REF), e.g. main or b0f527e".into());
    }
    Ok(plan)
}

/// Runs the comparison; true when every run succeeded.
pub fn run(args: &[String]) -> Result<bool> {
    let plan = plan(args)?;
    let git = |args: &[&str]| output(Command::new("git").args(args).current_dir(root()));
    let commit = git(&[
        "rev-parse",
        "--verify",
        &format!("{}^{{commit}}", plan.reference),
    ])?;
    let head = git(&["rev-parse", "--short=12", "HEAD"])?;
    let dirty = !git(&["status", "--porcelain", "--untracked-files=no"])?.is_empty();
    let reference = reference_binary(&commit)?;
    eprintln!("compare: building this checkout");
    let ours = build_arena(&root(), &root().join("target"))?;
    // A copy, so that a build during the rounds changes nothing.
    let dir = scratch().join("compare");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let ours_copy = dir.join("arena-this-checkout");
    std::fs::copy(&ours, &ours_copy).map_err(|e| format!("{}: {e}", ours.display()))?;
    let binaries = [reference, ours_copy];
    let cpus = arena::util::par::cores();
    if plan.paired && cpus < 2 {
        return Err("--paired needs two cores".into());
    }
    let mut rounds: Vec<[Times; 2]> = Vec::new();
    for round in 0..plan.rounds {
        let t = if plan.paired {
            paired_round(&binaries, &plan.args, round, &dir)?
        } else {
            alternating_round(&binaries, &plan.args, round, &dir)?
        };
        eprintln!(
            "round {}: user CPU reference {:.3} s, this checkout {:.3} s, ratio {:.3}",
            round + 1,
            t[0].user.as_secs_f64(),
            t[1].user.as_secs_f64(),
            ratio(t[1].user, t[0].user)
        );
        rounds.push(t);
    }
    let short = &commit[..12.min(commit.len())];
    let this = format!(
        "{head}{}",
        if dirty {
            " (with uncommitted changes)"
        } else {
            ""
        }
    );
    print_table(&plan, short, &this, &rounds);
    Ok(true)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// The arena binary of `commit`, built in a worktree of its own (both kept
/// for the next comparison of the same commit).
fn reference_binary(commit: &str) -> Result<PathBuf> {
    let short = &commit[..12.min(commit.len())];
    let tree = scratch().join(format!("ref-{short}"));
    if !tree.join("Cargo.toml").exists() {
        let _ = std::fs::remove_dir_all(&tree);
        check(
            Command::new("git")
                .args(["worktree", "add", "--detach", "--force"])
                .arg(&tree)
                .arg(commit)
                .current_dir(root())
                .stdout(Stdio::null()),
        )?;
    }
    eprintln!("compare: building {short} in {}", tree.display());
    build_arena(&tree, &tree.join("target"))
}

/// `args` with `{out}` made a fresh folder for run `label`.
fn arguments(args: &[String], dir: &Path, label: &str) -> Vec<String> {
    let out = dir.join(format!("out-{label}"));
    let _ = std::fs::remove_dir_all(&out);
    args.iter()
        .map(|a| a.replace("{out}", &out.display().to_string()))
        .collect()
}

/// Starts `binary` with `args` (on core `core` when given), its stdout and
/// stderr to the files `LABEL.out` and `LABEL.err` of `dir`.
pub(crate) fn start(
    binary: &Path,
    args: &[String],
    core: Option<usize>,
    dir: &Path,
    label: &str,
) -> Result<Child> {
    let file = |ext: &str| {
        std::fs::File::create(dir.join(format!("{label}.{ext}")))
            .map_err(|e| format!("{}: {e}", dir.display()))
    };
    let (stdout, stderr) = (file("out")?, file("err")?);
    let mut command = match core {
        Some(c) => {
            let mut t = Command::new("taskset");
            t.arg("-c").arg(c.to_string()).arg(binary);
            t
        }
        None => Command::new(binary),
    };
    command
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("{} cannot start: {e}", binary.display()))
}

/// A run's user CPU and wall time.
#[derive(Clone, Copy, Default)]
pub(crate) struct Times {
    pub user: Duration,
    pub wall: Duration,
}

/// Waits for `child`, started at `began`; its times. Fails when it did
/// not exit 0.
pub(crate) fn times(child: Child, began: Instant, label: &str) -> Result<Times> {
    let pid = libc::pid_t::try_from(child.id()).map_err(|e| e.to_string())?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with pointers to live locals.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if r != pid {
        return Err(format!(
            "{label}: wait4 failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!(
            "{label}: the arena command failed (status {status}); its output is in target/xtask/compare/{label}.out and .err"
        ));
    }
    let wall = began.elapsed();
    let t = usage.ru_utime;
    let user = Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    Ok(Times { user, wall })
}

const LABELS: [&str; 2] = ["reference", "this-checkout"];

/// One alternating round: each binary alone, in turn (the order swapped
/// on odd rounds).
fn alternating_round(
    binaries: &[PathBuf; 2],
    args: &[String],
    round: usize,
    dir: &Path,
) -> Result<[Times; 2]> {
    let mut t = [Times::default(); 2];
    let order = if round.is_multiple_of(2) {
        [0, 1]
    } else {
        [1, 0]
    };
    for i in order {
        let label = format!("{}-{}", LABELS[i], round + 1);
        let args = arguments(args, dir, &label);
        let began = Instant::now();
        t[i] = times(
            start(&binaries[i], &args, None, dir, &label)?,
            began,
            &label,
        )?;
    }
    Ok(t)
}

/// One paired round: both binaries at once, one on each of cores 0 and 1
/// (swapped on odd rounds).
fn paired_round(
    binaries: &[PathBuf; 2],
    args: &[String],
    round: usize,
    dir: &Path,
) -> Result<[Times; 2]> {
    let labels = LABELS.map(|l| format!("{l}-{}", round + 1));
    let mut children = Vec::new();
    for i in 0..2 {
        let core = (i + round) % 2;
        let args = arguments(args, dir, &labels[i]);
        let began = Instant::now();
        match start(&binaries[i], &args, Some(core), dir, &labels[i]) {
            Ok(child) => children.push((child, began)),
            Err(e) => {
                // The one already started is not left running on its core.
                for (mut child, _) in children {
                    let _ = child.kill();
                    let _ = child.wait();
                }
                return Err(e);
            }
        }
    }
    // Each run is waited for on a thread of its own, so that each one's
    // wall time is read when it ends (waited for in turn, the second one's
    // was read only after the first had ended) and nothing polls on the
    // measured cores; every child is reaped, whatever the other says.
    let waited: Vec<Result<Times>> = std::thread::scope(|s| {
        let waiting: Vec<_> = children
            .into_iter()
            .zip(&labels)
            .map(|((child, began), label)| s.spawn(move || times(child, began, label)))
            .collect();
        waiting
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a thread waiting for a run panicked".into()))
            })
            .collect()
    });
    let mut t = [Times::default(); 2];
    for (i, w) in waited.into_iter().enumerate() {
        t[i] = w?;
    }
    Ok(t)
}

/// The markdown table and the summary line.
fn print_table(plan: &Plan, reference: &str, this: &str, rounds: &[[Times; 2]]) {
    let method = if plan.paired {
        "paired (both at once, one per core, cores swapped each round)"
    } else {
        "alternating (one after the other, order swapped each round)"
    };
    println!(
        "`arena {}`, {} rounds, {method}",
        plan.args.join(" "),
        rounds.len()
    );
    println!();
    println!("| round | {reference} user s | {this} user s | user ratio | wall s (ref, this) | wall ratio |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let row = |name: String, t: [Times; 2]| {
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.3}, {:.3} | {:.3} |",
            t[0].user.as_secs_f64(),
            t[1].user.as_secs_f64(),
            ratio(t[1].user, t[0].user),
            t[0].wall.as_secs_f64(),
            t[1].wall.as_secs_f64(),
            ratio(t[1].wall, t[0].wall)
        );
    };
    for (i, &t) in rounds.iter().enumerate() {
        row((i + 1).to_string(), t);
    }
    let sum = |i: usize| Times {
        user: rounds.iter().map(|t| t[i].user).sum(),
        wall: rounds.iter().map(|t| t[i].wall).sum(),
    };
    let total = [sum(0), sum(1)];
    row("sum".into(), total);
    let mut ratios: Vec<f64> = rounds.iter().map(|t| ratio(t[1].user, t[0].user)).collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    println!();
    println!(
        "this checkout / {reference}: user CPU ratio {:.3} (sums; median round {median:.3}), wall {:.3}",
        ratio(total[1].user, total[0].user),
        ratio(total[1].wall, total[0].wall)
    );
}
