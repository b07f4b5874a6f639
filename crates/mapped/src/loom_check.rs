//! The loom harness the ring's and the map's model checks share (built only with
//! `RUSTFLAGS="--cfg loom"`): one bound policy and one report line for every model.
//!
//! The preemption bound is `LOOM_MAX_PREEMPTIONS` when set (loom reads it), else 2; with
//! `LOOM_UNBOUNDED` set, none (every interleaving: slow, for a model that must be exhaustive).

/// Runs `f` under loom with the bound above and prints how many interleavings (executions) it
/// explored and how long that took.
pub fn model(name: &str, f: impl Fn() + Sync + Send + 'static) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let mut builder = loom::model::Builder::new();
    if std::env::var_os("LOOM_UNBOUNDED").is_some() {
        builder.preemption_bound = None;
    } else if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(2);
    }
    let bound = builder.preemption_bound;
    // A std (not loom) counter: it counts executions, it is not part of the model.
    let executions = Arc::new(AtomicU64::new(0));
    let counter = executions.clone();
    let started = std::time::Instant::now();
    builder.check(move || {
        counter.fetch_add(1, Ordering::Relaxed);
        f();
    });
    eprintln!(
        "loom model {name}: {} interleavings explored (preemption bound {bound:?}) in {:.1?}",
        executions.load(Ordering::Relaxed),
        started.elapsed()
    );
}
