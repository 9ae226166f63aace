//! The Slurm recipe of docs/cluster.md on a real cluster (issue 38 item
//! 6): `.ci/slurm-up` starts a single-node cluster on this machine, the
//! files of examples/slurm/ are submitted as they are, and `.ci/slurm-down`
//! stops it all again (a guard runs it when a test fails). The checks are
//! those of tests/worker_processes.rs: the report equals the one-machine
//! run's, few pairs start past the decision, and a worker killed with
//! `scancel --batch --signal=KILL` and submitted again with its index
//! changes nothing. Skipped, saying why, where the cluster cannot start (not root,
//! Slurm or munge not installed), unless `ARENA_REQUIRE_ALL` is set, as
//! .ci/run sets it: then that is a failure.

use crate::tournament::tmp;
use crate::util::repo;
use crate::worker_processes::{
    assert_counted_equal, assert_few_past_decision, assert_report_equal, decision_pair,
    finished_pairs, reference, results, wait_for, worker_games, RUN_LIMIT,
};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The tests of this module share the one cluster: one at a time.
static CLUSTER: Mutex<()> = Mutex::new(());

/// A started cluster; dropping it runs `.ci/slurm-down`.
struct Cluster {
    _one_at_a_time: MutexGuard<'static, ()>,
    stopped: bool,
}

/// Runs `.ci/NAME`.
fn ci_script(name: &str) -> Output {
    Command::new("bash")
        .arg(repo(&format!(".ci/{name}")))
        .output()
        .expect("bash runs")
}

/// A command's stdout and stderr as text.
fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

impl Cluster {
    /// Starts the cluster, or says why it cannot and gives `None`.
    fn up() -> Option<Cluster> {
        let lock = CLUSTER.lock().unwrap_or_else(|e| e.into_inner());
        let out = ci_script("slurm-up");
        if out.status.success() {
            return Some(Cluster {
                _one_at_a_time: lock,
                stopped: false,
            });
        }
        let why = text(&out);
        // Whatever slurm-up started before it gave up.
        let _ = ci_script("slurm-down");
        crate::util::skip(&format!(
            "no Slurm cluster starts here (.ci/run installs slurm-wlm and munge): {}",
            why.trim()
        ));
        None
    }

    /// Stops the cluster (`.ci/slurm-down`) and gives its output; the
    /// other tests wait until this one drops it.
    fn down(&mut self) -> Output {
        self.stopped = true;
        ci_script("slurm-down")
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if !self.stopped {
            let out = ci_script("slurm-down");
            if !out.status.success() {
                eprintln!("{}", text(&out));
            }
        }
    }
}

/// PATH with the folder of the arena binary under test first: sbatch
/// passes the environment on to the jobs, whose recipes run `arena`.
fn path_with_arena() -> OsString {
    let bin = Path::new(env!("CARGO_BIN_EXE_arena"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&path))).unwrap()
}

/// Runs `program ARGS` in `dir` (where sbatch leaves the jobs' output).
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PATH", path_with_arena())
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// The stdout of `program ARGS` in `dir`, which must succeed.
fn ok_in(dir: &Path, program: &str, args: &[&str]) -> String {
    let out = run_in(dir, program, args);
    assert!(out.status.success(), "{program} {args:?}: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A job's state as `scontrol show job` says it (`RUNNING`, `COMPLETED`,
/// `FAILED`, ...); for an array task, `JOBID_INDEX`.
fn job_state(id: &str) -> String {
    let out = run_in(Path::new("/"), "scontrol", &["show", "job", "-o", id]);
    let all = String::from_utf8_lossy(&out.stdout);
    let state = all
        .split_whitespace()
        .find_map(|w| w.strip_prefix("JobState="));
    state
        .unwrap_or_else(|| panic!("no state for job {id}: {}", text(&out)))
        .to_string()
}

/// True while one of the jobs `ids` is pending or running.
fn queued(ids: &[&str]) -> bool {
    let out = run_in(
        Path::new("/"),
        "squeue",
        &["-h", "-o", "%i", "-j", &ids.join(",")],
    );
    !String::from_utf8_lossy(&out.stdout).trim().is_empty()
}

/// The output files of the jobs run from `dir`, for failure messages.
fn job_logs(dir: &Path) -> String {
    let mut text = String::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "out"))
        .collect();
    files.sort();
    for f in files {
        let log = std::fs::read_to_string(&f).unwrap_or_default();
        text += &format!("--- {}:\n{log}", f.display());
    }
    text
}

