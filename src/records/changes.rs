//! What changed between two configs, field by field. A run's record
//! (`tournament.json`) keeps its checked config in normal form (`config`:
//! the very JSON whose FNV-1a is `config_hash`), so a run of another
//! config can be refused naming what differs (`seed: 1 -> 2`, `engine b:
//! limit.Depth 1 -> 2`) rather than two hashes alone.

use super::TournamentInfo;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Most changes one message names; the rest are counted (`and 4 more`).
const NAMED: usize = 3;

/// Most characters of a value a change shows; a longer one is cut, `…`.
const VALUE_CHARS: usize = 40;

/// The normal form's keys in the order their changes are named (the order
/// the config hash's form is built in); any other key after them, by name.
const ORDER: [&str; 8] = [
    "name",
    "engines",
    "format",
    "book",
    "seed",
    "time_control",
    "adjudicate",
    "game",
];

/// A config's hash from its normal form: the FNV-1a (64-bit) of the form's
/// compact JSON text, as 16 hex digits.
pub fn form_hash(form: &Value) -> String {
    format!("{:016x}", crate::util::fnv1a(form.to_string().as_bytes()))
}

/// The changes from the config `before` records to the one `after` does,
/// on one line: the first few as `PATH: OLD -> NEW` (an engine's as
/// `engine NAME: PATH OLD -> NEW`), values as JSON, long ones cut, then
/// `and N more`. `None` when either record keeps no normal form (a folder
/// older than it) or one that does not hash to its `config_hash` (an
/// edited record), or when the two forms name no difference.
pub fn config_changes(before: &TournamentInfo, after: &TournamentInfo) -> Option<String> {
    let (a, b) = (trusted_form(before)?, trusted_form(after)?);
    let found = differences(a, b);
    if found.is_empty() {
        return None;
    }
    let mut text = found[..found.len().min(NAMED)].join(", ");
    if found.len() > NAMED {
        text.push_str(&format!(" and {} more", found.len() - NAMED));
    }
    // The path helper escapes every control character JSON leaves as it is
    // (DEL, the C1 controls): the line stays one line, whatever was written.
    Some(crate::error::path_text(std::path::Path::new(&text)))
}

/// The record's normal form, when it has one that hashes to its hash.
fn trusted_form(info: &TournamentInfo) -> Option<&Value> {
    info.config
        .as_ref()
        .filter(|form| form_hash(form) == info.config_hash)
}

/// One field that differs: where, and its value before and after, shown.
struct Difference {
    path: String,
    before: String,
    after: String,
}

/// Every difference between two normal forms, worded, in [`ORDER`].
fn differences(a: &Value, b: &Value) -> Vec<String> {
    let mut keys: Vec<&String> = keys_of(a).union(&keys_of(b)).copied().collect();
    keys.sort_by_key(|k| (rank(k), *k));
    let mut found = Vec::new();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if let (true, Some(Value::Array(x)), Some(Value::Array(y))) = (key == "engines", x, y) {
            engine_differences(x, y, &mut found);
            continue;
        }
        let mut here = Vec::new();
        walk(key.clone(), x, y, &mut here);
        found.extend(
            here.into_iter()
                .map(|d| format!("{}: {} -> {}", d.path, d.before, d.after)),
        );
    }
    found
}

/// Where a top-level key comes in [`ORDER`] (after it when not there).
fn rank(key: &str) -> usize {
    ORDER.iter().position(|o| *o == key).unwrap_or(ORDER.len())
}

/// The keys of an object (none of anything else).
fn keys_of(v: &Value) -> BTreeSet<&String> {
    v.as_object()
        .map(|m| m.keys().collect())
        .unwrap_or_default()
}

/// The differences of the engines' fingerprints: the list of names when it
/// changed, then each engine's own fields, engines matched by place when
/// the names are the same, else by name.
fn engine_differences(x: &[Value], y: &[Value], found: &mut Vec<String>) {
    let (p, q) = (engine_names(x), engine_names(y));
    if p != q {
        let (before, after) = shown_pair(names_text(&p), names_text(&q));
        found.push(format!("engines: {before} -> {after}"));
    }
    let pairs: Vec<(usize, usize)> = if p == q {
        (0..p.len()).map(|i| (i, i)).collect()
    } else {
        let once = |names: &[String], n: &String| names.iter().filter(|m| *m == n).count() == 1;
        p.iter()
            .enumerate()
            .filter(|(_, n)| once(&p, n) && once(&q, n))
            .filter_map(|(i, n)| Some((i, q.iter().position(|m| m == n)?)))
            .collect()
    };
    for (i, j) in pairs {
        let mut here = Vec::new();
        walk(String::new(), Some(&x[i]), Some(&y[j]), &mut here);
        let who = engine_label(&p, i);
        found.extend(here.into_iter().map(|d| {
            let path = inside_engine(&d.path);
            format!("engine {who}: {path} {} -> {}", d.before, d.after)
        }));
    }
}

