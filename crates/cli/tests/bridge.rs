//! The bridge between two hosts on one machine: a Rust producer on host A writes a ring that
//! `bridge send` drains over Aeron (UDP) to `bridge receive` on host B, which writes the ring a
//! consumer on host B reads, every message checked against the test pattern, in order. The two
//! hosts are two network namespaces joined by a veth pair (root only); where they cannot be
//! created the test says so and runs both hosts on loopback instead.
//!
//! While the stream runs, each bridge end drops 3% of the data datagrams it receives (Aeron's
//! debug loss generator: the receiver loses data, the sender loses confirmations), the receiver
//! is killed (-9) and restarted, the sender is killed (-9) and restarted, and the far consumer is
//! stopped for three seconds (its ring fills, the back pressure reaches the producer). The
//! stream ends with every record of host A's ring confirmed by host B; then the receiver is
//! stopped cleanly and the consumer, which reads until its producer detaches, must have
//! verified exactly what the producer wrote: nothing lost, nothing repeated (the pattern check
//! fails on a repeat or a gap), order kept. Once with a Rust consumer, once with a Java one.
//!
//! `#[ignore]`d: needs the Java build; ci/java-test runs it with `--ignored`.
//! `SYMPATHY_BRIDGE_HOSTS=loopback` runs both hosts on loopback, as a machine without root does.

#[path = "common/processes.rs"]
mod processes;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use processes::{
    Finished, Proc, TempDir, all_cases, one_at_a_time, root, sidecar_built, sympathy_bin,
};

/// Every process's deadline: well past the stream's ~12 s and its stalls.
const DEADLINE: Duration = Duration::from_secs(120);
const DATA_PORT: u16 = 40_123;
const CONFIRM_PORT: u16 = 40_124;
/// The fraction of data datagrams each bridge end drops on receipt.
const LOSS: &str = "0.03";

/// Host A and host B: two network namespaces joined by a veth pair, or loopback for both.
struct Hosts {
    /// The namespaces (A, B), `None` on loopback.
    namespaces: Option<(String, String)>,
    address_a: String,
    address_b: String,
}

impl Hosts {
    /// Two namespaces `sympathy-a-PID`, `sympathy-b-PID` with a veth pair 10.201.0.1/24 (A),
    /// 10.201.0.2/24 (B); on any failure (not root, no `ip`, no netns support) loopback, saying why.
    fn create() -> Hosts {
        if std::env::var("SYMPATHY_BRIDGE_HOSTS").is_ok_and(|v| v == "loopback") {
            println!(
                "bridge test: SYMPATHY_BRIDGE_HOSTS=loopback: both hosts on loopback (127.0.0.1)"
            );
            return Hosts::loopback();
        }
        let id = std::process::id();
        let (a, b) = (format!("sympathy-a-{id}"), format!("sympathy-b-{id}"));
        let (veth_a, veth_b) = (
            format!("sya{}", id % 100_000),
            format!("syb{}", id % 100_000),
        );
        let steps: Vec<Vec<String>> = [
            vec!["netns", "add", &a],
            vec!["netns", "add", &b],
            vec![
                "link", "add", &veth_a, "type", "veth", "peer", "name", &veth_b,
            ],
            vec!["link", "set", &veth_a, "netns", &a],
            vec!["link", "set", &veth_b, "netns", &b],
            vec!["-n", &a, "addr", "add", "10.201.0.1/24", "dev", &veth_a],
            vec!["-n", &b, "addr", "add", "10.201.0.2/24", "dev", &veth_b],
            vec!["-n", &a, "link", "set", &veth_a, "up"],
            vec!["-n", &b, "link", "set", &veth_b, "up"],
            vec!["-n", &a, "link", "set", "lo", "up"],
            vec!["-n", &b, "link", "set", "lo", "up"],
        ]
        .into_iter()
        .map(|step| step.into_iter().map(String::from).collect())
        .collect();
        let hosts = Hosts {
            namespaces: Some((a, b)),
            address_a: "10.201.0.1".into(),
            address_b: "10.201.0.2".into(),
        };
        for step in &steps {
            let failed = match Command::new("ip").args(step).output() {
                Ok(out) if out.status.success() => None,
                Ok(out) => Some(String::from_utf8_lossy(&out.stderr).trim().to_string()),
                Err(e) => Some(format!("`ip` does not run: {e}")),
            };
            if let Some(why) = failed {
                drop(hosts); // removes what was made
                println!(
                    "bridge test: cannot create two network namespaces joined by a veth pair \
                     (`ip {}`: {why}; root is needed): running both hosts on loopback \
                     (127.0.0.1) instead, one network stack for both",
                    step.join(" ")
                );
                return Hosts::loopback();
            }
        }
        hosts
    }

