//! One producer and one consumer: attaching by compare-and-swap on the header pids, heartbeats,
//! and telling a live peer from a dead one.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{RingError, Role};
use crate::region::Region;

/// How many operations pass between two looks at the clock for a heartbeat: the hot path pays a
/// decrement and a branch, never a syscall per message.
pub(crate) const HEARTBEAT_CHECK_EVERY: u32 = 4096;

/// A heartbeat older than this means the peer is stalled.
pub const HEARTBEAT_STALE_MS: i64 = 5_000;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// This process's pid.
pub(crate) fn own_pid() -> i32 {
    std::process::id() as i32
}

/// Whether a process with this pid exists (`kill(pid, 0)`; `EPERM` means it exists but belongs
/// to another user).
pub fn pid_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // Miri cannot call kill(); under it every ring is anonymous memory in this one process.
    if cfg!(miri) {
        return pid == own_pid();
    }
    // SAFETY: kill with signal 0 sends nothing; it only checks that the pid exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// What a side can tell about its peer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerState {
    /// No peer has ever attached (pid 0, heartbeat 0): "no messages yet".
    NeverAttached,
    /// Attached, its process exists, and its heartbeat is fresh.
    Alive {
        /// Its pid.
        pid: i32,
        /// Age of its last heartbeat in ms.
        heartbeat_age_ms: i64,
    },
    /// Attached and its process exists, but its heartbeat is older than
    /// [`HEARTBEAT_STALE_MS`]: it is stalled, or idle without calling `heartbeat()`.
    Stale {
        /// Its pid.
        pid: i32,
        /// Age of its last heartbeat in ms.
        heartbeat_age_ms: i64,
    },
    /// It attached once and detached cleanly (pid back to 0).
    Detached,
    /// Its pid is set but no such process exists: it died without detaching.
    Dead {
        /// Its last pid.
        pid: i32,
    },
}

impl PeerState {
    /// Whether the peer is attached, running and heartbeating.
    pub fn is_alive(self) -> bool {
        matches!(self, PeerState::Alive { .. })
    }

    /// Whether the peer has gone for good (detached or died).
    pub fn is_gone(self) -> bool {
        matches!(self, PeerState::Detached | PeerState::Dead { .. })
    }

    /// The error to report when a side needed this peer and it is gone.
    pub fn to_error(self, role: Role) -> Option<RingError> {
        match self {
            PeerState::Detached => Some(RingError::PeerDead {
                role,
                pid: 0,
                how: "detached",
            }),
            PeerState::Dead { pid } => Some(RingError::PeerDead {
                role,
                pid,
                how: "exited without detaching",
            }),
            _ => None,
        }
    }
}

/// The state of the peer in `role`, seen from the other side.
pub(crate) fn peer_state(region: &Region, role: Role) -> PeerState {
    let producer = role == Role::Producer;
    // The heartbeat first, then the pid. An attach stores the pid, then the heartbeat; a detach
    // stores a heartbeat, then pid 0. Loaded the other way round, a pid of 0 from just before an
    // attach could meet the heartbeat that attach then stored, and a producer that is starting
    // would read as "detached" (pid 0, heartbeat set): its consumer would give up with nothing.
    let heartbeat = region.lv_heartbeat(producer); // SYNC POINT: heartbeat
    let pid = region.lv_pid(producer); // SYNC POINT: attach
    if pid == 0 {
        return if heartbeat == 0 {
            PeerState::NeverAttached
        } else {
            PeerState::Detached
        };
    }
    if !pid_alive(pid) {
        return PeerState::Dead { pid };
    }
    // No heartbeat yet with a pid set: the peer is between its attach and its first heartbeat.
    let heartbeat_age_ms = if heartbeat == 0 {
        0
    } else {
        (now_ms() - heartbeat).max(0)
    };
    if heartbeat_age_ms > HEARTBEAT_STALE_MS {
        PeerState::Stale {
            pid,
            heartbeat_age_ms,
        }
    } else {
        PeerState::Alive {
            pid,
            heartbeat_age_ms,
        }
    }
}

/// A held role: attached on creation, detached (pid CAS back to 0) on drop.
pub(crate) struct Attachment {
    pub(crate) region: Arc<Region>,
    role: Role,
    pid: i32,
    countdown: u32,
}

impl Attachment {
    /// Claims `role` for this process: CAS the pid from 0, or from the pid of a process that no
    /// longer exists (a crashed peer's role may be taken over).
    pub(crate) fn attach(region: Arc<Region>, role: Role) -> Result<Attachment, RingError> {
        let producer = role == Role::Producer;
        let me = own_pid();
        let mut expected = 0;
        loop {
            // SYNC POINT: attach (pairs with the pid loads of peers and observers)
            match region.cas_pid(producer, expected, me) {
                Ok(_) => break,
                Err(found) if found != 0 && found != me && !pid_alive(found) => {
                    expected = found; // take over from a dead process
                }
                Err(0) => expected = 0, // it detached meanwhile; retry from 0
                Err(found) => return Err(RingError::AlreadyAttached { role, pid: found }),
            }
        }
        region.so_heartbeat(producer, now_ms()); // SYNC POINT: heartbeat
        Ok(Attachment {
            region,
            role,
            pid: me,
            countdown: HEARTBEAT_CHECK_EVERY,
        })
    }

    /// Counts one operation and heartbeats every [`HEARTBEAT_CHECK_EVERY`] of them.
    #[inline]
    pub(crate) fn tick(&mut self) {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.heartbeat();
        }
    }

    /// Stores a heartbeat now.
    #[cold]
    pub(crate) fn heartbeat(&mut self) {
        self.countdown = HEARTBEAT_CHECK_EVERY;
        self.region
            .so_heartbeat(self.role == Role::Producer, now_ms()); // SYNC POINT: heartbeat
    }

    /// The state of the other side.
    pub(crate) fn peer(&self) -> PeerState {
        let other = match self.role {
            Role::Producer => Role::Consumer,
            Role::Consumer => Role::Producer,
        };
        peer_state(&self.region, other)
    }
}

impl Drop for Attachment {
    fn drop(&mut self) {
        let producer = self.role == Role::Producer;
        self.region.so_heartbeat(producer, now_ms()); // SYNC POINT: heartbeat
        // Only give the role back if it is still ours (a peer may have judged us dead).
        let _ = self.region.cas_pid(producer, self.pid, 0); // SYNC POINT: attach
    }
}
