//! The library and its Java class agree on the native methods: every `native` method
//! `NativeRing.java` declares is a symbol the built library exports under the name the JVM looks
//! up (`Java_dev_sympathy_jni_NativeRing_<method>`), and every such export the library's source
//! declares is a method the class has. A method renamed on one side only would otherwise be an
//! `UnsatisfiedLinkError` at its first call, or dead code.
//!
//! The test also has `cargo test` build the library itself (the crate is an rlib as well as a
//! cdylib, so cargo builds it for this test, `.so` included): `ci/test`'s Java steps load that one.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::path::{Path, PathBuf};

const PREFIX: &str = "Java_dev_sympathy_jni_NativeRing_";

fn repository_file(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The methods `NativeRing.java` declares `native`: `private static native long open0(...);`.
fn java_native_methods() -> BTreeSet<String> {
    let source = repository_file("java/native/src/main/java/dev/sympathy/jni/NativeRing.java");
    source
        .lines()
        .map(str::trim)
        .filter_map(|line| {
            // A declaration: modifiers, `native`, the return type and the name before `(`.
            let before_arguments = &line[..line.find('(')?];
            let words: Vec<&str> = before_arguments.split_whitespace().collect();
            let declares = words.contains(&"native") && line.ends_with(");") && !line.contains('"');
            declares.then(|| words.last().map(|name| name.to_string()))?
        })
        .collect()
}

/// The methods the library's source exports (`fn Java_dev_sympathy_jni_NativeRing_<method>`).
fn rust_exported_methods() -> BTreeSet<String> {
    let source = repository_file("bindings/jni/src/lib.rs");
    source
        .match_indices(PREFIX)
        .map(|(at, _)| {
            source[at + PREFIX.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// `target/<profile>/deps/libsympathy_jni.so`, beside this test's binary: where a test build
/// leaves the library.
fn built_library() -> PathBuf {
    let test = std::env::current_exe().expect("the test binary's path");
    test.parent()
        .expect("the test binary sits in target/<profile>/deps")
        .join("libsympathy_jni.so")
}

#[test]
fn the_class_and_the_library_declare_the_same_native_methods() {
    let java = java_native_methods();
    let rust = rust_exported_methods();
    assert!(
        java.len() >= 10,
        "NativeRing.java's native methods were not found: {java:?}"
    );
    assert_eq!(
        java, rust,
        "NativeRing.java's native methods (left) and bindings/jni's exports (right) differ"
    );
}

#[test]
fn the_built_library_exports_every_native_method() {
    let path = built_library();
    let c_path = CString::new(path.to_str().expect("a UTF-8 path")).expect("no NUL in the path");
    // SAFETY: `c_path` is a NUL-terminated path; loading the library runs no initialiser of its
    // own (a Rust cdylib has none) and the handle is closed below.
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(
        !handle.is_null(),
        "{} did not load (cargo test builds it beside this test)",
        path.display()
    );
    let missing: Vec<String> = java_native_methods()
        .into_iter()
        .filter(|method| {
            let symbol = CString::new(format!("{PREFIX}{method}")).expect("no NUL in a name");
            // SAFETY: `handle` is the live handle dlopen returned; `symbol` is NUL-terminated.
            unsafe { libc::dlsym(handle, symbol.as_ptr()) }.is_null()
        })
        .collect();
    // SAFETY: `handle` came from dlopen and no symbol looked up above is used after this.
    unsafe { libc::dlclose(handle) };
    assert!(
        missing.is_empty(),
        "{} does not export the native methods {missing:?} of NativeRing.java",
        path.display()
    );
}
