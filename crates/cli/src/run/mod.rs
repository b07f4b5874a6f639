//! `sympathy run <experiment>`: one file per experiment in this folder, each implementing
//! [`Experiment`] for its clap flags; [`experiment`] finds one by its catalog name for
//! `run all`, which walks the catalog in order.

mod atomic_increment;
mod back_pressure;
mod dispatch;
pub mod ipc;
mod ipc_peer;
mod map_service;
mod memory_walk;
mod messaging;
mod offheap_map;
mod ping_pong;
mod queue;
mod serialization;
mod struct_table;

use anyhow::Result;
use clap::{Args, Subcommand};
use sympathy_harness::catalog::catalog;

use crate::experiment::{Common, Experiment, Flags, Runnable, print_plan, reporter, run_one};

/// `sympathy run ...`
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Print, without measuring, one JSON line per result group the run would emit (its
    /// variant, language and params), then exit.
    #[arg(long, global = true)]
    plan: bool,
    #[command(subcommand)]
    experiment: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Every experiment of the catalog in turn, each with its defaults at the chosen preset.
    All(Common),
    /// T pinned threads increment a shared counter to N (lock add, xadd, CAS, sharded).
    AtomicIncrement(Flags<atomic_increment::AtomicIncrementArgs>),
    /// Two pinned threads bounce a counter: one-way inter-core latency.
    PingPong(Flags<ping_pong::PingPongArgs>),
    /// Sum an i64 array in linear, in-page random and whole-heap random order, plus dependent
    /// pointer chases and a cache-latency sweep.
    MemoryWalk(Flags<memory_walk::MemoryWalkArgs>),
    /// Build and query the 50M-trade table as boxed objects, structs, packed flyweights, columns.
    StructTable(Flags<struct_table::StructTableArgs>),
    /// SPSC queues: P1C1 on heap, off heap and across processes vs rtrb, crossbeam, std.
    Queue(Flags<queue::QueueArgs>),
    /// The seed's order object written and read back: serde/postcard, a hand codec, zero-copy,
    /// straight into a claimed ring record.
    Serialization(Flags<serialization::SerializationArgs>),
    /// The seed's Operation loop through static, dyn (1, 2, 4 implementations) and enum dispatch.
    Dispatch(Flags<dispatch::DispatchArgs>),
    /// An open-loop generator feeding pinned workers through an unbounded or a Little's-law
    /// bounded queue, below and above capacity: latency percentiles and rejections.
    BackPressure(Flags<back_pressure::BackPressureArgs>),
    /// The memory-mapped ring between two pinned processes: throughput within a language and
    /// from the other one, echo round trip.
    Ipc(Flags<ipc::IpcArgs>),
    /// The seed's users in a heap HashMap and in the off-heap map file: puts, gets, latency,
    /// memory, reopen, friend-of-friend walks.
    OffheapMap(Flags<offheap_map::OffheapMapArgs>),
    /// The lookup service (serve-map, Rust or Java) under wrk on loopback: hits and misses.
    MapService(Flags<map_service::MapServiceArgs>),
    /// The seed's messaging throughput: price updates encoded, sent between two pinned processes
    /// over the ring and decoded (raw, SBE, struct, hand codec, serde; from Rust and from Java).
    Messaging(Flags<messaging::MessagingArgs>),
    /// The consumer process of `queue`'s p1c1-ipc variant (started by `run queue`).
    #[command(hide = true)]
    QueuePeer(queue::PeerArgs),
    /// The Rust peer process of `ipc` and `messaging` (a producer, an echo or a sender; started
    /// by `run ipc` and `run messaging`).
    #[command(hide = true)]
    IpcPeer(ipc_peer::PeerArgs),
}

