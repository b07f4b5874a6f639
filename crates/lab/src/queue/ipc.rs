//! `p1c1-ipc`: the P1C1 queue in a mapped file shared by two processes, the seed's 2013
//! experiment. This process produces; a peer process consumes and checks every value.
//!
//! The peer is started one of two ways ([`PeerLaunch`]): the CLI re-executes itself with a
//! hidden subcommand (a fresh process, as the seed's two JVMs), the criterion bench `fork()`s
//! (a bench binary has no subcommands to re-enter). Either way the peer runs
//! [`consume_in_peer`], pinned to the consumer's core.
//!
//! The file lives in `/dev/shm` when it exists (memory only, no write-back to a disk), else in
//! the temporary directory, and is removed after the run.
//!
//! Timing is taken in this process alone: from the first offer until `head` shows the peer has
//! polled the last value. The peer's verdict (every value in order, nothing after the last)
//! comes back as its exit status.

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use sympathy_queue::{Consumer, Full, Producer, create_file};

use super::message::{ElementKind, Message, Tick};
use super::pair::{SPINS_WHEN_WAITING, Transfer};
use super::variants::{consume_each, produce_each};
use super::{Placement, QueueRunError};
use crate::scratch::ScratchFile;
use sympathy_harness::pin::pin_current_thread;

/// How long the producer waits for the peer to attach before giving up.
const ATTACH_TIMEOUT: Duration = Duration::from_secs(30);
/// Failed polls or offers between checks that the other process is still there.
const LIVENESS_EVERY: u32 = 1 << 12;

/// What the consuming peer process needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpcPeer {
    /// The queue file.
    pub file: PathBuf,
    /// The core the peer pins its thread to.
    pub core: usize,
    /// How many values to expect.
    pub count: u64,
    /// The element type of the queue.
    pub element: ElementKind,
    /// Spin (cross-core) or yield (same-core) when the queue is empty.
    pub placement: Placement,
}

/// How the consuming peer process is started.
pub enum PeerLaunch<'a> {
    /// Run this command (the CLI: itself with a hidden subcommand built from the [`IpcPeer`]).
    Command(&'a dyn Fn(&IpcPeer) -> Command),
    /// `fork()` this process and run [`consume_in_peer`] in the child. Only for a process that
    /// is single-threaded at the time of the call (the criterion bench between measurements).
    Fork,
}

/// A started peer process.
enum Peer {
    Spawned(Child),
    Forked(libc::pid_t),
}

impl Peer {
    /// `Some(success)` once the peer has exited.
    fn try_exited(&mut self) -> Result<Option<bool>, QueueRunError> {
        match self {
            Peer::Spawned(child) => Ok(child
                .try_wait()
                .map_err(|e| QueueRunError::Peer(format!("cannot query the peer: {e}")))?
                .map(|s| s.success())),
            Peer::Forked(pid) => {
                let mut status = 0;
                // SAFETY: `pid` is our child; `status` is a valid out-pointer for the call.
                let rc = unsafe { libc::waitpid(*pid, &mut status, libc::WNOHANG) };
                match rc {
                    0 => Ok(None),
                    r if r == *pid => {
                        *pid = 0;
                        Ok(Some(
                            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
                        ))
                    }
                    _ => Err(QueueRunError::Peer(
                        "waitpid failed on the forked peer".into(),
                    )),
                }
            }
        }
    }

    /// Waits for the peer to exit; `true` when it succeeded.
    fn wait(&mut self) -> Result<bool, QueueRunError> {
        match self {
            Peer::Spawned(child) => Ok(child
                .wait()
                .map_err(|e| QueueRunError::Peer(format!("cannot wait for the peer: {e}")))?
                .success()),
            Peer::Forked(pid) => {
                if *pid == 0 {
                    return Err(QueueRunError::Peer(
                        "the forked peer was already reaped".into(),
                    ));
                }
                let mut status = 0;
                // SAFETY: `pid` is our child, not yet reaped; `status` is a valid out-pointer.
                let rc = unsafe { libc::waitpid(*pid, &mut status, 0) };
                *pid = 0;
                if rc < 0 {
                    return Err(QueueRunError::Peer(
                        "waitpid failed on the forked peer".into(),
                    ));
                }
                Ok(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0)
            }
        }
    }

