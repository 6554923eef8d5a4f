//! BOD board diagrams (placeholder until the KIF work lands).
pub fn write_bod(_r: &crate::core::record::Record, _n: crate::core::record::NodeId) -> String {
    String::new()
}
