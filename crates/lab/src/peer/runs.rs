//! How an experiment across processes runs its cases: how many times each, on which two cores,
//! at which preset, with which launcher; and the runner params each of its results carries.

use sympathy_harness::{Measurement, Preset};

use super::PeerLauncher;

/// The plan of a run across processes: each case `runs` times, this process's thread on
/// `cores.0` and the peer on `cores.1` (both pinned), the peers started by `launcher`.
pub struct PeerRuns<'a> {
    /// Runs of each case (the cases alternate run by run).
    pub runs: usize,
    /// This process's thread on the first, the peer on the second.
    pub cores: (usize, usize),
    /// The preset the sizes come from (a runner param of every result).
    pub preset: Preset,
    /// Starts the peers, in the language each case asks for.
    pub launcher: &'a dyn PeerLauncher,
}

impl PeerRuns<'_> {
    /// `measurement` with the runner params of every result of such a run: `cores`, `preset`
    /// and `pinning` (pinned, on both sides).
    pub fn runner_params(&self, measurement: Measurement) -> Measurement {
        measurement
            .param("cores", format!("{},{}", self.cores.0, self.cores.1))
            .param("preset", self.preset.name())
            .param("pinning", "pinned")
    }
}
