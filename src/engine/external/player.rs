//! An external engine as a [`Player`]: a process speaking NBoard or GTP.

use super::spec::ExternalConfig;
use crate::engine::player::{Clock, GameSetup, MoveInfo, Player, PlayerError};
use crate::game::othello::{Board, Move};

/// A player that is an external process.
pub struct ExternalPlayer {
    config: ExternalConfig,
}

impl ExternalPlayer {
    /// The player of `config`; its process starts with the first game.
    pub fn new(config: &ExternalConfig) -> ExternalPlayer {
        ExternalPlayer {
            config: config.clone(),
        }
    }
}

impl Player<Board> for ExternalPlayer {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn new_game(&mut self, _: &GameSetup<Board>) -> Result<(), PlayerError> {
        Err(PlayerError::Crashed("WIP".into()))
    }

    fn choose(&mut self, _: &Board, _: &Clock) -> Result<MoveInfo<Move>, PlayerError> {
        Err(PlayerError::Crashed("WIP".into()))
    }
}
