//! A journal line read for what is counted of it, by a scan of the line as
//! arena writes it (its fields in their order, no spaces, no escapes in
//! what is kept): how a worker reads each of its peers' games, about five
//! times faster than `serde_json`, which parses every number of the
//! per-move arrays it then passes over. Any line the scan does not take
//! for certain (another layout, an escape, a tune's values, anything
//! malformed) is left to `serde_json` ([`super::GameRecord::counted_from_json`]),
//! so the scan decides nothing serde would not: a line it takes reads
//! the same both ways (tested on lines written and on lines damaged).

use super::GameRecord;

/// The fields a counted line must have, each once (bit `i`: `FIELDS[i]`).
const FIELDS: [&str; 14] = [
    "pair_id",
    "game_id",
    "round",
    "opening_id",
    "black",
    "white",
    "opening_plies",
    "moves",
    "result",
    "disc_diff",
    "reason",
    "nodes",
    "times_ms",
    "depths",
];

/// Bits of the two fields that may be there or not.
const START: u32 = 1 << 14;
const SCORES: u32 = 1 << 15;

/// The game of `line` as it counts, when the scan takes the line (`None`:
/// for `serde_json` to read).
pub(super) fn scan(line: &str) -> Option<GameRecord> {
    let mut s = Scan {
        line,
        b: line.as_bytes(),
        at: 0,
    };
    let mut g = GameRecord {
        tune: None,
        pair_id: 0,
        game_id: 0,
        round: 0,
        opening_id: 0,
        black: String::new(),
        white: String::new(),
        start: None,
        opening_plies: 0,
        moves: String::new(),
        result: 0.0,
        disc_diff: 0,
        reason: String::new(),
        nodes: Vec::new(),
        times_ms: Vec::new(),
        depths: Vec::new(),
        scores: Vec::new(),
    };
    let mut seen = 0u32;
    s.eat(b'{')?;
    loop {
        let key = s.string()?;
        s.eat(b':')?;
        let bit = match FIELDS.iter().position(|&f| f == key) {
            Some(i) => 1 << i,
            None if key == "start" => START,
            None if key == "scores" => SCORES,
            None => return None,
        };
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
        match key {
            "pair_id" => g.pair_id = s.unsigned()?,
            "game_id" => g.game_id = s.unsigned()?,
            "round" => g.round = s.unsigned()?,
            "opening_id" => g.opening_id = usize::try_from(s.unsigned()?).ok()?,
            "opening_plies" => g.opening_plies = usize::try_from(s.unsigned()?).ok()?,
            "black" => g.black = s.string()?.to_string(),
            "white" => g.white = s.string()?.to_string(),
            "reason" => g.reason = s.string()?.to_string(),
            "start" if s.b[s.at..].starts_with(b"null") => s.at += 4,
            "start" => g.start = Some(s.string()?.to_string()),
            "moves" => {
                s.string()?;
            }
            "result" => g.result = s.number()?,
            "disc_diff" => g.disc_diff = s.signed()?,
            _ => s.numbers()?,
        }
        match s.next()? {
            b',' => {}
            b'}' => break,
            _ => return None,
        }
    }
    let all = (1u32 << FIELDS.len()) - 1;
    (s.at == s.b.len() && seen & all == all).then_some(g)
}

/// A cursor over a line's bytes.
struct Scan<'a> {
    line: &'a str,
    b: &'a [u8],
    at: usize,
}

impl<'a> Scan<'a> {
    fn next(&mut self) -> Option<u8> {
        let c = *self.b.get(self.at)?;
        self.at += 1;
        Some(c)
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }

    /// A string without escapes or control characters, its text.
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let from = self.at;
        let len = self.b[from..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if self.b[from + len] != b'"' {
            return None;
        }
        self.at = from + len + 1;
        // Cut at ASCII quotes of a line that is text: text still.
        self.line.get(from..from + len)
    }

    /// The digits of a whole number without a sign (`0` or no leading
    /// zero, as JSON has it).
    fn digits(&mut self) -> Option<&'a [u8]> {
        let from = self.at;
        let len = self.b[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let d = &self.b[from..from + len];
        if d.is_empty() || (d[0] == b'0' && len > 1) {
            return None;
        }
        self.at += len;
        Some(d)
    }

