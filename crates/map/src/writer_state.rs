//! [`WriterState`]: what a reader can tell about the map's writer from the header's writer
//! words (its process stamp, its heartbeat, its last detach).

use sympathy_mapped::ProcessStamp;

use crate::layout::*;
use crate::region::Region;

/// A writer heartbeat older than this reads as [`WriterState::Stale`].
pub const HEARTBEAT_STALE_MS: i64 = 5_000;

/// What a reader can tell about the map's writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriterState {
    /// No writer ever attached.
    NeverAttached,
    /// The last writer detached cleanly.
    Detached,
    /// A writer is attached, runs, and beat its heart within the stale limit.
    Alive {
        /// Its pid.
        pid: i32,
        /// Age of its last heartbeat in ms.
        heartbeat_age_ms: i64,
    },
    /// A writer is attached and runs, but has not beaten its heart for a while: idle, paused
    /// or stalled; never counted as gone.
    Stale {
        /// Its pid.
        pid: i32,
        /// Age of its last heartbeat in ms.
        heartbeat_age_ms: i64,
    },
    /// The attached writer no longer runs (killed, exited without detaching): the next writer
    /// takes over and recounts.
    Dead {
        /// Its pid.
        pid: i32,
    },
}

/// The writer's state from its header words, at `now_ms`.
pub(crate) fn writer_state(region: &Region, now_ms: i64) -> WriterState {
    let heartbeat = region.lv_u64(WRITER_HEARTBEAT_OFFSET) as i64; // SYNC POINT: heartbeat
    let stamp = ProcessStamp::unpack(region.lv_u64(WRITER_OFFSET)); // SYNC POINT: writer
    let detached = region.lv_u64(WRITER_DETACHED_OFFSET); // SYNC POINT: detached
    if stamp.is_nobody() {
        return if detached == 0 {
            WriterState::NeverAttached
        } else {
            WriterState::Detached
        };
    }
    if !stamp.is_running() {
        return WriterState::Dead { pid: stamp.pid };
    }
    // A heartbeat not newer than the last detach: attached, not yet beaten (age 0).
    let beat = if heartbeat > detached as i64 {
        heartbeat
    } else {
        now_ms
    };
    let heartbeat_age_ms = now_ms.saturating_sub(beat).max(0);
    if heartbeat_age_ms > HEARTBEAT_STALE_MS {
        WriterState::Stale {
            pid: stamp.pid,
            heartbeat_age_ms,
        }
    } else {
        WriterState::Alive {
            pid: stamp.pid,
            heartbeat_age_ms,
        }
    }
}
