//! Unit tests for the CSA reader and writer.
