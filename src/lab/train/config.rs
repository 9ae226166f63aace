//! The training file (`arena train FILE`): what to play, how to label and
//! how to fit, as one RON struct whose paths are relative to the file.
//!
//! ```ron
//! Training(
//!     design: "../weights/patterns-stages.ron", // the stages and pattern set (a Patterns file)
//!     play: "../weights/patterns-fit.bin",      // weights of the self-play engine (any kind)
//!     book: "../../openings/balanced-8ply.txt",
//!     games: 40000,
//!     seed: 1,
//!     play_depth: 4,       // self-play search depth
//!     random: 0.05,        // chance that a self-play move above exact_at is a random one
//!     exact_at: 18,        // positions with this many empties or fewer are labelled by exact solves
//!     label_depth: 6,      // the others by a search this deep with the stages fitted so far
//!     search_weight: 1.0,  // ... as this share of the search score plus the rest of the game's outcome
//!     held_out: 20,        // every 20th game is kept out of the fit and measures it (0: none)
//!     ridge: 20.0,         // penalty per table entry
//!     iterations: 200,     // conjugate-gradient steps per stage, at most
//!     parity: true,        // fit a parity weight per stage too (default false)
//!     out: "../weights/trained.bin",
//! )
//! ```

use crate::book::{read_book, Book, BookError};
use crate::eval::{OthelloEval, Patterns};
use crate::util::text::read_text;
use crate::util::{parse_ron, same_file, Source};
use crate::Result;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "Training")]
struct RawTraining {
    design: PathBuf,
    play: PathBuf,
    book: PathBuf,
    games: u32,
    seed: u64,
    play_depth: u32,
    random: f64,
    exact_at: u32,
    label_depth: u32,
    search_weight: f64,
    held_out: u32,
    ridge: f64,
    iterations: u32,
    #[serde(default)]
    parity: bool,
    out: PathBuf,
}

/// A checked training file: weights and book read, paths resolved.
#[derive(Clone, Debug)]
pub struct Training {
    /// The pattern stages to fit; their weights are where a labelling
    /// search's leaves land in a stage not yet fitted.
    pub design: Patterns,
    /// The self-play engine's evaluation.
    pub play: OthelloEval,
    /// The openings games start from.
    pub book: Book,
    /// Self-play games.
    pub games: u32,
    /// Seed of every random choice.
    pub seed: u64,
    /// Self-play search depth.
    pub play_depth: u32,
    /// Chance that a self-play move above `exact_at` empties is random.
    pub random: f64,
    /// Empties at or below which positions are solved exactly.
    pub exact_at: u32,
    /// Depth of the labelling searches above `exact_at`.
    pub label_depth: u32,
    /// Above `exact_at`, a label is this share of the search's score plus
    /// the rest of the game's outcome (0: outcomes only, no searches).
    pub search_weight: f64,
    /// Every `held_out`th game is held out (0: none).
    pub held_out: u32,
    /// Ridge penalty per table entry.
    pub ridge: f64,
    /// Conjugate-gradient steps per stage, at most.
    pub iterations: u32,
    /// Whether each stage fits a parity weight (+1 odd empties, −1 even)
    /// beside its bias and mobility weight.
    pub parity: bool,
    /// The binary weights file to write.
    pub out: PathBuf,
}

/// `value` within `lo..=hi`, or an error naming `field`.
fn within(src: &Source<'_>, field: &str, value: u32, lo: u32, hi: u32, what: &str) -> Result<u32> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(src.field(
            field,
            format!("{field}: {value} is not {what} ({lo} to {hi})"),
        ))
    }
}

/// The book, with errors placed at `book:`.
fn load_book(src: &Source<'_>, path: &Path) -> Result<Book> {
    read_book(path).map_err(|e| {
        let missing = matches!(&e, BookError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound);
        if missing {
            src.field("book", format!("book {} not found", path.display()))
        } else {
            src.field("book", e.brief())
        }
    })
}

/// A weights file, with "not found" placed at `field:`; errors inside the
/// file name that file.
fn load_weights(src: &Source<'_>, field: &str, path: &Path) -> Result<OthelloEval> {
    if !path.exists() {
        return Err(src.field(
            field,
            format!("{field}: weights file {} not found", path.display()),
        ));
    }
    OthelloEval::from_weights_file(path)
}