    fn loopback() -> Hosts {
        Hosts {
            namespaces: None,
            address_a: "127.0.0.1".into(),
            address_b: "127.0.0.1".into(),
        }
    }

    fn describe(&self) -> String {
        match &self.namespaces {
            Some((a, b)) => format!(
                "hosts: namespaces {a} ({}) and {b} ({}) joined by a veth pair",
                self.address_a, self.address_b
            ),
            None => "hosts: both on loopback (no namespaces)".into(),
        }
    }

    /// `program args` on host A (`a`) or B, run from the repository root.
    fn command(&self, on_a: bool, program: &Path, args: &[&str]) -> Command {
        let mut cmd = match &self.namespaces {
            Some((a, b)) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", if on_a { a } else { b }])
                    .arg(program);
                c
            }
            None => Command::new(program),
        };
        cmd.args(args)
            .current_dir(root())
            .env("SYMPATHY_BIN", sympathy_bin());
        cmd
    }

    fn channels(&self) -> [String; 4] {
        [
            "--channel".into(),
            format!("aeron:udp?endpoint={}:{DATA_PORT}", self.address_b),
            "--confirm-channel".into(),
            format!("aeron:udp?endpoint={}:{CONFIRM_PORT}", self.address_a),
        ]
    }
}

impl Drop for Hosts {
    fn drop(&mut self) {
        if let Some((a, b)) = &self.namespaces {
            // Deleting a namespace deletes the veth end in it, and so the pair.
            for ns in [a, b] {
                let _ = Command::new("ip").args(["netns", "del", ns]).output();
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Rust,
    Java,
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Lang::Rust => "rust consumer",
            Lang::Java => "java consumer",
        })
    }
}

/// One bridge end on its host, 3% loss on what it receives.
fn bridge(hosts: &Hosts, dir: &TempDir, role: &str, ring: &str, run: u32, seed: u32) -> Proc {
    let seed = seed.to_string();
    let mut args = vec![
        "bridge",
        role,
        ring,
        "--loss-rate",
        LOSS,
        "--loss-seed",
        &seed,
    ];
    let channels = hosts.channels();
    args.extend(channels.iter().map(String::as_str));
    Proc::spawn(
        &format!("bridge {role} (run {run})"),
        hosts.command(role == "send", &root().join("java/sidecar"), &args),
        dir,
        DEADLINE,
    )
}

/// The last line of `end`'s counters that starts with `prefix` (`send:`, `receive:`).
fn counters<'a>(end: &'a Finished, prefix: &str) -> &'a str {
    end.stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or("(no counters printed)")
}

