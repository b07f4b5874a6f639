//! What every experiment of `sympathy run` shares: the [`Experiment`] trait, the flags every
//! experiment takes ([`Common`]), the [`Case`]s a run measures and `--plan` lists, the catalog
//! lookups, and the `--cores` flag.
//!
//! An experiment is its own clap flags struct implementing [`Experiment`], run as
//! [`Flags`] (those flags beside [`Common`]): `cases` turns the catalog
//! (`experiments/<name>.toml`) at the chosen preset and the flags' overrides into the list of
//! cases, `measure` measures them. The same `cases` feeds both the run and `--plan`,
//! so a plan line says exactly which params the results will carry. To add an experiment, add
//! its catalog entry, implement [`Experiment`] for its flags, and name it in
//! `run::experiment` (the registry `run all` walks, in catalog order).
//!
//! ```ignore
//! impl Experiment for DispatchArgs {
//!     type Work = Variant;
//!     const NAME: &'static str = "dispatch";
//!     fn cases(&self, common: &Common) -> Result<Vec<Case<Variant>>> { ... }
//!     fn measure(&self, common: &Common, cases: &[Case<Variant>], reporter: &mut Reporter)
//!         -> Result<()> { ... }
//! }
//! ```

mod case;
pub mod catalog;
mod common;
pub mod cores;

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use sympathy_harness::Reporter;

pub use case::Case;
pub use common::{Common, reporter};

/// One experiment of `sympathy run`, implemented by its own flags struct (its `Default` is
/// what `run all` runs).
pub trait Experiment: Default {
    /// What measuring one case needs besides its params (a variant, a size, ...).
    type Work;
    /// The experiment's name: its catalog file, `sympathy run <name>` and results.
    const NAME: &'static str;

    /// Every case the run will measure, in order: the catalog's values at the preset of
    /// `common`, with the flags' overrides. Bad flags are errors here, before anything is
    /// measured.
    fn cases(&self, common: &Common) -> Result<Vec<Case<Self::Work>>>;

    /// Measures `cases` (from [`Experiment::cases`]) and reports one result group per case.
    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Self::Work>],
        reporter: &mut Reporter,
    ) -> Result<()>;
}

/// The flags of `sympathy run <experiment>`: those every experiment takes and its own.
#[derive(Args, Debug, Clone, Default)]
pub struct Flags<E: Args> {
    /// The flags every experiment takes.
    #[command(flatten)]
    pub common: Common,
    /// The experiment's own flags.
    #[command(flatten)]
    pub experiment: E,
}

impl<E: Args + Experiment> Flags<E> {
    /// The flags of `run all`: `common`, the experiment's own flags at their defaults.
    pub fn with_common(common: Common) -> Flags<E> {
        Flags {
            common,
            experiment: E::default(),
        }
    }
}

/// An [`Experiment`] with its work type erased, so that `run all` can hold any of them.
pub trait Runnable {
    /// The experiment's name.
    fn name(&self) -> &'static str;
    /// The flags every experiment takes.
    fn common(&self) -> &Common;
    /// The plan lines of the run, one per case.
    fn plan(&self) -> Result<Vec<serde_json::Value>>;
    /// Lists the cases and measures them.
    fn run(&self, reporter: &mut Reporter) -> Result<()>;
}

impl<E: Args + Experiment> Runnable for Flags<E> {
    fn name(&self) -> &'static str {
        E::NAME
    }

    fn common(&self) -> &Common {
        &self.common
    }

    fn plan(&self) -> Result<Vec<serde_json::Value>> {
        Ok(self
            .experiment
            .cases(&self.common)?
            .iter()
            .map(|case| case.plan_line(E::NAME))
            .collect())
    }

    fn run(&self, reporter: &mut Reporter) -> Result<()> {
        let cases = self.experiment.cases(&self.common)?;
        self.experiment.measure(&self.common, &cases, reporter)
    }
}

/// Runs one experiment, or with `plan` prints its plan lines to stdout instead.
pub fn run_one(experiment: &dyn Runnable, plan: bool) -> Result<()> {
    if plan {
        print_plan(&experiment.plan()?)
    } else {
        experiment.run(&mut reporter(experiment.common())?)
    }
}

/// Writes plan lines to stdout, one JSON object a line.
pub fn print_plan(lines: &[serde_json::Value]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The first core this process may use: where the single-threaded experiments pin their
/// kernel.
pub fn first_core() -> Result<usize> {
    sympathy_harness::pin::available_cores()
        .first()
        .copied()
        .context("no core is available to this process")
}
