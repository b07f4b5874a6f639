//! The docs' copyable examples, run together as a program depending on the libraries would run
//! them: a Rust producer in one process, a Java consumer in another (the JDK's source launcher
//! against the jars), or the reverse, on a ring file in a temp folder. COUNT messages
//! (`$SYMPATHY_EXAMPLES_COUNT`, default 100000) are more than the 64 KiB ring holds, so each
//! producer waits for its consumer. What both print is checked.
//!
//! - `ring_example_rust_producer_to_java_consumer`: "Use the ring from your program" of
//!   docs/ring.md (crates/ring/examples/producer.rs, java/examples/RingConsumerExample.java).
//! - `sbe_examples_rust_producer_to_java_consumer` and `sbe_examples_java_producer_to_rust_consumer`:
//!   the SBE price updates of docs/messaging.md (examples/rust's price_producer and
//!   price_consumer, examples/java's PriceConsumer.java and PriceProducer.java), encoded and
//!   decoded in place.
//!
//! They need what ci/ring-examples and ci/sbe-examples build first (the jars, the Rust examples in
//! this build's target folder, the messages jar's run-time classpath in
//! java/messages/target/runtime-classpath.txt) and a JDK >= 22: those scripts run them with
//! `--ignored`.

#[path = "common/processes.rs"]
mod processes;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use processes::{Finished, Proc, TempDir, one_at_a_time, root, sympathy};

/// The deadline of each process (a consumer also waits up to 30 s for its producer's file).
const DEADLINE: Duration = Duration::from_secs(120);

/// Messages per example: `$SYMPATHY_EXAMPLES_COUNT`, default 100000.
fn count() -> u64 {
    std::env::var("SYMPATHY_EXAMPLES_COUNT").map_or(100_000, |n| {
        n.parse()
            .unwrap_or_else(|_| panic!("SYMPATHY_EXAMPLES_COUNT={n} is not a count"))
    })
}

/// `path` under the repository root, which must have been built by `by`.
fn built(path: &str, by: &str) -> PathBuf {
    let file = root().join(path);
    assert!(file.exists(), "{path} is not built: {by} builds it");
    file
}

/// A Rust example binary of this build's target folder (the folder of the `sympathy` binary
/// these tests were built with): `examples/producer`, `price_producer`.
fn rust_example(name: &str, by: &str) -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_sympathy"))
        .parent()
        .expect("the target folder")
        .join(name);
    assert!(
        bin.exists(),
        "{} is not built: {by} builds it",
        bin.display()
    );
    bin
}

