//! The readers and writers of every format (`core::notation`): the corpus, round trips, other
//! programs' readers, hostile and mangled files.

mod corpus;
mod csa;
mod fidelity;
mod fuzz_findings;
mod hostile;
mod interop;
mod jkf;
mod ki2;
mod kif;
pub(crate) mod peers;
mod robustness;
mod round_trip;
mod usi;
