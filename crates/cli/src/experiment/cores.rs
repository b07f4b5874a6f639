//! The `--cores` flag value shared by the experiments that pin threads.

use sympathy_harness::pin::parse_core_list;

/// A core list such as `0,1` or `0-3,6`, parsed by [`parse_core_list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoreList(pub Vec<usize>);

/// Parses a `--cores` value (clap value parser).
pub fn parse_cores(text: &str) -> Result<CoreList, String> {
    parse_core_list(text).map(CoreList)
}
