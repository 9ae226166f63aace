//! The Go Text Protocol, Othello dialect, the engine's side of it, as
//! `arena serve --protocol gtp` speaks it. Every answer is `= text` or
//! `? error` (with the command's id when it had one) and a blank line.
//!
//! | command | answer |
//! | --- | --- |
//! | `protocol_version`, `name`, `version` | `= 2`, `= NAME`, `= VERSION` |
//! | `known_command C`, `list_commands` | `= true`/`= false`, the commands |
//! | `boardsize 8` | `=` (any other size: `? unacceptable size`) |
//! | `clear_board` | `=`; a new game from the start (the engine is reset) |
//! | `komi`, `time_settings`, `time_left` | `=` (the engine keeps its own limit) |
//! | `play COLOR MOVE` | `=`, or `? illegal move`; `pass` is a move; a colour whose opponent must pass gets the pass first |
//! | `genmove COLOR` | `= e6` or `= pass`, and the move is played; a colour whose opponent must pass gets the pass first; once the game is over, `= pass` for either colour (the board unchanged) |
//! | `quit` | `=`, and the server ends |

use super::Served;
use crate::game::othello::Color;
use crate::game::othello::Move;
use crate::game::Game;

/// The commands answered.
const COMMANDS: [&str; 13] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "time_settings",
    "time_left",
    "play",
    "genmove",
    "quit",
];

/// A GTP colour.
fn colour(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Makes `c` the side to move when its opponent must pass.
fn to_move(served: &mut Served, c: Color) -> Result<(), String> {
    if served.board.side == c {
        Ok(())
    } else if served.board.must_pass() {
        served.play(Move::PASS);
        Ok(())
    } else {
        Err("wrong color".into())
    }
}

/// `play COLOR MOVE`.
fn play(served: &mut Served, args: &[&str]) -> Result<String, String> {
    let (Some(c), Some(text)) = (args.first().and_then(|w| colour(w)), args.get(1)) else {
        return Err("syntax error".into());
    };
    let mv = if text.eq_ignore_ascii_case("pass") {
        Move::PASS
    } else {
        Move::parse(text).ok_or("syntax error")?
    };
    if !(mv.is_pass() && served.board.side == c) {
        to_move(served, c)?;
    }
    if served.play(mv) {
        Ok(String::new())
    } else {
        Err("illegal move".into())
    }
}

/// `genmove COLOR`. Once the game is over neither colour is to move and
/// neither has a move: both get `pass`, as a GTP engine answers a client
/// that asks on after the end (the side to move alone used to, the other
/// got `? wrong color`).
fn genmove(served: &mut Served, args: &[&str]) -> Result<String, String> {
    let c = args.first().and_then(|w| colour(w)).ok_or("syntax error")?;
    if served.board.is_over() {
        return Ok("pass".into());
    }
    to_move(served, c)?;
    match served.think().map_err(|e| e.to_string())? {
        None => Ok("pass".into()),
        Some(info) => {
            served.play(info.mv);
            Ok(if info.mv.is_pass() {
                "pass".into()
            } else {
                info.mv.to_string()
            })
        }
    }
}

/// The answer to one command, `Ok` for `=`, `Err` for `?`.
fn reply(served: &mut Served, command: &str, args: &[&str]) -> Result<String, String> {
    match command {
        "protocol_version" => Ok("2".into()),
        "name" => Ok(served.name().to_string()),
        "version" => Ok(env!("CARGO_PKG_VERSION").into()),
        "known_command" => Ok(args
            .first()
            .is_some_and(|c| COMMANDS.contains(c))
            .to_string()),
        "list_commands" => Ok(COMMANDS.join("\n")),
        "boardsize" => match args.first() {
            Some(&"8") => Ok(String::new()),
            Some(_) | None => Err("unacceptable size".into()),
        },
        "clear_board" => {
            served.new_game(crate::game::othello::Board::start());
            Ok(String::new())
        }
        "komi" | "time_settings" | "time_left" | "quit" => Ok(String::new()),
        "play" => play(served, args),
        "genmove" => genmove(served, args),
        _ => Err("unknown command".into()),
    }
}

/// The answer to one command line, and whether to go on.
pub fn answer(served: &mut Served, line: &str) -> (String, bool) {
    let line = line.split('#').next().unwrap_or("").trim();
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return (String::new(), true);
    }
    let id = words[0]
        .chars()
        .all(|c| c.is_ascii_digit())
        .then(|| words.remove(0));
    let Some((&command, args)) = words.split_first() else {
        return (String::new(), true);
    };
    let (mark, text) = match reply(served, command, args) {
        Ok(t) => ('=', t),
        Err(t) => ('?', t),
    };
    let head = match id {
        Some(id) => format!("{mark}{id}"),
        None => mark.to_string(),
    };
    let text = if text.is_empty() {
        format!("{head}\n\n")
    } else {
        format!("{head} {text}\n\n")
    };
    (text, command != "quit")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use std::path::Path;

    #[test]
    fn a_session_plays_generates_and_refuses() {
        let text = "Engine(name: \"d1\", search: Pvs, limit: Depth(1), eval: Discs)";
        let mut s = Served::new(&EngineConfig::parse(text, Path::new("d1.ron")).unwrap());
        let mut say = |line: &str| answer(&mut s, line).0;
        assert_eq!(say("boardsize 8"), "=\n\n");
        assert_eq!(say("boardsize 19"), "? unacceptable size\n\n");
        assert_eq!(say("clear_board"), "=\n\n");
        assert_eq!(say("play black f5"), "=\n\n");
        assert_eq!(say("play black d6"), "? wrong color\n\n");
        assert_eq!(say("play white a1"), "? illegal move\n\n");
        assert_eq!(say("play white pass"), "? illegal move\n\n");
        let g = say("7 genmove white");
        assert!(
            g.starts_with("=7 ") && g.ends_with("\n\n") && g.len() == 7,
            "{g:?}"
        );
        assert_eq!(say("known_command genmove"), "= true\n\n");
        assert_eq!(say("frobnicate"), "? unknown command\n\n");
        assert_eq!(say("name"), "= d1\n\n");
        assert_eq!(answer(&mut s, "quit"), ("=\n\n".into(), false));
    }

    #[test]
    fn once_the_game_is_over_either_colour_gets_a_pass() {
        use crate::game::othello::parse_position;
        let text = "Engine(name: \"d1\", search: Pvs, limit: Depth(1), eval: Discs)";
        let mut s = Served::new(&EngineConfig::parse(text, Path::new("d1.ron")).unwrap());
        // Black's discs only, four squares empty: nobody can move.
        let full = format!("{}----", "X".repeat(60));
        for side in ["X", "O"] {
            let over = parse_position(&format!("{full} {side}")).unwrap();
            s.board = over;
            for c in ["b", "w", "black", "white"] {
                assert_eq!(answer(&mut s, &format!("genmove {c}")).0, "= pass\n\n");
                assert_eq!(answer(&mut s, &format!("3 genmove {c}")).0, "=3 pass\n\n");
                assert_eq!(s.board, over, "the board stays as it was");
            }
            assert_eq!(answer(&mut s, "genmove red").0, "? syntax error\n\n");
        }
    }
}
