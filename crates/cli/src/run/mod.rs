//! `sympathy run <experiment>`: one file per experiment in this folder, each exposing its
//! clap arguments and a `run` function; [`EXPERIMENTS`] lists them for `run all`.

mod atomic_increment;
mod back_pressure;
mod cores;
mod dispatch;
pub mod ipc;
mod memory_walk;
mod ping_pong;
mod queue;
mod serialization;
mod struct_table;

use anyhow::Result;
use clap::{Args, Subcommand};
use sympathy_harness::machine::Env;
use sympathy_harness::{Preset, Reporter};

/// Flags every experiment accepts.
#[derive(Args, Debug, Clone, Default)]
pub struct Common {
    /// Tiny sizes and one run: checks the plumbing in about a second, not the figures.
    #[arg(long, conflicts_with_all = ["quick", "full"])]
    pub smoke: bool,
    /// Shrink the run to finish in seconds.
    #[arg(long, conflicts_with = "full")]
    pub quick: bool,
    /// Use the seeds' full sizes (minutes; several GiB of memory for some experiments).
    #[arg(long)]
    pub full: bool,
    /// Print JSON Lines in the results schema (docs/results.md) instead of human output.
    #[arg(long)]
    pub json: bool,
    /// Repetitions of each measurement; the median is reported with min and max.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: Option<u32>,
}

impl Common {
    /// The size preset the flags select.
    pub fn preset(&self) -> Preset {
        match (self.smoke, self.quick, self.full) {
            (true, _, _) => Preset::Smoke,
            (_, true, _) => Preset::Quick,
            (_, _, true) => Preset::Full,
            _ => Preset::Default,
        }
    }

    /// `--runs`, or the experiment's default for the preset (one run at `smoke`).
    pub fn runs_or(&self, quick: u32, default: u32, full: u32) -> usize {
        self.runs.unwrap_or_else(|| match self.preset() {
            Preset::Smoke => 1,
            preset => preset.pick(quick, default, full),
        }) as usize
    }
}

/// `sympathy run ...`
#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(subcommand)]
    experiment: Experiment,
}

#[derive(Subcommand, Debug)]
enum Experiment {
    /// Every experiment in turn, each with its defaults at the chosen scale.
    All(Common),
    /// T pinned threads increment a shared counter to N (lock add, xadd, CAS, sharded).
    AtomicIncrement(atomic_increment::AtomicIncrementArgs),
    /// Two pinned threads bounce a counter: one-way inter-core latency.
    PingPong(ping_pong::PingPongArgs),
    /// Sum an i64 array in linear, in-page random and whole-heap random order, plus dependent
    /// pointer chases and a cache-latency sweep.
    MemoryWalk(memory_walk::MemoryWalkArgs),
    /// Build and query the 50M-trade table as boxed objects, structs, packed flyweights, columns.
    StructTable(struct_table::StructTableArgs),
    /// SPSC queues: P1C1 on heap, off heap and across processes vs rtrb, crossbeam, std.
    Queue(queue::QueueArgs),
    /// The seed's order object written and read back: serde/postcard, a hand codec, zero-copy,
    /// straight into a claimed ring record.
    Serialization(serialization::SerializationArgs),
    /// The seed's Operation loop through static, dyn (1, 2, 4 implementations) and enum dispatch.
    Dispatch(dispatch::DispatchArgs),
    /// An open-loop generator feeding pinned workers through an unbounded or a Little's-law
    /// bounded queue, below and above capacity: latency percentiles and rejections.
    BackPressure(back_pressure::BackPressureArgs),
    /// The memory-mapped ring between two pinned processes: throughput within a language and
    /// from the other one, echo round trip.
    Ipc(ipc::IpcArgs),
    /// The consumer process of `queue`'s p1c1-ipc variant (started by `run queue`).
    #[command(hide = true)]
    QueuePeer(queue::PeerArgs),
}

/// An experiment's entry for `run all`: its name and a runner using only the common flags.
type Entry = (&'static str, fn(&Common, &mut Reporter) -> Result<()>);

/// Every experiment, in the order `run all` runs them.
const EXPERIMENTS: &[Entry] = &[
    ("atomic-increment", atomic_increment::run_with),
    ("ping-pong", ping_pong::run_with),
    ("memory-walk", memory_walk::run_with_common),
    ("struct-table", struct_table::run_with_common),
    ("queue", queue::run_default),
    ("serialization", serialization::run_with_common),
    ("dispatch", dispatch::run_with_common),
    ("back-pressure", back_pressure::run_with_common),
    ("ipc", ipc::run_with_common),
];

/// Runs the chosen experiment.
pub fn run(args: RunArgs) -> Result<()> {
    match args.experiment {
        Experiment::All(common) => run_all(&common),
        Experiment::AtomicIncrement(args) => atomic_increment::run(args),
        Experiment::PingPong(args) => ping_pong::run(args),
        Experiment::MemoryWalk(args) => memory_walk::run(&args),
        Experiment::StructTable(args) => struct_table::run(&args),
        Experiment::Queue(args) => queue::run(&args, &mut reporter(&args.common)?),
        Experiment::QueuePeer(args) => queue::run_peer(&args),
        Experiment::Serialization(args) => serialization::run(&args),
        Experiment::Dispatch(args) => dispatch::run(&args),
        Experiment::BackPressure(args) => back_pressure::run(&args),
        Experiment::Ipc(args) => ipc::run(&args),
    }
}

/// Starts a reporter for `common` and writes the env record.
pub fn reporter(common: &Common) -> Result<Reporter> {
    let mut reporter = Reporter::stdout(common.json);
    reporter.env(&Env::collect())?;
    Ok(reporter)
}

fn run_all(common: &Common) -> Result<()> {
    let mut reporter = reporter(common)?;
    let mut failed = Vec::new();
    for (name, run) in EXPERIMENTS {
        reporter.line(&format!("== {name} ({})", common.preset().name()))?;
        if let Err(err) = run(common, &mut reporter) {
            eprintln!("error: {name}: {err:#}");
            failed.push(*name);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        anyhow::bail!(
            "{} experiment(s) failed: {}",
            failed.len(),
            failed.join(", ")
        )
    }
}
