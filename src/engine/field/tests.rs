//! Unit tests of setting an engine's fields: a written value reads as the
//! whole file with it written there did (the same value, the same error
//! words), numbers go into number fields only, rounded for whole ones,
//! and the path fields are the ones an argument's name shows by stem.

use super::*;
use crate::engine::external::Protocol;
use crate::util::parse_ron;
use crate::util::ron_edit::set_field;

const ENGINE: &str = "Engine(
    name: \"x\",
    search: Pvs,
    deepening: true,
    limit: Depth(4),
    tt_mib: 4,
    aspiration: Some(50),
    eval: Features(weights: \"w.ron\"),
    time: TimeUse(most: 0.3),
)";

fn engine() -> RawEngine {
    parse_ron(ENGINE, Path::new("e.ron")).unwrap()
}

fn written(raw: &mut RawEngine, path: &str, text: &str) -> Result<(), FieldError> {
    let base = Path::new("/b");
    raw.set_field(path, FieldValue::Written { text, base })
}

/// What the file with `ron` written at `path` reads as, or its error's
/// words.
fn file_with(path: &str, ron: &str) -> Result<RawEngine, String> {
    let parts: Vec<&str> = path.split('.').collect();
    let text = set_field(ENGINE, &parts, |_| ron.to_string()).unwrap();
    parse_ron::<RawEngine>(&text, Path::new("e.ron")).map_err(|e| match e {
        crate::error::Error::Config { message, .. } => message,
        other => other.to_string(),
    })
}

#[test]
fn a_written_value_reads_as_the_file_with_it_written_there() {
    // (path, value as written after `=`, the same value in the file)
    let cases = [
        ("tt_mib", "8", "8"),
        ("tt_mib", "lots", "lots"),
        ("tt_mib", "-1", "-1"),
        ("tt_mib", "4 5", "4 5"),
        ("tt_mib", "None", "None"),
        ("aspiration", "25", "Some(25)"),
        ("aspiration", "lots", "Some(lots)"),
        ("aspiration", "None", "None"),
        ("limit", "Clock(1000, 10)", "Clock(1000, 10)"),
        ("limit", "Clock(1000)", "Clock(1000)"),
        ("limit", "Depth(x)", "Depth(x)"),
        ("search", "AlphaBeta(fail: Soft)", "AlphaBeta(fail: Soft)"),
        ("search", "Alphabeta", "Alphabeta"),
        ("ordering", "[HashMove,Killers]", "[HashMove,Killers]"),
        ("ordering", "[Nope]", "[Nope]"),
        ("deepening", "maybe", "maybe"),
        ("time", "(most: 0.5)", "(most: 0.5)"),
        ("time", "(nope: 1)", "(nope: 1)"),
        ("time.most", "0.5", "0.5"),
        ("time.most", "x", "x"),
        ("time.abort_at", "2", "2"),
        (
            "eval",
            "Patterns(weights: \"p.bin\")",
            "Patterns(weights: \"p.bin\")",
        ),
        ("eval.weights", "n.ron", "\"/b/n.ron\""),
        ("probcut", "p.ron", "Some(\"/b/p.ron\")"),
        ("probcut_confidence", "Some(2.0)", "Some(2.0)"),
        ("endcut", "Some(\"c.ron\")", "Some(\"c.ron\")"),
        ("name", "new one", "\"new one\""),
        ("name", "None", "None"),
        ("nope", "1", "1"),
        ("eval.nope", "1", "1"),
    ];
    for (path, value, ron) in cases {
        let mut raw = engine();
        let typed = written(&mut raw, path, value).map(|()| raw);
        let file = file_with(path, ron);
        match (typed, file) {
            (Ok(typed), Ok(file)) => assert_eq!(typed, file, "{path}={value}"),
            (Err(typed), Err(file)) => assert_eq!(typed.to_string(), file, "{path}={value}"),
            (typed, file) => panic!("{path}={value}: {typed:?} against {file:?}"),
        }
    }
}

#[test]
fn a_path_through_no_struct_names_where_it_stops() {
    let mut raw = engine();
    let said = |raw: &mut RawEngine, path: &str| written(raw, path, "1").unwrap_err().to_string();
    assert_eq!(
        said(&mut raw, "nope.deeper"),
        "nope.deeper: nope is not written in the file"
    );
    assert_eq!(
        said(&mut raw, "tt_mib.x"),
        "tt_mib.x: tt_mib is written 4, which has no fields"
    );
    assert_eq!(
        said(&mut raw, "nope"),
        "`nope` is not a field of an engine; the fields are name, game, search, deepening, \
         aspiration, limit, ordering, tt_mib, eval, endgame_exact_at, probcut, seed, threads, \
         time, probcut_confidence, endgame_selective_at, endcut or endgame_share"
    );
    assert_eq!(
        said(&mut raw, "eval.nope"),
        "`nope` is not a field of eval: Features; the fields are weights"
    );
    let mut discs: RawEngine = parse_ron(
        "Engine(name: \"d\", search: Pvs, limit: Clock(1000, 10), eval: Discs)",
        Path::new("d.ron"),
    )
    .unwrap();
    assert_eq!(
        said(&mut discs, "eval.weights"),
        "eval.weights: eval is written Discs, which has no fields"
    );
    assert_eq!(
        said(&mut discs, "limit.Depth"),
        "limit.Depth: limit is written Clock(1000,10), which has no fields"
    );
    let mut random: RawEngine =
        parse_ron("Engine(name: \"r\", search: Random)", Path::new("r.ron")).unwrap();
    assert_eq!(
        said(&mut random, "eval.weights"),
        "eval.weights: eval is not written in the file"
    );
}

