//! The terminal front end (placeholder until the viewer lands).

use crate::app::LaunchOptions;

/// Runs the full-screen viewer until the user quits.
pub fn run(_opts: LaunchOptions) -> anyhow::Result<()> {
    anyhow::bail!("the viewer is not built yet")
}
