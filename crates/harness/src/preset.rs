//! Size presets shared by every experiment and both languages: `smoke` checks the plumbing in
//! a second, `quick` finishes in seconds, `default` is a meaningful run, `full` uses the seeds'
//! own sizes. What each preset means for an experiment (its sizes, counts, threads) is that
//! experiment's catalog entry (`experiments/<name>.toml`, see [`crate::catalog`]).

use std::fmt;
use std::str::FromStr;

// The enum itself lives with the catalog's file format (`catalog/spec.rs`, which the build
// script reads too: a variant's `skip_at` names presets); its methods are here.
pub use crate::catalog::Preset;

impl Preset {
    /// Every preset, smallest first.
    pub const ALL: [Preset; 4] = [Preset::Smoke, Preset::Quick, Preset::Default, Preset::Full];

    /// Picks one of three values by preset; `smoke` takes the `quick` value. For sizes that
    /// are not (yet) in the catalog.
    ///
    /// # Examples
    /// ```
    /// use sympathy_harness::Preset;
    /// assert_eq!(Preset::Quick.pick(1, 10, 100), 1);
    /// assert_eq!(Preset::Smoke.pick(1, 10, 100), 1);
    /// assert_eq!(Preset::Full.pick(1, 10, 100), 100);
    /// ```
    pub fn pick<T>(self, quick: T, default: T, full: T) -> T {
        match self {
            Preset::Smoke | Preset::Quick => quick,
            Preset::Default => default,
            Preset::Full => full,
        }
    }

    /// The lower-case name: the flag (`--quick`), the catalog key and the `preset` result
    /// param.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Smoke => "smoke",
            Preset::Quick => "quick",
            Preset::Default => "default",
            Preset::Full => "full",
        }
    }

    /// The preset criterion benches run at: `smoke` under `--test` (the smoke run
    /// `cargo bench -- --test`, or `cargo test --bench '*' -- --test` in `ci/test`), else
    /// `SYMPATHY_BENCH_PRESET` (`quick`, `full`, ...), else `default`.
    pub fn for_bench() -> Preset {
        let smoke = std::env::args().any(|a| a == "--test");
        Preset::for_bench_from(
            smoke,
            std::env::var("SYMPATHY_BENCH_PRESET").ok().as_deref(),
        )
    }

    fn for_bench_from(smoke: bool, var: Option<&str>) -> Preset {
        if smoke {
            return Preset::Smoke;
        }
        var.and_then(|v| v.parse().ok()).unwrap_or_default()
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(text: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == text)
            .ok_or_else(|| {
                format!("unknown preset `{text}`: the presets are smoke, quick, default, full")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_smoke_runs_are_smoke_whatever_the_variable_says() {
        assert_eq!(Preset::for_bench_from(true, Some("full")), Preset::Smoke);
        assert_eq!(Preset::for_bench_from(false, Some("full")), Preset::Full);
        assert_eq!(Preset::for_bench_from(false, None), Preset::Default);
        assert_eq!(Preset::for_bench_from(false, Some("quick")), Preset::Quick);
    }

    #[test]
    fn names_parse_back() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
        }
        assert!(
            "huge"
                .parse::<Preset>()
                .unwrap_err()
                .contains("smoke, quick")
        );
    }
}
