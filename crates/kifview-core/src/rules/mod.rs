//! Shogi rules: kifview's own board and rules of movement. The rules crates (`shogi_core`,
//! `shogi_legality_lite`) are the reference the tests hold them to. Everything else uses the
//! types re-exported here.

mod ending;
mod handicap;
mod position;
pub mod setup;
mod types;

pub use ending::{
    DeclarationCount, DeclarationFault, DeclarationRule, Declared, Repeated, Repetition,
    declaration_count, declare,
};
pub use handicap::{HANDICAPS, Handicap, double_king_tsume_position, tsume_position};
pub use position::{Excess, Played, Position, SfenError};
pub use types::{Color, Illegal, Move, MoveData, Piece, PieceKind, Square, UsiText};

#[cfg(test)]
mod tests;
