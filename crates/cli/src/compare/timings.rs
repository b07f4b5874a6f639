//! The measured wall time of each run on this machine, kept between comparisons in
//! `$XDG_CACHE_HOME/sympathy/timings.json` (else `~/.cache/sympathy/timings.json`), keyed by the
//! machine (CPU model and cores) and by `<experiment>/<language>/<preset>`. A run's estimate is
//! the measured time when there is one, else the catalog's `estimate_s`. The file is a cache: a
//! file that cannot be read or written is a warning, never an error.
//!
//! ```text
//! {"Intel(R) Xeon(R) Processor x2":{"ping-pong/rust/quick":6.8,"ping-pong/java/quick":4.1}}
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Map, Value};
use sympathy_harness::Preset;

use super::runners::Job;

/// The measured times of this machine's runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Timings {
    /// Every machine's times, as read (others' are written back untouched).
    all: Map<String, Value>,
    /// This machine's key.
    machine: String,
}

/// `<cpu model> x<cores>`: the machine a time was measured on.
pub fn machine_key(cpu_model: &str, cores: usize) -> String {
    format!("{cpu_model} x{cores}")
}

/// The cache file: `$XDG_CACHE_HOME/sympathy/timings.json`, else
/// `$HOME/.cache/sympathy/timings.json` (`None` without either).
pub fn default_path() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let cache = var("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))?;
    Some(cache.join("sympathy/timings.json"))
}

fn key(job: &Job, preset: Preset) -> String {
    format!("{}/{}/{}", job.experiment, job.label(), preset.name())
}

impl Timings {
    /// The times in `path` for `machine`; empty (with a warning) when the file is missing or
    /// unreadable.
    pub fn load(path: Option<&Path>, machine: &str) -> (Timings, Option<String>) {
        let mut timings = Timings {
            all: Map::new(),
            machine: machine.to_string(),
        };
        let Some(path) = path else {
            return (timings, None);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (timings, None),
            Err(e) => return (timings, Some(format!("{}: {e}", path.display()))),
        };
        match serde_json::from_str(&text) {
            Ok(Value::Object(all)) => {
                timings.all = all;
                (timings, None)
            }
            _ => (
                timings,
                Some(format!(
                    "{}: not a JSON object of timings; ignored",
                    path.display()
                )),
            ),
        }
    }

    /// The measured time of `job` at `preset` on this machine.
    pub fn get(&self, job: &Job, preset: Preset) -> Option<Duration> {
        let seconds = self
            .all
            .get(&self.machine)?
            .get(key(job, preset))?
            .as_f64()?;
        (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
    }

    /// Sets each job's estimate to its measured time where there is one (the catalog's
    /// estimate stays otherwise, and stays the deadline's floor).
    pub fn apply(&self, jobs: &mut [Job], preset: Preset) {
        for job in jobs {
            if let Some(measured) = self.get(job, preset) {
                job.estimate = measured;
            }
        }
    }

    /// Records `walls` (each job's measured wall times in this comparison; their mean is
    /// kept).
    pub fn record<'a>(
        &mut self,
        walls: impl IntoIterator<Item = (&'a Job, Duration)>,
        preset: Preset,
    ) {
        let mut sums: BTreeMap<String, (f64, u32)> = BTreeMap::new();
        for (job, wall) in walls {
            let entry = sums.entry(key(job, preset)).or_default();
            entry.0 += wall.as_secs_f64();
            entry.1 += 1;
        }
        let mine = self
            .all
            .entry(self.machine.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !mine.is_object() {
            *mine = Value::Object(Map::new());
        }
        let Value::Object(mine) = mine else {
            unreachable!("just made an object")
        };
        for (key, (sum, n)) in sums {
            let mean = (sum / f64::from(n) * 10.0).round() / 10.0;
            mine.insert(key, mean.into());
        }
    }

    /// Writes the times to `path` (creating its folder).
    ///
    /// # Errors
    /// Why it could not be written (a warning for the caller to print).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = Value::Object(self.all.clone()).to_string();
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::runners::all_jobs;

    #[test]
    fn measured_times_replace_the_catalogs_on_the_same_machine_only() {
        let dir = std::env::temp_dir().join(format!("sympathy-timings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("cache/sympathy/timings.json");
        let jobs: Vec<Job> = all_jobs(Preset::Quick, &["ping-pong".to_string()]);
        assert_eq!(jobs.len(), 2);

        let (mut timings, warning) = Timings::load(Some(&path), "cpu x2");
        assert_eq!(warning, None, "a missing file is no warning");
        let ms = Duration::from_millis;
        timings.record(
            [
                (&jobs[0], ms(2000)),
                (&jobs[0], ms(3000)),
                (&jobs[1], ms(9000)),
            ],
            Preset::Quick,
        );
        timings.save(&path).unwrap();

        let (again, _) = Timings::load(Some(&path), "cpu x2");
        let mut estimated = jobs.clone();
        again.apply(&mut estimated, Preset::Quick);
        assert_eq!(estimated[0].estimate, ms(2500), "the mean of the runs");
        assert_eq!(estimated[1].estimate, ms(9000));
        assert_eq!(
            estimated[0].catalog_estimate, jobs[0].catalog_estimate,
            "the catalog's estimate is kept for the deadline"
        );
        assert_eq!(again.get(&jobs[0], Preset::Full), None, "another preset");

        let (other, _) = Timings::load(Some(&path), "cpu x16");
        let mut estimated = jobs.clone();
        other.apply(&mut estimated, Preset::Quick);
        assert_eq!(
            estimated, jobs,
            "another machine keeps the catalog's estimates"
        );

        std::fs::write(&path, "not json").unwrap();
        let (broken, warning) = Timings::load(Some(&path), "cpu x2");
        assert!(warning.unwrap().contains("ignored"));
        assert_eq!(broken.get(&jobs[0], Preset::Quick), None);
        let unwritable = broken.save(Path::new("/proc/sympathy/timings.json"));
        assert!(unwritable.is_err(), "an error to print as a warning");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
