//! Placeholder: usi reader/writer lands with the formats work.
