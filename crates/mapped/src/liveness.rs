//! Liveness of a role in a mapped file (the ring's producer and consumer, the map's writer): the
//! header words a holder keeps (its pid or process stamp, a heartbeat, the heartbeat of its last
//! clean detach), and what another process can tell from them ([`classify`]): alive, stale
//! (paused or stalled, never counted as gone), detached, dead (zombies included), never
//! attached, or a foreign peer that keeps no pid (an Agrona consumer's heartbeat, a producer's
//! moving tail). The Java twin is `dev.sympathy.mapped.Liveness.classify` (java/mapped).
//!
//! ```
//! use sympathy_mapped::liveness::{PeerState, Sighting, classify};
//! let now = 1_000_000;
//! let beat = Sighting { pid: 42, heartbeat_ms: now - 10, detached_ms: 0 };
//! let state = classify(beat, None, now, 5_000, |_| true);
//! assert_eq!(state, PeerState::Alive { pid: 42, heartbeat_age_ms: 10 });
//! assert!(classify(beat, None, now, 5_000, |_| false).is_gone());
//! ```

/// A heartbeat older than this means the peer is stalled (stale), not dead.
pub const HEARTBEAT_STALE_MS: i64 = 5_000;

/// What can be told about the process that holds a role of a mapped file (the ring's producer
/// or consumer, the map's writer), from the role's header words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeerState {
    /// No peer has ever attached (pid 0, heartbeat 0, no progress seen): "no messages yet".
    NeverAttached,
    /// Attached, its process exists, and its heartbeat (or its progress through the ring) is
    /// fresh. Pid 0: a foreign peer that uses only the ring region (an Agrona
    /// `OneToOneRingBuffer` or Aeron C consumer storing the trailer heartbeat, a producer moving
    /// the tail), seen after the last clean detach.
    Alive {
        /// Its pid (0 for a foreign peer).
        pid: i32,
        /// Age of its last sign of life in ms.
        heartbeat_age_ms: i64,
    },
    /// Attached and its process exists, but its last sign of life is older than the stale
    /// limit ([`HEARTBEAT_STALE_MS`] by default): paused (SIGSTOP, Ctrl-Z, a long GC), stalled,
    /// or idle without calling `heartbeat()`. Never counted as gone: it may resume. Pid 0: a
    /// foreign peer gone quiet, which cannot be told from one that left.
    Stale {
        /// Its pid (0 for a foreign peer).
        pid: i32,
        /// Age of its last sign of life in ms.
        heartbeat_age_ms: i64,
    },
    /// It detached cleanly (pid back to 0, its last heartbeat recorded as the detach).
    Detached,
    /// Its pid is set but no such process runs (it exited, was killed, or is a zombie not yet
    /// reaped): it died without detaching.
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

    /// Whether the peer has gone for good (detached or died). A stale peer has not.
    pub fn is_gone(self) -> bool {
        matches!(self, PeerState::Detached | PeerState::Dead { .. })
    }
}

/// One look at a role's header words (loaded in the order the kind's protocol requires).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sighting {
    /// Its pid (0: none attached through the header).
    pub pid: i32,
    /// Its heartbeat, ms since the epoch (0: never).
    pub heartbeat_ms: i64,
    /// The heartbeat of its last clean detach (0: never).
    pub detached_ms: i64,
}

/// The peer's position moved between two looks: after `after_ms` (a look that saw the old
/// position) and by `seen_ms` (the look that saw it moved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The last look that saw the old position, ms since the epoch.
    pub after_ms: i64,
    /// The look that saw it moved, ms since the epoch.
    pub seen_ms: i64,
}

