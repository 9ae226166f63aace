//! A results folder: its journal opened for a new run or resumed (after
//! checking it is of the same config and shard), its `tournament.json`
//! read back, and the folder-level commands `report` (recompute every output
//! from the journal) and `merge` (combine shard folders).

use super::schedule;
use crate::error::{Error, Result};
use crate::records::journal::{self, Header, Journal};
use crate::records::{GameRecord, TournamentInfo};
use crate::report::{analyse, write_outputs, Results};
use crate::util::write_atomic;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Opens the journal of a run: a new one, or (with `resume`) the existing
/// one after checking it belongs to the same config and shard.
pub fn open_journal(
    path: &Path,
    info: &TournamentInfo,
    resume: bool,
) -> Result<(Journal, Vec<GameRecord>)> {
    let header = Header {
        arena_journal: 1,
        config_hash: info.config_hash.clone(),
        name: info.name.clone(),
        shard: info.shard.clone(),
    };
    if !path.exists() {
        return Ok((Journal::create(path, &header)?, Vec::new()));
    }
    let folder = path
        .parent()
        .unwrap_or(Path::new("."))
        .display()
        .to_string();
    if !resume {
        return Err(Error::Argument {
            argument: "--out".into(),
            message: format!(
                "{folder} already holds a tournament journal; continue it with --resume, or choose another output folder"
            ),
        });
    }
    let c = journal::read(path)?;
    if c.header.config_hash != info.config_hash {
        return Err(Error::Argument {
            argument: "--resume".into(),
            message: format!(
                "the journal in {folder} was written by a different config (hash {}, this config {}): games would not match; use another output folder",
                c.header.config_hash, info.config_hash
            ),
        });
    }
    if c.header.shard != info.shard {
        return Err(Error::Argument {
            argument: "--shard".into(),
            message: format!(
                "the journal in {folder} is of shard {}, not {}",
                c.header.shard, info.shard
            ),
        });
    }
    Ok((Journal::append_to(path, c.valid_len)?, c.games))
}

/// Recomputes results.json, summary.md and games.ggf of a results folder
/// from its journal (`arena report`).
///
/// # Errors
/// A missing or bad journal or tournament.json.
pub fn report(dir: &Path) -> Result<(TournamentInfo, Results)> {
    let info = read_info(dir)?;
    let c = journal::read(&dir.join("journal.jsonl"))?;
    let results = analyse(&info, &c.games);
    write_outputs(dir, &results, &c.games)?;
    Ok((info, results))
}

/// Reads `tournament.json` from a results folder.
///
/// # Errors
/// I/O or a malformed file.
pub fn read_info(dir: &Path) -> Result<TournamentInfo> {
    let path = dir.join("tournament.json");
    let text = crate::error::read_text(&path)?;
    let info: TournamentInfo = serde_json::from_str(&text)
        .map_err(|e| Error::config_at(&path, e.line(), e.column(), e.to_string()))?;
    for (i, name) in info.engines.iter().enumerate() {
        if info.engines[..i].contains(name) {
            return Err(Error::config_at(
                &path,
                0,
                0,
                format!("engines: {name:?} is listed twice"),
            ));
        }
    }
    if info.engines.len() < 2 || info.total_pairs > schedule::MAX_PAIRS {
        return Err(Error::config_at(
            &path,
            0,
            0,
            format!(
                "not a tournament of arena: {} engines, {} pairs (2 or more engines, at most {} pairs)",
                info.engines.len(),
                info.total_pairs,
                schedule::MAX_PAIRS
            ),
        ));
    }
    Ok(info)
}

/// Combines the journals of shard folders into `out` (`arena merge`): every
/// folder must be of the same config; the merged journal holds each game
/// once, and every output is recomputed.
///
/// # Errors
/// Folders of different configs, an existing journal in `out`, I/O errors.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<(TournamentInfo, Results)> {
    let mut info: Option<TournamentInfo> = None;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut seen = HashSet::new();
    for dir in dirs {
        let i = read_info(dir)?;
        if let Some(first) = &info {
            if first.config_hash != i.config_hash {
                return Err(Error::Argument {
                    argument: dir.display().to_string(),
                    message: format!(
                        "is a run of config {} but {} is of config {}: only shards of one config merge",
                        i.config_hash,
                        dirs[0].display(),
                        first.config_hash
                    ),
                });
            }
        } else {
            info = Some(i);
        }
        for g in journal::read(&dir.join("journal.jsonl"))?.games {
            if seen.insert(g.game_id) {
                games.push(g);
            }
        }
    }
    let mut info = info.ok_or_else(|| Error::Argument {
        argument: "DIR".into(),
        message: "name at least one results folder".into(),
    })?;
    info.shard = "merged".into();
    std::fs::create_dir_all(out).map_err(|e| Error::io(out, e))?;
    let journal_path = out.join("journal.jsonl");
    games.sort_by_key(|g| g.game_id);
    let header = Header {
        arena_journal: 1,
        config_hash: info.config_hash.clone(),
        name: info.name.clone(),
        shard: info.shard.clone(),
    };
    let mut j = Journal::create(&journal_path, &header).map_err(|e| match e {
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::AlreadyExists => {
            Error::Argument {
                argument: "--out".into(),
                message: format!(
                    "{} already holds a journal; merge into an empty folder",
                    out.display()
                ),
            }
        }
        other => other,
    })?;
    for g in &games {
        j.append(g)?;
    }
    write_atomic(
        &out.join("tournament.json"),
        &(serde_json::to_string_pretty(&info).expect("info serializes") + "\n"),
    )?;
    let results = analyse(&info, &games);
    write_outputs(out, &results, &games)?;
    Ok((info, results))
}
