//! The hidden subcommands a measurement of `sympathy run ipc` starts as its Rust peer process
//! (`ipc bench-producer`, `ipc latency-echo`), and the command line that asks for them.

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use sympathy_lab::ipc::{self, EchoTask, PeerTask, ProduceTask, WriteMode};

/// `ipc bench-producer RING --size S --count N --core C --writes W --batch B`
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

/// `ipc latency-echo PING PONG --count N --core C`
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

/// The arguments of this binary that run `task` (after the program name).
pub fn peer_args(task: &PeerTask) -> Vec<OsString> {
    let text = |v: &dyn ToString| OsString::from(v.to_string());
    match task {
        PeerTask::Produce(p) => vec![
            "ipc".into(),
            "bench-producer".into(),
            p.ring.clone().into(),
            "--size".into(),
            text(&p.size),
            "--count".into(),
            text(&p.count),
            "--core".into(),
            text(&p.core),
            "--writes".into(),
            p.writes.name().into(),
            "--batch".into(),
            text(&p.batch),
        ],
        PeerTask::Echo(e) => vec![
            "ipc".into(),
            "latency-echo".into(),
            e.ping.clone().into(),
            e.pong.clone().into(),
            "--count".into(),
            text(&e.count),
            "--core".into(),
            text(&e.core),
        ],
    }
}

/// The producer process of a throughput run.
pub fn producer(args: ProducerArgs) -> Result<()> {
    ipc::produce_in_peer(&ProduceTask {
        ring: args.ring,
        size: args.size,
        count: args.count,
        core: args.core,
        writes: args.writes,
        batch: args.batch,
    })?;
    Ok(())
}

/// The echo process of an echo run.
pub fn echo(args: EchoArgs) -> Result<()> {
    ipc::echo_in_peer(&EchoTask {
        ping: args.ping,
        pong: args.pong,
        count: args.count,
        core: args.core,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    enum Hidden {
        BenchProducer(ProducerArgs),
        LatencyEcho(EchoArgs),
    }

    #[test]
    fn the_peer_command_lines_parse_back_into_the_tasks() {
        let produce = PeerTask::Produce(ProduceTask {
            ring: "/dev/shm/r".into(),
            size: 4,
            count: 10,
            core: 1,
            writes: WriteMode::Batch,
            batch: 64,
        });
        // The first argument, `ipc`, stands where clap expects the program's name.
        let args = peer_args(&produce);
        let parsed = Hidden::try_parse_from(&args).unwrap();
        let Hidden::BenchProducer(p) = parsed else {
            panic!("not a producer")
        };
        assert_eq!((p.size, p.count, p.core, p.batch), (4, 10, 1, 64));
        assert_eq!(p.writes, WriteMode::Batch);
        let echo = PeerTask::Echo(EchoTask {
            ping: "/a".into(),
            pong: "/b".into(),
            count: 3,
            core: 0,
        });
        let parsed = Hidden::try_parse_from(peer_args(&echo)).unwrap();
        assert!(
            matches!(parsed, Hidden::LatencyEcho(e) if e.count == 3 && e.pong.as_path() == std::path::Path::new("/b"))
        );
    }
}
