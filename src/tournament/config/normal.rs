//! A config in normal form: everything that decides its games, as JSON.
//! Its hash ([`form_hash`](crate::records::changes::form_hash)) is the
//! config hash, and the run's record keeps it, so that a run of another
//! config is refused naming the fields that changed.

use super::{Adjudicate, RawTournament};
use crate::game::GameKind;

/// The normal form of `raw` (with its engines' fingerprints, the hash of its
/// book's bytes and its game): the name, each engine's fingerprint, the
/// format, the book (its bytes' hash, order and start), the seed, and what
/// is set of the time control, adjudication and game (only when set, so
/// older configs hash as before).
pub(super) fn normal_form(
    raw: &RawTournament,
    fingerprints: &[serde_json::Value],
    book_hash: &str,
    game: GameKind,
) -> serde_json::Value {
    let book = raw.book.as_ref().map_or(
        serde_json::Value::Null,
        |b| serde_json::json!({ "fnv1a": book_hash, "order": b.order, "start": b.start }),
    );
    let mut normalized = serde_json::json!({
        "name": raw.name,
        "engines": fingerprints,
        "format": raw.format,
        "book": book,
        "seed": raw.seed,
    });
    if let Some(tc) = raw.time_control {
        normalized["time_control"] = serde_json::json!(tc);
    }
    if raw.adjudicate != Adjudicate::default() {
        normalized["adjudicate"] = serde_json::json!(raw.adjudicate);
    }
    if let Some(speed) = raw.speed {
        normalized["speed"] = serde_json::json!(speed);
    }
    if game != GameKind::Othello {
        normalized["game"] = serde_json::json!(game);
    }
    normalized
}
