//! The C reference kernels (`crates/lab/csrc/`, compiled with -O2 by `build.rs`) and the
//! [`Language`] a kernel is written in.
//!
//! The seeds measured Java against C; these kernels are ports of the seeds' C programs, called
//! through FFI from the same Rust harness (thread creation, pinning, timing, verification) as the
//! Rust kernels, so that only the measured loop differs. Results carry `"language":"c"`.

use std::fmt;
use std::str::FromStr;

/// The language a measured kernel is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// The Rust kernels of this crate.
    Rust,
    /// The C reference kernels in `csrc/`.
    C,
}

impl Language {
    /// Both languages, Rust first.
    pub const ALL: [Language; 2] = [Language::Rust, Language::C];

    /// The name used in result lines (`rust`, `c`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::C => "c",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Language {
    type Err = String;

    /// Parses `rust` or `c`.
    ///
    /// # Examples
    /// ```
    /// use sympathy_lab::c_reference::Language;
    /// assert_eq!("c".parse::<Language>().unwrap(), Language::C);
    /// assert!("java".parse::<Language>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Language, String> {
        match text {
            "rust" => Ok(Language::Rust),
            "c" => Ok(Language::C),
            other => Err(format!(
                "'{other}' is not a kernel language here; use rust or c"
            )),
        }
    }
}

/// One variant's kernel in one language: what a run that has no such kernel, or whose check
/// failed, names.
///
/// # Examples
/// ```
/// use sympathy_lab::c_reference::{Kernel, Language};
/// use sympathy_lab::ping_pong::Variant;
/// let kernel = Kernel { variant: Variant::SameLine, language: Language::C };
/// assert_eq!(kernel.to_string(), "same-line [c]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel<V> {
    /// The experiment's variant.
    pub variant: V,
    /// The language of its kernel.
    pub language: Language,
}

impl<V: fmt::Display> fmt::Display for Kernel<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.variant, self.language)
    }
}

/// What one thread of an atomic-increment run did; mirrors `sympathy_tally` in
/// `csrc/atomic_increment.c`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Increments of the shared counter this thread made (given-back overshoots excluded).
    pub increments: u64,
    /// Increments whose witnessed value did not follow this thread's previous one: the times
    /// this thread had to take the counter's cache line back from another core (0 for kernels
    /// that do not witness the value).
    pub handoffs: u64,
}

unsafe extern "C" {
    /// `n` locked increments whose result is unused.
    pub fn sympathy_c_lock_add(counter: *mut u64, n: u64);
    /// Locked fetch-and-add until the counter reaches `target`.
    pub fn sympathy_c_lock_xadd(counter: *mut u64, target: u64) -> Tally;
    /// Re-read plus boolean compare-and-swap until the counter reaches `target`.
    pub fn sympathy_c_cas_bool(counter: *mut u64, target: u64) -> Tally;
    /// Compare-and-swap fed with the witnessed value until the counter reaches `target`.
    pub fn sympathy_c_cas_val(counter: *mut u64, target: u64) -> Tally;

    /// The ping side of the seed's ping-pong: locked add-and-fetch publications.
    pub fn sympathy_c_ping_xadd(ping: *mut u64, pong: *const u64, n: u64);
    /// The pong side of the seed's ping-pong: locked add-and-fetch publications.
    pub fn sympathy_c_pong_xadd(pong: *mut u64, ping: *const u64, n: u64);
    /// The ping side with release-store publications.
    pub fn sympathy_c_ping_store_release(ping: *mut u64, pong: *const u64, n: u64);
    /// The pong side with release-store publications.
    pub fn sympathy_c_pong_store_release(pong: *mut u64, ping: *const u64, n: u64);
}