/// The state from one [`Sighting`], the peer's last seen progress, the time and the stale limit;
/// `alive` tells whether a pid runs ([`crate::pid_alive`], or a [`crate::ProcessStamp`]'s
/// `is_running` where the role keeps one). The Java `Liveness.classify` is the same
/// function.
///
/// - pid set: dead if the process does not run; else its last sign of life is its heartbeat
///   (none yet if the heartbeat is not newer than the last detach: it is between its attach and
///   its first heartbeat, age 0) or its progress, whichever is later: stale if older than
///   `stale_ms`, alive otherwise.
/// - pid 0: its heartbeat counts if newer than `detached_ms` (a foreign peer's, stored after the
///   last clean detach), its progress if it moved after a look later than `detached_ms`. With
///   neither: never attached (heartbeat 0) or detached. With either: a foreign peer, alive or
///   stale by the age of the later one.
pub fn classify(
    s: Sighting,
    progress: Option<Progress>,
    now_ms: i64,
    stale_ms: i64,
    alive: impl Fn(i32) -> bool,
) -> PeerState {
    let by_age = |pid: i32, last: i64| {
        let heartbeat_age_ms = now_ms.saturating_sub(last).max(0);
        if heartbeat_age_ms > stale_ms {
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
    };
    let progress_seen = |p: Option<Progress>| p.map_or(0, |p| p.seen_ms);
    if s.pid != 0 {
        if !alive(s.pid) {
            return PeerState::Dead { pid: s.pid };
        }
        let beat = if s.heartbeat_ms > s.detached_ms {
            s.heartbeat_ms
        } else {
            now_ms // attached, not yet beaten
        };
        return by_age(s.pid, beat.max(progress_seen(progress)));
    }
    let beat = if s.heartbeat_ms > s.detached_ms {
        s.heartbeat_ms
    } else {
        0
    };
    let moved = progress_seen(progress.filter(|p| p.after_ms > s.detached_ms));
    match beat.max(moved) {
        0 if s.heartbeat_ms == 0 => PeerState::NeverAttached,
        0 => PeerState::Detached,
        last => by_age(0, last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000;
    const STALE: i64 = 5_000;

    fn state(
        pid: i32,
        heartbeat_ms: i64,
        detached_ms: i64,
        progress: Option<Progress>,
    ) -> PeerState {
        let s = Sighting {
            pid,
            heartbeat_ms,
            detached_ms,
        };
        classify(s, progress, NOW, STALE, |pid| pid != 666)
    }

    #[test]
    fn an_attached_peer_is_alive_stale_or_dead() {
        assert_eq!(
            state(42, NOW - 10, 0, None),
            PeerState::Alive {
                pid: 42,
                heartbeat_age_ms: 10
            }
        );
        assert_eq!(
            state(42, NOW - 6_000, 0, None),
            PeerState::Stale {
                pid: 42,
                heartbeat_age_ms: 6_000
            }
        );
        assert_eq!(state(666, NOW, 0, None), PeerState::Dead { pid: 666 });
        // Between its attach and its first heartbeat (an old one from before the last detach).
        assert!(state(42, 0, 0, None).is_alive());
        assert!(state(42, NOW - 9_000, NOW - 9_000, None).is_alive());
        // Progress is a sign of life.
        let moved = Some(Progress {
            after_ms: NOW - 100,
            seen_ms: NOW - 50,
        });
        assert!(state(42, NOW - 9_000, 0, moved).is_alive());
    }

    #[test]
    fn pid_zero_is_never_attached_detached_or_a_foreign_peer() {
        assert_eq!(state(0, 0, 0, None), PeerState::NeverAttached);
        assert_eq!(state(0, NOW - 10, NOW - 10, None), PeerState::Detached);
        assert_eq!(state(0, NOW - 9_000, NOW - 10, None), PeerState::Detached);
        // A heartbeat after the last detach (Agrona's consumerHeartbeatTime), or with no detach.
        assert_eq!(
            state(0, NOW - 5, NOW - 10, None),
            PeerState::Alive {
                pid: 0,
                heartbeat_age_ms: 5
            }
        );
        assert_eq!(
            state(0, NOW - 7_000, 0, None),
            PeerState::Stale {
                pid: 0,
                heartbeat_age_ms: 7_000
            }
        );
        // A foreign producer: no heartbeat, but the tail moved after the last detach.
        let after_detach = Some(Progress {
            after_ms: NOW - 9,
            seen_ms: NOW - 1,
        });
        assert!(state(0, 0, 0, after_detach).is_alive());
        assert!(state(0, NOW - 10, NOW - 10, after_detach).is_alive());
        // A move that may predate the detach (the detacher's last records) is no sign.
        let before_detach = Some(Progress {
            after_ms: NOW - 10,
            seen_ms: NOW - 1,
        });
        assert_eq!(
            state(0, NOW - 10, NOW - 10, before_detach),
            PeerState::Detached
        );
    }

    #[test]
    fn stale_is_never_gone() {
        for pid in [0, 42] {
            let s = state(pid, NOW - 60_000, 0, None);
            assert!(matches!(s, PeerState::Stale { .. }), "{s:?}");
            assert!(!s.is_gone());
        }
    }
}
