//! Integration tests: one binary, a module per topic (ripgrep's layout).

mod util;

mod book;
mod book_files;
mod book_generate;
mod display;
mod eval;
mod layers;
mod messages;
mod perft;
mod probcut;
mod search;
mod solve;
mod stats;
mod tournament;
