//! The ring across processes and languages: a producer in one process, a consumer in another,
//! on one ring file, over every implementation: rust (`sympathy ring`), and ffm, jni and agrona
//! (`java/sidecar`). Every message is verified by the consumer, and each case checks that the
//! consumer verified as many messages and bytes as the producer says it wrote.
//!
//! - `every_producer_reaches_every_consumer`: the 4x4 matrix, through many wrap-arounds of a 4k
//!   ring (random sizes from the Java producers, one odd size from the Rust one).
//! - `java_batch_writers_reach_rust_and_ffm_consumers`: each Java producer writing runs filled
//!   in place (`--writes batch`).
//! - `the_futex_idle_wait_wakes_across_languages`: a Java consumer, then a Java producer, asleep
//!   in the futex wait, woken by a Rust peer.
//! - `a_consumer_started_after_its_producer_reads_everything`.
//! - `a_producer_killed_mid_stream_is_reported_by_its_consumer`: Java -> Java, Java -> Rust and
//!   Rust -> Java; the consumer fails, saying how many messages it received.
//! - `a_producer_killed_inside_a_claim_is_resumed_by_a_restarted_one`: five combinations.
//!
//! The `#[ignore]`d tests need the Java build (a JDK >= 22 and Maven): ci/java-test runs them with
//! `--ignored`. The Rust side is `$SYMPATHY_BIN` when set (ci/java-test: the release build),
//! else this build's `sympathy`. Every process runs under a deadline; the tests run one at a time.

#[path = "common/processes.rs"]
mod processes;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use processes::{
    Finished, Proc, TempDir, all_cases, one_at_a_time, sidecar, sidecar_built, sympathy,
};

/// Messages per case of the matrix: many wrap-arounds of a 4k ring.
const COUNT: u64 = 20_000;
/// Each process's own limit on waiting for its peer (`--timeout-ms`).
const PEER_TIMEOUT_MS: &str = "30000";
/// The deadline of each process, past which it is killed and its case fails.
const DEADLINE: Duration = Duration::from_secs(120);
/// How long a process may go on after its peer failed, before it is stopped for the report.
const GRACE: Duration = Duration::from_secs(3);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Rust,
    Ffm,
    Jni,
    Agrona,
}

use Side::{Agrona, Ffm, Jni, Rust};

const EVERY_SIDE: [Side; 4] = [Rust, Ffm, Jni, Agrona];

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rust => "rust",
            Ffm => "ffm",
            Jni => "jni",
            Agrona => "agrona",
        })
    }
}

