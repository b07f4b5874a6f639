//! One producer and one consumer: attaching by compare-and-swap on the header pids, heartbeats,
//! and what a side can tell about its peer (docs/ring-layout.md, "Attaching, heartbeats and
//! liveness"): alive, stale (paused, never dead), detached, dead (zombies included), or a
//! foreign peer that speaks only Agrona's ring region.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering as Local};

pub use sympathy_mapped::liveness::{HEARTBEAT_STALE_MS, PeerState};
use sympathy_mapped::liveness::{Progress, Sighting, classify};

use crate::error::{RingError, Role};
use crate::layout::Kind;
use crate::region::Region;

/// How many operations pass between two looks at the clock for a heartbeat: the hot path pays a
/// decrement and a branch, never a syscall per message.
pub(crate) const HEARTBEAT_CHECK_EVERY: u32 = 4096;

/// How often, at most, a waiting side looks at its peer (a `kill` and a `/proc` read).
pub(crate) const PEER_LOOK_EVERY_MS: i64 = 10;

/// A duration in whole ms, saturating (a stale limit as [`PeerWatch`] keeps it).
pub(crate) fn duration_ms(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Milliseconds since the Unix epoch ([`sympathy_mapped::now_ms`]).
#[cfg(not(all(loom, test)))]
pub fn now_ms() -> i64 {
    sympathy_mapped::now_ms()
}

/// Under loom a whole execution runs within one millisecond, so every heartbeat and detach
/// record would carry the same time and the models could not tell an old one from a new one: a
/// logical clock that ticks on every reading stands in (the order of its readings is the order
/// loom runs the threads' steps in).
#[cfg(all(loom, test))]
pub fn now_ms() -> i64 {
    static CLOCK: AtomicI64 = AtomicI64::new(1_000_000);
    CLOCK.fetch_add(1, Local::SeqCst)
}

pub(crate) use sympathy_mapped::own_pid;
pub use sympathy_mapped::pid_alive;

/// Loads the header words of the side in `role`: the heartbeat, then the pid, then the detach
/// record. An attach stores the pid, then the heartbeat; a detach stores a heartbeat and the
/// same value as `detached_ms`, then pid 0.
///
/// - The heartbeat before the pid: loaded the other way round, a pid of 0 from just before an
///   attach could meet the heartbeat that attach then stored, and a producer that is starting
///   would read as detached (its consumer gave up with nothing).
/// - `detached_ms` after the pid: a pid of 0 stored by a detach makes that detach's
///   `detached_ms` visible (the compare-and-swap releases it), so the heartbeat loaded before
///   is never newer than it and the detach is never mistaken for a foreign peer.
pub(crate) fn sight(region: &Region, role: Role) -> Sighting {
    let producer = role == Role::Producer;
    let heartbeat_ms = region.lv_heartbeat(producer); // SYNC POINT: heartbeat
    let pid = region.lv_pid(producer); // SYNC POINT: attach
    let detached_ms = region.lv_detached(producer); // SYNC POINT: detached
    Sighting {
        pid,
        heartbeat_ms,
        detached_ms,
    }
}

/// The state of the peer in `role`, seen by an observer (no memory of earlier looks, so no
/// progress), with stale limit `stale_ms`.
pub(crate) fn peer_state(region: &Region, role: Role, stale_ms: i64) -> PeerState {
    classify(sight(region, role), None, now_ms(), stale_ms, pid_alive)
}

/// The watch one side keeps on its peer: the peer's position between looks (progress is a sign
/// of life even without a heartbeat: a foreign producer has no heartbeat slot), and what it
/// knew when it attached, to tell a departure it has seen happen from one that predates it
/// ([`PeerWatch::has_left`]).
///
/// Its words are this side's own bookkeeping, not shared with the peer: relaxed atomics (the
/// side's methods take `&self`).
pub(crate) struct PeerWatch {
    /// The peer's role.
    peer: Role,
    /// When this side attached (ms since the epoch).
    attached_ms: i64,
    /// Whether records were waiting when this side attached (a consumer taking over a ring
    /// its producer wrote to and left: that departure is news to it).
    pending_at_attach: bool,
    /// Whether a look ever found the peer attached (alive or stale).
    saw_attached: AtomicBool,
    /// The stale limit in ms.
    stale_ms: AtomicI64,
    /// The peer's position at the last look (the producer watches the head, the consumer the
    /// tail).
    position: AtomicI64,
    /// When the last look was.
    looked_ms: AtomicI64,
    /// The last [`Progress`] seen: `after_ms` and `seen_ms` (0 and 0: none).
    moved_after_ms: AtomicI64,
    moved_seen_ms: AtomicI64,
    /// The last [`Sighting`]'s heartbeat and detach record, for [`PeerWatch::has_left`].
    last_heartbeat_ms: AtomicI64,
    last_detached_ms: AtomicI64,
}

impl PeerWatch {
    fn new(region: &Region, peer: Role, attached_ms: i64, pending_at_attach: bool) -> PeerWatch {
        PeerWatch {
            peer,
            attached_ms,
            pending_at_attach,
            saw_attached: AtomicBool::new(false),
            stale_ms: AtomicI64::new(HEARTBEAT_STALE_MS),
            position: AtomicI64::new(watched_position(region, peer)),
            looked_ms: AtomicI64::new(attached_ms),
            moved_after_ms: AtomicI64::new(0),
            moved_seen_ms: AtomicI64::new(0),
            last_heartbeat_ms: AtomicI64::new(0),
            last_detached_ms: AtomicI64::new(0),
        }
    }

    /// Looks at the peer now.
    fn look(&self, region: &Region) -> PeerState {
        let now = now_ms();
        let position = watched_position(region, self.peer);
        if self.position.swap(position, Local::Relaxed) != position {
            let after = self.looked_ms.load(Local::Relaxed);
            self.moved_after_ms.store(after, Local::Relaxed);
            self.moved_seen_ms.store(now, Local::Relaxed);
        }
        self.looked_ms.store(now, Local::Relaxed);
        let progress = match self.moved_seen_ms.load(Local::Relaxed) {
            0 => None,
            seen_ms => Some(Progress {
                after_ms: self.moved_after_ms.load(Local::Relaxed),
                seen_ms,
            }),
        };
        let s = sight(region, self.peer);
        self.last_heartbeat_ms.store(s.heartbeat_ms, Local::Relaxed);
        self.last_detached_ms.store(s.detached_ms, Local::Relaxed);
        let state = classify(
            s,
            progress,
            now,
            self.stale_ms.load(Local::Relaxed),
            pid_alive,
        );
        if matches!(state, PeerState::Alive { .. } | PeerState::Stale { .. }) {
            self.saw_attached.store(true, Local::Relaxed);
        }
        state
    }

    /// Whether `state` (from the last look) is a peer that has left while this side could
    /// count on it: gone (detached or dead), and news to this side: this side saw it attached,
    /// or it left after this side attached (its detach record, or for a dead one its last
    /// heartbeat, is not older than the attach), or records were waiting when this side
    /// attached. A departure older than that is a ring being reused: the side waits for a new
    /// peer (until its own timeout) instead of giving up at once.
    fn has_left(&self, state: PeerState) -> bool {
        let news = |when: i64| {
            self.pending_at_attach
                || self.saw_attached.load(Local::Relaxed)
                || when >= self.attached_ms
        };
        match state {
            PeerState::Detached => news(self.last_detached_ms.load(Local::Relaxed)),
            PeerState::Dead { .. } => news(self.last_heartbeat_ms.load(Local::Relaxed)),
            _ => false,
        }
    }
}

/// The position that moves when the peer in `role` works: the consumer's head, the producer's
/// tail.
fn watched_position(region: &Region, peer: Role) -> i64 {
    match peer {
        Role::Consumer => region.lv_head(), // SYNC POINT: head
        Role::Producer => region.lv_tail(), // SYNC POINT: tail
    }
}

/// A held role: attached on creation, detached (pid CAS back to 0) on drop.
pub(crate) struct Attachment {
    pub(crate) region: Arc<Region>,
    role: Role,
    pid: i32,
    countdown: u32,
    /// The watch on the peer; `None` for a broadcast transmitter, whose receivers do not
    /// register.
    watch: Option<PeerWatch>,
}

impl Attachment {
    /// Claims `role` for this process: CAS the pid from 0, or from the pid of a process that no
    /// longer runs (a crashed peer's role may be taken over; a zombie's too).
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
        let attached_ms = now_ms();
        region.so_heartbeat(producer, attached_ms); // SYNC POINT: heartbeat
        let watch = (region.kind() != Kind::Broadcast).then(|| {
            let (peer, pending) = match role {
                // A consumer that finds records waiting takes over from a producer that wrote
                // them: if that producer is gone, that is news to it (drain, then report).
                Role::Consumer => (Role::Producer, records_waiting(&region)),
                Role::Producer => (Role::Consumer, false),
            };
            PeerWatch::new(&region, peer, attached_ms, pending)
        });
        Ok(Attachment {
            region,
            role,
            pid: me,
            countdown: HEARTBEAT_CHECK_EVERY,
            watch,
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

    /// The state of the other side, counting its progress since this side's earlier looks.
    pub(crate) fn peer(&self) -> PeerState {
        self.watch
            .as_ref()
            .map_or(PeerState::NeverAttached, |w| w.look(&self.region))
    }

    /// Whether the peer in `state` (this side's last [`Attachment::peer`]) left while this side
    /// counted on it; see [`PeerWatch::has_left`].
    pub(crate) fn peer_has_left(&self, state: PeerState) -> bool {
        self.watch.as_ref().is_some_and(|w| w.has_left(state))
    }

    /// Sets the heartbeat age above which the peer counts as stale (in whole ms, saturating).
    pub(crate) fn set_stale_limit(&mut self, stale_limit: std::time::Duration) {
        let stale_ms = duration_ms(stale_limit);
        if let Some(watch) = &self.watch {
            watch.stale_ms.store(stale_ms, Local::Relaxed);
        }
    }
}

/// Whether a consumer attaching now finds records waiting: the tail is past the head, or a
/// record is published at the head (a producer killed between publishing and storing the tail).
fn records_waiting(region: &Region) -> bool {
    let head = region.lv_head(); // SYNC POINT: head
    let tail = region.lv_tail(); // SYNC POINT: tail
    let index = head as usize & (region.capacity() - 1) & !(crate::layout::RECORD_ALIGNMENT - 1);
    let (length, _) = crate::layout::unpack_header(region.lv_record(index)); // SYNC POINT: record
    tail != head || length > 0
}

impl Drop for Attachment {
    fn drop(&mut self) {
        let producer = self.role == Role::Producer;
        // Only give the role back if it is still ours (a peer may have judged us dead). The
        // detach's heartbeat is recorded as `detached_ms`, so a peer tells this clean detach
        // from a foreign peer's later heartbeat.
        if self.region.lv_pid(producer) != self.pid {
            return;
        }
        let now = now_ms();
        self.region.so_heartbeat(producer, now); // SYNC POINT: heartbeat
        self.region.so_detached(producer, now); // SYNC POINT: detached
        let _ = self.region.cas_pid(producer, self.pid, 0); // SYNC POINT: attach
    }
}
