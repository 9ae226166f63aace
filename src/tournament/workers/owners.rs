//! Who holds each claim of a workers' run, as its files say: the owner
//! of a claim file ([`read_claim`], [`Owner`]: a worker, or nobody when the
//! file names no worker), every generation's owner of every pair
//! ([`claim_owners`]), and the pair and generation a claim's name stands
//! for ([`parse_claim_name`]). The claims themselves are made in
//! [`super::claims`].

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// Who a claim file names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A worker, by ID.
    Worker(String),
    /// No worker: the file and why, in words. Taken over as a gone
    /// worker's claim is.
    Unreadable(String),
}

impl Owner {
    /// The worker's ID (`None` for a claim that names no worker).
    pub fn worker(&self) -> Option<&str> {
        match self {
            Owner::Worker(id) => Some(id),
            Owner::Unreadable(_) => None,
        }
    }

    /// True when this is worker `id`.
    pub fn is(&self, id: &str) -> bool {
        matches!(self, Owner::Worker(w) if w == id)
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Worker(id) => f.write_str(id),
            Owner::Unreadable(why) => write!(f, "nobody ({why})"),
        }
    }
}

/// Reads the claim file `name` in the claims folder `dir`: `None` when
/// there is no such name.
pub fn read_claim(dir: &Path, name: &str) -> Option<Owner> {
    let path = dir.join(name);
    let unreadable = |why: String| Some(Owner::Unreadable(format!("claims/{name} {why}")));
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return unreadable(format!("cannot be read: {e}")),
        Ok(m) if m.is_dir() => return unreadable("is a folder".into()),
        Ok(_) => {}
    }
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return unreadable("is a link to nothing".into())
        }
        Err(e) => return unreadable(format!("cannot be read: {e}")),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return unreadable("is not UTF-8 text".into());
    };
    let id = text.trim();
    match super::check_id(id) {
        Ok(()) => Some(Owner::Worker(id.to_string())),
        Err(why) => unreadable(format!("names no worker: {why}")),
    }
}

/// Every generation's owner of every claim in the run folder `dir`: pair
/// to owners, oldest first.
///
/// # Errors
/// The claims folder cannot be read.
pub fn claim_owners(dir: &Path) -> Result<BTreeMap<u64, Vec<Owner>>> {
    let claims = dir.join("claims");
    let mut by_pair: BTreeMap<u64, BTreeMap<u32, Owner>> = BTreeMap::new();
    let entries = match std::fs::read_dir(&claims) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(Error::io(&claims, e)),
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&claims, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((pair, gen)) = parse_claim_name(&name) else {
            continue;
        };
        if let Some(owner) = read_claim(&claims, &name) {
            by_pair.entry(pair).or_default().insert(gen, owner);
        }
    }
    Ok(by_pair
        .into_iter()
        .map(|(p, gens)| (p, gens.into_values().collect()))
        .collect())
}

/// The pair and generation a claim's file name stands for.
pub fn parse_claim_name(name: &str) -> Option<(u64, u32)> {
    let (pair, gen) = match name.split_once('.') {
        Some((p, g)) => (p, g.parse().ok().filter(|&g| g > 0)?),
        None => (name, 0),
    };
    if pair.is_empty()
        || !pair.bytes().all(|b| b.is_ascii_digit())
        || (pair.len() > 1 && pair.starts_with('0'))
    {
        return None;
    }
    Some((pair.parse().ok()?, gen))
}
