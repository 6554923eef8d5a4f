//! The domain core: rules, the record tree and notation readers/writers. Imports no terminal crate.

pub mod notation;
pub mod record;
pub mod rules;
pub mod seeded;
pub mod text;