/// Each fingerprint's engine name (`#N` by place when it has none).
fn engine_names(list: &[Value]) -> Vec<String> {
    list.iter()
        .enumerate()
        .map(|(i, fp)| {
            ["engine", "external"]
                .iter()
                .find_map(|k| fp.get(k)?.get("name")?.as_str())
                .map_or_else(|| format!("#{}", i + 1), str::to_string)
        })
        .collect()
}

/// A list of engine names as JSON text.
fn names_text(names: &[String]) -> String {
    Value::from(names.to_vec()).to_string()
}

/// How a change names engine `i`: its name, bare when it is plain
/// letters, digits and `-_.+`, else quoted; with its place (`#2`) when
/// another engine has the same name (an engine file listed twice).
fn engine_label(names: &[String], i: usize) -> String {
    let name = &names[i];
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.+".contains(c));
    let shown = if plain {
        name.clone()
    } else {
        Value::from(name.as_str()).to_string()
    };
    if names.iter().filter(|n| *n == name).count() > 1 {
        format!("{shown} #{}", i + 1)
    } else {
        shown
    }
}

/// A path inside an engine's fingerprint as the engine's file names the
/// field (`engine.tt_mib` is `tt_mib`); the fingerprint's own keys (a
/// weights file's hash) as they are.
fn inside_engine(path: &str) -> &str {
    match ["engine.", "external."]
        .iter()
        .find_map(|p| path.strip_prefix(p))
    {
        Some(inner) => inner,
        None if path.is_empty() => "settings",
        None => path,
    }
}

/// Finds where `x` and `y` (at `path`; `None`: absent) differ: objects
/// key by key and arrays of one length item by item, down to the values
/// that differ; an enum's other variant, or a list of another length, as
/// a whole.
fn walk(path: String, x: Option<&Value>, y: Option<&Value>, found: &mut Vec<Difference>) {
    if x == y {
        return;
    }
    if let (Some(Value::Object(p)), Some(Value::Object(q))) = (x, y) {
        if !other_variants(p, q) {
            let keys: BTreeSet<&String> = p.keys().chain(q.keys()).collect();
            for key in keys {
                let inner = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                walk(inner, p.get(key), q.get(key), found);
            }
            return;
        }
    }
    if let (Some(Value::Array(p)), Some(Value::Array(q))) = (x, y) {
        if p.len() == q.len() {
            for (i, (u, v)) in p.iter().zip(q).enumerate() {
                walk(
                    format!("{path}[{}]", item_label(i, u, v)),
                    Some(u),
                    Some(v),
                    found,
                );
            }
            return;
        }
    }
    let (before, after) = shown_pair(shown(x), shown(y));
    found.push(Difference {
        path,
        before,
        after,
    });
}

/// True for two variants of an enum (`{"Depth": 1}`, `{"MoveTime": 500}`):
/// one key each, and not the same.
fn other_variants(p: &Map<String, Value>, q: &Map<String, Value>) -> bool {
    p.len() == 1 && q.len() == 1 && p.keys().next() != q.keys().next()
}

/// How a path names item `i` of a list: by the `name` or `field` both
/// sides give it (a tune's parameter), else by its place.
fn item_label(i: usize, u: &Value, v: &Value) -> String {
    ["name", "field"]
        .iter()
        .find_map(|k| {
            let name = u.get(k)?.as_str()?;
            (v.get(k)?.as_str()? == name).then(|| name.to_string())
        })
        .unwrap_or_else(|| i.to_string())
}

/// A value as a change shows it: compact JSON, `(none)` when absent.
fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "(none)".to_string(), Value::to_string)
}

