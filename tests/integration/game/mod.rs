//! Games and matches: `kifview match` and `kifview match report` with the fake player engine
//! (`tests/fixtures/engines/player.sh`, which misbehaves on demand), and the statistics against
//! the independent Python implementation (`scripts/match_stats.py`).

mod match_adjudication;
mod match_cli;
mod match_csa;
mod match_openings;
mod match_timing;
mod real_match;
mod stats_check;
