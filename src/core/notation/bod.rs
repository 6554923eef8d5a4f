//! BOD board diagrams (placeholder until the KIF work lands).
