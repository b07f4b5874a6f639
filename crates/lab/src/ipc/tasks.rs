//! The ipc experiment's peer tasks: a throughput producer ([`ProduceTask`]) and an echo
//! ([`EchoTask`]), each as the `sympathy run ipc-peer` and `java/sidecar` command lines ask for
//! it.

use std::ffi::OsString;
use std::path::PathBuf;

use super::WriteMode;
use crate::peer::{JavaRing, PeerRun, PeerTask, arg};

/// What a throughput producer process does: write `count` pattern messages of `size` bytes
/// into the existing ring `ring`, pinned to `core`. Its [`rust_args`](PeerTask::rust_args)
/// parse back into it (`clap::Args`).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ProduceTask {
    /// The ring file (already created by the consumer's process).
    pub ring: PathBuf,
    /// Payload bytes per message.
    #[arg(long)]
    pub size: usize,
    /// Messages to write, and the core the producer pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
    /// One call per message or `try_write_batch` runs.
    #[arg(long)]
    pub writes: WriteMode,
    /// Messages per `try_write_batch` run, or per publish of a per-message producer.
    #[arg(long)]
    pub batch: usize,
}

/// What an echo process does: copy `count` messages from `ping` to `pong`, pinned to `core`.
/// Its [`rust_args`](PeerTask::rust_args) parse back into it (`clap::Args`).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct EchoTask {
    /// The ring the pinging process writes.
    pub ping: PathBuf,
    /// The ring the echo writes back.
    pub pong: PathBuf,
    /// Messages to echo (warm-up included), and the core the echo pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
    /// The ring implementation a Java echo drives (a Rust echo has only its own).
    #[arg(skip = JavaRing::Ffm)]
    pub java_ring: JavaRing,
}

impl PeerTask for ProduceTask {
    fn rust_args(&self) -> Vec<OsString> {
        vec![
            "producer".into(),
            self.ring.clone().into(),
            "--size".into(),
            arg(self.size),
            "--writes".into(),
            self.writes.name().into(),
            "--batch".into(),
            arg(self.batch),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    /// The FFM ring, one call per message, or with [`WriteMode::Batch`] runs filled in place by
    /// its `writeBatch`.
    fn java_args(&self) -> Vec<OsString> {
        let mut args = vec![
            "produce".into(),
            self.ring.clone().into(),
            "--count".into(),
            arg(self.run.count),
            "--size".into(),
            arg(self.size),
        ];
        args.extend(JavaRing::Ffm.sidecar_flags(self.run.core));
        if self.writes == WriteMode::Batch {
            args.extend([
                "--writes".into(),
                "batch".into(),
                "--batch".into(),
                arg(self.batch),
            ]);
        }
        args
    }
}

impl PeerTask for EchoTask {
    fn rust_args(&self) -> Vec<OsString> {
        vec![
            "echo".into(),
            self.ping.clone().into(),
            self.pong.clone().into(),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    /// The echo of the sidecar's own `latency`, on the task's ring implementation.
    fn java_args(&self) -> Vec<OsString> {
        let mut args = vec![
            "echo".into(),
            self.ping.clone().into(),
            self.pong.clone().into(),
            "--count".into(),
            arg(self.run.count),
        ];
        args.extend(self.java_ring.sidecar_flags(self.run.core));
        args
    }
}

/// What a many-to-one producer process does: wait for `go` (see [`super::kinds`]), then write
/// `count` pattern messages of `size` bytes as type `type_id` into the existing many-to-one ring
/// `ring`, pinned to `core`. Its [`rust_args`](PeerTask::rust_args) parse back into it.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct MpscProduceTask {
    /// The ring file (already created by the consumer's process).
    pub ring: PathBuf,
    /// Payload bytes per message.
    #[arg(long)]
    pub size: usize,
    /// The type id of this producer's messages (its stream at the consumer).
    #[arg(long = "type")]
    pub type_id: i32,
    /// Messages to write, and the core the producer pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
}

/// What a broadcast transmitter process does: wait for `go`, then transmit `count` pattern
/// messages of `size` bytes into the existing broadcast ring `ring`, pinned to `core`.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct TransmitTask {
    /// The ring file (already created by the measuring process).
    pub ring: PathBuf,
    /// Payload bytes per message.
    #[arg(long)]
    pub size: usize,
    /// Messages to transmit, and the core the transmitter pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
}

/// What a broadcast receiver process does: join the ring `ring` before the first message, wait
/// for `go`, receive and verify `count` messages of `size` bytes pinned to `core`, and print
/// `elapsed_ns=N`, its first message to its last.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ReceiveTask {
    /// The ring file (already created by the measuring process).
    pub ring: PathBuf,
    /// Payload bytes per message.
    #[arg(long)]
    pub size: usize,
    /// Messages to receive, and the core the receiver pins itself to.
    #[command(flatten)]
    pub run: PeerRun,
}

/// `java/sidecar run ipc peer ROLE RING --size S [more] --count N --core C`: the Java peers of
/// the other ring kinds take the Rust peers' arguments after `run ipc peer` (java/sidecar hands
/// `run NAME` to the JMH runner unless the catalog has experiment NAME, hence not `ipc-peer`).
fn java_peer_args(rust_args: Vec<OsString>) -> Vec<OsString> {
    ["run".into(), "ipc".into(), "peer".into()]
        .into_iter()
        .chain(rust_args)
        .collect()
}

impl PeerTask for MpscProduceTask {
    fn rust_args(&self) -> Vec<OsString> {
        vec![
            "mpsc-producer".into(),
            self.ring.clone().into(),
            "--size".into(),
            arg(self.size),
            "--type".into(),
            arg(self.type_id),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    fn java_args(&self) -> Vec<OsString> {
        java_peer_args(self.rust_args())
    }
}

impl PeerTask for TransmitTask {
    fn rust_args(&self) -> Vec<OsString> {
        vec![
            "transmitter".into(),
            self.ring.clone().into(),
            "--size".into(),
            arg(self.size),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    fn java_args(&self) -> Vec<OsString> {
        java_peer_args(self.rust_args())
    }
}

impl PeerTask for ReceiveTask {
    fn rust_args(&self) -> Vec<OsString> {
        vec![
            "receiver".into(),
            self.ring.clone().into(),
            "--size".into(),
            arg(self.size),
        ]
        .into_iter()
        .chain(self.run.rust_args())
        .collect()
    }

    fn java_args(&self) -> Vec<OsString> {
        java_peer_args(self.rust_args())
    }
}
