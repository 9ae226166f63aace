//! Claims: names, generations, takeovers, unreadable claim files.

use super::super::links::{claim_name, NAMES_PER_SCRATCH};
use super::*;

/// A fresh run folder `name` (this process's own) under the temporary
/// folder, with the sub-folders `folders`.
fn run_folder(name: &str, folders: &[&str]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for d in folders {
        std::fs::create_dir_all(dir.join(d)).unwrap();
    }
    dir
}

#[test]
fn claim_names_are_pairs_and_generations() {
    assert_eq!(parse_claim_name("0"), Some((0, 0)));
    assert_eq!(parse_claim_name("17"), Some((17, 0)));
    assert_eq!(parse_claim_name("17.2"), Some((17, 2)));
    for bad in ["", "x", "017", "17.0", "17.", ".1", "1.x", "-1"] {
        assert_eq!(parse_claim_name(bad), None, "{bad}");
    }
    assert_eq!(claim_name(17, 0), "17");
    assert_eq!(claim_name(17, 3), "17.3");
}

#[test]
fn a_pair_is_claimed_once_and_taken_over_by_the_next_generation() {
    let dir = run_folder("claims", &["claims", "workers/a", "workers/b"]);
    let (mut a, mut b) = (Claims::new(&dir, "a"), Claims::new(&dir, "b"));
    assert!(a.claim(3, 0).unwrap());
    assert!(!b.claim(3, 0).unwrap());
    let worker = |id: &str| Owner::Worker(id.to_string());
    assert_eq!(b.owner(3), Some((0, worker("a"))));
    assert!(b.claim(3, 1).unwrap());
    assert!(!a.claim(3, 1).unwrap());
    assert_eq!(a.owner(3), Some((1, worker("b"))));
    assert_eq!(a.owner(4), None);
    let all = claim_owners(&dir).unwrap();
    assert_eq!(all.get(&3), Some(&vec![worker("a"), worker("b")]));
    // No heartbeat: gone; this worker's own claims never are.
    let minute = Duration::from_secs(60);
    assert!(a.owner_is_stale(&worker("b"), minute));
    assert!(!a.owner_is_stale(&worker("a"), minute));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_claim_that_names_no_worker_is_unreadable_and_taken_over() {
    let dir = run_folder("claims-odd", &["claims/1", "workers/a"]);
    let claims = dir.join("claims");
    crate::util::sys::symlink(&dir.join("nowhere"), &claims.join("2")).unwrap();
    std::fs::write(claims.join("3"), b"\xff\xfe\n").unwrap();
    std::fs::write(claims.join("4"), "a b\n").unwrap();
    std::fs::write(claims.join("5"), "b\n").unwrap();
    let mut a = Claims::new(&dir, "a");
    for (pair, says) in [
        (1, "claims/1 is a folder"),
        (2, "claims/2 is a link to nothing"),
        (3, "claims/3 is not UTF-8 text"),
        (4, "claims/4 names no worker"),
    ] {
        let Some((0, Owner::Unreadable(why))) = a.owner(pair) else {
            panic!("pair {pair}: {:?}", a.owner(pair));
        };
        assert!(why.starts_with(says), "{why}");
        assert!(a.owner_is_stale(&Owner::Unreadable(why), Duration::from_secs(60)));
        // Not the pair's: the name is taken. The next generation is.
        assert!(!a.claim(pair, 0).unwrap());
        assert!(a.claim(pair, 1).unwrap());
        assert_eq!(a.owner(pair), Some((1, Owner::Worker("a".into()))));
    }
    assert_eq!(a.owner(5), Some((0, Owner::Worker("b".into()))));
    let all = claim_owners(&dir).unwrap();
    assert!(matches!(all[&1][0], Owner::Unreadable(_)) && all[&1][1].is("a"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn claims_are_names_of_one_scratch_file_read_once_and_read_one_by_one_when_in_doubt() {
    let dir = run_folder("claims-scratch", &["claims", "workers/a", "workers/b"]);
    let (mut a, mut b) = (Claims::new(&dir, "a"), Claims::new(&dir, "b"));
    for pair in 0..3 {
        assert!(a.claim(pair, 0).unwrap());
    }
    assert!(b.claim(3, 0).unwrap());
    assert!(b.claim(0, 1).unwrap());
    let scratch = dir.join("workers/a").join(scratch_name(0));
    assert_eq!(std::fs::read_to_string(&scratch).unwrap(), "a\n");
    let claimed = crate::util::sys::file_id(&dir.join("claims/2"));
    assert_eq!(claimed, crate::util::sys::file_id(&scratch));
    let worker = |id: &str| Owner::Worker(id.to_string());
    let expected: std::collections::BTreeMap<u64, Vec<Owner>> = [
        (0, vec![worker("a"), worker("b")]),
        (1, vec![worker("a")]),
        (2, vec![worker("a")]),
        (3, vec![worker("b")]),
    ]
    .into();
    assert_eq!(claim_owners(&dir).unwrap(), expected);
    // A claim with a name outside the claims: its scratch's names are not
    // its claims, which are then read one by one (the same owners).
    std::fs::hard_link(dir.join("claims/1"), dir.join("elsewhere")).unwrap();
    assert_eq!(claim_owners(&dir).unwrap(), expected);
    std::fs::remove_file(dir.join("elsewhere")).unwrap();
    // A scratch file replaced by one naming another worker: the claims
    // made before still name `a` (they are the old file), and say so.
    std::fs::write(dir.join("workers/a/new"), "b\n").unwrap();
    std::fs::rename(dir.join("workers/a/new"), &scratch).unwrap();
    assert_eq!(claim_owners(&dir).unwrap(), expected);
    // A worker that starts again claims from a scratch file holding its
    // ID: the replaced one, which names `b` and has no claim, is made
    // again.
    let mut again = Claims::new(&dir, "a");
    assert!(again.claim(4, 0).unwrap());
    assert_eq!(read_claim(&dir.join("claims"), "4"), Some(worker("a")));
    assert_eq!(
        crate::util::sys::file_id(&dir.join("claims/4")),
        crate::util::sys::file_id(&dir.join("workers/a").join(scratch_name(0)))
    );
    assert_eq!(claim_owners(&dir).unwrap()[&4], [worker("a")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_scratch_file_takes_a_bounded_number_of_names() {
    let dir = run_folder("claims-names", &["claims", "workers/a"]);
    let mut a = Claims::new(&dir, "a");
    for pair in 0..NAMES_PER_SCRATCH {
        assert!(a.claim(pair, 0).unwrap());
    }
    let names = |k| crate::util::sys::link_count(&dir.join("workers/a").join(scratch_name(k)));
    // Its own name and NAMES_PER_SCRATCH - 1 claims; the rest from the next.
    assert_eq!(names(0), Some(NAMES_PER_SCRATCH));
    assert_eq!(names(1), Some(2));
    let owners = claim_owners(&dir).unwrap();
    assert_eq!(owners.len() as u64, NAMES_PER_SCRATCH);
    assert!(owners.values().all(|o| o == &[Owner::Worker("a".into())]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_worker_started_again_does_not_take_its_own_old_claim_for_a_new_one() {
    let dir = run_folder("claims-again", &["claims", "workers/a"]);
    assert!(Claims::new(&dir, "a").claim(0, 0).unwrap());
    // Started again, it claims from the same scratch file; with a claim
    // just made (no look first), its claim of pair 0 from before is the
    // same file, and not a claim made now.
    let mut again = Claims::new(&dir, "a");
    assert!(again.claim(5, 0).unwrap());
    assert!(!again.claim(0, 0).unwrap());
    assert!(again.claim(6, 0).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}