/// The design file: a Patterns weights file, whose stages and patterns are
/// what is fitted.
fn load_design(src: &Source<'_>, design_path: &Path) -> Result<Patterns> {
    match load_weights(src, "design", design_path)? {
        OthelloEval::Patterns(p) => Ok(p),
        OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => {
            Err(src.field(
                "design",
                format!(
                    "design: {} is not a Patterns weights file (its stages and patterns are what is fitted)",
                    design_path.display()
                ),
            ))
        }
    }
}

/// Checks the shares and penalties of `raw`: `held_out`, `random`,
/// `search_weight` and `ridge`, in that order.
fn check_shares(src: &Source<'_>, raw: &RawTraining) -> Result<()> {
    if raw.held_out == 1 {
        return Err(src.field(
            "held_out",
            "held_out: 1 would hold out every game: use 0 for none, or N >= 2 for every Nth game",
        ));
    }
    if !(0.0..=1.0).contains(&raw.random) {
        return Err(src.field(
            "random",
            format!("random: {} is not a chance between 0 and 1", raw.random),
        ));
    }
    if !(0.0..=1.0).contains(&raw.search_weight) {
        return Err(src.field(
            "search_weight",
            format!(
                "search_weight: {} is not a share between 0 (game outcomes) and 1 (search scores)",
                raw.search_weight
            ),
        ));
    }
    if !(raw.ridge.is_finite() && raw.ridge >= 0.0) {
        return Err(src.field(
            "ridge",
            format!("ridge: {} is not a number >= 0", raw.ridge),
        ));
    }
    Ok(())
}

/// Checks the output path: a `.bin` file that is neither input.
fn check_out(src: &Source<'_>, out: &Path, design_path: &Path, play_path: &Path) -> Result<()> {
    if out.extension().and_then(|e| e.to_str()) != Some("bin") {
        return Err(src.field(
            "out",
            format!(
                "out: {} must end in .bin (the weights are written in binary form; `arena eval convert` gives the RON form)",
                out.display()
            ),
        ));
    }
    if same_file(out, design_path) || same_file(out, play_path) {
        return Err(src.field(
            "out",
            format!(
                "out: {} is an input of this training; write the weights to a new file",
                out.display()
            ),
        ));
    }
    Ok(())
}

impl Training {
    /// Reads and checks a training file.
    ///
    /// # Errors
    /// [`Error::Config`] naming the file, line and field of a bad value;
    /// errors of the weights and book files it names.
    pub fn load(path: &Path) -> Result<Training> {
        let text = read_text(path)?;
        let raw: RawTraining = parse_ron(&text, path)?;
        let src = Source::new(path, &text);
        let base = src.base();
        let design_path = base.join(&raw.design);
        let design = load_design(&src, &design_path)?;
        let play_path = base.join(&raw.play);
        let play = load_weights(&src, "play", &play_path)?;
        let book = load_book(&src, &base.join(&raw.book))?;
        let games = within(&src, "games", raw.games, 1, 10_000_000, "a number of games")?;
        let play_depth = within(&src, "play_depth", raw.play_depth, 1, 20, "a depth")?;
        let label_depth = within(&src, "label_depth", raw.label_depth, 1, 20, "a depth")?;
        let exact_at = within(&src, "exact_at", raw.exact_at, 0, 24, "a number of empties")?;
        let iterations = within(
            &src,
            "iterations",
            raw.iterations,
            1,
            10_000,
            "a number of steps",
        )?;
        check_shares(&src, &raw)?;
        let out = base.join(&raw.out);
        check_out(&src, &out, &design_path, &play_path)?;
        Ok(Training {
            design,
            play,
            book,
            games,
            seed: raw.seed,
            play_depth,
            random: raw.random,
            exact_at,
            label_depth,
            search_weight: raw.search_weight,
            held_out: raw.held_out,
            ridge: raw.ridge,
            iterations,
            parity: raw.parity,
            out,
        })
    }

    /// Whether game `g` is held out of the fit.
    pub fn is_held_out(&self, g: u32) -> bool {
        self.held_out >= 2 && g % self.held_out == self.held_out - 1
    }
}
