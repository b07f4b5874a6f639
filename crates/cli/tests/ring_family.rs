//! The many-to-one and broadcast rings across processes and languages, every message verified:
//!
//! - `two_languages_produce_into_one_many_to_one_consumer`: a Rust and a Java producer process
//!   into one consumer process, Rust and then Java; each producer's stream checked in order.
//! - `a_producer_killed_inside_a_claim_is_unblocked_across_languages`: a Java producer halts
//!   inside a claim while a Rust one writes on; the consumer (each language) unblocks the dead
//!   claim after its unblock time and verifies everything both wrote.
//! - `one_transmitter_reaches_receivers_of_both_languages`: a transmitter process (Rust, then
//!   Java) and two receiver processes, one per language, joined before the first message; no
//!   lap allowed, every message verified by both.
//!
//! The `#[ignore]`d tests need the Java build: ci/java-test runs them with `--ignored`.

#[path = "common/processes.rs"]
mod processes;

use std::process::Command;
use std::time::{Duration, Instant};

use processes::{
    Finished, Proc, TempDir, all_cases, one_at_a_time, sidecar, sidecar_built, sympathy,
};

const DEADLINE: Duration = Duration::from_secs(120);
const GRACE: Duration = Duration::from_secs(3);
const PER_PRODUCER: u64 = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Rust,
    Java,
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Lang::Rust => "rust",
            Lang::Java => "java",
        })
    }
}

/// `ring <args>` in `lang`'s command line.
fn ring(lang: Lang, args: &[&str]) -> Command {
    let mut all = vec!["ring"];
    match lang {
        Lang::Rust => {
            all.extend_from_slice(args);
            sympathy(&all)
        }
        // The sidecar's ring commands are top-level verbs.
        Lang::Java => sidecar(args),
    }
}

fn create(dir: &TempDir, kind: &str, capacity: &str) -> Result<String, String> {
    let path = dir.join(&format!("{kind}.ring"));
    let path = path.display().to_string();
    Proc::spawn(
        "create",
        ring(
            Lang::Rust,
            &["create", &path, "--capacity", capacity, "--kind", kind],
        ),
        dir,
        DEADLINE,
    )
    .wait()?
    .ok()?;
    Ok(path)
}

/// Waits for every process in `procs` to exit successfully; on a failure, stops the others and
/// reports what each printed.
fn all_ok(procs: Vec<Proc>) -> Result<Vec<Finished>, String> {
    let mut done = Vec::new();
    let mut procs = procs.into_iter();
    while let Some(p) = procs.next() {
        match p.wait().and_then(Finished::ok) {
            Ok(f) => done.push(f),
            Err(why) => {
                let rest: String = procs.map(|p| p.stop_within(GRACE).report()).collect();
                return Err(format!("{why}{rest}"));
            }
        }
    }
    Ok(done)
}

fn says(done: &Finished, want: &str) -> Result<(), String> {
    if done.stdout.lines().any(|l| l.trim() == want) {
        Ok(())
    } else {
        Err(format!(
            "{} did not say `{want}`\n{}",
            done.name,
            done.report()
        ))
    }
}

#[test]
#[ignore = "needs the Java build (ci/java-test)"]
fn two_languages_produce_into_one_many_to_one_consumer() {
    let _one = one_at_a_time();
    sidecar_built();
    all_cases([Lang::Rust, Lang::Java], |&consumer_lang| {
        let dir = TempDir::new(&format!("mpsc-mixed-{consumer_lang}"));
        let path = create(&dir, "mpsc", "64k")?;
        let count = PER_PRODUCER.to_string();
        let total = (2 * PER_PRODUCER).to_string();
        let consumer = Proc::spawn(
            "consumer",
            ring(
                consumer_lang,
                &["consume", &path, "--count", &total, "--producers", "2"],
            ),
            &dir,
            DEADLINE,
        );
        let rust = Proc::spawn(
            "rust producer",
            ring(
                Lang::Rust,
                &[
                    "produce", &path, "--count", &count, "--size", "4..100", "--type", "1",
                ],
            ),
            &dir,
            DEADLINE,
        );
        let java = Proc::spawn(
            "java producer",
            ring(
                Lang::Java,
                &[
                    "produce", &path, "--count", &count, "--size", "8..64", "--type", "2",
                ],
            ),
            &dir,
            DEADLINE,
        );
        let done = all_ok(vec![consumer, rust, java])?;
        says(
            &done[0],
            &format!("per producer: type 1 = {PER_PRODUCER}, type 2 = {PER_PRODUCER}"),
        )?;
        let verified = done[0]
            .stdout
            .lines()
            .find(|l| l.starts_with("consumed and verified"))
            .ok_or_else(|| done[0].report())?;
        if !verified.starts_with(&format!("consumed and verified {total} messages")) {
            return Err(done[0].report());
        }
        Ok(verified.to_string())
    });
}

