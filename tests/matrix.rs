//! An engine matrix: one engine file over every combination of field
//! values, each a player of its own, against the same players written out
//! by hand.

use crate::tournament::{games, tmp};
use crate::util::{arena, repo, stderr};
use std::path::Path;

/// The base engine: a small PVS searcher with a table, to depth 2.
const BASE: &str = "Engine(
    name: \"base\",
    search: Pvs,
    deepening: true,
    limit: Depth(2),
    ordering: [FastestFirst],
    tt_mib: 1,
    eval: WeightedSquares(weights: WEIGHTS),
)
";

const SEARCHES: [&str; 3] = ["AlphaBeta(fail: Soft)", "Pvs", "MtdF"];
const LIMITS: [&str; 2] = ["Depth(1)", "Depth(3)"];

/// A round robin of `engines` in `dir`, run; its games (moves and results
/// by game id, names aside).
fn round_robin(dir: &Path, engines: &str) -> Vec<(u64, String, f64)> {
    let config = dir.join("config.ron");
    let text = format!(
        "Tournament(name: \"m\", engines: [{engines}], format: RoundRobin(rounds: 1),
            book: (file: {:?}, order: Sequential, start: 0), concurrency: 2, seed: 3, out: {:?})\n",
        repo("openings/all-4ply.txt").display(),
        dir.join("out").display()
    );
    std::fs::write(&config, text).unwrap();
    let run = arena(&["run", config.to_str().unwrap(), "--quiet"]);
    assert!(run.status.success(), "{}", stderr(&run));
    games(&dir.join("out"))
        .into_iter()
        .map(|g| (g.game_id, g.moves, g.result))
        .collect()
}

#[test]
fn a_matrix_plays_the_games_of_its_engines_written_out() {
    let weights = format!(
        "{:?}",
        repo("engines/weights/squares-classic.ron").display()
    );
    let base = BASE.replace("WEIGHTS", &weights);
    let dir = tmp("matrix");
    std::fs::write(dir.join("base.ron"), &base).unwrap();
    let quoted = |v: &[&str]| {
        v.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let matrix = format!(
        "Matrix(base: \"base.ron\", axes: [(\"search\", [{}]), (\"limit\", [{}])])",
        quoted(&SEARCHES),
        quoted(&LIMITS)
    );
    let by_matrix = round_robin(&dir, &matrix);
    // The same six written out inline, first axis slowest, and in the
    // other order (which must play other games, or the check is void).
    let written = |search_first: bool| {
        let mut inline = Vec::new();
        for i in 0..6 {
            let (s, l) = if search_first {
                (i / 2, i % 2)
            } else {
                (i % 3, i / 3)
            };
            let text = base
                .replace("\"base\"", &format!("\"v{i}\""))
                .replace("search: Pvs", &format!("search: {}", SEARCHES[s]))
                .replace("limit: Depth(2)", &format!("limit: {}", LIMITS[l]));
            inline.push(format!("Inline({text})"));
        }
        inline.join(", ")
    };
    let by_hand = round_robin(&tmp("matrix-by-hand"), &written(true));
    // 6 engines: 15 meetings, each one opening both ways round.
    assert_eq!(by_matrix.len(), 30);
    assert_eq!(by_matrix, by_hand);
    assert_ne!(
        by_matrix,
        round_robin(&tmp("matrix-other-order"), &written(false))
    );
    let names: Vec<String> = arena::records::journal::read(&dir.join("out/journal.jsonl"))
        .unwrap()
        .games
        .iter()
        .flat_map(|g| [g.black.clone(), g.white.clone()])
        .collect();
    assert!(
        names.contains(&"base+search=MtdF+limit=Depth(3)".to_string()),
        "{names:?}"
    );
}

#[test]
fn a_bad_matrix_names_its_field() {
    let dir = tmp("matrix-bad");
    std::fs::write(dir.join("base.ron"), BASE.replace("WEIGHTS", "\"w.ron\"")).unwrap();
    for (axes, want) in [
        ("[]", "axes"),
        ("[(\"search\", [])]", "axes"),
        (
            "[(\"search\", [\"Pvs\"]), (\"search\", [\"MtdF\"])]",
            "axes",
        ),
    ] {
        let config = dir.join("config.ron");
        std::fs::write(
            &config,
            format!(
                "Tournament(name: \"m\", engines: [Matrix(base: \"base.ron\", axes: {axes})],
                format: RoundRobin(rounds: 1), out: {:?})\n",
                dir.join("out").display()
            ),
        )
        .unwrap();
        let run = arena(&["run", config.to_str().unwrap(), "--quiet"]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{axes}: {err}");
        assert!(
            err.contains("config.ron:") && err.contains(want),
            "{axes}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!dir.join("out").exists(), "{axes}: nothing is written");
    }
}

/// A field a matrix axis or an `Arg` sets that the engine does not have,
/// and a base that is a folder: one line placed in the config (its file
/// and line), exit code 1, as every other config error; never the
/// command line's exit code 2 naming only the expanded argument.
#[test]
fn a_bad_matrix_or_arg_engine_is_placed_in_the_config() {
    let dir = tmp("matrix-bad-field");
    let weights = format!(
        "{:?}",
        repo("engines/weights/squares-classic.ron").display()
    );
    std::fs::write(dir.join("base.ron"), BASE.replace("WEIGHTS", &weights)).unwrap();
    std::fs::create_dir_all(dir.join("folder.ron")).unwrap();
    for (engines, want) in [
        (
            "[Matrix(base: \"base.ron\", axes: [(\"nope\", [\"1\", \"2\"])])]",
            "nope",
        ),
        (
            "[Matrix(base: \"folder.ron\", axes: [(\"seed\", [\"1\", \"2\"])])]",
            "is a directory",
        ),
        (
            "[Arg(\"base.ron:nope=1\"), Arg(\"base.ron:seed=2\")]",
            "nope",
        ),
    ] {
        let config = dir.join("config.ron");
        std::fs::write(
            &config,
            format!(
                "Tournament(name: \"m\",\n engines: {engines},\n format: RoundRobin(rounds: 1), out: {:?})\n",
                dir.join("out").display()
            ),
        )
        .unwrap();
        let run = arena(&["run", config.to_str().unwrap(), "--quiet"]);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{engines}: {err}");
        assert!(
            err.contains("config.ron:2:") && err.contains(want),
            "{engines}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!dir.join("out").exists(), "{engines}: nothing is written");
    }
}

#[test]
fn rounds_from_the_command_line_count_a_matrix_s_engines() {
    let dir = tmp("matrix-rounds");
    std::fs::write(dir.join("base.ron"), BASE.replace("WEIGHTS", "\"w.ron\"")).unwrap();
    let config = dir.join("config.ron");
    std::fs::write(
        &config,
        format!(
            "Tournament(name: \"m\", engines: [Matrix(base: \"base.ron\", axes: [(\"search\", [\"Pvs\", \"MtdF\", \"Negamax\"])])],
            format: RoundRobin(rounds: 1), out: {:?})\n",
            dir.join("out").display()
        ),
    )
    .unwrap();
    // Three engines, three meetings a round: too many pairs, said of the flag.
    let run = arena(&[
        "run",
        config.to_str().unwrap(),
        "--rounds",
        "4000000",
        "--quiet",
    ]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("--rounds"), "{err}");
    assert!(!dir.join("out").exists());
}
