//! An external engine's transcript: every line sent to it (`>`), every line
//! it wrote on its output (`<`) and on its error stream (`!`), and our own
//! notes (`#`: started, killed, exit status), each with the seconds since
//! the transcript was opened. The player and the reader threads of its
//! process all write; each line is appended to `OUT/logs/ENGINE-THREAD.log`
//! with one write as it happens (a line read from the engine before the
//! player sees it), so a transcript is complete up to the moment anything
//! goes wrong. The file is the one thing these threads share, behind a
//! lock held for one write.
//!
//! Each process writes through a [`session`](Transcript::session) of its
//! own, which [`close`](Transcript::close) ends with the line saying how
//! the process ended: a line its reader threads read later is dropped, so
//! that line is the process's last, whichever thread ends it. A file stops
//! growing near [`CAP`] bytes: one note says so, and past it only our own
//! notes (a process's start and end) are added, never the engine's lines.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The size of a transcript file (per engine per game thread) that the
/// engine's lines stop short of: [`NOTE_ROOM`] below it.
pub const CAP: u64 = 16 << 20;

/// Room kept below [`CAP`] for our notes once the engine's lines stop (a
/// start and an end line of some 600 more processes).
const NOTE_ROOM: u64 = 64 << 10;

/// Who wrote a transcript line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Sent to the engine.
    ToEngine,
    /// Read from the engine's output.
    FromEngine,
    /// Read from the engine's error stream.
    Stderr,
    /// A note of ours (start, kill, exit status).
    Note,
}

impl Dir {
    fn mark(self) -> char {
        match self {
            Dir::ToEngine => '>',
            Dir::FromEngine => '<',
            Dir::Stderr => '!',
            Dir::Note => '#',
        }
    }
}

/// Where transcript lines go: a file, or nowhere.
#[derive(Clone, Debug)]
pub struct Transcript {
    file: Option<Arc<Mutex<Sink>>>,
    start: Instant,
    /// False once this session is closed.
    open: Arc<AtomicBool>,
}

/// The file and how much it holds.
#[derive(Debug)]
struct Sink {
    file: File,
    written: u64,
    capped: bool,
}

/// The transcript file of `engine` on game thread `thread` in `logs`:
/// `logs/ENGINE-THREAD.log`, the name reduced to letters, digits, `.`, `_`
/// and `-`.
pub fn log_path(logs: &Path, engine: &str, thread: usize) -> PathBuf {
    logs.join(format!("{}-{thread}.log", file_name(engine)))
}

/// `engine` reduced to letters, digits, `.`, `_` and `-`.
fn file_name(engine: &str) -> String {
    engine
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The start of the note a transcript gets when it reaches the cap.
const CAP_NOTE: &str = "# transcript capped at ";

/// Which of `engines` have a transcript in `logs` that reached the cap:
/// each such engine once, with its first capped file's name, in the order
/// of `engines`. A folder or file that cannot be read counts as no cap.
pub fn capped(logs: &Path, engines: &[String]) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(logs) else {
        return Vec::new();
    };
    let mut files: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    files.sort();
    let mut found = Vec::new();
    for engine in engines {
        let prefix = format!("{}-", file_name(engine));
        let of_engine = files.iter().filter(|f| {
            f.strip_prefix(&prefix)
                .and_then(|rest| rest.strip_suffix(".log"))
                .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
        });
        if let Some(f) = of_engine
            .into_iter()
            .find(|f| holds_cap_note(&logs.join(f)))
        {
            found.push((engine.clone(), f.clone()));
        }
    }
    found
}

/// A transcript line without its time (the padded seconds and a space).
fn after_time(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|&b| b != b' ').unwrap_or(line.len());
    let rest = &line[start..];
    let end = rest.iter().position(|&b| b == b' ').unwrap_or(rest.len());
    rest.get(end + 1..).unwrap_or(&[])
}

/// True when the transcript at `path` (a regular file) has the cap's note.
fn holds_cap_note(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(file) = crate::util::text::open_file(path) else {
        return false;
    };
    let mut reader = std::io::BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) if after_time(&line).starts_with(CAP_NOTE.as_bytes()) => return true,
            Ok(_) => {}
        }
    }
}

impl Transcript {
    /// A transcript that keeps nothing.
    pub fn none() -> Transcript {
        Transcript {
            file: None,
            start: Instant::now(),
            open: Arc::new(AtomicBool::new(true)),
        }
    }