/// Two values' texts, each cut to [`VALUE_CHARS`] unless cutting would
/// make them read the same.
fn shown_pair(before: String, after: String) -> (String, String) {
    let cut = |text: &str| {
        if text.chars().count() <= VALUE_CHARS {
            text.to_string()
        } else {
            text.chars().take(VALUE_CHARS).collect::<String>() + "…"
        }
    };
    let (b, a) = (cut(&before), cut(&after));
    if b == a {
        (before, after)
    } else {
        (b, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of `form`, its hash computed as a run's is.
    fn record(form: &Value) -> TournamentInfo {
        let text = format!(
            r#"{{"config_hash":"{}","name":"t","engines":["a","b"],"format":{{"RoundRobin":{{"rounds":1}}}},"total_pairs":1,"book":{{"file":"","openings":1,"order":"Sequential","start":0}},"seed":1,"fail_on_h0":false,"shard":"1/1"}}"#,
            form_hash(form)
        );
        let mut info: TournamentInfo = serde_json::from_str(&text).unwrap();
        info.config = Some(form.clone());
        info
    }

    fn engine(name: &str, tt: u64, limit: Value) -> Value {
        serde_json::json!({ "engine": { "name": name, "tt_mib": tt, "limit": limit }, "weights_fnv1a": null })
    }

    fn form(seed: u64, engines: Vec<Value>) -> Value {
        serde_json::json!({ "name": "t", "engines": engines, "format": { "Sprt": { "elo0": 0.0, "elo1": 5.0 } }, "book": null, "seed": seed })
    }

    #[test]
    fn each_changed_field_is_named_with_both_values_in_order() {
        let depth = |d: u64| serde_json::json!({ "Depth": d });
        let a = form(1, vec![engine("a", 16, depth(1)), engine("b", 1, depth(1))]);
        let mut b = form(2, vec![engine("a", 32, depth(1)), engine("b", 1, depth(2))]);
        let got = config_changes(&record(&a), &record(&b)).unwrap();
        assert_eq!(
            got,
            "engine a: tt_mib 16 -> 32, engine b: limit.Depth 1 -> 2, seed: 1 -> 2"
        );
        b["format"]["Sprt"]["elo1"] = serde_json::json!(10.0);
        b["engines"][1]["engine"]["limit"] = serde_json::json!({ "MoveTime": 500 });
        let got = config_changes(&record(&a), &record(&b)).unwrap();
        assert_eq!(
            got,
            "engine a: tt_mib 16 -> 32, engine b: limit {\"Depth\":1} -> {\"MoveTime\":500}, format.Sprt.elo1: 5.0 -> 10.0 and 1 more"
        );
    }

    #[test]
    fn another_engine_list_is_named_and_the_engines_in_both_compared() {
        let d1 = serde_json::json!({ "Depth": 1 });
        let a = form(
            1,
            vec![engine("a", 1, d1.clone()), engine("b", 1, d1.clone())],
        );
        let b = form(1, vec![engine("a", 2, d1.clone()), engine("c\n", 1, d1)]);
        let got = config_changes(&record(&a), &record(&b)).unwrap();
        assert_eq!(
            got,
            "engines: [\"a\",\"b\"] -> [\"a\",\"c\\n\"], engine a: tt_mib 1 -> 2"
        );
    }

    #[test]
    fn no_form_an_edited_form_or_no_difference_names_nothing() {
        let a = form(1, Vec::new());
        let b = form(2, Vec::new());
        let mut old = record(&a);
        old.config = None;
        assert_eq!(config_changes(&old, &record(&b)), None);
        let mut edited = record(&a);
        edited.config = Some(form(3, Vec::new()));
        assert_eq!(config_changes(&edited, &record(&b)), None);
        assert_eq!(config_changes(&record(&a), &record(&a)), None);
        assert!(config_changes(&record(&a), &record(&b)).is_some());
    }

    #[test]
    fn long_values_are_cut_unless_cutting_hides_the_change() {
        let long = |tail: &str| format!("{}{tail}", "x".repeat(60));
        let (x, y) = shown_pair(long("a"), long("b"));
        assert_eq!(
            (x.as_str(), y.as_str()),
            (long("a").as_str(), long("b").as_str())
        );
        let (x, y) = shown_pair(format!("a{}", long("")), format!("b{}", long("")));
        assert!(x.ends_with('…') && y.ends_with('…') && x.chars().count() == VALUE_CHARS + 1);
        assert_ne!(x, y);
    }
}
