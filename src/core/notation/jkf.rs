//! Placeholder: jkf reader/writer lands with the formats work.
