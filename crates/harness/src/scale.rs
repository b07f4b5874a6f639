//! Size presets shared by every experiment: `--quick` finishes in seconds, the default is a
//! meaningful run, `--full` uses the seeds' own sizes.

/// How big a run should be. Experiments map this to their own counts and sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Seconds per experiment: for smoke tests and a first look.
    Quick,
    /// Large enough for stable figures, small enough for a laptop.
    #[default]
    Default,
    /// The sizes the seed articles used (a 2 GiB walk, 50M trades, ...).
    Full,
}

impl Scale {
    /// Picks one of three values by scale.
    ///
    /// # Examples
    /// ```
    /// use sympathy_harness::Scale;
    /// assert_eq!(Scale::Quick.pick(1, 10, 100), 1);
    /// assert_eq!(Scale::Full.pick(1, 10, 100), 100);
    /// ```
    pub fn pick<T>(self, quick: T, default: T, full: T) -> T {
        match self {
            Scale::Quick => quick,
            Scale::Default => default,
            Scale::Full => full,
        }
    }

    /// The scale criterion benches run at: `quick` under `--test` (the smoke run
    /// `cargo bench -- --test` in `ci/test`) or when `SYMPATHY_BENCH_SCALE=quick`, `full` when
    /// `SYMPATHY_BENCH_SCALE=full`, else `default`.
    pub fn for_bench() -> Scale {
        let smoke = std::env::args().any(|a| a == "--test");
        Scale::for_bench_from(smoke, std::env::var("SYMPATHY_BENCH_SCALE").ok().as_deref())
    }

    fn for_bench_from(smoke: bool, var: Option<&str>) -> Scale {
        match (smoke, var) {
            (true, _) | (_, Some("quick")) => Scale::Quick,
            (_, Some("full")) => Scale::Full,
            _ => Scale::Default,
        }
    }

    /// Lower-case name, as used in result params.
    pub fn name(self) -> &'static str {
        self.pick("quick", "default", "full")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_smoke_runs_are_quick_whatever_the_variable_says() {
        assert_eq!(Scale::for_bench_from(true, Some("full")), Scale::Quick);
        assert_eq!(Scale::for_bench_from(false, Some("full")), Scale::Full);
        assert_eq!(Scale::for_bench_from(false, None), Scale::Default);
        assert_eq!(Scale::for_bench_from(false, Some("quick")), Scale::Quick);
    }
}
