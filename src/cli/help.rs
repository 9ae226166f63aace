//! What each command writes and how it exits, shown under its `--help`
//! (the same facts as README.md's exit codes and docs/reference.md).

/// The exit codes every command shares.
macro_rules! common_exits {
    () => {
        "1 an error: one line on stderr naming the file, line and field (or the engine)\n  \
         2 a bad command-line value\n  \
         101 an internal error (one line; please report it)"
    };
}

/// `arena run`.
pub const RUN: &str = concat!(
    "Writes, in the output folder (the config's out, or --out): journal.jsonl (each game as it ends), \
     tournament.json, and at the end results.json, summary.md, games.ggf and report.html; with --worker, \
     workers/ID/ and claims/ instead (arena report writes the results).\n\
     Prints a line per finished game, a result block every --ratinginterval pairs, the final block and \
     where report.html is; a worker of a round-robin, a gauntlet or an SPRT in a pipe, its games and \
     its last line (the run's blocks with --ratinginterval N).\n\n\
     Exit codes:\n  \
     0 done (an SPRT: H1 accepted or undecided; a worker: the run decided or complete)\n  \
     3 the SPRT accepted H0 and the config says fail_on_h0\n  \
     130 stopped by Ctrl-C or SIGTERM (games written; --resume continues)\n  ",
    common_exits!()
);

/// `arena match`.
pub const MATCH: &str = concat!(
    "Writes results/match-A-vs-B-HASH/ (or --out): journal.jsonl, tournament.json, results.json, \
     summary.md, games.ggf, report.html, as arena run does.\n\
     Prints a line per finished game, a result block every --ratinginterval pairs, the final block and \
     where report.html is.\n\n\
     Exit codes:\n  \
     0 done (with --sprt: H1 accepted or undecided, or H0 without --fail-on-h0)\n  \
     3 --sprt accepted H0 with --fail-on-h0\n  \
     130 stopped by Ctrl-C or SIGTERM (games written; --resume continues)\n  ",
    common_exits!()
);

/// `arena report`.
pub const REPORT: &str = concat!(
    "Writes results.json, summary.md, games.ggf and report.html in DIR anew from its journal (or its \
     workers' journals); prints the final block and where report.html is (--json: results.json's \
     object).\n\n\
     Exit codes:\n  \
     0 done\n  \
     1 also: a workers' run neither decided nor complete (its results are written marked partial; \
     --allow-partial exits 0)\n  \
     3 the SPRT accepted H0 and the run says fail_on_h0\n  ",
    common_exits!()
);

/// `arena merge`.
pub const MERGE: &str = concat!(
    "Writes the merged journal.jsonl, tournament.json, results.json, summary.md, games.ggf and \
     report.html into --out; prints the final block, the games merged and where report.html is.\n\n\
     Exit codes:\n  \
     0 done\n  \
     1 also: a shard missing, given twice, unfinished, of another config or build\n  \
     3 the SPRT accepted H0 and the config says fail_on_h0\n  ",
    common_exits!()
);

/// `arena status`.
pub const STATUS: &str = concat!(
    "Writes nothing and takes no lock: reads the workers' journals and heartbeats and prints the \
     counted games, Elo, LLR and each worker's pairs.\n\n\
     Exit codes:\n  \
     0 done\n  ",
    common_exits!()
);

/// `arena watch`.
pub const WATCH: &str = concat!(
    "Writes nothing and takes no lock: serves, read-only, a live page of every run under ROOT \
     (/, /runs.json, /run/NAME/, /run/NAME/live.json) on 127.0.0.1 unless --listen says \
     otherwise; its first line on stdout is the address (arena watch: http://ADDR/). Runs until \
     stopped.\n\n\
     Exit codes:\n  \
     130 stopped (Ctrl-C or SIGTERM)\n  ",
    common_exits!()
);

/// Commands that print and write nothing else.
pub const PRINTS: &str = concat!(
    "Writes no file: prints its result on stdout (--json: one JSON object, where the command has it).\n\n\
     Exit codes:\n  \
     0 done\n  ",
    common_exits!()
);

/// `arena solve`.
pub const SOLVE: &str = concat!(
    "Writes no file: prints a line per position and a total (--json: one JSON object).\n\n\
     Exit codes:\n  \
     0 every score agrees with the file\n  \
     1 also: a score that disagrees with the file (one line per position on stderr)\n  ",
    common_exits!()
);

/// `arena serve`.
pub const SERVE: &str = concat!(
    "Writes no file: speaks the protocol on standard input and output until the other side quits \
     or closes its end.\n\n\
     Exit codes:\n  \
     0 the other side quit or closed its end\n  ",
    common_exits!()
);

/// Commands that write the files their arguments name.
pub const WRITES: &str = concat!(
    "Writes only the files its arguments name (--out, --db, OUT), each whole or not at all (a \
     temporary file renamed into place); prints its result or what it wrote on stdout (--json: \
     one JSON object, where the command has it).\n\n\
     Exit codes:\n  \
     0 done\n  ",
    common_exits!()
);
