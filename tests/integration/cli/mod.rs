//! The subcommands (`kifview check`, `convert`, `show`, `diagram`) and their files.

mod cli;
mod cli_check;
mod cli_files;
mod diagram;