/// A fresh ring file of `capacity` (`4k`, `64k`) in `dir`, made by `java/sidecar create`.
fn ring(dir: &TempDir, capacity: &str) -> Result<PathBuf, String> {
    let path = dir.join("case.ring");
    Proc::spawn(
        "create",
        sidecar(&["create", &s(&path), "--capacity", capacity]),
        dir,
        DEADLINE,
    )
    .wait()?
    .ok()?;
    Ok(path)
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The standard producer of `side`: the Rust one writes 37-byte messages, the Java ones random
/// sizes of 4..500 bytes (seed 11).
fn producer(side: Side, path: &Path, count: u64, extra: &[&str]) -> Command {
    let (path, count) = (s(path), count.to_string());
    let mut cmd = match side {
        Rust => sympathy(&["ring", "produce", &path, "--count", &count, "--size", "37"]),
        java => sidecar(&[
            "produce",
            &path,
            "--count",
            &count,
            "--size",
            "4..500",
            "--seed",
            "11",
            "--impl",
            &java.to_string(),
        ]),
    };
    cmd.args(["--timeout-ms", PEER_TIMEOUT_MS]).args(extra);
    cmd
}

fn consumer(side: Side, path: &Path, count: u64, extra: &[&str]) -> Command {
    let (path, count) = (s(path), count.to_string());
    let mut cmd = match side {
        Rust => sympathy(&["ring", "consume", &path, "--count", &count]),
        java => sidecar(&[
            "consume",
            &path,
            "--count",
            &count,
            "--impl",
            &java.to_string(),
        ]),
    };
    cmd.args(["--timeout-ms", PEER_TIMEOUT_MS]).args(extra);
    cmd
}

/// Waits for `foreground`, then for `background` (started first); both must succeed. A failure
/// says which one failed with its output and what the other one printed.
fn both(background: Proc, foreground: Proc) -> Result<(Finished, Finished), String> {
    let fg = match foreground.wait() {
        Ok(fg) if fg.success() => fg,
        Ok(fg) => {
            let bg = background.stop_within(GRACE);
            return Err(format!(
                "{} failed\n{}{}",
                fg.name,
                fg.report(),
                bg.report()
            ));
        }
        Err(timed_out) => {
            let bg = background.stop_within(GRACE);
            return Err(format!("{timed_out}{}", bg.report()));
        }
    };
    match background.wait() {
        Ok(bg) if bg.success() => Ok((bg, fg)),
        Ok(bg) => Err(format!(
            "{} failed\n{}{}",
            bg.name,
            bg.report(),
            fg.report()
        )),
        Err(timed_out) => Err(format!("{timed_out}{}", fg.report())),
    }
}

/// When the consumer starts: before its producer (it waits for it), or `after` the producer.
#[derive(Clone, Copy)]
enum Start {
    ConsumerFirst,
    ProducerFirst { after: Duration },
}

/// One producer and one consumer of `count` messages on one ring; both must succeed and the
/// consumer must have verified every message and byte the producer wrote.
fn transfer(
    dir: &TempDir,
    producer: Command,
    consumer: Command,
    count: u64,
    start: Start,
) -> Result<String, String> {
    let (produced, consumed) = match start {
        Start::ConsumerFirst => {
            let c = Proc::spawn("consumer", consumer, dir, DEADLINE);
            let p = Proc::spawn("producer", producer, dir, DEADLINE);
            let (c, p) = both(c, p)?;
            (p, c)
        }
        Start::ProducerFirst { after } => {
            let p = Proc::spawn("producer", producer, dir, DEADLINE);
            std::thread::sleep(after);
            let c = Proc::spawn("consumer", consumer, dir, DEADLINE);
            both(p, c)?
        }
    };
    delivered(&produced, &consumed, count)
}

/// `(messages, bytes)` from a summary line starting `prefix`: `produced 20000 messages (740000
/// bytes, ...)`, `consumed and verified 20000 messages (740000 bytes)` (Rust) or `consumed 20000
/// messages (740000 bytes) with java-ffm, every byte verified` (Java).
fn counts(text: &str, prefix: &str) -> Option<(u64, u64)> {
    let line = text.lines().find(|l| l.starts_with(prefix))?;
    let messages = line.split_whitespace().find_map(|w| w.parse().ok())?;
    let bytes = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix('('))?
        .parse()
        .ok()?;
    Some((messages, bytes))
}

/// The consumer verified all `count` messages the producer wrote, every byte of them: its
/// summary line, or what is wrong with the two outputs.
fn delivered(producer: &Finished, consumer: &Finished, count: u64) -> Result<String, String> {
    let (sent, sent_bytes) = counts(&producer.stdout, "produced ").ok_or_else(|| {
        format!(
            "the producer did not say what it produced\n{}",
            producer.report()
        )
    })?;
    if sent != count {
        return Err(format!(
            "the producer wrote {sent} of {count} messages\n{}",
            producer.report()
        ));
    }
    verified(consumer, count, Some(sent_bytes))
}