/// Runs the chosen experiment (or prints its plan).
pub fn run(args: RunArgs) -> Result<()> {
    let plan = args.plan;
    match args.experiment {
        Command::All(common) => run_all(&common, plan),
        Command::AtomicIncrement(a) => run_one(&a, plan),
        Command::PingPong(a) => run_one(&a, plan),
        Command::MemoryWalk(a) => run_one(&a, plan),
        Command::StructTable(a) => run_one(&a, plan),
        Command::Queue(a) => run_one(&a, plan),
        Command::Serialization(a) => run_one(&a, plan),
        Command::Dispatch(a) => run_one(&a, plan),
        Command::BackPressure(a) => run_one(&a, plan),
        Command::Ipc(a) => run_one(&a, plan),
        Command::OffheapMap(a) => run_one(&a, plan),
        Command::MapService(a) => run_one(&a, plan),
        Command::Messaging(a) => run_one(&a, plan),
        Command::QueuePeer(a) => queue::run_peer(&a),
        Command::IpcPeer(a) => ipc_peer::run_peer(a),
    }
}

/// The experiment of the catalog called `name`, with only the common flags set; `None` for a
/// name the catalog does not have.
pub fn experiment(name: &str, common: &Common) -> Option<Box<dyn Runnable>> {
    fn make<E: Experiment + Args + 'static>(common: &Common) -> Box<dyn Runnable> {
        Box::new(Flags::<E>::with_common(common.clone()))
    }
    Some(match name {
        "atomic-increment" => make::<atomic_increment::AtomicIncrementArgs>(common),
        "ping-pong" => make::<ping_pong::PingPongArgs>(common),
        "memory-walk" => make::<memory_walk::MemoryWalkArgs>(common),
        "struct-table" => make::<struct_table::StructTableArgs>(common),
        "queue" => make::<queue::QueueArgs>(common),
        "serialization" => make::<serialization::SerializationArgs>(common),
        "dispatch" => make::<dispatch::DispatchArgs>(common),
        "back-pressure" => make::<back_pressure::BackPressureArgs>(common),
        "ipc" => make::<ipc::IpcArgs>(common),
        "offheap-map" => make::<offheap_map::OffheapMapArgs>(common),
        "map-service" => make::<map_service::MapServiceArgs>(common),
        "messaging" => make::<messaging::MessagingArgs>(common),
        _ => return None,
    })
}

/// Every experiment of the catalog `sympathy run` runs, in catalog order: measured, or with
/// `plan` their plan lines. One failing experiment does not stop the others; the error lists
/// the failed ones.
fn run_all(common: &Common, plan: bool) -> Result<()> {
    let mut reporter = if plan { None } else { Some(reporter(common)?) };
    let mut failed = Vec::new();
    for name in catalog().names() {
        let Some(experiment) = experiment(name, common) else {
            continue;
        };
        let outcome = match reporter.as_mut() {
            None => experiment.plan().and_then(|lines| print_plan(&lines)),
            Some(reporter) => {
                reporter.line(&format!("== {} ({})", experiment.name(), common.preset()))?;
                experiment.run(reporter)
            }
        };
        if let Err(err) = outcome {
            eprintln!("error: {name}: {err:#}");
            failed.push(name);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_experiment_of_the_catalog_runs_under_its_own_name() {
        for name in catalog().names() {
            let e = experiment(name, &Common::default());
            assert_eq!(e.map(|e| e.name()), Some(name));
        }
    }

    #[test]
    fn every_smoke_plan_line_names_catalog_variants_and_params() {
        let smoke = Common {
            smoke: true,
            ..Common::default()
        };
        let runner = &catalog().common.runner_params;
        for name in catalog().names() {
            let Some(e) = experiment(name, &smoke) else {
                continue;
            };
            let spec = catalog().experiment(name).unwrap();
            // A machine with too few cores for an experiment cannot plan it: nothing to check.
            let Ok(lines) = e.plan() else { continue };
            assert!(!lines.is_empty(), "{name}");
            for line in lines {
                let variant = line["variant"].as_str().unwrap();
                assert!(spec.variant(variant).is_some(), "{name}: {line}");
                for key in line["params"].as_object().unwrap().keys() {
                    assert!(!runner.contains(key), "{name}: runner param {key}");
                    assert!(
                        spec.param(key).is_some(),
                        "{name}: param {key} not in the catalog"
                    );
                }
            }
        }
    }
}
