//! `sympathy run <experiment>`: one file per experiment in this folder, each implementing
//! [`Experiment`] for its clap flags. The experiments are found in the catalog, not listed here:
//! the build script (`crates/cli/build.rs`) declares the runner of every `experiments/<name>.toml`
//! (`<name_snake>.rs`, defining `<NameCamel>Args`), its subcommand and [`experiment`], the lookup
//! by catalog name that `run all` walks in catalog order.

mod ipc_peer;
mod peers;

include!(concat!(env!("OUT_DIR"), "/run_experiments.rs"));

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
    #[command(flatten)]
    Experiment(Experiments),
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
        Command::Experiment(e) => run_one(&*e.into_runnable(), plan),
        Command::QueuePeer(a) => queue::run_peer(&a),
        Command::IpcPeer(a) => ipc_peer::run_peer(a),
    }
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
