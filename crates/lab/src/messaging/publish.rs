//! The sending process: [`publish_in_peer`] writes `count` price updates in one encoding into
//! a ring the receiving process created. Fixed-length encodings fill their records in place
//! (`Producer::try_write_batch`, up to [`BATCH`] records published together: zero copy);
//! `serde` encodes each message into a scratch buffer and copies it into a [`Batch`].
//!
//! [`Batch`]: sympathy_ring::Batch

use std::path::PathBuf;

use sympathy_harness::pin::pin_current_thread;
use sympathy_ring::{Producer, Ring};

use super::encoding::Encoding;
use super::layout::{HandCodec, Struct};
use super::wire::{Raw, Sbe, Serde, Wire};
use crate::peer::{FullRing, JavaRing, PeerError, PeerRun, PeerTask, arg};

/// Records published together at most (one tail store, one cache-line handover per batch), as
/// the ipc experiment's producer.
pub const BATCH: usize = 256;

/// What a sending process does: write `count` price updates encoded as `encoding` into the
/// existing ring `ring`, pinned to `core`. Its [`rust_args`](PeerTask::rust_args) parse back
/// into it (`clap::Args`).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct PublishTask {
    /// The ring file (created by the receiver's process).
    pub ring: PathBuf,
    /// The encoding.
    #[arg(long)]
    pub encoding: Encoding,
    /// Messages to send, and the core the sender pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
    /// The ring implementation a Java sender drives (a Rust sender has only its own).
    #[arg(skip = JavaRing::Ffm)]
    pub java_ring: JavaRing,
    /// Warm-up rounds of a Java sender (a Rust one needs none).
    #[arg(skip)]
    pub java_warmup: u32,
}

impl PeerTask for PublishTask {
    fn rust_args(&self) -> Vec<std::ffi::OsString> {
        vec![
            "publisher".into(),
            self.ring.clone().into(),
            "--encoding".into(),
            self.encoding.name().into(),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    /// The sidecar's `publish` on the task's ring implementation, after its JIT warm-up.
    fn java_args(&self) -> Vec<std::ffi::OsString> {
        let mut args = vec![
            "publish".into(),
            self.ring.clone().into(),
            "--encoding".into(),
            self.encoding.name().into(),
            "--count".into(),
            arg(self.run.count),
            "--warmup".into(),
            arg(self.java_warmup),
        ];
        args.extend(self.java_ring.sidecar_flags(self.run.core));
        args
    }
}

/// The Rust sending process: pins itself, writes `task.run.count` messages.
///
/// # Errors
/// Pinning or opening fails, the receiver goes away, the ring stays full too long, or an
/// encoder refuses a message.
pub fn publish_in_peer(task: &PublishTask) -> Result<(), PeerError> {
    pin_current_thread(task.run.core)?;
    let ring = Ring::open(&task.ring)?;
    let mut producer = ring.producer()?;
    match task.encoding {
        Encoding::Raw => publish::<Raw>(&mut producer, task.run.count),
        Encoding::Sbe => publish::<Sbe>(&mut producer, task.run.count),
        Encoding::Struct => publish::<Struct>(&mut producer, task.run.count),
        Encoding::HandCodec => publish::<HandCodec>(&mut producer, task.run.count),
        Encoding::Serde => publish::<Serde>(&mut producer, task.run.count),
    }
}

/// Writes messages `0..count` encoded with `W`, waiting while the ring is full.
///
/// # Errors
/// As [`publish_in_peer`].
pub fn publish<W: Wire>(producer: &mut Producer, count: u64) -> Result<(), PeerError> {
    let mut scratch = vec![0u8; producer.max_message_length().min(64 * 1024)];
    let mut seq = 0u64;
    let mut full = FullRing::new("receiver");
    let mut failure: Option<(u64, String)> = None;
    while seq < count {
        let before = seq;
        let max = (count - seq).min(BATCH as u64) as usize;
        match W::FIXED {
            Some(len) => {
                let first = seq;
                seq += producer.try_write_batch(W::TYPE_ID, len, max, |k, payload| {
                    let at = first + k as u64;
                    if let Err(e) = W::encode(at, payload) {
                        failure.get_or_insert((at, e));
                    }
                })? as u64;
            }
            None => {
                let mut batch = producer.batch();
                while seq < count && batch.len() < max {
                    let len = W::encode(seq, &mut scratch)
                        .map_err(|e| PeerError::BadCase(format!("encoding message {seq}: {e}")))?;
                    match batch.try_write(W::TYPE_ID, &scratch[..len]) {
                        Ok(()) => seq += 1,
                        Err(e) if e.is_full() => break,
                        Err(e) => return Err(e.into()),
                    }
                }
            }
        }
        if let Some((at, e)) = failure.take() {
            return Err(PeerError::BadCase(format!("encoding message {at}: {e}")));
        }
        if seq == before {
            full.idle(producer, seq)?;
        }
    }
    Ok(())
}
