//! Whether a process named in a shared file still runs, and the clock heartbeats are kept in.
//!
//! A pid alone names a process only while it runs: once it has exited the kernel may give the
//! pid to another process (after a reboot, certainly: a map file on disk outlives the processes
//! that wrote it). [`ProcessStamp`] adds the process's start time, so that a reused pid is not
//! taken for the process that wrote it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch (0 if the clock is before it).
///
/// ```
/// assert!(sympathy_mapped::now_ms() > 1_600_000_000_000);
/// ```
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The running system's boot, as a u64: the first 16 hex digits of
/// `/proc/sys/kernel/random/boot_id` (a UUID the kernel draws at each boot), 0 when it cannot be
/// read. A file records it beside what a crash of the operating system could have left
/// part-written, so that a later boot knows to check it (the map's record checksums). The Java
/// twin is `Processes.currentBoot`.
///
/// ```
/// let boot = sympathy_mapped::current_boot();
/// assert_ne!(boot, 0, "Linux gives every boot an id");
/// assert_eq!(boot, sympathy_mapped::current_boot(), "the same all along the boot");
/// ```
pub fn current_boot() -> u64 {
    static BOOT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *BOOT.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
            .ok()
            .and_then(|id| boot_from_id(&id))
            .unwrap_or(0)
    })
}

/// The boot of a `boot_id` text: its first 16 hex digits (dashes skipped) as a u64.
fn boot_from_id(id: &str) -> Option<u64> {
    let digits: String = id
        .chars()
        .filter(|c| *c != '-')
        .take_while(|c| c.is_ascii_hexdigit())
        .take(16)
        .collect();
    (digits.len() == 16)
        .then(|| u64::from_str_radix(&digits, 16).ok())
        .flatten()
}

/// This process's pid.
pub fn own_pid() -> i32 {
    std::process::id() as i32
}

/// Whether a process with this pid exists and has not exited: `kill(pid, 0)` succeeds (`EPERM`
/// means it exists but belongs to another user) and `/proc/<pid>/stat` does not show it as a
/// zombie (`Z`) or dead (`X`). A zombie has exited; only its exit status waits for its parent,
/// so a process killed and not yet reaped is dead. Without a readable `/proc` the `kill` answer
/// stands. The Java `dev.sympathy.mapped.Processes.alive` is the same function.
///
/// # Examples
/// ```
/// assert!(sympathy_mapped::pid_alive(std::process::id() as i32));
/// assert!(!sympathy_mapped::pid_alive(0));
/// ```
pub fn pid_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // Miri cannot call kill(); under it only this process exists.
    if cfg!(miri) {
        return pid == own_pid();
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks that the pid exists.
    let rc = unsafe { libc::kill(pid, 0) };
    let exists = rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    exists
        && !matches!(
            stat_of(pid).and_then(|s| state_letter(&s)),
            Some(b'Z' | b'X' | b'x')
        )
}

/// The text of `/proc/<pid>/stat`, if it can be read.
fn stat_of(pid: i32) -> Option<Vec<u8>> {
    if cfg!(miri) {
        return None;
    }
    std::fs::read(format!("/proc/{pid}/stat")).ok()
}

/// The fields of a `/proc/<pid>/stat` text after the command name: the state letter first
/// (field 3 of proc(5)). The command name before them is in parentheses and may itself hold `)`
/// and spaces: the fields start after the last `)`.
fn fields_after_name(stat: &[u8]) -> Option<impl Iterator<Item = &[u8]>> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    Some(
        stat.get(close + 1..)?
            .split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty()),
    )
}

/// The state letter (`R`, `S`, `T`, `Z`, ...) of a `/proc/<pid>/stat` text.
///
/// ```
/// use sympathy_mapped::process::state_letter;
/// assert_eq!(state_letter(b"4242 (a) S (b)) Z 1 4242"), Some(b'Z'));
/// ```
pub fn state_letter(stat: &[u8]) -> Option<u8> {
    fields_after_name(stat)?.next()?.first().copied()
}

/// The start time of a `/proc/<pid>/stat` text: field 22 of proc(5), clock ticks after boot.
///
/// ```
/// use sympathy_mapped::process::start_ticks_of;
/// let stat = b"7 (x y) S 1 7 7 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4321 0";
/// assert_eq!(start_ticks_of(stat), Some(4321));
/// ```
pub fn start_ticks_of(stat: &[u8]) -> Option<u64> {
    // Field 3 (the state) is the first after the name, so field 22 is the 20th.
    let field = fields_after_name(stat)?.nth(19)?;
    std::str::from_utf8(field).ok()?.parse().ok()
}

