//! The engine's lists: the engines to choose from (`:engine`), its options (`:set`) and its
//! lines (`pick_pv`), each the rows and what Enter does.

use crate::app::overlay::ListContent;
use crate::app::state::App;
use crate::engine::EngineSpec;

/// `:engine`: the engines to choose from.
#[derive(Debug)]
pub(super) struct Engines(pub Vec<EngineSpec>);

impl ListContent<App> for Engines {
    fn tag(&self) -> &'static str {
        "ENGINES"
    }
    fn items(&self, app: &App) -> Vec<String> {
        app.engine_list_items(&self.0)
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        if let Some(spec) = self.0.get(selected) {
            app.switch_engine(spec.clone());
        }
    }
}

/// `:set`: the engine's options.
#[derive(Debug)]
pub(super) struct EngineOptions;

impl ListContent<App> for EngineOptions {
    fn tag(&self) -> &'static str {
        "ENGINE OPTIONS"
    }
    fn items(&self, app: &App) -> Vec<String> {
        app.option_list_items()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.pick_option(selected);
    }
}

/// `pick_pv`: the engine's lines.
#[derive(Debug)]
pub(super) struct EngineLines;

impl ListContent<App> for EngineLines {
    fn tag(&self) -> &'static str {
        "ENGINE LINES"
    }
    fn items(&self, app: &App) -> Vec<String> {
        app.pv_list_items()
    }
    fn pick(&self, app: &mut App, selected: usize) {
        app.close_list();
        app.insert_pv(selected);
    }
}
