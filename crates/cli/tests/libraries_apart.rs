//! The libraries stand apart from the lab: what other programs link (the ring, the map, their
//! mapped-file core, the queue, the SBE codecs and messages, thread pinning, the JNI binding)
//! depends on no crate of the lab (the harness, the experiments, the CLI, the report), so a
//! user of the ring does not link the experiment catalog. Read from each crate's Cargo.toml.

use std::path::{Path, PathBuf};

/// The library crates, by folder: what programs outside this workspace link.
const LIBRARIES: &[&str] = &[
    "crates/affinity",
    "crates/mapped",
    "crates/ring",
    "crates/map",
    "crates/queue",
    "crates/sbe",
    "crates/messages",
    "bindings/jni",
];

/// The lab: the experiments and what runs and reports them.
const LAB: &[&str] = &[
    "sympathy-harness",
    "sympathy-lab",
    "sympathy-cli",
    "sympathy-report",
    "sympathy-instructions",
    "sympathy-benches",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The names of the crates `manifest` depends on to build (not its dev-dependencies, which
/// only its tests link).
fn build_dependencies(manifest: &toml::Table) -> Vec<String> {
    ["dependencies", "build-dependencies"]
        .iter()
        .filter_map(|section| manifest.get(*section).and_then(|v| v.as_table()))
        .flat_map(|table| table.keys().cloned())
        .collect()
}

fn manifest(folder: &str) -> toml::Table {
    let path = root().join(folder).join("Cargo.toml");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

#[test]
fn no_library_depends_on_the_lab() {
    let mut found = Vec::new();
    for folder in LIBRARIES {
        for dependency in build_dependencies(&manifest(folder)) {
            if LAB.contains(&dependency.as_str()) {
                found.push(format!("{folder} depends on {dependency}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "libraries must not link the lab (move what they need into a library crate): {found:?}"
    );
}

#[test]
fn every_workspace_crate_is_a_library_or_in_the_lab() {
    // A new crate must be put on one side, so the rule above covers it.
    let workspace = manifest(".");
    let members = workspace["workspace"]["members"]
        .as_array()
        .expect("workspace members");
    for member in members {
        let folder = member.as_str().expect("a member is a path");
        if LIBRARIES.contains(&folder) {
            continue;
        }
        let name = manifest(folder)["package"]["name"]
            .as_str()
            .expect("a package name")
            .to_string();
        assert!(
            LAB.contains(&name.as_str()) || folder.starts_with("examples/"),
            "{folder} ({name}) is neither a library nor in the lab: add it to LIBRARIES or LAB \
             in crates/cli/tests/libraries_apart.rs"
        );
    }
}

#[test]
fn the_libraries_are_workspace_members() {
    // A library folder that is not a member would leave the rule checking nothing.
    let workspace = manifest(".");
    let members: Vec<&str> = workspace["workspace"]["members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    for folder in LIBRARIES {
        assert!(
            members.contains(folder),
            "{folder} is not a workspace member"
        );
    }
}
