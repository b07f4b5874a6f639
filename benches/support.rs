//! Helpers shared by the criterion benches in this folder.
//!
//! Every bench sizes its work with [`bench_scale`]: `cargo bench -- --test` (the smoke run in
//! `ci/test`) runs each benchmark once on quick sizes, `SYMPATHY_BENCH_SCALE=full cargo bench`
//! uses the seeds' sizes, and a plain `cargo bench` uses the default sizes.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

use std::time::Duration;

use criterion::Criterion;
pub use sympathy_lab::Scale;

/// The scale benches run at: `quick` under `--test` (smoke runs) or when
/// `SYMPATHY_BENCH_SCALE=quick`, `full` when `SYMPATHY_BENCH_SCALE=full`, else `default`.
pub fn bench_scale() -> Scale {
    let smoke = std::env::args().any(|a| a == "--test");
    scale_from(smoke, std::env::var("SYMPATHY_BENCH_SCALE").ok().as_deref())
}

fn scale_from(smoke: bool, var: Option<&str>) -> Scale {
    match (smoke, var) {
        (true, _) | (_, Some("quick")) => Scale::Quick,
        (_, Some("full")) => Scale::Full,
        _ => Scale::Default,
    }
}

/// Criterion settings used by every bench: few, longer samples suit multi-threaded
/// `iter_custom` benchmarks whose single iteration already spans many operations.
pub fn criterion_config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoke_runs_are_quick_whatever_the_variable_says() {
        assert_eq!(scale_from(true, Some("full")), Scale::Quick);
        assert_eq!(scale_from(false, Some("full")), Scale::Full);
        assert_eq!(scale_from(false, None), Scale::Default);
        assert_eq!(scale_from(false, Some("quick")), Scale::Quick);
    }
}
