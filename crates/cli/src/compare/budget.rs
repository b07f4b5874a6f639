//! `compare --budget`: how long the runs may take. The base rounds always run; extra rounds of
//! an experiment with undecided rows, and re-takes of a hop-dependent round whose hop drifted,
//! run only while their estimated time fits what is left once the base runs still to come
//! have their expected time set aside.

use std::cell::Cell;
use std::time::{Duration, Instant};

use sympathy_harness::Preset;

/// The default budget of a preset: 5 minutes at quick, none at smoke (its runs check the
/// plumbing: no extra rounds), no limit at the default and full presets.
pub fn default_budget(preset: Preset) -> Option<Duration> {
    match preset {
        Preset::Smoke => Some(Duration::ZERO),
        Preset::Quick => Some(Duration::from_secs(300)),
        Preset::Default | Preset::Full => None,
    }
}

/// `--budget`: `5m`, `300s`, `300`, `1h`, `1m30s`.
///
/// # Errors
/// A message saying what a duration looks like.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let bad = || format!("`{text}` is not a duration (e.g. --budget 5m, 300s, 1h30m)");
    let text = text.trim();
    if text.is_empty() {
        return Err(bad());
    }
    if let Ok(seconds) = text.parse::<u64>() {
        return Ok(Duration::from_secs(seconds));
    }
    let mut total = 0u64;
    let mut digits = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return Err(bad()),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(bad)?;
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(bad());
    }
    Ok(Duration::from_secs(total))
}

/// The time the runs may take, counted from the first run's start (the Java build before it
/// is not counted).
#[derive(Debug)]
pub struct Budget {
    limit: Option<Duration>,
    started: Cell<Option<Instant>>,
    /// Time set aside for work that must run whatever the budget (the base runs still to
    /// come): what [`Budget::fits`] does not hand out.
    reserved: Cell<Duration>,
}

impl Budget {
    /// A budget of `limit` (`None`: no limit).
    pub fn new(limit: Option<Duration>) -> Budget {
        Budget {
            limit,
            started: Cell::new(None),
            reserved: Cell::new(Duration::ZERO),
        }
    }

    /// Starts the clock (once: later calls do nothing).
    pub fn start(&self) {
        if self.started.get().is_none() {
            self.started.set(Some(Instant::now()));
        }
    }

    /// Time since [`Budget::start`].
    pub fn spent(&self) -> Duration {
        self.started.get().map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// What is left (`None`: no limit).
    pub fn left(&self) -> Option<Duration> {
        self.limit.map(|l| l.saturating_sub(self.spent()))
    }

    /// Sets aside `time` for work that runs whatever the budget (the base rounds' runs still to
    /// come), replacing what was set aside before: [`Budget::fits`] leaves it out.
    pub fn reserve(&self, time: Duration) {
        self.reserved.set(time);
    }

    /// Whether something expected to take `cost` fits what is left beside what is reserved.
    pub fn fits(&self, cost: Duration) -> bool {
        self.left()
            .is_none_or(|left| cost + self.reserved.get() <= left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let s = Duration::from_secs;
        assert_eq!(parse_duration("5m"), Ok(s(300)));
        assert_eq!(parse_duration("300s"), Ok(s(300)));
        assert_eq!(parse_duration("300"), Ok(s(300)));
        assert_eq!(parse_duration("1h30m"), Ok(s(5400)));
        assert_eq!(parse_duration("1m30s"), Ok(s(90)));
        assert_eq!(parse_duration("0"), Ok(s(0)));
        for bad in ["", "m", "5x", "5m3", "fast", "-5m"] {
            let err = parse_duration(bad).unwrap_err();
            assert!(err.contains("not a duration"), "{bad}: {err}");
        }
    }

    #[test]
    fn quick_has_five_minutes_smoke_none_and_full_no_limit() {
        assert_eq!(
            default_budget(Preset::Quick),
            Some(Duration::from_secs(300))
        );
        assert_eq!(default_budget(Preset::Smoke), Some(Duration::ZERO));
        assert_eq!(default_budget(Preset::Full), None);
    }

    #[test]
    fn a_zero_budget_fits_nothing_and_no_limit_fits_everything() {
        let none = Budget::new(Some(Duration::ZERO));
        none.start();
        assert!(!none.fits(Duration::from_millis(1)));
        let unlimited = Budget::new(None);
        assert!(unlimited.fits(Duration::from_secs(86_400)));
        assert_eq!(unlimited.left(), None);
        let hour = Budget::new(Some(Duration::from_secs(3600)));
        assert!(hour.fits(Duration::from_secs(60)));
        assert!(!hour.fits(Duration::from_secs(7200)));
    }

    #[test]
    fn what_is_reserved_for_the_base_runs_is_not_handed_out() {
        let budget = Budget::new(Some(Duration::from_secs(300)));
        budget.start();
        assert!(budget.fits(Duration::from_secs(60)));
        budget.reserve(Duration::from_secs(270));
        assert!(
            !budget.fits(Duration::from_secs(60)),
            "60 s + 270 s reserved > 300 s"
        );
        assert!(budget.fits(Duration::from_secs(20)));
        budget.reserve(Duration::ZERO);
        assert!(budget.fits(Duration::from_secs(60)));
        let unlimited = Budget::new(None);
        unlimited.reserve(Duration::from_secs(86_400));
        assert!(unlimited.fits(Duration::from_secs(86_400)));
    }
}
