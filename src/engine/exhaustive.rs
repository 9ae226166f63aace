//! A search player for games without an evaluation (tic-tac-toe): the
//! engine file's search variant, limit, ordering and table over the game's
//! own final scores, reset for every game.

use super::config::SearchEngine;
use super::player::{Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::game::MoveList;
use crate::search::deepening::SearchSettings;
use crate::search::{search, SearchGame, Searcher, ZeroEval};

/// Searches `G` with the settings of an engine file and no evaluation.
pub struct ExhaustivePlayer<G: SearchGame> {
    name: String,
    settings: SearchSettings,
    engine: SearchEngine,
    searcher: Searcher<G, ZeroEval>,
}

impl<G: SearchGame> ExhaustivePlayer<G> {
    /// The player of the engine `name`, searching as `engine` does.
    ///
    /// # Panics
    /// When the allocator refuses the table (tournaments check tables
    /// before they start).
    pub fn new(name: &str, engine: &SearchEngine) -> ExhaustivePlayer<G> {
        ExhaustivePlayer {
            name: name.to_string(),
            settings: engine.settings,
            engine: engine.clone(),
            searcher: Searcher::new(ZeroEval, engine.tt_mib, engine.ordering.clone()),
        }
    }
}

impl<G: SearchGame> Player<G> for ExhaustivePlayer<G> {
    fn name(&self) -> &str {
        &self.name
    }

    /// A fresh searcher (table, killers, history): a game never depends on
    /// the games before it.
    fn new_game(&mut self, _setup: &GameSetup<G>) -> Result<(), PlayerError> {
        *self = ExhaustivePlayer::new(&self.name, &self.engine);
        Ok(())
    }

    fn choose(&mut self, pos: &G, clock: &Clock) -> Result<MoveInfo<G::Move>, PlayerError> {
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let left = u32::try_from(moves.len().div_ceil(2)).unwrap_or(1);
        let out = search(&mut self.searcher, pos, &self.settings, clock.game, left);
        let mv = match out.best_move {
            Some(mv) => mv,
            None if !moves.is_empty() => moves.get(0),
            None => {
                return Err(PlayerError::Protocol(
                    "asked to move in a finished game".into(),
                ))
            }
        };
        Ok(MoveInfo::of_search(mv, out))
    }
}
