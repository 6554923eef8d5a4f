//! Collections (`collection`, `app::collection`, `app::library`): the index, its trust and its stops, the explorer, the library, tags.

mod collection;
pub(crate) mod collection_stop;
mod collection_trust;
mod explorer;
mod index_inputs;
mod library;
mod tags;
