//! The `env` record: what machine, kernel and compiler produced a set of results.

use std::fs;

use serde::Serialize;

/// Facts about the machine a run happened on. The first line of every JSON Lines stream.
#[derive(Debug, Clone, Serialize)]
pub struct Env {
    /// Always `"env"`.
    pub kind: &'static str,
    /// Language of the process that wrote this record (`rust`).
    pub language: &'static str,
    /// CPU model name from `/proc/cpuinfo`.
    pub cpu_model: String,
    /// Logical cores this process may run on (`available_parallelism`).
    pub cores: usize,
    /// Data and unified cache sizes in bytes of CPU 0, e.g. `{"l1d":49152,"l2":2097152}`.
    pub caches: serde_json::Map<String, serde_json::Value>,
    /// Transparent-huge-page mode (`always`, `madvise` or `never`).
    pub thp: String,
    /// Kernel release (`uname -r`).
    pub kernel: String,
    /// Whether the kernel reports running under a hypervisor.
    pub virtualized: bool,
    /// `rustc -V` of the compiler that built this binary.
    pub rustc: &'static str,
    /// The widest vector instructions the compiler could use in this binary ([`vector_isa`]):
    /// beside the JVM's, it says whether the two languages' compilers had the same instruction set.
    pub vector_isa: &'static str,
    /// `sympathy <version>`.
    pub tool: String,
    /// UTC time the record was made, RFC 3339.
    pub timestamp: String,
}

/// The widest x86 vector extension this binary was compiled for (its target features, fixed at
/// build time): `avx512`, `avx2`, `avx` or `sse2` (x86-64's baseline, the default build); the
/// JVM's C2 picks its own at start from the CPU (Java's env record says which).
///
/// ```
/// let isa = sympathy_harness::machine::vector_isa();
/// assert!(["avx512", "avx2", "avx", "sse2", "none"].contains(&isa));
/// ```
pub fn vector_isa() -> &'static str {
    if cfg!(target_feature = "avx512f") {
        "avx512"
    } else if cfg!(target_feature = "avx2") {
        "avx2"
    } else if cfg!(target_feature = "avx") {
        "avx"
    } else if cfg!(target_feature = "sse2") {
        "sse2"
    } else {
        "none"
    }
}

impl Env {
    /// Collects the record for this machine. Fields that cannot be read are `"unknown"`.
    pub fn collect() -> Env {
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find_map(|l| l.strip_prefix("model name"))
            .and_then(|rest| rest.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        let virtualized = cpuinfo
            .lines()
            .any(|l| l.starts_with("flags") && l.split_whitespace().any(|f| f == "hypervisor"));
        Env {
            kind: "env",
            language: "rust",
            cpu_model,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            caches: cache_sizes(),
            thp: thp_mode(),
            kernel: read_trimmed("/proc/sys/kernel/osrelease"),
            virtualized,
            rustc: env!("SYMPATHY_RUSTC_VERSION"),
            vector_isa: vector_isa(),
            tool: format!("sympathy {}", env!("CARGO_PKG_VERSION")),
            timestamp: rfc3339_now(),
        }
    }

    /// The record as one JSON line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("the env record always serialises")
    }

    /// One line for the top of human output.
    pub fn to_human(&self) -> String {
        let caches: Vec<String> = self
            .caches
            .iter()
            .map(|(k, v)| format!("{k} {}", human_bytes(v.as_u64().unwrap_or(0))))
            .collect();
        format!(
            "{} | {} cores{} | {} | THP {} | Linux {} | {}",
            self.cpu_model,
            self.cores,
            if self.virtualized { " (VM)" } else { "" },
            caches.join(", "),
            self.thp,
            self.kernel,
            self.rustc
        )
    }
}

fn read_trimmed(path: &str) -> String {
    fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

/// The selected THP mode is the bracketed word of `always [madvise] never`.
fn thp_mode() -> String {
    let raw = read_trimmed("/sys/kernel/mm/transparent_hugepage/enabled");
    raw.split_whitespace()
        .find_map(|w| w.strip_prefix('[').and_then(|w| w.strip_suffix(']')))
        .map(str::to_string)
        .unwrap_or(raw)
}

fn cache_sizes() -> serde_json::Map<String, serde_json::Value> {
    let mut caches = serde_json::Map::new();
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let (Ok(level), Ok(kind), Ok(size)) = (
            fs::read_to_string(format!("{dir}/level")),
            fs::read_to_string(format!("{dir}/type")),
            fs::read_to_string(format!("{dir}/size")),
        ) else {
            continue;
        };
        let suffix = match kind.trim() {
            "Data" => "d",
            "Instruction" => continue,
            _ => "",
        };
        if let Some(bytes) = parse_cache_size(size.trim()) {
            caches.insert(format!("l{}{suffix}", level.trim()), bytes.into());
        }
    }
    caches
}

/// Parses sysfs cache sizes such as `48K`, `2048K`, `105M`.
fn parse_cache_size(s: &str) -> Option<u64> {
    let (digits, mult) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1024),
        'M' => (&s[..s.len() - 1], 1024 * 1024),
        'G' => (&s[..s.len() - 1], 1024 * 1024 * 1024),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok().map(|d| d * mult)
}

/// `48 KiB`, `2 MiB`, `105 MiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Current UTC time as `YYYY-MM-DDTHH:MM:SSZ`, without a date crate.
fn rfc3339_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
    }

    #[test]
    fn cache_sizes_parse_sysfs_suffixes() {
        assert_eq!(parse_cache_size("48K"), Some(48 * 1024));
        assert_eq!(parse_cache_size("105M"), Some(105 * 1024 * 1024));
        assert_eq!(parse_cache_size("bogus"), None);
    }

    #[test]
    fn env_record_is_one_json_line_of_kind_env() {
        let line = Env::collect().to_json();
        assert!(!line.contains('\n'));
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["kind"], "env");
        assert!(v["cores"].as_u64().unwrap() >= 1);
        assert!(v["rustc"].as_str().unwrap().starts_with("rustc"));
    }

    #[test]
    fn human_bytes_uses_binary_units() {
        assert_eq!(human_bytes(48 * 1024), "48 KiB");
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }
}
