//! The hidden subcommand a measurement of `sympathy run ipc` or `sympathy run messaging` starts
//! as its Rust peer process (`run ipc-peer producer`, `run ipc-peer echo`, `run ipc-peer
//! publisher`), and the command line that asks for it. Java's `java/sidecar run ipc --variants
//! echo-cross-*` starts the same `run ipc-peer echo` as the Rust echo of its Java pinger, and
//! `java/sidecar run messaging` `run ipc-peer publisher` as the Rust sender of its Java receiver.
//!
//! ```text
//! sympathy run ipc-peer producer /dev/shm/ring --size 4 --count 1000 --core 1 --writes batch --batch 256
//! sympathy run ipc-peer echo /dev/shm/ping /dev/shm/pong --count 1000 --core 1
//! sympathy run ipc-peer publisher /dev/shm/ring --encoding sbe --count 1000 --core 1
//! ```

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use sympathy_lab::ipc::{self, EchoTask, ProduceTask, WriteMode};
use sympathy_lab::messaging::{self, Encoding, PublishTask};
use sympathy_lab::peer::{JavaRing, PeerTask};

/// `run ipc-peer <producer|echo> ...`
#[derive(Args, Debug)]
pub struct PeerArgs {
    #[command(subcommand)]
    role: PeerRole,
}

#[derive(Subcommand, Debug)]
enum PeerRole {
    /// The producer process of a throughput run.
    Producer(ProducerArgs),
    /// The echo process of an echo run.
    Echo(EchoArgs),
    /// The sending process of a messaging run.
    Publisher(PublisherArgs),
}

/// `run ipc-peer publisher RING --encoding E --count N --core C`
#[derive(Args, Debug)]
pub struct PublisherArgs {
    ring: PathBuf,
    #[arg(long, value_parser = encoding)]
    encoding: Encoding,
    #[arg(long)]
    count: u64,
    #[arg(long)]
    core: usize,
}

/// `--encoding`: an encoding of the messaging experiment by name.
fn encoding(text: &str) -> Result<Encoding, String> {
    Encoding::named(text).ok_or_else(|| {
        let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
        format!(
            "'{text}' is not an encoding: use one of {}",
            names.join(", ")
        )
    })
}

/// `run ipc-peer producer RING --size S --count N --core C --writes W --batch B`
#[derive(Args, Debug)]
pub struct ProducerArgs {
    ring: PathBuf,
    #[arg(long)]
    size: usize,
    #[arg(long)]
    count: u64,
    #[arg(long)]
    core: usize,
    #[arg(long, value_parser = write_mode)]
    writes: WriteMode,
    #[arg(long)]
    batch: usize,
}

/// `run ipc-peer echo PING PONG --count N --core C`
#[derive(Args, Debug)]
pub struct EchoArgs {
    ping: PathBuf,
    pong: PathBuf,
    #[arg(long)]
    count: u64,
    #[arg(long)]
    core: usize,
}

/// `--writes`: a write mode by name.
pub fn write_mode(text: &str) -> Result<WriteMode, String> {
    WriteMode::named(text)
        .ok_or_else(|| format!("'{text}' is not a write mode: use one of per-message, batch"))
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
        PeerRole::Producer(a) => ipc::produce_in_peer(&ProduceTask {
            ring: a.ring,
            size: a.size,
            count: a.count,
            core: a.core,
            writes: a.writes,
            batch: a.batch,
        })?,
        PeerRole::Echo(a) => ipc::echo_in_peer(&EchoTask {
            ping: a.ping,
            pong: a.pong,
            count: a.count,
            core: a.core,
            java_ring: JavaRing::Ffm, // a Java echo's; this one is Rust
        })?,
        PeerRole::Publisher(a) => messaging::publish_in_peer(&PublishTask {
            ring: a.ring,
            encoding: a.encoding,
            count: a.count,
            core: a.core,
            java_ring: JavaRing::Ffm, // a Java sender's; this one is Rust
            java_warmup: 0,
        })?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

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
            count: 10,
            core: 1,
            writes: WriteMode::Batch,
            batch: 64,
        };
        let PeerRole::Producer(p) = parsed(&produce) else {
            panic!("not a producer")
        };
        assert_eq!((p.size, p.count, p.core, p.batch), (4, 10, 1, 64));
        assert_eq!(p.writes, WriteMode::Batch);
        let echo = EchoTask {
            ping: "/a".into(),
            pong: "/b".into(),
            count: 3,
            core: 0,
            java_ring: JavaRing::Jni,
        };
        assert!(
            matches!(parsed(&echo), PeerRole::Echo(e) if e.count == 3 && e.pong.as_path() == std::path::Path::new("/b"))
        );
        let publish = PublishTask {
            ring: "/dev/shm/m".into(),
            encoding: Encoding::HandCodec,
            count: 7,
            core: 1,
            java_ring: JavaRing::Jni,
            java_warmup: 4,
        };
        assert!(
            matches!(parsed(&publish), PeerRole::Publisher(p) if p.encoding == Encoding::HandCodec && p.count == 7 && p.core == 1)
        );
    }
}