/// Waits until none of the jobs `ids` is pending or running.
fn wait_jobs(dir: &Path, ids: &[&str], limit: Duration) {
    let done = wait_for(limit, || !queued(ids));
    assert!(
        done,
        "jobs {ids:?} still queued after {limit:?}\n{}",
        job_logs(dir)
    );
}

/// Submits the run as docs/cluster.md does (examples/slurm/submit.sh):
/// gives the workers' and the report's job ids.
fn submit(dir: &Path, config: &Path, out: &Path, options: &[&str]) -> (String, String) {
    let script = repo("examples/slurm/submit.sh");
    let mut args = vec![
        script.to_str().unwrap(),
        config.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    args.extend(options);
    let ids = ok_in(dir, "bash", &args);
    let ids: Vec<&str> = ids.lines().map(|l| l.split(';').next().unwrap()).collect();
    assert_eq!(ids.len(), 2, "submit.sh prints two job ids: {ids:?}");
    (ids[0].to_string(), ids[1].to_string())
}

/// The cluster's state folder (as .ci/slurm-up chooses it).
fn state_dir() -> String {
    std::env::var("ARENA_SLURM_DIR").unwrap_or_else(|_| "/run/arena-slurm".into())
}

/// True when process `pid` runs (a zombie has ended).
fn alive(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(')')
        .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
}

/// The live processes of the cluster: those whose command line names its
/// state folder (the daemons) or that hold a file in it open (job steps).
fn cluster_processes() -> Vec<String> {
    let state = state_dir();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) || !alive(&pid) {
            continue;
        }
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let holds = std::fs::read_dir(e.path().join("fd"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|t| t.starts_with(&state)));
        if cmdline.contains(&state) || holds {
            found.push(format!("{pid} {cmdline}"));
        }
    }
    found
}

/// Submits `sleep 300` and waits until it runs: gives its job id and pid.
fn sleeper(dir: &Path, name: &str) -> (String, String) {
    let wrap = format!("echo $$ > {name}.pid; exec sleep 300");
    let id = ok_in(dir, "sbatch", &["--parsable", "--wrap", &wrap]);
    let pid_file = dir.join(format!("{name}.pid"));
    let running = wait_for(Duration::from_secs(60), || {
        pid_file.exists() && job_state(&id) == "RUNNING"
    });
    assert!(running, "job {id} does not run: {}", job_state(&id));
    (
        id,
        std::fs::read_to_string(pid_file)
            .unwrap()
            .trim()
            .to_string(),
    )
}

#[test]
fn slurm_up_runs_a_job_scancel_kills_one_and_slurm_down_leaves_nothing_running() {
    let Some(mut cluster) = Cluster::up() else {
        return;
    };
    let again = ci_script("slurm-up");
    assert!(
        again.status.success() && text(&again).contains("already running"),
        "{}",
        text(&again)
    );

    let dir = tmp("slurm-cluster");
    let id = ok_in(
        &dir,
        "sbatch",
        &["--parsable", "--wrap", "sleep 1; echo ok"],
    );
    wait_jobs(&dir, &[&id], Duration::from_secs(60));
    assert_eq!(job_state(&id), "COMPLETED");
    let log = std::fs::read_to_string(dir.join(format!("slurm-{id}.out"))).unwrap();
    assert_eq!(log, "ok\n");

    // SIGKILL to the batch step itself: the job fails at once.
    let (killed, pid) = sleeper(&dir, "killed");
    ok_in(&dir, "scancel", &["--batch", "--signal=KILL", &killed]);
    wait_jobs(&dir, &[&killed], Duration::from_secs(60));
    assert_eq!(job_state(&killed), "FAILED");
    assert!(!alive(&pid), "the killed job's process {pid} runs");

    // A job still running when the cluster stops ends with it.
    let (_, pid) = sleeper(&dir, "left");
    let down = cluster.down();
    assert!(down.status.success(), "{}", text(&down));
    assert!(!alive(&pid), "the job's process {pid} outlived slurm-down");
    let left = cluster_processes();
    assert!(left.is_empty(), "still running after slurm-down: {left:#?}");
    let link = std::fs::read_link("/etc/slurm/slurm.conf").ok();
    assert!(
        link.is_none_or(|l| !l.starts_with(state_dir())),
        "slurm-down leaves its config link"
    );
}

