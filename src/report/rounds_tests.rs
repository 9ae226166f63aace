use super::*;
use crate::records::rounds::Slot;
use crate::records::swiss::{default_tiebreaks, Swiss};
use crate::records::GameRecord;

/// The Swiss of docs/tournaments.md's worked example: four engines, three
/// rounds, a game pair a pairing, each pairing won 2-0 as the page says.
fn worked_example() -> Swiss {
    let names: Vec<String> = ["A", "B", "C", "D"].map(String::from).to_vec();
    let winners = ["A", "C", "A", "D", "D", "B"];
    let mut s = Swiss::new((3, 1), &default_tiebreaks(), &names);
    for p in 0..s.reserved() {
        let Slot::Play { first, second, .. } = s.slot(p) else {
            panic!("pair {p} is not played");
        };
        let (a, b) = (names[first].as_str(), names[second].as_str());
        let even = if winners[p as usize] == a { 1.0 } else { 0.0 };
        s.played.absorb(&GameRecord::example(2 * p, a, b, even));
        s.played
            .absorb(&GameRecord::example(2 * p + 1, b, a, 1.0 - even));
    }
    s
}

#[test]
fn the_worked_swiss_of_the_docs_is_what_arena_prints() {
    let text = standings_text(&worked_example().standings());
    let docs = include_str!("../../docs/tournaments.md");
    assert!(
        docs.contains(&format!("```\n{text}\n```")),
        "docs/tournaments.md's worked Swiss should show:\n{text}"
    );
}
