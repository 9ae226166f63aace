//! The history database's schema, as an ordered list of migration steps.
//! A database records the steps it has taken in `PRAGMA user_version` (0:
//! a new, empty file) and is marked as arena's by `PRAGMA application_id`;
//! opening it takes the steps it lacks, each in its own transaction, so a
//! database from any earlier arena is brought up to date and keeps its runs.
//! Steps are never edited once shipped: a change is a new step at the end.

/// `PRAGMA application_id` of an arena history (`aren` in ASCII).
pub const APPLICATION_ID: i64 = 0x6172_656e;

/// One migration step: what it brings, and its SQL.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// What the step adds, in words.
    pub what: &'static str,
    /// The SQL, run as one batch.
    pub sql: &'static str,
}

/// The steps, oldest first: step `i` takes a database from version `i` to
/// version `i + 1`.
pub const STEPS: &[Step] = &[
    Step {
        what: "runs (one row per run state) and their labels",
        sql: "
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    config_hash TEXT NOT NULL,
    shard TEXT NOT NULL,
    games_digest TEXT NOT NULL,
    game_lines INTEGER NOT NULL,
    date TEXT NOT NULL,
    added TEXT NOT NULL,
    engines TEXT NOT NULL,
    games INTEGER NOT NULL,
    games_played INTEGER NOT NULL,
    games_scheduled INTEGER NOT NULL,
    wins INTEGER,
    draws INTEGER,
    losses INTEGER,
    ptnml TEXT,
    elo REAL,
    elo_error REAL,
    llr REAL,
    verdict TEXT,
    status TEXT NOT NULL,
    UNIQUE (config_hash, shard, games_digest)
);
CREATE INDEX runs_by_name ON runs (name, date);
CREATE TABLE labels (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
);
",
    },
    Step {
        what: "per-engine results and ratings, nElo, the SPRT's bounds",
        sql: "
CREATE TABLE engines (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    games INTEGER,
    wins INTEGER,
    draws INTEGER,
    losses INTEGER,
    points REAL,
    elo REAL,
    elo_error REAL,
    PRIMARY KEY (run_id, position)
);
INSERT INTO engines (run_id, position, name)
    SELECT runs.id, CAST(e.key AS INTEGER), e.value FROM runs, json_each(runs.engines) AS e;
ALTER TABLE runs DROP COLUMN engines;
ALTER TABLE runs ADD COLUMN nelo REAL;
ALTER TABLE runs ADD COLUMN nelo_error REAL;
ALTER TABLE runs ADD COLUMN llr_lower REAL;
ALTER TABLE runs ADD COLUMN llr_upper REAL;
",
    },
];

/// The schema version this arena writes: the number of steps.
pub const SCHEMA_VERSION: i64 = STEPS.len() as i64;