/// The JDK's `java`: `$JAVA_HOME/bin/java`, else the one ci/find-jdk finds.
fn java() -> PathBuf {
    let home = match std::env::var_os("JAVA_HOME") {
        Some(home) if !home.is_empty() => PathBuf::from(home),
        _ => {
            let out = Command::new(root().join("ci/find-jdk"))
                .output()
                .expect("ci/find-jdk runs");
            assert!(
                out.status.success(),
                "no JDK >= 22: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
        }
    };
    home.join("bin/java")
}

/// `java [flags] -cp CLASSPATH SOURCE ARGS`, the JDK's source launcher, from the repository root.
fn java_example(flags: &[&str], classpath: &[PathBuf], source: &str, args: &[&str]) -> Command {
    let classpath = std::env::join_paths(classpath).expect("a classpath");
    let mut cmd = Command::new(java());
    cmd.arg("--enable-native-access=ALL-UNNAMED")
        .args(flags)
        .arg("-cp")
        .arg(classpath)
        .arg(source)
        .args(args)
        .current_dir(root());
    cmd
}

/// Starts `producer`, then runs `consumer` (which waits for the producer's file); both must
/// succeed. The consumer's output is printed, as a user would see it.
fn run_pair(dir: &TempDir, producer: Command, consumer: Command) -> (Finished, Finished) {
    let producer = Proc::spawn("producer", producer, dir, DEADLINE);
    let consumed = Proc::spawn("consumer", consumer, dir, DEADLINE).wait();
    let consumed = match consumed.and_then(Finished::ok) {
        Ok(c) => c,
        Err(e) => panic!(
            "{e}{}",
            producer.stop_within(Duration::from_secs(3)).report()
        ),
    };
    print!("{}", consumed.stdout);
    let produced = producer
        .wait()
        .and_then(Finished::ok)
        .unwrap_or_else(|e| panic!("{e}{}", consumed.report()));
    (produced, consumed)
}

/// `done` printed `line` as a whole line of its stdout.
fn printed(done: &Finished, line: &str, what: &str) {
    assert!(
        done.stdout.lines().any(|l| l == line),
        "{what}: the {} did not print `{line}`\n{}",
        done.name,
        done.report()
    );
}

#[test]
#[ignore = "needs the Java build and the Rust example: ci/ring-examples builds them and runs it"]
fn ring_example_rust_producer_to_java_consumer() {
    let _one = one_at_a_time();
    let by = "ci/ring-examples";
    let classpath = [
        built("java/ring/target/sympathy-ring-0.1.0.jar", by),
        // The ring's one dependency: sympathy-mapped (process liveness, block reservation).
        built("java/mapped/target/sympathy-mapped-0.1.0.jar", by),
    ];
    let producer = rust_example("examples/producer", by);
    let (count, dir) = (count(), TempDir::new("ring-example"));
    let ring = dir.join("demo.ring").to_string_lossy().into_owned();
    let n = count.to_string();
    let mut rust = Command::new(producer);
    rust.args([&ring, &n]);
    let java = java_example(
        &[],
        &classpath,
        "java/examples/RingConsumerExample.java",
        &[&ring, &n],
    );
    let (produced, consumed) = run_pair(&dir, rust, java);
    let what = "Rust producer -> Java consumer";
    printed(&consumed, "type 1: message 0", what);
    printed(
        &consumed,
        &format!("received {count} messages, the last: message {}", count - 1),
        what,
    );
    printed(&produced, &format!("sent {count} messages to {ring}"), what);
}

/// The SBE examples' jars and run-time dependencies (Agrona, as Maven resolves them for a user's
/// program: ci/sbe-examples writes that classpath to java/messages/target/runtime-classpath.txt).
fn sbe_classpath() -> Vec<PathBuf> {
    let by = "ci/sbe-examples";
    let mut classpath = vec![
        built("java/ring/target/sympathy-ring-0.1.0.jar", by),
        built("java/mapped/target/sympathy-mapped-0.1.0.jar", by),
        built("java/messages/target/sympathy-messages-0.1.0.jar", by),
    ];
    let runtime = built("java/messages/target/runtime-classpath.txt", by);
    let runtime = std::fs::read_to_string(runtime).expect("the run-time classpath");
    classpath.extend(std::env::split_paths(runtime.trim()));
    classpath
}

/// The JVM flags of the SBE examples (Agrona reads through jdk.internal.misc).
const SBE_FLAGS: [&str; 2] = ["--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"];

/// What a consumer prints for update `k`: the producers' values (price 100 + (k % 100) / 4,
/// quantity 10 + k % 90, bid for even k).
fn update(k: u64) -> String {
    let cents = 10_000 + (k % 100) * 25;
    let side = if k.is_multiple_of(2) { "bid" } else { "ask" };
    format!(
        "#{k} AAPL {side} {}.{:02} x {} (1 level) on XNAS",
        cents / 100,
        cents % 100,
        10 + k % 90
    )
}

/// What both sides of an SBE example must print for `count` updates over `ring`.
fn sbe_checked(what: &str, produced: &Finished, consumed: &Finished, count: u64, ring: &str) {
    printed(
        produced,
        &format!("sent {count} price updates to {ring}"),
        what,
    );
    printed(consumed, &update(0), what);
    printed(consumed, &update(2), what);
    printed(
        consumed,
        &format!(
            "received {count} price updates, the last: {}",
            update(count - 1)
        ),
        what,
    );
}

#[test]
#[ignore = "needs the Java build and the Rust examples: ci/sbe-examples builds them and runs it"]
fn sbe_examples_rust_producer_to_java_consumer() {
    let _one = one_at_a_time();
    let classpath = sbe_classpath();
    let producer = rust_example("price_producer", "ci/sbe-examples");
    let (count, dir) = (count(), TempDir::new("sbe-rust-java"));
    let ring = dir.join("rust-to-java.ring").to_string_lossy().into_owned();
    let n = count.to_string();
    let mut rust = Command::new(producer);
    rust.args([&ring, &n]);
    let java = java_example(
        &SBE_FLAGS,
        &classpath,
        "examples/java/PriceConsumer.java",
        &[&ring, &n],
    );
    let (produced, consumed) = run_pair(&dir, rust, java);
    sbe_checked("Rust -> Java", &produced, &consumed, count, &ring);
}

#[test]
#[ignore = "needs the Java build and the Rust examples: ci/sbe-examples builds them and runs it"]
fn sbe_examples_java_producer_to_rust_consumer() {
    let _one = one_at_a_time();
    let classpath = sbe_classpath();
    let consumer = rust_example("price_consumer", "ci/sbe-examples");
    let (count, dir) = (count(), TempDir::new("sbe-java-rust"));
    let ring = dir.join("java-to-rust.ring").to_string_lossy().into_owned();
    let n = count.to_string();
    let java = java_example(
        &SBE_FLAGS,
        &classpath,
        "examples/java/PriceProducer.java",
        &[&ring, &n],
    );
    let mut rust = Command::new(consumer);
    rust.args([&ring, &n]);
    let (produced, consumed) = run_pair(&dir, java, rust);
    sbe_checked("Java -> Rust", &produced, &consumed, count, &ring);
}

/// A consumer that meets a record that is not a price update after four that are stops there:
/// exit status 1, the message's number and what is wrong, no stack trace, and the record left
/// in the ring (the next reader gets it again).
fn sbe_consumer_stops_at_a_hostile_record(what: &str, consumer: impl Fn(&str) -> Command) {
    let _one = one_at_a_time();
    let dir = TempDir::new("sbe-hostile");
    let ring = dir.join("hostile.ring").to_string_lossy().into_owned();
    let producer = rust_example("price_producer", "ci/sbe-examples");
    let sent = Command::new(producer).args([&ring, "4"]).output().unwrap();
    assert!(sent.status.success(), "{sent:?}");
    // A record of 16 bytes of the ring's test pattern: no SBE header of a price update.
    let hostile = sympathy(&["ring", "produce", &ring, "--count", "1", "--size", "16"])
        .output()
        .unwrap();
    assert!(hostile.status.success(), "{hostile:?}");
    for attempt in 1..=2 {
        let done = Proc::spawn(what, consumer(&ring), &dir, Duration::from_secs(120))
            .wait()
            .unwrap_or_else(|e| panic!("{e}"));
        let expected = if attempt == 1 { 5 } else { 1 };
        assert_eq!(done.status.code(), Some(1), "{what}: {}", done.report());
        assert!(
            done.stderr
                .contains(&format!("message {expected} is not a price update ("))
                && done.stderr.contains("); it is left in the ring, unread"),
            "{what}, read {attempt}: {}",
            done.report()
        );
        assert!(
            !done.stderr.contains("Exception in"),
            "{what}: {}",
            done.report()
        );
        if attempt == 1 {
            printed(&done, &update(0), what);
        }
    }
}

#[test]
#[ignore = "needs the Java build and the Rust examples: ci/sbe-examples builds them and runs it"]
fn sbe_examples_rust_consumer_stops_at_a_hostile_record() {
    let consumer = rust_example("price_consumer", "ci/sbe-examples");
    sbe_consumer_stops_at_a_hostile_record("the Rust consumer", |ring| {
        let mut rust = Command::new(&consumer);
        rust.args([ring, "10"]);
        rust
    });
}

#[test]
#[ignore = "needs the Java build and the Rust examples: ci/sbe-examples builds them and runs it"]
fn sbe_examples_java_consumer_stops_at_a_hostile_record() {
    let classpath = sbe_classpath();
    sbe_consumer_stops_at_a_hostile_record("the Java consumer", |ring| {
        java_example(
            &SBE_FLAGS,
            &classpath,
            "examples/java/PriceConsumer.java",
            &[ring, "10"],
        )
    });
}

/// The expected lines are the producers' values. (Runs with every `cargo test`.)
#[test]
fn an_update_line_is_what_the_consumers_print() {
    assert_eq!(update(0), "#0 AAPL bid 100.00 x 10 (1 level) on XNAS");
    assert_eq!(update(2), "#2 AAPL bid 100.50 x 12 (1 level) on XNAS");
    assert_eq!(
        update(99_999),
        "#99999 AAPL ask 124.75 x 19 (1 level) on XNAS"
    );
}
