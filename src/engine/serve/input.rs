//! The served engine's input, read on a thread of its own so that a
//! command arriving during a search is seen at once. A line that stops the
//! search (NBoard's `ping` and `quit`; the end of the input) sets the stop
//! flag the moment it is read, which the search looks at every few
//! thousand nodes; every line then waits in a queue, in order, for the
//! serve loop, which handles it when the search is over.
//!
//! The flag stays set while any stopping line is read but not yet handled
//! (a count under a lock), so a search that starts before the serve loop
//! reaches a queued `ping` stops at once too, and the search after that
//! `ping` runs in full.

use crossbeam_channel::{unbounded, Receiver};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};

/// Stopping lines read and not yet handled, and the flag the search sees.
pub struct Stops {
    pending: Mutex<usize>,
    flag: Arc<AtomicBool>,
}

impl Stops {
    /// Counts on `flag` (the served engine's stop flag), which is cleared.
    pub fn new(flag: &Arc<AtomicBool>) -> Stops {
        flag.store(false, Relaxed);
        Stops {
            pending: Mutex::new(0),
            flag: Arc::clone(flag),
        }
    }

    /// A stopping line was read: the search in progress, if any, stops.
    fn arrived(&self) {
        let mut n = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        *n += 1;
        self.flag.store(true, Relaxed);
    }

    /// The serve loop has handled a stopping line; when it was the last
    /// one read, searches run again.
    pub fn handled(&self) {
        let mut n = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.flag.store(false, Relaxed);
        }
    }

    /// True while a stopping line waits: the answer of a search that just
    /// ended is dropped (the search was, or would have been, abandoned).
    pub fn pending(&self) -> bool {
        self.flag.load(Relaxed)
    }
}

