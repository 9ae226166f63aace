//! Integration tests: one binary, a module per topic (ripgrep's layout).

mod util;

mod adjudicate;
mod book;
mod book_files;
mod book_generate;
mod display;
mod engine_fields;
mod eval;
mod events;
mod external;
mod flags;
mod grhino;
mod history;
mod hostile;
mod house;
mod layers;
mod limits;
mod matchup;
mod messages;
mod perft;
mod probcut;
mod processes;
mod report_html;
mod scheduler;
mod search;
mod simd;
mod solve;
mod stats;
mod tictactoe;
mod tournament;
mod train;
mod trees;
mod trust;
mod unknown;
