//! The sympathy checkout this command runs from: `compare` finds the Java side and the JDK
//! there, `bridge` starts the Java bridge from it.

use std::path::{Path, PathBuf};

/// The checkout root: the first ancestor of the current folder, then of the executable, that
/// holds `ci/find-jdk`.
pub fn repo_root() -> Option<PathBuf> {
    let starts = [std::env::current_dir().ok(), std::env::current_exe().ok()];
    starts.into_iter().flatten().find_map(|start| {
        start
            .ancestors()
            .find(|d| d.join("ci/find-jdk").is_file())
            .map(Path::to_path_buf)
    })
}
