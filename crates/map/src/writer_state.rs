//! [`WriterState`]: what a reader can tell about the map's writer from the header's writer
//! words (its process stamp, its heartbeat, its last detach), by the liveness rules every mapped
//! file shares ([`sympathy_mapped::liveness`]).

use sympathy_mapped::ProcessStamp;
use sympathy_mapped::liveness::{Sighting, classify};

pub use sympathy_mapped::liveness::HEARTBEAT_STALE_MS;

use crate::layout::*;
use crate::region::Region;

/// What a reader can tell about the map's writer: never attached, detached, alive, stale (idle,
/// paused or stalled; never counted as gone) or dead (killed, exited without detaching: the next
/// writer takes over and recounts). The map keeps no foreign writers, so an alive or stale
/// writer always has its pid.
pub type WriterState = sympathy_mapped::liveness::PeerState;

/// The writer's state from its header words, at `now_ms`.
pub(crate) fn writer_state(region: &Region, now_ms: i64) -> WriterState {
    let heartbeat_ms = region.lv_u64(WRITER_HEARTBEAT_OFFSET) as i64; // SYNC POINT: heartbeat
    let stamp = ProcessStamp::unpack(region.lv_u64(WRITER_OFFSET)); // SYNC POINT: writer
    let detached_ms = region.lv_u64(WRITER_DETACHED_OFFSET) as i64; // SYNC POINT: detached
    if stamp.is_nobody() {
        // No foreign writer: with nobody attached, the writer never attached or detached.
        return if detached_ms == 0 {
            WriterState::NeverAttached
        } else {
            WriterState::Detached
        };
    }
    let sighting = Sighting {
        pid: stamp.pid,
        heartbeat_ms,
        detached_ms,
    };
    classify(sighting, None, now_ms, HEARTBEAT_STALE_MS, |_| {
        stamp.is_running()
    })
}
