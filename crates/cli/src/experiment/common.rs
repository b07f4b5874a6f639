//! The flags every experiment takes ([`Common`]) and the [`reporter`] a run writes through.

use anyhow::Result;
use clap::Args;
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
    ///
    /// ```ignore
    /// let common = Common { quick: true, ..Common::default() };
    /// assert_eq!(common.preset(), Preset::Quick);
    /// ```
    pub fn preset(&self) -> Preset {
        match (self.smoke, self.quick, self.full) {
            (true, _, _) => Preset::Smoke,
            (_, true, _) => Preset::Quick,
            (_, _, true) => Preset::Full,
            _ => Preset::Default,
        }
    }

    /// `--runs`, or the catalog's `runs` of `experiment` at the preset.
    ///
    /// # Errors
    /// An experiment the catalog lacks.
    pub fn runs(&self, experiment: &str) -> anyhow::Result<usize> {
        match self.runs {
            Some(runs) => Ok(runs as usize),
            None => Ok(super::catalog::spec(experiment)?.runs.at(self.preset()) as usize),
        }
    }

    /// `--runs`, or a tool's own count for the preset (one run at `smoke`): for the commands
    /// that are tools, not catalog experiments (`ring wake`).
    pub fn runs_or(&self, quick: u32, default: u32, full: u32) -> usize {
        self.runs.unwrap_or_else(|| match self.preset() {
            Preset::Smoke => 1,
            preset => preset.pick(quick, default, full),
        }) as usize
    }
}

/// Starts a reporter for `common` and writes the env record.
pub fn reporter(common: &Common) -> Result<Reporter> {
    let mut reporter = Reporter::stdout(common.json);
    reporter.env(&Env::collect())?;
    Ok(reporter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_pick_the_preset_and_smoke_runs_once() {
        let smoke = Common {
            smoke: true,
            ..Common::default()
        };
        assert_eq!(smoke.preset(), Preset::Smoke);
        assert_eq!(smoke.runs_or(3, 5, 10), 1);
        let full = Common {
            full: true,
            runs: Some(2),
            ..Common::default()
        };
        assert_eq!((full.preset(), full.runs_or(3, 5, 10)), (Preset::Full, 2));
        assert_eq!(Common::default().runs_or(3, 5, 10), 5);
    }

    #[test]
    fn an_experiments_runs_come_from_its_catalog_entry_unless_given() {
        let smoke = Common {
            smoke: true,
            ..Common::default()
        };
        assert_eq!(smoke.runs("queue").unwrap(), 1);
        assert_eq!(Common::default().runs("queue").unwrap(), 5);
        let full = Common {
            full: true,
            ..Common::default()
        };
        assert_eq!(
            full.runs("queue").unwrap(),
            10,
            "experiments/queue.toml's runs at full"
        );
        let given = Common {
            full: true,
            runs: Some(2),
            ..Common::default()
        };
        assert_eq!(given.runs("queue").unwrap(), 2);
        let err = Common::default().runs("no-such-experiment").unwrap_err();
        assert!(err.to_string().contains("no-such-experiment"), "{err}");
    }
}
