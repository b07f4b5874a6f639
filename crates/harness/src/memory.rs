//! How much memory the machine can still give: experiments that allocate gigabytes check first
//! and fail with a clear message instead of being killed by the OOM killer half-way through.

use std::fs;

/// Memory kept free on top of what an experiment asks for (page tables, the rest of the process).
pub const HEADROOM_BYTES: u64 = 256 * 1024 * 1024;

/// The request would not fit in the memory the kernel reports as available.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} needs {} MiB but only {} MiB is available (MemAvailable, keeping {} MiB headroom); {hint}",
    needed / MIB, available / MIB, HEADROOM_BYTES / MIB
)]
pub struct NotEnoughMemory {
    /// What wanted the memory, e.g. `memory-walk array of 2048 MiB`.
    pub what: String,
    /// Bytes requested.
    pub needed: u64,
    /// Bytes the kernel reports as available.
    pub available: u64,
    /// What to do instead, e.g. `use a smaller --size-mib or --quick`.
    pub hint: String,
}

const MIB: u64 = 1024 * 1024;

/// `MemAvailable` from `/proc/meminfo` in bytes, or `None` where it cannot be read.
pub fn available_bytes() -> Option<u64> {
    parse_mem_available(&fs::read_to_string("/proc/meminfo").ok()?)
}

fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Checks that `needed` bytes (plus [`HEADROOM_BYTES`]) fit in the available memory. Where the
/// kernel does not say (no `/proc/meminfo`), the check passes.
///
/// # Errors
/// [`NotEnoughMemory`] naming `what`, the sizes and `hint`.
///
/// # Examples
/// ```
/// use sympathy_harness::memory::ensure_available;
/// assert!(ensure_available(4096, "a page", "ask for less").is_ok());
/// assert!(ensure_available(u64::MAX / 2, "everything", "ask for less").is_err());
/// ```
pub fn ensure_available(needed: u64, what: &str, hint: &str) -> Result<(), NotEnoughMemory> {
    match available_bytes() {
        Some(available) if needed.saturating_add(HEADROOM_BYTES) > available => {
            Err(NotEnoughMemory {
                what: what.to_string(),
                needed,
                available,
                hint: hint.to_string(),
            })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mem_available_in_kib() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_mem_available(text), Some(2048 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn error_message_names_sizes_and_hint() {
        let err = NotEnoughMemory {
            what: "walk array".into(),
            needed: 2048 * MIB,
            available: 1024 * MIB,
            hint: "use --quick".into(),
        };
        let text = err.to_string();
        assert!(text.contains("2048 MiB") && text.contains("1024 MiB") && text.contains("--quick"));
    }
}
