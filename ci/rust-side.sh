# ci/rust-side.sh: sourced by the ci/ scripts that run the `sympathy` binary beside the Java side
# (ci/java-test, ci/soak --java, ci/map-verify; ci/compare-smoke and ci/report-browser, which need
# no JNI library, read $SYMPATHY_BIN themselves).
#   source ci/rust-side.sh; rust_side_build "ci/NAME"   # then "$sympathy" is the binary
# Which binary: $SYMPATHY_BIN when it is set (ci/test points it at its own test build, whose
# experiment kernels and mapped-file crates are optimised: Cargo.toml's dev profile), else a
# release build made here. The JNI library (the Java side's --impl jni and thread pinning) comes
# from the same profile: with SYMPATHY_BIN the test build's (target/debug/deps; SYMPATHY_JNI_PROFILE=dev
# tells java/launcher.sh where it is), else target/release, as a measured run loads it.
# SYMPATHY_BIN is exported, so java/sidecar's Rust peers (`run ipc`) and the cross-language
# tests run the same binary.
rust_side_build() {
    local script=$1
    if [[ -n ${SYMPATHY_BIN:-} ]]; then
        if [[ ! -x $SYMPATHY_BIN ]]; then
            echo "$script: SYMPATHY_BIN=$SYMPATHY_BIN is not an executable (build it, or unset SYMPATHY_BIN for a release build)" >&2
            return 1
        fi
        export SYMPATHY_JNI_PROFILE=dev
        # The test build, whose JNI library bindings/jni/tests/exports.rs has cargo build beside
        # it (after ci/test's `cargo test --workspace`, nothing is left to build here; a
        # `cargo build -p sympathy-jni` would resolve other features and rebuild jni's crates).
        cargo test -q --workspace --no-run
        sympathy=$SYMPATHY_BIN
    else
        # sympathy-cli enables the ring's `bindings` feature as the JNI library does: one build.
        export SYMPATHY_JNI_PROFILE=release
        cargo build --release -q -p sympathy-cli -p sympathy-jni
        sympathy=$PWD/target/release/sympathy
    fi
    export SYMPATHY_BIN=$sympathy
}