/// The consumer says it verified `count` messages (and `bytes` bytes, when known).
fn verified(consumer: &Finished, count: u64, bytes: Option<u64>) -> Result<String, String> {
    let line = consumer.last_line();
    let Some((got, got_bytes)) = counts(&consumer.stdout, "consumed ") else {
        return Err(format!(
            "the consumer did not say what it consumed\n{}",
            consumer.report()
        ));
    };
    if !line.contains("verified") {
        return Err(format!(
            "the consumer does not say it verified the messages\n{}",
            consumer.report()
        ));
    }
    if got != count || bytes.is_some_and(|b| b != got_bytes) {
        let wrote = bytes.map_or(String::new(), |b| format!(" ({b} bytes)"));
        return Err(format!(
            "the consumer verified {got} messages ({got_bytes} bytes) of the {count}{wrote} \
             written\n{}",
            consumer.report()
        ));
    }
    Ok(line.to_string())
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn every_producer_reaches_every_consumer() {
    let _one = one_at_a_time();
    sidecar_built();
    let pairs = EVERY_SIDE
        .iter()
        .flat_map(|&p| EVERY_SIDE.map(|c| Pair(p, c)));
    all_cases(pairs, |&Pair(p, c)| {
        let dir = TempDir::new(&format!("matrix-{p}-{c}"));
        let path = ring(&dir, "4k")?;
        transfer(
            &dir,
            producer(p, &path, COUNT, &[]),
            consumer(c, &path, COUNT, &[]),
            COUNT,
            Start::ConsumerFirst,
        )
    });
}

/// A producer and a consumer, for case names: `rust -> ffm`.
struct Pair(Side, Side);

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {}", self.0, self.1)
    }
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn java_batch_writers_reach_rust_and_ffm_consumers() {
    // Each Java implementation's batch path (ffm: writeBatch, jni: the native batch, agrona: a
    // claim per message) through many wrap-arounds of a 4k ring, full most of the time; 37-byte
    // messages leave padding at the wrap.
    let _one = one_at_a_time();
    sidecar_built();
    let pairs = [Ffm, Jni, Agrona]
        .iter()
        .flat_map(|&p| [Rust, Ffm].map(|c| Pair(p, c)));
    all_cases(pairs, |&Pair(p, c)| {
        let dir = TempDir::new(&format!("batch-{p}-{c}"));
        let path = ring(&dir, "4k")?;
        let count = COUNT.to_string();
        let batch = sidecar(&[
            "produce",
            &s(&path),
            "--count",
            &count,
            "--size",
            "37",
            "--impl",
            &p.to_string(),
            "--writes",
            "batch",
            "--batch",
            "7",
            "--timeout-ms",
            PEER_TIMEOUT_MS,
        ]);
        transfer(
            &dir,
            batch,
            consumer(c, &path, COUNT, &[]),
            COUNT,
            Start::ConsumerFirst,
        )
    });
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn the_futex_idle_wait_wakes_across_languages() {
    // The Java FFM consumer sleeps in the futex wait whenever the 4k ring is empty and the Rust
    // producer wakes it; then the Java producer sleeps whenever the ring is full and the Rust
    // consumer wakes it.
    let _one = one_at_a_time();
    sidecar_built();
    let futex = ["--wait", "futex"];
    let cases = [
        "rust -> ffm (consumer --wait futex)",
        "ffm (producer --wait futex) -> rust",
    ];
    all_cases(cases, |&case| {
        let dir = TempDir::new("futex");
        let path = ring(&dir, "4k")?;
        if case.starts_with("rust") {
            transfer(
                &dir,
                producer(Rust, &path, COUNT, &[]),
                consumer(Ffm, &path, COUNT, &futex),
                COUNT,
                Start::ConsumerFirst,
            )
        } else {
            transfer(
                &dir,
                producer(Ffm, &path, COUNT, &futex),
                consumer(Rust, &path, COUNT, &[]),
                COUNT,
                Start::ProducerFirst {
                    after: Duration::ZERO,
                },
            )
        }
    });
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn a_consumer_started_after_its_producer_reads_everything() {
    let _one = one_at_a_time();
    sidecar_built();
    all_cases(
        [Pair(Agrona, Ffm), Pair(Rust, Jni), Pair(Jni, Rust)],
        |&Pair(p, c)| {
            let dir = TempDir::new(&format!("late-{p}-{c}"));
            let path = ring(&dir, "4k")?;
            transfer(
                &dir,
                producer(p, &path, COUNT, &[]),
                consumer(c, &path, COUNT, &[]),
                COUNT,
                Start::ProducerFirst {
                    after: Duration::from_secs(1),
                },
            )
        },
    );
}

/// A process that must fail: its output when it did, else what it printed.
fn failed(done: Finished) -> Result<Finished, String> {
    if done.success() {
        Err(format!(
            "{} should have failed but succeeded\n{}",
            done.name,
            done.report()
        ))
    } else {
        Ok(done)
    }
}

/// `stderr` says `want`, else the failure names it with the output.
fn says(done: &Finished, want: &str) -> Result<(), String> {
    if done.stderr.contains(want) {
        Ok(())
    } else {
        Err(format!(
            "{} did not say `{want}`\n{}",
            done.name,
            done.report()
        ))
    }
}

/// The last non-empty line of `text` (a process's error, after any launcher's notes).
fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> Option<u64> {
    let rest = &text[text.find(prefix)? + prefix.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn a_producer_killed_mid_stream_is_reported_by_its_consumer() {
    let _one = one_at_a_time();
    sidecar_built();
    let cases = [Pair(Ffm, Ffm), Pair(Jni, Rust), Pair(Rust, Ffm)];
    all_cases(cases, |&Pair(p, c)| {
        let dir = TempDir::new(&format!("killed-{p}-{c}"));
        const MILLION: u64 = 1_000_000;
        match (p, c) {
            // A Java producer halts (exits without detaching) after a known count, and the
            // consumer, started first, says so with the count it received.
            (Ffm | Jni, _) => {
                let halt = if p == Ffm { 123_456 } else { 54_321 };
                let path = ring(&dir, "64k")?;
                let consumer =
                    Proc::spawn("consumer", consumer(c, &path, MILLION, &[]), &dir, DEADLINE);
                let halting = sidecar(&[
                    "produce",
                    &s(&path),
                    "--count",
                    &MILLION.to_string(),
                    "--size",
                    "16",
                    "--impl",
                    &p.to_string(),
                    "--halt-after",
                    &halt.to_string(),
                ]);
                let producer = Proc::spawn("halting producer", halting, &dir, DEADLINE).wait();
                let producer = match producer.and_then(failed) {
                    Ok(p) => p,
                    Err(e) => return Err(format!("{e}{}", consumer.stop_within(GRACE).report())),
                };
                let consumer = consumer
                    .wait()
                    .and_then(failed)
                    .map_err(|e| format!("{e}{}", producer.report()))?;
                let want = if c == Rust {
                    format!("the producer is gone after {halt} of {MILLION} messages")
                } else {
                    format!("producer died: received and verified {halt} of {MILLION}")
                };
                says(&consumer, &want)?;
                Ok(format!(
                    "the consumer reported: {}",
                    last_line(&consumer.stderr)
                ))
            }
            // The Rust producer is killed (SIGKILL) while the ring is full; a Java consumer
            // started after it reads what is there and reports the dead producer.
            _ => {
                let path = ring(&dir, "4k")?;
                let mut rust = Proc::spawn(
                    "producer",
                    sympathy(&[
                        "ring",
                        "produce",
                        &s(&path),
                        "--count",
                        &MILLION.to_string(),
                        "--size",
                        "16",
                        "--timeout-ms",
                        PEER_TIMEOUT_MS,
                    ]),
                    &dir,
                    DEADLINE,
                );
                std::thread::sleep(Duration::from_secs(1));
                let killed = rust.kill();
                let consumer =
                    Proc::spawn("consumer", consumer(c, &path, MILLION, &[]), &dir, DEADLINE)
                        .wait()
                        .and_then(failed)
                        .map_err(|e| format!("{e}{}", killed.report()))?;
                let prefix = "producer died: received and verified ";
                match number_after(&consumer.stderr, prefix) {
                    Some(n) if n > 0 && consumer.stderr.contains(&format!("{n} of {MILLION}")) => {
                        Ok(format!(
                            "the consumer reported: {}",
                            last_line(&consumer.stderr)
                        ))
                    }
                    _ => Err(format!(
                        "the consumer did not report the dead producer with some of its \
                         {MILLION} messages received (`{prefix}N of {MILLION}`, N > 0)\n{}",
                        consumer.report()
                    )),
                }
            }
        }
    });
}

/// A producer halted inside a claim, the restarted producer and the consumer: `ffm:jni:rust`.
struct Restart(Side, Side, Side);

impl fmt::Display for Restart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} killed mid-claim, {} restarted -> {}",
            self.0, self.1, self.2
        )
    }
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/java-test runs it"]
fn a_producer_killed_inside_a_claim_is_resumed_by_a_restarted_one() {
    // The first producer halts inside the claim of message 1000 (the FFM ring stores the tail at
    // claim time, so the dead claim lies below the tail; through JNI the Rust producer leaves it
    // at the tail); a restarted producer (--first 1000) must take the ring over and unblock or
    // overwrite the dead claim; the consumer must then verify all 2000 messages in order.
    let _one = one_at_a_time();
    sidecar_built();
    let combos = [
        Restart(Ffm, Ffm, Ffm),
        Restart(Ffm, Ffm, Rust),
        Restart(Jni, Ffm, Ffm),
        Restart(Ffm, Jni, Rust),
        Restart(Agrona, Ffm, Jni),
    ];
    all_cases(combos, |&Restart(first, then, c)| {
        let dir = TempDir::new(&format!("restart-{first}-{then}-{c}"));
        let path = ring(&dir, "256k")?;
        let path_text = s(&path);
        let halting = sidecar(&[
            "produce",
            &path_text,
            "--count",
            "2000",
            "--size",
            "4..40",
            "--seed",
            "3",
            "--impl",
            &first.to_string(),
            "--claim",
            "--halt-in-claim-after",
            "1000",
        ]);
        let halted = Proc::spawn("halting producer", halting, &dir, DEADLINE)
            .wait()
            .and_then(failed)?;
        says(&halted, "halting inside the claim of message 1000")?;
        let restarted = sidecar(&[
            "produce",
            &path_text,
            "--count",
            "1000",
            "--first",
            "1000",
            "--size",
            "4..40",
            "--seed",
            "5",
            "--impl",
            &then.to_string(),
            "--timeout-ms",
            PEER_TIMEOUT_MS,
        ]);
        let restarted = Proc::spawn("restarted producer", restarted, &dir, DEADLINE)
            .wait()?
            .ok()?;
        let consumed = Proc::spawn("consumer", consumer(c, &path, 2000, &[]), &dir, DEADLINE)
            .wait()?
            .ok()
            .map_err(|e| format!("{e}{}", restarted.report()))?;
        verified(&consumed, 2000, None)
    });
}

/// The checks above catch a short delivery: a consumer that verified fewer messages or bytes
/// than the producer wrote, or that does not say it verified them, fails its case. (Runs with
/// every `cargo test`: no Java needed.)
#[test]
fn a_short_or_unverified_delivery_fails_its_case() {
    use std::os::unix::process::ExitStatusExt;
    let done = |name: &str, stdout: &str| Finished {
        name: name.to_string(),
        status: std::process::ExitStatus::from_raw(0),
        stdout: stdout.to_string(),
        stderr: String::new(),
    };
    let rust_producer = done(
        "producer",
        "produced 20000 messages (740000 bytes, sizes 37, type 1)\n",
    );
    let java_producer = done(
        "producer",
        "produced 20000 messages (5030476 bytes, sizes 4..500) with java-agrona\n",
    );
    let rust_all = done(
        "consumer",
        "consumed and verified 20000 messages (740000 bytes)\n",
    );
    let java_all = done(
        "consumer",
        "consumed 20000 messages (5030476 bytes) with java-jni, every byte verified\n",
    );
    assert!(delivered(&rust_producer, &rust_all, COUNT).is_ok());
    assert!(delivered(&java_producer, &java_all, COUNT).is_ok());

    let short = done(
        "consumer",
        "consumed and verified 19999 messages (739963 bytes)\n",
    );
    let err = delivered(&rust_producer, &short, COUNT).unwrap_err();
    assert!(err.contains("verified 19999 messages"), "{err}");
    assert!(err.contains("consumed and verified 19999"), "{err}");
    let fewer_bytes = done(
        "consumer",
        "consumed 20000 messages (5030475 bytes) with java-ffm, every byte verified\n",
    );
    assert!(delivered(&java_producer, &fewer_bytes, COUNT).is_err());
    let unverified = done("consumer", "consumed 20000 messages (5030476 bytes)\n");
    assert!(delivered(&java_producer, &unverified, COUNT).is_err());
    let silent = done("consumer", "");
    assert!(delivered(&rust_producer, &silent, COUNT).is_err());
    let short_producer = done("producer", "produced 19999 messages (739963 bytes)\n");
    assert!(delivered(&short_producer, &short, COUNT).is_err());
    assert!(verified(&short, 2000, None).is_err());
    assert_eq!(
        number_after(
            "producer died: received and verified 1234 of 1000000 messages",
            "verified "
        ),
        Some(1234)
    );
}
