//! An external engine's transcript: every line sent to it (`>`), every line
//! it wrote on its output (`<`) and on its error stream (`!`), and our own
//! notes (`#`: started, killed, exit status), each with the seconds since
//! the transcript was opened. The player and the reader threads of its
//! process all write; each line is appended to `OUT/logs/ENGINE-WORKER.log`
//! with one write as it happens (a line read from the engine before the
//! player sees it), so a transcript is complete up to the moment anything
//! goes wrong. The file is the one thing these threads share, behind a
//! lock held for one write.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    file: Option<Arc<Mutex<File>>>,
    start: Instant,
}

/// The transcript file of `engine` on worker `worker` in `logs`:
/// `logs/ENGINE-WORKER.log`, the name reduced to letters, digits, `.`, `_`
/// and `-`.
pub fn log_path(logs: &Path, engine: &str, worker: usize) -> PathBuf {
    let name: String = engine
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    logs.join(format!("{name}-{worker}.log"))
}

impl Transcript {
    /// A transcript that keeps nothing.
    pub fn none() -> Transcript {
        Transcript {
            file: None,
            start: Instant::now(),
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
        Ok(Transcript {
            file: Some(Arc::new(Mutex::new(file))),
            start: Instant::now(),
        })
    }

    /// Records one line (a transcript that cannot be written any more is
    /// not worth stopping a game for: the line is lost).
    pub fn line(&self, dir: Dir, text: &str) {
        let Some(file) = &self.file else { return };
        let at = self.start.elapsed().as_secs_f64();
        let line = format!("{at:>10.3} {} {text}\n", dir.mark());
        if let Ok(mut f) = file.lock() {
            let _ = f.write_all(line.as_bytes());
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
}
