//! Who holds each claim of a workers' run, as its files say: the owner
//! of a claim file ([`read_claim`], [`Owner`]: a worker, or nobody when the
//! file names no worker), every generation's owner of every pair
//! ([`claim_owners`]), and the pair and generation a claim's name stands
//! for ([`parse_claim_name`]). The claims themselves are made in
//! [`super::claims`].

use crate::error::{Error, Result};
use std::collections::{BTreeMap, HashMap};
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

/// The name of a worker's scratch file `k` in its folder, whose hard
/// links its claims are (see [`super::claims`]).
pub fn scratch_name(k: u32) -> String {
    format!(".claim.{k}")
}

/// Every generation's owner of every claim in the run folder `dir`: pair
/// to owners, oldest first.
///
/// A claim that is a hard link of a worker's scratch file has the
/// scratch's owner, known from the inode its folder lists for it, without
/// reading it; where the names a scratch has are not exactly its claims
/// found so plus its own (a claim linked from elsewhere too), those claims
/// are read one by one, as any other claim file is.
///
/// # Errors
/// The claims folder cannot be read.
pub fn claim_owners(dir: &Path) -> Result<BTreeMap<u64, Vec<Owner>>> {
    let claims = dir.join("claims");
    let entries = match std::fs::read_dir(&claims) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(Error::io(&claims, e)),
    };
    let scratches = scratches(dir, &claims);
    // Each claim, with the scratch inode its entry names (if any).
    let mut named: Vec<(u64, u32, String, Option<u64>)> = Vec::new();
    let mut found: HashMap<u64, u64> = HashMap::new();
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(&claims, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((pair, gen)) = parse_claim_name(&name) else {
            continue;
        };
        let ino = crate::util::sys::entry_ino(&entry);
        let by = scratches.contains_key(&ino).then_some(ino);
        if let Some(ino) = by {
            *found.entry(ino).or_default() += 1;
        }
        named.push((pair, gen, name, by));
    }
    let mut by_pair: BTreeMap<u64, BTreeMap<u32, Owner>> = BTreeMap::new();
    for (pair, gen, name, by) in named {
        let known = by.and_then(|ino| {
            let (owner, names) = &scratches[&ino];
            (found[&ino] + 1 == *names).then(|| owner.clone())
        });
        if let Some(owner) = known.or_else(|| read_claim(&claims, &name)) {
            by_pair.entry(pair).or_default().insert(gen, owner);
        }
    }
    Ok(by_pair
        .into_iter()
        .map(|(p, gens)| (p, gens.into_values().collect()))
        .collect())
}

/// The workers' scratch files on the claims folder's device: inode to
/// owner (as its content says) and names.
fn scratches(dir: &Path, claims: &Path) -> HashMap<u64, (Owner, u64)> {
    let mut out = HashMap::new();
    let Some((device, _)) = crate::util::sys::file_id(claims) else {
        return out;
    };
    let Ok(workers) = std::fs::read_dir(dir.join("workers")) else {
        return out;
    };
    for worker in workers.flatten() {
        let own = worker.path();
        for k in 0.. {
            let name = scratch_name(k);
            let Some(((dev, ino), names)) = crate::util::sys::file_links_here(&own.join(&name))
            else {
                break;
            };
            if dev == device {
                if let Some(owner @ Owner::Worker(_)) = read_claim(&own, &name) {
                    out.insert(ino, (owner, names));
                }
            }
        }
    }
    out
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