/// Reads `input` on a new thread, line by line, into the returned queue;
/// `stops(Some(line))` tells a stopping line, `stops(None)` whether the end
/// of the input stops. The queue ends after the last line (or a read
/// error, queued as the last item). The thread ends with the input or
/// when the queue's reader is gone.
pub fn read_lines(
    input: impl BufRead + Send + 'static,
    stops: fn(Option<&str>) -> bool,
    counted: Arc<Stops>,
) -> Receiver<std::io::Result<String>> {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        for line in input.lines() {
            let failed = line.is_err();
            if line.as_deref().is_ok_and(|l| stops(Some(l))) {
                counted.arrived();
            }
            if tx.send(line).is_err() || failed {
                return;
            }
        }
        if stops(None) {
            counted.arrived();
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::external::Protocol;
    use crate::engine::serve::{serve, serve_on, Served};
    use crate::engine::EngineConfig;
    use crossbeam_channel::Sender;
    use std::io::{BufReader, Read, Write};
    use std::path::Path;
    use std::time::{Duration, Instant};

    /// Input fed line by line by the test; it ends when the sender goes.
    struct Feed {
        lines: Receiver<String>,
        buf: Vec<u8>,
        at: usize,
    }

    impl Read for Feed {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.buf.len() {
                let Ok(line) = self.lines.recv() else {
                    return Ok(0);
                };
                self.buf = format!("{line}\n").into_bytes();
                self.at = 0;
            }
            let n = out.len().min(self.buf.len() - self.at);
            out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// Output the test reads while the server writes it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
        }

        /// Waits (a minute at most) until the output holds `what`.
        fn wait_for(&self, what: &str) -> String {
            let start = Instant::now();
            while !self.text().contains(what) {
                assert!(start.elapsed() < Duration::from_secs(60), "{}", self.text());
                std::thread::sleep(Duration::from_millis(5));
            }
            self.text()
        }
    }

    /// An NBoard server of an engine whose searches take a minute (only a
    /// stop ends them early), on a thread; the test's feed and its output.
    fn nboard_server() -> (
        Sender<String>,
        Shared,
        std::thread::JoinHandle<std::io::Result<()>>,
    ) {
        let text = "Engine(name: \"slow\", search: Pvs, deepening: true, limit: MoveTime(60000), eval: Discs)";
        let config = EngineConfig::parse(text, Path::new("slow.ron")).unwrap();
        let (tx, rx) = unbounded();
        let feed = BufReader::new(Feed {
            lines: rx,
            buf: Vec::new(),
            at: 0,
        });
        let out = Shared::default();
        let theirs = out.clone();
        let server = std::thread::spawn(move || {
            let mut served = Served::new(&config);
            serve_on(&mut served, Protocol::Nboard, feed, theirs)
        });
        (tx, out, server)
    }

    const GAME: &str = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

    #[test]
    fn a_ping_stops_the_search_and_the_commands_after_it_wait_their_turn() {
        let (tx, out, server) = nboard_server();
        for line in ["nboard 2", GAME, "go"] {
            tx.send(line.into()).unwrap();
        }
        std::thread::sleep(Duration::from_millis(200));
        let pinged = Instant::now();
        // What a GUI sends to take a move back, all before the search ends.
        for line in ["ping 1", "set depth 1", "ping 2", "hint 1", "go"] {
            tx.send(line.into()).unwrap();
        }
        out.wait_for("pong 1");
        let waited = pinged.elapsed();
        let text = out.wait_for("===");
        drop(tx);
        server.join().unwrap().unwrap();
        assert!(waited < Duration::from_secs(10), "{waited:?}");
        let lines: Vec<&str> = text.lines().collect();
        // The first go's answer is never sent; the rest come in order.
        assert_eq!(
            lines[..3],
            ["pong 1", "set myname slow", "pong 2"],
            "{text}"
        );
        assert!(
            lines[3].starts_with("search ") && lines[3].ends_with(" 1"),
            "{text}"
        );
        assert!(lines[4].starts_with("nodestats "), "{text}");
        assert!(
            lines[5].starts_with("search ") && lines[5].ends_with(" 1"),
            "{text}"
        );
        assert!(lines[6].starts_with("=== ") && lines.len() == 7, "{text}");
    }

    #[test]
    fn the_end_of_the_input_abandons_a_search_and_its_answer() {
        let (tx, out, server) = nboard_server();
        for line in ["nboard 2", GAME, "go"] {
            tx.send(line.into()).unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
        let start = Instant::now();
        drop(tx);
        server.join().unwrap().unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(out.text(), "");
    }

    #[test]
    fn a_set_flag_stops_a_deep_search_and_a_deep_solve_on_every_thread() {
        use crate::game::{Game, MoveList};
        let engines = [
            "deepening: false",
            "deepening: true, tt_mib: 4, threads: 2",
            "deepening: true, tt_mib: 4, threads: 2, endgame_exact_at: 30",
        ];
        for fields in engines {
            let text = format!(
                "Engine(name: \"deep\", search: Pvs, limit: Depth(30), {fields}, eval: Discs)"
            );
            let mut served = Served::new(&EngineConfig::parse(&text, Path::new("d.ron")).unwrap());
            // 30 empties (the solver's), by seeded random play.
            let mut rng = crate::rng::SplitMix64::new(5);
            let mut moves = MoveList::new();
            while served.board.empties() > 30 {
                moves.clear();
                served.board.generate_moves(&mut moves);
                served.play(moves.get(rng.below(moves.len() as u64) as usize));
            }
            served.stop_flag().store(true, Relaxed);
            let start = Instant::now();
            assert!(served.think().is_ok());
            let took = start.elapsed();
            assert!(took < Duration::from_secs(5), "{fields}: {took:?}");
        }
    }

    #[test]
    fn gtp_answers_every_command_even_after_its_input_ends() {
        let text = "Engine(name: \"d1\", search: Pvs, limit: Depth(1), eval: Discs)";
        let config = EngineConfig::parse(text, Path::new("d1.ron")).unwrap();
        let out = Shared::default();
        let input = std::io::Cursor::new("genmove b\nname\n");
        serve(&config, Protocol::Gtp, input, out.clone()).unwrap();
        let text = out.text();
        assert!(
            text.starts_with("= ") && text.ends_with("= d1\n\n"),
            "{text:?}"
        );
    }

    #[test]
    fn the_flag_stays_set_until_every_stopping_line_is_handled() {
        let flag = Arc::new(AtomicBool::new(true));
        let stops = Stops::new(&flag);
        assert!(!stops.pending(), "a new count starts clear");
        stops.arrived();
        stops.arrived();
        assert!(flag.load(Relaxed));
        stops.handled();
        assert!(stops.pending(), "one ping still waits");
        stops.handled();
        assert!(!stops.pending() && !flag.load(Relaxed));
        stops.handled();
        assert!(!stops.pending(), "never below zero");
    }

    #[test]
    fn lines_come_in_order_and_stopping_ones_set_the_flag_when_read() {
        let flag = Arc::new(AtomicBool::new(false));
        let stops = Arc::new(Stops::new(&flag));
        let input = std::io::Cursor::new("go\nping 1\nmove f5\n");
        let rx = read_lines(
            input,
            |l| l.is_none_or(|l| l.starts_with("ping")),
            Arc::clone(&stops),
        );
        let lines: Vec<String> = rx.iter().map(Result::unwrap).collect();
        assert_eq!(lines, ["go", "ping 1", "move f5"]);
        // The ping and the end of the input.
        stops.handled();
        assert!(stops.pending());
        stops.handled();
        assert!(!stops.pending());
    }
}