/// A process named the way a shared file records it: its pid and the low 32 bits of its start
/// time (clock ticks after boot, `/proc/<pid>/stat` field 22; at 100 ticks a second the low 32
/// bits wrap after 497 days), packed into one u64 so that one compare-and-swap claims a role.
/// A start of 0 means "not known" (no `/proc`), and then the pid alone decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcessStamp {
    /// The pid (0: nobody).
    pub pid: i32,
    /// The low 32 bits of its start time in clock ticks after boot (0: not known).
    pub start: u32,
}

impl ProcessStamp {
    /// Nobody: packs to 0.
    pub const NOBODY: ProcessStamp = ProcessStamp { pid: 0, start: 0 };

    /// This process (read from `/proc` once; a forked child reads its own).
    pub fn current() -> ProcessStamp {
        static CURRENT: std::sync::Mutex<ProcessStamp> =
            std::sync::Mutex::new(ProcessStamp::NOBODY);
        let pid = own_pid();
        let mut cached = CURRENT.lock().unwrap_or_else(|e| e.into_inner());
        if cached.pid != pid {
            *cached = ProcessStamp {
                pid,
                start: start_of(pid).unwrap_or(0),
            };
        }
        *cached
    }

    /// The pid in the low 32 bits, the start in the high 32: the word a file stores.
    pub fn pack(self) -> u64 {
        u64::from(self.pid as u32) | (u64::from(self.start) << 32)
    }

    /// The stamp a file's word holds.
    pub fn unpack(word: u64) -> ProcessStamp {
        ProcessStamp {
            pid: word as u32 as i32,
            start: (word >> 32) as u32,
        }
    }

    /// Whether this is [`ProcessStamp::NOBODY`].
    pub fn is_nobody(self) -> bool {
        self.pid == 0
    }

    /// Whether the process still runs: its pid is alive ([`pid_alive`]) and, when both start
    /// times are known, the process with that pid started when this one did (else the pid was
    /// given to another process since).
    pub fn is_running(self) -> bool {
        if !pid_alive(self.pid) {
            return false;
        }
        match (self.start, start_of(self.pid)) {
            (0, _) | (_, None) => true,
            (recorded, Some(now)) => recorded == now,
        }
    }
}

/// The low 32 bits of the start time of `pid`, if `/proc` tells it.
fn start_of(pid: i32) -> Option<u32> {
    stat_of(pid)
        .and_then(|s| start_ticks_of(&s))
        .map(|t| t as u32)
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_boot_is_the_first_16_hex_digits_of_its_id() {
        let id = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n";
        assert_eq!(super::boot_from_id(id), Some(0x0f1e_2d3c_4b5a_6978));
        assert_eq!(super::boot_from_id("0f1e-zz"), None);
    }
    use super::*;

    #[test]
    fn the_state_letter_follows_the_last_parenthesis() {
        assert_eq!(state_letter(b"4242 (sleep) S 1 4242"), Some(b'S'));
        assert_eq!(state_letter(b"4242 (a) S (b)) Z 1 4242"), Some(b'Z'));
        assert_eq!(state_letter(b"4242 (odd name) X 1"), Some(b'X'));
        assert_eq!(state_letter(b"garbage"), None);
        assert_eq!(state_letter(b"1 (x)"), None);
    }

    #[test]
    fn the_start_time_is_field_22() {
        let stat = b"1 (a) b) R 0 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 99 12 3";
        assert_eq!(start_ticks_of(stat), Some(99));
        assert_eq!(start_ticks_of(b"1 (x) R 0"), None);
    }

    #[test]
    #[cfg_attr(miri, ignore = "reads /proc")]
    fn this_process_runs_and_a_reused_pid_does_not_count() {
        let me = ProcessStamp::current();
        assert_ne!(me.start, 0, "/proc/self/stat gives a start time");
        assert!(me.is_running());
        let impostor = ProcessStamp {
            start: me.start.wrapping_add(1),
            ..me
        };
        assert!(!impostor.is_running(), "same pid, another start: not us");
        assert!(!ProcessStamp::NOBODY.is_running());
    }

    #[test]
    fn stamps_pack_into_one_word() {
        let s = ProcessStamp {
            pid: 0x7fff_0001,
            start: 0xdead_beef,
        };
        assert_eq!(s.pack(), 0xdead_beef_7fff_0001);
        assert_eq!(ProcessStamp::unpack(s.pack()), s);
        assert_eq!(ProcessStamp::NOBODY.pack(), 0);
    }
}