    /// Ends a peer that is still running (after an error in this process).
    fn kill(&mut self) {
        match self {
            Peer::Spawned(child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
            Peer::Forked(pid) if *pid > 0 => {
                // SAFETY: `pid` is our own child, not yet reaped; killing and reaping it
                // affects no other process.
                unsafe {
                    libc::kill(*pid, libc::SIGKILL);
                    libc::waitpid(*pid, std::ptr::null_mut(), 0);
                }
                *pid = 0;
            }
            Peer::Forked(_) => {}
        }
    }
}

/// `p1c1-ipc`: produces `count` values into a queue file that a peer process consumes.
///
/// # Errors
/// The file cannot be made, the peer cannot be started or pinned, does not attach in time, or
/// exits with a failure (it saw a wrong or missing value).
pub fn p1c1_ipc<M: Message>(
    element: ElementKind,
    transfer: Transfer,
    launch: &PeerLaunch,
) -> Result<Duration, QueueRunError> {
    let Transfer {
        placement,
        cores,
        count,
        capacity,
    } = transfer;
    let file = ScratchFile::new("sympathy-queue");
    create_file::<M>(file.path(), capacity)?;
    let producer = Producer::<M>::attach(file.path())?;
    let spec = IpcPeer {
        file: file.path().to_path_buf(),
        core: cores.consumer,
        count,
        element,
        placement,
    };
    let mut peer = start_peer(&spec, launch)?;
    // The producer runs on its own pinned thread so that this thread keeps its affinity.
    let outcome = std::thread::scope(|scope| {
        scope
            .spawn(|| produce_for_peer(producer, &mut peer, placement, cores.producer, count))
            .join()
            .expect("the IPC producer thread panicked")
    });
    match outcome {
        Ok(elapsed) => {
            if peer.wait()? {
                Ok(elapsed)
            } else {
                Err(QueueRunError::Peer(
                    "the consumer process reported a failure (see its error above)".into(),
                ))
            }
        }
        Err(err) => {
            peer.kill();
            Err(err)
        }
    }
}

fn start_peer(spec: &IpcPeer, launch: &PeerLaunch) -> Result<Peer, QueueRunError> {
    match launch {
        PeerLaunch::Command(make) => make(spec)
            .spawn()
            .map(Peer::Spawned)
            .map_err(|e| QueueRunError::Peer(format!("cannot start the consumer process: {e}"))),
        PeerLaunch::Fork => {
            // SAFETY: documented precondition of `PeerLaunch::Fork`: this process is
            // single-threaded here, so the child inherits no lock held by another thread.
            let pid = unsafe { libc::fork() };
            match pid {
                -1 => Err(QueueRunError::Peer("fork failed".into())),
                0 => {
                    let code = match consume_in_peer(spec) {
                        Ok(()) => 0,
                        Err(err) => {
                            eprintln!("error: queue consumer process: {err}");
                            1
                        }
                    };
                    // SAFETY: ends the forked child without running the parent's atexit
                    // handlers or destructors, which belong to the parent.
                    unsafe { libc::_exit(code) }
                }
                pid => Ok(Peer::Forked(pid)),
            }
        }
    }
}

/// Takes the producer by value so that its fields can live in registers in the hot loop.
fn produce_for_peer<M: Message>(
    mut producer: Producer<M>,
    peer: &mut Peer,
    placement: Placement,
    core: usize,
    count: u64,
) -> Result<Duration, QueueRunError> {
    pin_current_thread(core).map_err(QueueRunError::Pin)?;
    let deadline = Instant::now() + ATTACH_TIMEOUT;
    while !producer.consumer_attached() {
        if peer.try_exited()?.is_some() {
            return Err(QueueRunError::Peer(
                "the consumer process exited before attaching (see its error above)".into(),
            ));
        }
        if Instant::now() > deadline {
            return Err(QueueRunError::Peer(format!(
                "the consumer process did not attach within {ATTACH_TIMEOUT:?}"
            )));
        }
        std::thread::yield_now();
    }
    let peer_cell = std::cell::RefCell::new(peer);
    let waits = std::cell::Cell::new(0u32);
    let peer_gone = std::cell::Cell::new(false);
    // Waits a little; every LIVENESS_EVERY waits, checks that the peer is still running.
    let wait = || {
        idle(placement);
        waits.set(waits.get().wrapping_add(1));
        if waits.get().is_multiple_of(LIVENESS_EVERY)
            && !matches!(peer_cell.borrow_mut().try_exited(), Ok(None))
        {
            peer_gone.set(true);
        }
        peer_gone.get()
    };
    let start = Instant::now();
    produce_each(count, wait, |v| producer.offer(v).map_err(|Full(v)| v));
    while !peer_gone.get() && producer.pending() > 0 {
        wait();
    }
    let elapsed = start.elapsed();
    if peer_gone.get() {
        return Err(QueueRunError::Peer(
            "the consumer process exited before it had polled every value (see its error above)"
                .into(),
        ));
    }
    Ok(elapsed)
}

/// Waits as every other variant's [`super::Waiter`] does: cross-core [`SPINS_WHEN_WAITING`]
/// spin hints (one hint pulled the other side's line straight back), same-core a yield.
#[inline(always)]
fn idle(placement: Placement) {
    match placement {
        Placement::CrossCore => {
            for _ in 0..SPINS_WHEN_WAITING {
                std::hint::spin_loop();
            }
        }
        Placement::SameCore => std::thread::yield_now(),
    }
}

/// The peer process's work: pin, attach as consumer, poll `count` values one by one (as
/// `p1c1-offheap` does, for a like-for-like comparison) and check each against its position. Called by the hidden CLI subcommand and by a forked child.
///
/// # Errors
/// Pinning or attaching fails, a value is wrong, or the producer process went away.
pub fn consume_in_peer(spec: &IpcPeer) -> Result<(), QueueRunError> {
    match spec.element {
        ElementKind::U32 => consume_typed::<u32>(spec),
        ElementKind::U64 => consume_typed::<u64>(spec),
        ElementKind::Tick => consume_typed::<Tick>(spec),
    }
}

fn consume_typed<M: Message>(spec: &IpcPeer) -> Result<(), QueueRunError> {
    pin_current_thread(spec.core).map_err(QueueRunError::Pin)?;
    // SAFETY: getppid has no preconditions.
    let parent = unsafe { libc::getppid() };
    let mut consumer = Consumer::<M>::attach(&spec.file)?;
    let waits = std::cell::Cell::new(0u32);
    let placement = spec.placement;
    // The producer process is gone once this process has been re-parented.
    let wait = || {
        idle(placement);
        waits.set(waits.get().wrapping_add(1));
        // SAFETY: getppid has no preconditions.
        waits.get().is_multiple_of(LIVENESS_EVERY) && unsafe { libc::getppid() } != parent
    };
    consume_each(spec.count, wait, || consumer.poll())
}
