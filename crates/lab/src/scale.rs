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
    /// use sympathy_lab::Scale;
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

    /// Lower-case name, as used in result params.
    pub fn name(self) -> &'static str {
        self.pick("quick", "default", "full")
    }
}