#[test]
fn the_slurm_recipe_gives_the_one_machine_report_and_stops_at_the_decision() {
    let (config, want) = reference();
    let Some(_cluster) = Cluster::up() else {
        return;
    };
    let dir = tmp("slurm-recipe");
    let out = dir.join("run");
    let (workers, report) = submit(&dir, config, &out, &["--array=1-2"]);
    wait_jobs(&dir, &[&workers, &report], RUN_LIMIT);
    let logs = job_logs(&dir);
    for task in 1..=2 {
        assert_eq!(
            job_state(&format!("{workers}_{task}")),
            "COMPLETED",
            "{logs}"
        );
    }
    assert_eq!(job_state(&report), "COMPLETED", "{logs}");
    // The results the report job wrote.
    assert_counted_equal(&results(&out), want, &logs);
    assert_few_past_decision(&out, want, 2, 1);

    // A worker of another build is refused: the run's record says another
    // commit, as a worker built from another commit would have written it.
    crate::workers::pretend_another_build(&out);
    let sbatch = repo("examples/slurm/workers.sbatch");
    let args = [
        "--parsable",
        "--array=9",
        sbatch.to_str().unwrap(),
        config.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    let other = ok_in(&dir, "sbatch", &args);
    let other = other.trim().split(';').next().unwrap().to_string();
    wait_jobs(&dir, &[&other], Duration::from_secs(60));
    let logs = job_logs(&dir);
    assert_eq!(job_state(&format!("{other}_9")), "FAILED", "{logs}");
    assert!(logs.contains("was started by another build"), "{logs}");
}

#[test]
fn a_slurm_worker_killed_and_submitted_again_with_its_index_leaves_the_report_unchanged() {
    let (config, want) = reference();
    let Some(_cluster) = Cluster::up() else {
        return;
    };
    let dir = tmp("slurm-kill");
    let out = dir.join("run");
    let (workers, report) = submit(&dir, config, &out, &["--array=1-2"]);
    let task = format!("{workers}_2");
    let started = wait_for(RUN_LIMIT, || {
        worker_games(&out, "2") >= 2 || !queued(&[&task])
    });
    assert!(started, "worker 2 journaled no games\n{}", job_logs(&dir));
    // Mid-run: worker 2 still plays and the run has not got to its decision.
    assert_eq!(job_state(&task), "RUNNING", "{}", job_logs(&dir));
    let finished = finished_pairs(&out).len() as u64;
    assert!(
        finished <= decision_pair(want),
        "the run was over ({finished} pairs) before the kill"
    );

    ok_in(&dir, "scancel", &["--batch", "--signal=KILL", &task]);
    wait_jobs(&dir, &[&task], Duration::from_secs(60));
    assert_eq!(job_state(&task), "FAILED", "{}", job_logs(&dir));
    let sbatch = repo("examples/slurm/workers.sbatch");
    let args = [
        "--parsable",
        "--array=2",
        sbatch.to_str().unwrap(),
        config.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    let again = ok_in(&dir, "sbatch", &args);

    wait_jobs(&dir, &[&workers, &again, &report], RUN_LIMIT);
    let logs = job_logs(&dir);
    assert_eq!(job_state(&format!("{again}_2")), "COMPLETED", "{logs}");
    assert_eq!(job_state(&report), "COMPLETED", "{logs}");
    assert_counted_equal(&results(&out), want, &logs);
    // Once more, with every worker ended.
    assert_report_equal(&out, want, &logs);
}

/// The bodies of the fenced code blocks of a Markdown text.
fn fenced_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in markdown.lines() {
        match (&mut open, line.starts_with("```")) {
            (None, true) => open = Some(String::new()),
            (Some(body), true) => {
                blocks.push(std::mem::take(body));
                open = None;
            }
            (Some(body), false) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

#[test]
fn docs_quote_the_cluster_recipes_exactly_as_the_files_the_tests_submit() {
    let doc = std::fs::read_to_string(repo("docs/cluster.md")).unwrap();
    let blocks = fenced_blocks(&doc);
    for file in [
        "examples/slurm/workers.sbatch",
        "examples/slurm/report.sbatch",
        "examples/slurm/submit.sh",
        "examples/kubernetes/workers.yaml",
        "examples/kubernetes/report.yaml",
    ] {
        let text = std::fs::read_to_string(repo(file)).unwrap();
        assert!(
            blocks.contains(&text),
            "docs/cluster.md does not quote {file} as it is"
        );
    }
}
