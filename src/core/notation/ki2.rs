//! Placeholder: ki2 reader/writer lands with the formats work.