#[test]
fn a_field_s_type_is_its_rust_type_s() {
    let raw = engine();
    let ty = |path: &str| raw.field_type(path);
    let whole = |min: i128, max: i128| Ok(FieldType::Whole { min, max });
    assert_eq!(ty("endgame_exact_at"), whole(0, u32::MAX.into()));
    assert_eq!(ty("tt_mib"), whole(0, usize::MAX as i128));
    assert_eq!(ty("seed"), whole(0, u64::MAX.into()));
    assert_eq!(ty("aspiration"), whole(i32::MIN.into(), i32::MAX.into()));
    assert_eq!(ty("limit.Depth"), whole(0, u32::MAX.into()));
    assert_eq!(ty("time.increment_share"), Ok(FieldType::Real));
    assert_eq!(ty("probcut_confidence"), Ok(FieldType::Real));
    assert_eq!(ty("endgame_share"), Ok(FieldType::Real));
    assert_eq!(ty("deepening"), Ok(FieldType::Bool));
    assert_eq!(ty("name"), Ok(FieldType::Text));
    assert_eq!(ty("eval.weights"), Ok(FieldType::Path));
    assert_eq!(ty("probcut"), Ok(FieldType::Path));
    assert_eq!(ty("endcut"), Ok(FieldType::Ron));
    for ron in ["search", "limit", "ordering", "eval", "time", "game"] {
        assert_eq!(ty(ron), Ok(FieldType::Ron), "{ron}");
    }
    for none in [
        "exact",
        "",
        "stated",
        "time.nope",
        "eval.Features",
        "limit.Nodes",
    ] {
        assert!(
            matches!(ty(none), Err(FieldError::NoSuchField(_))),
            "{none}"
        );
    }
    let x = RawExternal::new("x", "x", Protocol::Nboard);
    assert_eq!(x.field_type("working_dir"), Ok(FieldType::Path));
    assert_eq!(x.field_type("reply_timeout_ms"), whole(0, u64::MAX.into()));
    assert_eq!(x.field_type("limit"), Ok(FieldType::Ron));
}

#[test]
fn a_number_goes_into_a_number_field_rounded_for_a_whole_one() {
    let mut raw = engine();
    let mut set = |path: &str, v: f64| raw.set_field(path, FieldValue::Number(v));
    set("endgame_exact_at", 2.5).unwrap();
    set("aspiration", -7.5).unwrap();
    set("time.increment_share", 0.625).unwrap();
    set("probcut_confidence", 1.75).unwrap();
    set("limit.Depth", 6.4).unwrap();
    assert_eq!(
        set("endgame_exact_at", -1.0).unwrap_err().to_string(),
        "the field takes whole numbers from 0 to 4294967295"
    );
    assert_eq!(
        set("aspiration", -1e300).unwrap_err().to_string(),
        "the field takes whole numbers from -2147483648 to 2147483647"
    );
    assert_eq!(
        set("search", 1.0).unwrap_err().to_string(),
        "the engine's field \"search\" is not a number"
    );
    assert_eq!(
        (raw.endgame_exact_at, raw.aspiration),
        (3, Some(-8)),
        "halves away from zero"
    );
    assert_eq!(raw.time.increment_share, 0.625);
    assert_eq!(raw.time.most, 0.3, "the others as they were");
    assert_eq!(raw.probcut_confidence, Some(1.75));
    assert_eq!(raw.limit, Limit::Depth(6));
}

/// Every field of an in-process engine whose fields are `top`, by path,
/// and those of the structs below it (`eval: Features`, `limit: Depth`,
/// `time`).
fn every_path(top: &[&'static str]) -> Vec<String> {
    let mut paths: Vec<String> = top.iter().map(|f| f.to_string()).collect();
    paths.push("eval.weights".into());
    paths.push("limit.Depth".into());
    paths.extend(TIME_FIELDS.iter().map(|f| format!("time.{f}")));
    paths
}

#[test]
fn the_path_fields_are_the_fields_that_hold_a_file_written_relative() {
    let raw = engine();
    let external = RawExternal::new("x", "x", Protocol::Gtp);
    let mut seen = 0;
    for path in every_path(&ENGINE_FIELDS) {
        let last = path.rsplit('.').next().unwrap();
        let ty = raw.field_type(&path).unwrap();
        assert_eq!(ty == FieldType::Path, is_path_field(last), "{path}");
        seen += usize::from(ty == FieldType::Path);
    }
    for path in EXTERNAL_FIELDS {
        let ty = external.field_type(path).unwrap();
        assert_eq!(ty == FieldType::Path, is_path_field(path), "{path}");
        seen += usize::from(ty == FieldType::Path);
    }
    assert_eq!(seen, 3);
}