    /// Appends to `path`, creating it and its folder.
    ///
    /// # Errors
    /// The folder or the file cannot be created.
    pub fn open(path: &Path) -> std::io::Result<Transcript> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        let written = file.metadata()?.len();
        Ok(Transcript {
            file: Some(Arc::new(Mutex::new(Sink {
                file,
                written,
                capped: false,
            }))),
            start: Instant::now(),
            open: Arc::new(AtomicBool::new(true)),
        })
    }

    /// The same file (and clock) for one process: closing it leaves the
    /// others open.
    pub fn session(&self) -> Transcript {
        Transcript {
            open: Arc::new(AtomicBool::new(true)),
            ..self.clone()
        }
    }

    /// Records one line (a transcript that cannot be written any more is
    /// not worth stopping a game for: the line is lost); nothing once the
    /// session is closed, and none of the engine's lines past the cap.
    pub fn line(&self, dir: Dir, text: &str) {
        self.write(dir, text, false);
    }

    /// Records `last` (a note) as the session's last line and closes it.
    pub fn close(&self, last: &str) {
        self.write(Dir::Note, last, true);
    }

    fn write(&self, dir: Dir, text: &str, close: bool) {
        let Some(file) = &self.file else { return };
        let at = self.start.elapsed().as_secs_f64();
        let line = format!("{at:>10.3} {} {text}\n", dir.mark());
        let Ok(mut sink) = file.lock() else { return };
        // Checked under the lock: no line of this session follows its last.
        if !self.open.load(Ordering::Acquire) {
            return;
        }
        if close {
            self.open.store(false, Ordering::Release);
        }
        if dir != Dir::Note && sink.written + line.len() as u64 > CAP - NOTE_ROOM {
            if !sink.capped {
                sink.capped = true;
                let note = format!(
                    "{at:>10.3} {CAP_NOTE}{} MiB: the engine's further lines are not kept\n",
                    CAP >> 20
                );
                sink.put(&note);
            }
            return;
        }
        sink.put(&line);
    }
}

impl Sink {
    fn put(&mut self, line: &str) {
        if self.file.write_all(line.as_bytes()).is_ok() {
            self.written += line.len() as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_safe_file_names() {
        let p = log_path(Path::new("out/logs"), "edax 4.4/level:5", 2);
        assert_eq!(p, Path::new("out/logs/edax_4.4_level_5-2.log"));
    }

    #[test]
    fn a_closed_session_writes_nothing_more_and_others_go_on() {
        let dir = std::env::temp_dir().join(format!("arena-transcript-{}", std::process::id()));
        let path = dir.join("x-0.log");
        let _ = std::fs::remove_file(&path);
        let t = Transcript::open(&path).unwrap();
        let (a, b) = (t.session(), t.session());
        a.line(Dir::ToEngine, "go");
        a.close("ended: quit");
        a.line(Dir::FromEngine, "late");
        b.line(Dir::Note, "started");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().map(|l| &l[11..]).collect();
        assert_eq!(lines, ["> go", "# ended: quit", "# started"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_engine_lines_stop_at_the_cap_and_notes_go_on() {
        let dir = std::env::temp_dir().join(format!("arena-cap-{}", std::process::id()));
        let path = dir.join("x-0.log");
        let _ = std::fs::remove_file(&path);
        let t = Transcript::open(&path).unwrap();
        let long = "x".repeat(1 << 20);
        for _ in 0..20 {
            t.line(Dir::Stderr, &long);
        }
        t.close("ended: quit");
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size <= CAP, "{size}");
        let text = std::fs::read_to_string(&path).unwrap();
        let tail: Vec<&str> = text.lines().rev().take(2).map(|l| &l[11..]).collect();
        assert_eq!(tail[0], "# ended: quit");
        assert!(
            tail[1].starts_with("# transcript capped at 16 MiB"),
            "{}",
            tail[1]
        );
        let other = Transcript::open(&dir.join("y-0.log")).unwrap();
        other.line(Dir::FromEngine, "# transcript capped at 16 MiB");
        let engines = ["y".to_string(), "x".to_string(), "z".to_string()];
        assert_eq!(capped(&dir, &engines), [("x".into(), "x-0.log".into())]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
