//! Records the compiler version so that result files say which rustc produced them, and
//! compiles the experiment catalog (`experiments/*.toml` at the repository root) in: every file
//! is parsed and validated here, so a malformed entry fails the build with its file and entry
//! named, and the crate embeds the files' text (`catalog_files.rs` in `OUT_DIR`).
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

#[allow(dead_code)]
mod spec {
    include!("src/catalog/spec.rs");
}

fn main() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SYMPATHY_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/catalog/spec.rs");

    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = manifest.join("../../experiments");
    if let Err(err) = embed_catalog(&dir) {
        eprintln!("error: the experiment catalog in {}:\n{err}", dir.display());
        std::process::exit(1);
    }
}

fn embed_catalog(dir: &Path) -> Result<(), String> {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("cannot read the folder: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut common = None;
    let mut experiments = Vec::new();
    let mut embedded = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or("a file name is not UTF-8")?;
        let text = fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        if name == "common.toml" {
            common = Some(
                toml::from_str::<spec::CommonSpec>(&text).map_err(|e| format!("{name}: {e}"))?,
            );
        } else {
            let spec = toml::from_str::<spec::ExperimentSpec>(&text)
                .map_err(|e| format!("{name}: {e}"))?;
            experiments.push((name.to_string(), spec));
        }
        let absolute = path.canonicalize().map_err(|e| format!("{name}: {e}"))?;
        embedded.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            absolute.display().to_string()
        ));
    }
    embedded.push(']');
    let common = common.ok_or("there is no common.toml")?;
    let errors = spec::validate(&common, &experiments);
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    fs::write(out.join("catalog_files.rs"), embedded).map_err(|e| e.to_string())
}
