//! Records the compiler version so that result files say which rustc produced them, and
//! compiles the C reference kernels (`csrc/`) of the atomic-increment and ping-pong experiments
//! with -O2, as the seeds compiled their C programs.
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SYMPATHY_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");

    let sources = ["csrc/atomic_increment.c", "csrc/ping_pong.c"];
    for source in sources {
        println!("cargo:rerun-if-changed={source}");
    }
    cc::Build::new()
        .files(sources)
        .opt_level(2)
        .flag_if_supported("-std=c11")
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .compile("sympathy_c_reference");
}
