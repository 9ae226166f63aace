//! Engine fields that must be stated: a searching engine without `limit`
//! or `eval` is an error naming the field (never a silent `Depth(1)` or
//! `Discs`), the random mover needs neither, and stating a field keeps the
//! config hash of every shipped config (journals of earlier runs resume).

use crate::util::repo;
use arena::tournament::Tournament;

/// Each shipped config's hash as the code before engines had to state
/// `limit` and `eval` computed it (`tournament.json`'s `config_hash`).
const SHIPPED_HASHES: [(&str, &str); 5] = [
    ("configs/quick.ron", "c8a20ad57bd7d277"),
    ("configs/gauntlet.ron", "48fb66c70a119ff6"),
    ("configs/sprt-eval.ron", "922bf03e938214eb"),
    ("configs/strong-gauntlet.ron", "1838b11aae8172d2"),
    ("configs/variants.ron", "661b512ac69ccf70"),
];

#[test]
fn shipped_config_hashes_are_unchanged() {
    for (file, hash) in SHIPPED_HASHES {
        let t = Tournament::load(&repo(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(t.hash, hash, "{file}");
    }
}