#[test]
#[ignore = "needs the Java build (ci/java-test)"]
fn a_producer_killed_inside_a_claim_is_unblocked_across_languages() {
    let _one = one_at_a_time();
    sidecar_built();
    const HALT_AT: u64 = 3_000;
    all_cases([Lang::Rust, Lang::Java], |&consumer_lang| {
        let dir = TempDir::new(&format!("mpsc-halt-{consumer_lang}"));
        let path = create(&dir, "mpsc", "64k")?;
        let count = PER_PRODUCER.to_string();
        let total = (PER_PRODUCER + HALT_AT).to_string();
        let consumer = Proc::spawn(
            "consumer",
            ring(
                consumer_lang,
                &[
                    "consume",
                    &path,
                    "--count",
                    &total,
                    "--producers",
                    "2",
                    "--unblock-after-ms",
                    "300",
                ],
            ),
            &dir,
            DEADLINE,
        );
        // Halts (as a kill would) holding the claim of its message HALT_AT.
        let halting = Proc::spawn(
            "halting java producer",
            ring(
                Lang::Java,
                &[
                    "produce",
                    &path,
                    "--count",
                    &count,
                    "--size",
                    "8..64",
                    "--type",
                    "2",
                    "--claim",
                    "--halt-in-claim-after",
                    &HALT_AT.to_string(),
                ],
            ),
            &dir,
            DEADLINE,
        );
        let halted = halting.wait()?;
        if halted.success() || !halted.stderr.contains("halting inside the claim") {
            return Err(format!(
                "the Java producer did not halt in a claim\n{}",
                halted.report()
            ));
        }
        // Started once the Java producer is dead: every Rust message lies behind its claim.
        let rust = Proc::spawn(
            "rust producer",
            ring(
                Lang::Rust,
                &[
                    "produce", &path, "--count", &count, "--size", "4..100", "--type", "1",
                ],
            ),
            &dir,
            DEADLINE,
        );
        let done = all_ok(vec![consumer, rust])?;
        says(
            &done[0],
            &format!("per producer: type 1 = {PER_PRODUCER}, type 2 = {HALT_AT}"),
        )?;
        says(&done[0], "unblocked 1 stalled claims")?;
        Ok(done[0].stdout.lines().next().unwrap_or("").to_string())
    });
}

/// Waits until `proc` has printed a line starting `prefix`.
fn wait_for_line(proc: &Proc, prefix: &str) -> Result<(), String> {
    let start = Instant::now();
    while !proc.stdout_so_far().lines().any(|l| l.starts_with(prefix)) {
        if start.elapsed() > Duration::from_secs(60) {
            return Err(format!(
                "no `{prefix}` line after 60 s: {}",
                proc.stderr_so_far()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(())
}

#[test]
#[ignore = "needs the Java build (ci/java-test)"]
fn one_transmitter_reaches_receivers_of_both_languages() {
    let _one = one_at_a_time();
    sidecar_built();
    const COUNT: u64 = 200_000;
    all_cases([Lang::Rust, Lang::Java], |&transmitter_lang| {
        let dir = TempDir::new(&format!("broadcast-{transmitter_lang}"));
        // 16 MiB holds the whole stream (200k messages of at most 72 bytes): no lap can happen,
        // so both receivers must get every message (--no-laps makes a lap a failure).
        let path = create(&dir, "broadcast", "16m")?;
        let count = COUNT.to_string();
        let receivers: Vec<Proc> = [Lang::Rust, Lang::Java]
            .into_iter()
            .map(|lang| {
                Proc::spawn(
                    &format!("{lang} receiver"),
                    ring(lang, &["consume", &path, "--count", &count, "--no-laps"]),
                    &dir,
                    DEADLINE,
                )
            })
            .collect();
        for r in &receivers {
            wait_for_line(r, "receiving from")?;
        }
        let transmitter = Proc::spawn(
            "transmitter",
            ring(
                transmitter_lang,
                &["produce", &path, "--count", &count, "--size", "4..64"],
            ),
            &dir,
            DEADLINE,
        );
        let mut procs = vec![transmitter];
        procs.extend(receivers);
        let done = all_ok(procs)?;
        let bytes = done[0]
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("produced {COUNT} messages (")))
            .and_then(|rest| rest.split_whitespace().next())
            .ok_or_else(|| done[0].report())?
            .to_string();
        for receiver in &done[1..] {
            says(
                receiver,
                &format!(
                    "received and verified {COUNT} messages ({bytes} bytes), lapped 0 times, 0 \
                     messages lost to laps"
                ),
            )?;
        }
        Ok(format!(
            "{COUNT} messages ({bytes} bytes) to both receivers"
        ))
    });
}
