//! The history database: opening (and migrating) the file, adding runs
//! (a new run, the same state again, or a later state of a stored run; see
//! the module above) and reading them back.

use super::migrations::{APPLICATION_ID, SCHEMA_VERSION, STEPS};
use super::time::utc_date;
use super::{EngineRow, HistoryError, NewRun, RunSummary, StoredRun};
use crate::error::Argument;
use rusqlite::{
    params, params_from_iter, Connection, OpenFlags, OptionalExtension, Row, Transaction,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An open history database, at the current schema version.
pub struct History {
    conn: Connection,
    path: PathBuf,
}

/// What adding a run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// A new run, stored under this id.
    New(i64),
    /// This state of the run was stored already, under this id: nothing
    /// changed.
    Same(i64),
    /// A later state of the run stored under `id` (it had `from` game
    /// lines): the row now holds this state.
    Continued {
        /// The row.
        id: i64,
        /// Game lines of the state it replaced.
        from: u64,
    },
}

impl History {
    /// Opens the database at `path`, creating it when `create` is set and
    /// it does not exist, and brings its schema up to date.
    ///
    /// # Errors
    /// A missing file (without `create`), a directory, a file that is not
    /// an SQLite database or is corrupt, a database of something else, or
    /// one written by a newer arena; each names the file.
    pub fn open(path: &Path, create: bool) -> Result<History, HistoryError> {
        let io = |source| HistoryError::Io {
            path: path.to_path_buf(),
            source,
        };
        if path.is_dir() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "is a directory, not a database file",
            )));
        }
        if !create && !path.exists() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such database (arena history add creates one)",
            )));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| sqlite(path, e))?;
        let mut history = History {
            conn,
            path: path.to_path_buf(),
        };
        history.migrate()?;
        Ok(history)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the migration steps the database lacks. A new file (version
    /// 0 and no tables) starts from the first; a file with tables but
    /// another application id is refused, and so is a version above ours.
    fn migrate(&mut self) -> Result<(), HistoryError> {
        let e = |err| sqlite(&self.path, err);
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;")
            .map_err(e)?;
        let version: i64 = pragma(&self.conn, "user_version").map_err(e)?;
        let app: i64 = pragma(&self.conn, "application_id").map_err(e)?;
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
            .map_err(e)?;
        if app != APPLICATION_ID && (tables > 0 || version > 0) {
            return Err(HistoryError::Foreign {
                path: self.path.clone(),
                setting: Argument::Option("db".into()),
            });
        }
        if version > SCHEMA_VERSION {
            return Err(HistoryError::Newer {
                path: self.path.clone(),
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        for (i, step) in STEPS.iter().enumerate().skip(version as usize) {
            let tx = self.conn.transaction().map_err(e)?;
            tx.execute_batch(step.sql)
                .and_then(|()| {
                    tx.execute_batch(&format!(
                        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {};",
                        i + 1
                    ))
                })
                .and_then(|()| tx.commit())
                .map_err(e)?;
        }
        Ok(())
    }

    /// Adds runs, in order, in one transaction: all or none.
    ///
    /// # Errors
    /// SQLite's, naming the file.
    pub fn add(&mut self, runs: &[NewRun]) -> Result<Vec<Added>, HistoryError> {
        let path = self.path.clone();
        let e = |err| sqlite(&path, err);
        let tx = self.conn.transaction().map_err(e)?;
        let added = runs
            .iter()
            .map(|r| add_one(&tx, r))
            .collect::<rusqlite::Result<Vec<Added>>>()
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(added)
    }

    /// Every stored run, oldest first (by date, then id).
    ///
    /// # Errors
    /// SQLite's, naming the file.
    pub fn runs(&self) -> Result<Vec<StoredRun>, HistoryError> {
        self.read_runs().map_err(|err| sqlite(&self.path, err))
    }

    fn read_runs(&self) -> rusqlite::Result<Vec<StoredRun>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT id, added, {COLUMNS} FROM runs ORDER BY date, id"
        ))?;
        let mut runs = stmt
            .query_map([], |row| {
                Ok(StoredRun {
                    id: row.get(0)?,
                    added: row.get(1)?,
                    run: summary_of(row, 2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        for r in &mut runs {
            r.run.engines = engines_of(&self.conn, r.id)?;
            r.run.labels = labels_of(&self.conn, r.id)?;
        }
        Ok(runs)
    }
}

/// The run columns written and read, in [`summary_of`]'s order (engines
/// and labels are tables of their own).
const COLUMNS: &str = "name, config_hash, shard, date, games_digest, game_lines, games, \
    games_played, games_scheduled, wins, draws, losses, ptnml, elo, elo_error, nelo, \
    nelo_error, llr, llr_lower, llr_upper, verdict, status";

fn sqlite(path: &Path, cause: rusqlite::Error) -> HistoryError {
    HistoryError::Sqlite {
        path: path.to_path_buf(),
        cause,
    }
}

fn pragma(conn: &Connection, name: &str) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, name, |r| r.get(0))
}

/// Adds one run: nothing for a stored state, an update for a later state
/// of a stored run, a new row otherwise.
fn add_one(tx: &Transaction<'_>, new: &NewRun) -> rusqlite::Result<Added> {
    let r = &new.run;
    let same: Option<i64> = tx
        .query_row(
            "SELECT id FROM runs WHERE config_hash = ?1 AND shard = ?2 AND games_digest = ?3",
            params![r.config_hash, r.shard, r.games_digest],
            |row| row.get(0),
        )
        .optional()?;
    if let Some(id) = same {
        return Ok(Added::Same(id));
    }
    let added = match earlier_state(tx, new)? {
        Some((id, from)) => {
            tx.execute(
                &format!(
                    "UPDATE runs SET ({COLUMNS}, added) = ({}) WHERE id = ?24",
                    slots()
                ),
                params_from_iter(run_params(r, id)),
            )?;
            tx.execute("DELETE FROM engines WHERE run_id = ?1", [id])?;
            Added::Continued { id, from }
        }
        None => {
            tx.execute(
                &format!("INSERT INTO runs ({COLUMNS}, added) VALUES ({})", slots()),
                params_from_iter(run_params(r, 0).into_iter().take(23)),
            )?;
            Added::New(tx.last_insert_rowid())
        }
    };
    let id = match added {
        Added::New(id) | Added::Same(id) | Added::Continued { id, .. } => id,
    };
    write_engines(tx, id, &r.engines)?;
    for (key, value) in &r.labels {
        tx.execute(
            "INSERT OR REPLACE INTO labels (run_id, key, value) VALUES (?1, ?2, ?3)",
            params![id, key, value],
        )?;
    }
    Ok(added)
}

/// `?1, ..., ?23`: the run columns and `added`.
fn slots() -> String {
    (1..=23)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stored row this run continues: a shorter state of the same config
/// and shard whose digest is that of this run's first game lines.
fn earlier_state(tx: &Transaction<'_>, new: &NewRun) -> rusqlite::Result<Option<(i64, u64)>> {
    let r = &new.run;
    let mut stmt = tx.prepare(
        "SELECT id, game_lines, games_digest FROM runs
         WHERE config_hash = ?1 AND shard = ?2 AND game_lines < ?3 ORDER BY game_lines DESC",
    )?;
    let rows = stmt.query_map(
        params![r.config_hash, r.shard, r.game_lines as i64],
        |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, String>(2)?,
            ))
        },
    )?;
    for row in rows {
        let (id, lines, digest) = row?;
        let lines = lines.max(0) as u64;
        if new.prefix_digest(lines).as_deref() == Some(digest.as_str()) {
            return Ok(Some((id, lines)));
        }
    }
    Ok(None)
}

/// The values of [`COLUMNS`], then `added` (now), then the row id.
fn run_params(r: &RunSummary, id: i64) -> Vec<Box<dyn rusqlite::ToSql>> {
    let int = |x: Option<u64>| x.map(|v| v as i64);
    let ptnml = r
        .ptnml
        .map(|p| serde_json::to_string(&p).expect("counts serialize"));
    vec![
        Box::new(r.name.clone()),
        Box::new(r.config_hash.clone()),
        Box::new(r.shard.clone()),
        Box::new(r.date.clone()),
        Box::new(r.games_digest.clone()),
        Box::new(r.game_lines as i64),
        Box::new(r.games as i64),
        Box::new(r.games_played as i64),
        Box::new(r.games_scheduled as i64),
        Box::new(int(r.wins)),
        Box::new(int(r.draws)),
        Box::new(int(r.losses)),
        Box::new(ptnml),
        Box::new(r.elo),
        Box::new(r.elo_error),
        Box::new(r.nelo),
        Box::new(r.nelo_error),
        Box::new(r.llr),
        Box::new(r.llr_lower),
        Box::new(r.llr_upper),
        Box::new(r.verdict.clone()),
        Box::new(r.status.clone()),
        Box::new(utc_date(std::time::SystemTime::now())),
        Box::new(id),
    ]
}

/// A run summary from the [`COLUMNS`] of `row`, starting at `at` (engines
/// and labels left empty).
fn summary_of(row: &Row<'_>, at: usize) -> rusqlite::Result<RunSummary> {
    let n = |i: usize| row.get::<_, i64>(at + i).map(|v| v.max(0) as u64);
    let opt = |i: usize| {
        row.get::<_, Option<i64>>(at + i)
            .map(|v| v.map(|v| v.max(0) as u64))
    };
    let ptnml: Option<String> = row.get(at + 12)?;
    Ok(RunSummary {
        name: row.get(at)?,
        config_hash: row.get(at + 1)?,
        shard: row.get(at + 2)?,
        date: row.get(at + 3)?,
        games_digest: row.get(at + 4)?,
        game_lines: n(5)?,
        engines: Vec::new(),
        games: n(6)?,
        games_played: n(7)?,
        games_scheduled: n(8)?,
        wins: opt(9)?,
        draws: opt(10)?,
        losses: opt(11)?,
        ptnml: ptnml.and_then(|p| serde_json::from_str(&p).ok()),
        elo: row.get(at + 13)?,
        elo_error: row.get(at + 14)?,
        nelo: row.get(at + 15)?,
        nelo_error: row.get(at + 16)?,
        llr: row.get(at + 17)?,
        llr_lower: row.get(at + 18)?,
        llr_upper: row.get(at + 19)?,
        verdict: row.get(at + 20)?,
        status: row.get(at + 21)?,
        labels: BTreeMap::new(),
    })
}

fn write_engines(tx: &Transaction<'_>, id: i64, engines: &[EngineRow]) -> rusqlite::Result<()> {
    let int = |x: Option<u64>| x.map(|v| v as i64);
    for (i, e) in engines.iter().enumerate() {
        tx.execute(
            "INSERT INTO engines (run_id, position, name, games, wins, draws, losses, points, elo, elo_error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                id,
                i as i64,
                e.name,
                int(e.games),
                int(e.wins),
                int(e.draws),
                int(e.losses),
                e.points,
                e.elo,
                e.elo_error
            ],
        )?;
    }
    Ok(())
}

fn engines_of(conn: &Connection, id: i64) -> rusqlite::Result<Vec<EngineRow>> {
    let mut stmt = conn.prepare(
        "SELECT name, games, wins, draws, losses, points, elo, elo_error
         FROM engines WHERE run_id = ?1 ORDER BY position",
    )?;
    let count = |row: &Row<'_>, i| {
        row.get::<_, Option<i64>>(i)
            .map(|v| v.map(|v| v.max(0) as u64))
    };
    let rows = stmt.query_map([id], |row| {
        Ok(EngineRow {
            name: row.get(0)?,
            games: count(row, 1)?,
            wins: count(row, 2)?,
            draws: count(row, 3)?,
            losses: count(row, 4)?,
            points: row.get(5)?,
            elo: row.get(6)?,
            elo_error: row.get(7)?,
        })
    })?;
    rows.collect()
}

fn labels_of(conn: &Connection, id: i64) -> rusqlite::Result<BTreeMap<String, String>> {
    let mut stmt = conn.prepare("SELECT key, value FROM labels WHERE run_id = ?1")?;
    let rows = stmt.query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?;
    rows.collect()
}
