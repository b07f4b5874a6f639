//! The hidden subcommand a measurement of `sympathy run ipc` or `sympathy run messaging` starts
//! as its Rust peer process (`run ipc-peer producer`, `run ipc-peer echo`, `run ipc-peer
//! publisher`), and the command line that asks for it. Java's `java/sidecar run ipc --variants
//! echo-cross-*` starts the same `run ipc-peer echo` as the Rust echo of its Java pinger, and
//! `java/sidecar run messaging` `run ipc-peer publisher` as the Rust sender of its Java receiver.
//!
//! ```text
//! sympathy run ipc-peer producer /dev/shm/ring --size 4 --writes batch --batch 256 --count 1000 --core 1
//! sympathy run ipc-peer echo /dev/shm/ping /dev/shm/pong --count 1000 --core 1
//! sympathy run ipc-peer publisher /dev/shm/ring --encoding sbe --count 1000 --core 1
//! sympathy run ipc-peer mpsc-producer /dev/shm/ring --size 4 --type 2 --count 1000 --core 0
//! sympathy run ipc-peer transmitter /dev/shm/ring --size 4 --count 1000 --core 0
//! sympathy run ipc-peer receiver /dev/shm/ring --size 4 --count 1000 --core 1
//! ```
//!
//! The last three are the peers of `run ipc`'s mpsc and broadcast variants (Rust's and Java's):
//! each prints `ready` once attached and starts on a `go` line on its standard input. Their Java
//! twins are `java/sidecar run ipc peer ROLE ...` with the same arguments.

use std::ffi::OsString;

use anyhow::Result;
use clap::{Args, Subcommand};
use sympathy_lab::ipc::{self, EchoTask, MpscProduceTask, ProduceTask, ReceiveTask, TransmitTask};
use sympathy_lab::messaging::{self, PublishTask};
use sympathy_lab::peer::PeerTask;

/// `run ipc-peer <producer|echo|publisher|mpsc-producer|transmitter|receiver> ...`
#[derive(Args, Debug)]
pub struct PeerArgs {
    #[command(subcommand)]
    role: PeerRole,
}

/// The roles, each parsed straight into the lab's task: the command line a task writes
/// ([`PeerTask::rust_args`]) is the one these read.
#[derive(Subcommand, Debug, PartialEq, Eq)]
enum PeerRole {
    /// The producer process of a throughput run:
    /// `producer RING --size S --count N --core C --writes W --batch B`.
    Producer(ProduceTask),
    /// The echo process of an echo run: `echo PING PONG --count N --core C`.
    Echo(EchoTask),
    /// The sending process of a messaging run: `publisher RING --encoding E --count N --core C`.
    Publisher(PublishTask),
    /// A producer process of a many-to-one run:
    /// `mpsc-producer RING --size S --type T --count N --core C`.
    MpscProducer(MpscProduceTask),
    /// The transmitter process of a broadcast run: `transmitter RING --size S --count N --core C`.
    Transmitter(TransmitTask),
    /// A receiver process of a broadcast run: `receiver RING --size S --count N --core C`
    /// (prints `elapsed_ns=N`).
    Receiver(ReceiveTask),
}

/// The command line (after the binary) of the Rust peer running `task`: `run ipc-peer` and the
/// task's own arguments.
pub fn peer_args(task: &dyn PeerTask) -> Vec<OsString> {
    ["run".into(), "ipc-peer".into()]
        .into_iter()
        .chain(task.rust_args())
        .collect()
}

/// Runs a peer process. A SIGBUS in its mapped rings is said as such, as by the ring tools.
pub fn run_peer(args: PeerArgs) -> Result<()> {
    crate::ring::sigbus::report_on_sigbus(None);
    match args.role {
        PeerRole::Producer(task) => ipc::produce_in_peer(&task)?,
        PeerRole::Echo(task) => ipc::echo_in_peer(&task)?,
        PeerRole::Publisher(task) => messaging::publish_in_peer(&task)?,
        PeerRole::MpscProducer(task) => ipc::mpsc_produce_in_peer(&task)?,
        PeerRole::Transmitter(task) => ipc::transmit_in_peer(&task)?,
        PeerRole::Receiver(task) => ipc::receive_in_peer(&task)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use sympathy_lab::ipc::WriteMode;
    use sympathy_lab::messaging::Encoding;
    use sympathy_lab::peer::{JavaRing, PeerRun};

    /// What this binary's own command line makes of `peer_args(task)`.
    fn parsed(task: &dyn PeerTask) -> PeerRole {
        let argv = std::iter::once(OsString::from("sympathy")).chain(peer_args(task));
        let crate::Command::Run(run) = crate::Cli::try_parse_from(argv).unwrap().command else {
            panic!("not `sympathy run`")
        };
        let super::super::Command::IpcPeer(peer) = run.experiment else {
            panic!("not `sympathy run ipc-peer`")
        };
        peer.role
    }

    #[test]
    fn the_peer_command_lines_parse_back_into_the_tasks() {
        let produce = ProduceTask {
            ring: "/dev/shm/r".into(),
            size: 4,
            run: PeerRun { count: 10, core: 1 },
            writes: WriteMode::Batch,
            batch: 64,
        };
        assert_eq!(parsed(&produce), PeerRole::Producer(produce));
        let echo = EchoTask {
            ping: "/a".into(),
            pong: "/b".into(),
            run: PeerRun { count: 3, core: 0 },
            java_ring: JavaRing::Jni,
        };
        // A Rust peer drives the Rust ring: the Java ring is not on its command line.
        let rust_echo = EchoTask {
            java_ring: JavaRing::Ffm,
            ..echo.clone()
        };
        assert_eq!(parsed(&echo), PeerRole::Echo(rust_echo));
        let publish = PublishTask {
            ring: "/dev/shm/m".into(),
            encoding: Encoding::HandCodec,
            run: PeerRun { count: 7, core: 1 },
            java_ring: JavaRing::Jni,
            java_warmup: 4,
        };
        // Nor are a Java sender's ring and warm-up.
        let rust_publish = PublishTask {
            java_ring: JavaRing::Ffm,
            java_warmup: 0,
            ..publish.clone()
        };
        assert_eq!(parsed(&publish), PeerRole::Publisher(rust_publish));
        let run = PeerRun { count: 5, core: 0 };
        let mpsc = MpscProduceTask {
            ring: "/dev/shm/m".into(),
            size: 4,
            type_id: 2,
            run,
        };
        assert_eq!(parsed(&mpsc), PeerRole::MpscProducer(mpsc.clone()));
        let transmit = TransmitTask {
            ring: "/dev/shm/b".into(),
            size: 8,
            run,
        };
        assert_eq!(parsed(&transmit), PeerRole::Transmitter(transmit.clone()));
        let receive = ReceiveTask {
            ring: "/dev/shm/b".into(),
            size: 8,
            run,
        };
        assert_eq!(parsed(&receive), PeerRole::Receiver(receive.clone()));
        // A Java peer of these takes the same arguments after `run ipc peer`.
        assert_eq!(
            mpsc.java_args()[..4],
            ["run", "ipc", "peer", "mpsc-producer"]
        );
        assert_eq!(mpsc.java_args()[3..], mpsc.rust_args()[..]);
    }
}
