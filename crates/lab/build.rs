//! Compiles the C reference kernels (`csrc/`) of the atomic-increment and ping-pong experiments
//! with -O2, as the seeds compiled their C programs.
fn main() {
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
