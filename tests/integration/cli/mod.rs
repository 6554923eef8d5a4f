//! The subcommands (`kifview check`, `convert`, `show`, `diagram`) and their files.

mod cli_check;
mod cli_files;
mod contract;
mod diagram;