/// The number after `label` in `line` (e.g. "dropped 12 repeats": label "dropped ").
fn number_after(line: &str, label: &str) -> Option<f64> {
    let rest = &line[line.find(label)? + label.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Waits until every record host A's producer wrote is confirmed (the sender released the ring
/// up to its tail), or fails with the positions.
fn all_confirmed(ring: &Path, within: Duration) -> Result<(), String> {
    let deadline = Instant::now() + within;
    loop {
        let view = sympathy_ring::inspect::RingView::open(ring)
            .map_err(|e| format!("inspect {}: {e}", ring.display()))?;
        let s = view.snapshot();
        if s.head == s.tail {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "host A's ring still holds unconfirmed records after {} s: head {} tail {}",
                within.as_secs(),
                s.head,
                s.tail
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn run_case(hosts: &Hosts, consumer_lang: Lang) -> Result<String, String> {
    let dir = TempDir::new("bridge");
    let a_ring = dir.join("a.ring").display().to_string();
    let b_ring = dir.join("b.ring").display().to_string();
    let rust = sympathy_bin();
    for ring in [&a_ring, &b_ring] {
        Proc::spawn(
            "create",
            hosts.command(true, &rust, &["ring", "create", ring, "--capacity", "256k"]),
            &dir,
            DEADLINE,
        )
        .wait()?
        .ok()?;
    }
    let mut receiver = bridge(hosts, &dir, "receive", &b_ring, 1, 11);
    let mut sender = bridge(hosts, &dir, "send", &a_ring, 1, 21);
    // Reads until the receiver (its producer) detaches cleanly; a receiver that dies is waited
    // for (--producer-restarts): its successor goes on with the stream.
    let consume_args = [
        "consume",
        &b_ring,
        "--until-detached",
        "--producer-restarts",
        "--timeout-ms",
        "60000",
    ];
    let consumer_cmd = match consumer_lang {
        Lang::Rust => {
            let mut args = vec!["ring"];
            args.extend_from_slice(&consume_args);
            hosts.command(false, &rust, &args)
        }
        Lang::Java => hosts.command(false, &root().join("java/sidecar"), &consume_args),
    };
    let consumer = Proc::spawn("consumer", consumer_cmd, &dir, DEADLINE);
    let producer = Proc::spawn(
        "producer",
        hosts.command(
            true,
            &rust,
            &[
                "ring",
                "produce",
                &a_ring,
                "--seconds",
                "10",
                "--size",
                "16..64",
                "--timeout-ms",
                "60000",
            ],
        ),
        &dir,
        DEADLINE,
    );
    let mut events = Vec::new();
    let mut producer = producer;
    let mut at = |what: &str, producer: &mut Proc| -> Result<(), String> {
        if !producer.running() {
            return Err(format!(
                "the producer ended before \"{what}\": the stream must outlast the events"
            ));
        }
        events.push(what.to_string());
        Ok(())
    };
    std::thread::sleep(Duration::from_millis(2500));
    at("receiver killed -9", &mut producer)?;
    receiver.kill();
    std::thread::sleep(Duration::from_secs(2));
    receiver = bridge(hosts, &dir, "receive", &b_ring, 2, 12);
    std::thread::sleep(Duration::from_secs(2));
    at("sender killed -9", &mut producer)?;
    sender.kill();
    std::thread::sleep(Duration::from_secs(1));
    sender = bridge(hosts, &dir, "send", &a_ring, 2, 22);
    std::thread::sleep(Duration::from_secs(1));
    at("far consumer stopped 3 s", &mut producer)?;
    consumer.signal(libc::SIGSTOP);
    std::thread::sleep(Duration::from_secs(3));
    consumer.signal(libc::SIGCONT);
    let produced = producer.wait()?.ok()?;
    all_confirmed(Path::new(&a_ring), Duration::from_secs(60))?;
    receiver.signal(libc::SIGTERM);
    let receiver = receiver.wait()?;
    let consumed = consumer.wait()?.ok()?;
    sender.signal(libc::SIGTERM);
    let sender = sender.wait()?;
    let wrote = number_after(&produced.stdout, "produced ")
        .ok_or_else(|| format!("no count in the producer's line: {}", produced.last_line()))?;
    let verified = number_after(consumed.last_line(), "consume")
        .or_else(|| {
            consumed
                .last_line()
                .split_whitespace()
                .find_map(|w| w.parse().ok())
        })
        .ok_or_else(|| format!("no count in the consumer's line: {}", consumed.last_line()))?;
    let receive = counters(&receiver, "receive:");
    let send = counters(&sender, "send:");
    if verified != wrote {
        return Err(format!(
            "the producer wrote {wrote} messages, the consumer verified {verified}\n{}\n{}\n{}",
            produced.report(),
            consumed.report(),
            receiver.report()
        ));
    }
    let naks = number_after(receive, "NAKs sent ").unwrap_or(0.0);
    if naks == 0.0 {
        return Err(format!(
            "the receiver sent no NAK: the {LOSS} loss was not injected\n{}",
            receiver.report()
        ));
    }
    let stall = number_after(&produced.stdout, "longest wait for room ").unwrap_or(f64::NAN);
    Ok(format!(
        "{wrote} written, {verified} verified in order: 0 lost, 0 repeated ({}); last receiver: \
         {receive}; last sender: {send}; longest producer stall {stall:.0} ms; events: {}",
        hosts.describe(),
        events.join(", ")
    ))
}

#[test]
#[ignore = "needs the Java build (ci/java-test runs it)"]
fn nothing_lost_or_repeated_across_loss_restarts_and_a_full_far_ring() {
    let _serial = one_at_a_time();
    sidecar_built();
    let hosts = Hosts::create();
    all_cases([Lang::Rust, Lang::Java], |lang| run_case(&hosts, *lang));
}
