//! Collections (`collection`, `app::collection`, `app::library`): the index, its trust and its
//! stops, the explorer, the library, tags.

mod catalog_damage;
pub(crate) mod collection_stop;
mod collection_trust;
mod duplicates;
mod explorer;
mod games_list;
mod index;
mod index_inputs;
mod library;
mod library_scope;
mod me;
mod new_user;
mod repertoire;
mod report;
mod tags;
mod variations;