    fn unsigned(&mut self) -> Option<u64> {
        let d = self.digits()?;
        if matches!(self.b.get(self.at), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        d.iter().try_fold(0u64, |n, &c| {
            n.checked_mul(10)?.checked_add(u64::from(c - b'0'))
        })
    }

    fn signed(&mut self) -> Option<i32> {
        let negative = self.b.get(self.at) == Some(&b'-');
        if negative {
            self.at += 1;
        }
        let n = i64::try_from(self.unsigned()?).ok()?;
        if negative && n == 0 {
            return None; // -0: left to serde
        }
        i32::try_from(if negative { -n } else { n }).ok()
    }

    /// A JSON number, read as `serde_json` reads it (correctly rounded);
    /// `None` for one out of range.
    fn number(&mut self) -> Option<f64> {
        let from = self.at;
        self.number_text()?;
        let text = self.line.get(from..self.at)?;
        text.parse::<f64>().ok().filter(|x| x.is_finite())
    }

    /// Passes over a JSON number (as `serde_json` passes over one it
    /// ignores: its form checked, its value not read).
    fn number_text(&mut self) -> Option<()> {
        if self.b.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        self.digits()?;
        if self.b.get(self.at) == Some(&b'.') {
            self.at += 1;
            self.fraction()?;
        }
        if matches!(self.b.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.b.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.fraction()?;
        }
        Some(())
    }

    /// One or more digits (any of them zero).
    fn fraction(&mut self) -> Option<()> {
        let len = self.b[self.at..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        self.at += len;
        (len > 0).then_some(())
    }

    /// An array of numbers and nulls, passed over.
    fn numbers(&mut self) -> Option<()> {
        self.eat(b'[')?;
        if self.b.get(self.at) == Some(&b']') {
            self.at += 1;
            return Some(());
        }
        loop {
            if self.b[self.at..].starts_with(b"null") {
                self.at += 4;
            } else {
                self.number_text()?;
            }
            match self.next()? {
                b',' => {}
                b']' => return Some(()),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn record() -> GameRecord {
        GameRecord {
            tune: None,
            pair_id: 101,
            game_id: 202,
            round: 101,
            opening_id: 1248,
            black: "random-a".into(),
            white: "random-b".into(),
            start: None,
            opening_plies: 8,
            moves: "c4c5f6pa".into(),
            result: 1.0,
            disc_diff: -10,
            reason: "game over".into(),
            nodes: vec![Some(0), None, Some(18_446_744_073_709_551_615)],
            times_ms: vec![0.0, 0.001, 1.5e-7],
            depths: vec![Some(3), None],
            scores: vec![Some(-4), None],
        }
    }

    /// What a worker keeps of a record.
    fn counted(mut g: GameRecord) -> GameRecord {
        g.moves.clear();
        g.nodes.clear();
        g.times_ms.clear();
        g.depths.clear();
        g.scores.clear();
        g
    }

    #[test]
    fn a_written_line_is_taken_as_serde_reads_it() {
        let mut g = record();
        let line = serde_json::to_string(&g).unwrap();
        assert_eq!(scan(&line), Some(counted(g.clone())));
        g.start = Some("e6f4".into());
        g.result = 0.5;
        let line = serde_json::to_string(&g).unwrap();
        assert_eq!(scan(&line), Some(counted(g.clone())));
        assert_eq!(GameRecord::counted_from_json(&line).unwrap(), counted(g));
    }

    #[test]
    fn what_the_scan_does_not_take_is_left_to_serde() {
        let line = serde_json::to_string(&record()).unwrap();
        for other in [
            line.replace("\"game over\"", "\"game \\u006fver\""),
            line.replace(",\"round\"", ", \"round\""),
            line.replace("\"pair_id\":101", "\"pair_id\":101.0"),
            line.replace("\"pair_id\":101", "\"pair_id\":0101"),
            line.replace("\"result\":1.0", "\"result\":1e999"),
            line.replace("\"disc_diff\":-10", "\"disc_diff\":-2147483649"),
            line.replace("\"pair_id\"", "\"other\""),
            line.replace("}", ",\"pair_id\":1}"),
            line.replace("[0.0,", "[0.0,,"),
            line.replace(",\"depths\":[3,null]", ""),
            format!(" {line}"),
            format!("{line}x"),
        ] {
            assert_eq!(scan(&other), None, "{other}");
        }
    }

    fn arb_record() -> impl Strategy<Value = GameRecord> {
        (
            (any::<u64>(), any::<u64>(), any::<u64>(), any::<u32>()),
            (
                "[ -~]{0,12}",
                "\\PC{0,8}",
                proptest::option::of("[a-h1-8]{0,6}"),
            ),
            (any::<f64>(), any::<i32>(), any::<u8>()),
            proptest::collection::vec(proptest::option::of(any::<u64>()), 0..4),
            proptest::collection::vec(-1e300f64..1e300, 0..4),
        )
            .prop_map(|((p, id, r, o), (b, w, start), (res, dd, plies), n, t)| {
                let mut g = record();
                (g.pair_id, g.game_id, g.round, g.opening_id) = (p, id, r, o as usize);
                (g.black, g.white, g.start) = (b, w, start);
                (g.result, g.disc_diff, g.opening_plies) = (res, dd, plies as usize);
                (g.nodes, g.times_ms) = (n, t);
                g
            })
    }

    proptest! {
        /// Every line arena writes reads the same through the scan (when
        /// it takes it) as through serde, and damaged lines too: the scan
        /// takes nothing serde refuses or reads otherwise.
        #[test]
        fn the_scan_agrees_with_serde(g in arb_record(), cut in any::<usize>(), byte in any::<u8>()) {
            let line = serde_json::to_string(&g).unwrap();
            let by_serde = GameRecord::counted_from_json(&line).ok();
            if let Some(taken) = scan(&line) {
                prop_assert_eq!(Some(taken), by_serde);
            }
            let mut bytes = line.into_bytes();
            let at = cut % bytes.len();
            bytes[at] = byte;
            if let Ok(damaged) = String::from_utf8(bytes) {
                if let Some(taken) = scan(&damaged) {
                    let by_serde = GameRecord::counted_from_json(&damaged).ok();
                    prop_assert_eq!(Some(taken), by_serde, "{}", damaged);
                }
            }
        }
    }
}
