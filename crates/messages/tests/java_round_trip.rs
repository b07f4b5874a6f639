//! Random messages round-trip through both languages: proptest's strategies draw orders and
//! price updates (a fixed seed, so a failure repeats), Rust encodes them, a Java process
//! (`java/sidecar sbe-echo`) decodes each into a value and encodes it again, and Rust decodes
//! what came back: the values must be the ones drawn and the bytes the ones Rust wrote.
//!
//! Needs the Java build (a JDK and Maven): `ci/test` runs it with `--ignored` after
//! `ci/java-test`; `cargo test -p sympathy-messages --test java_round_trip -- --ignored`.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::strategies;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sympathy_messages::{
    ORDER_LENGTH, Order, PriceUpdate, decode_order, decode_price_update, encode_order,
    encode_price_update,
};

/// Values drawn per message type.
const CASES: usize = 400;

fn draw<S: Strategy>(strategy: S, runner: &mut TestRunner) -> Vec<S::Value> {
    (0..CASES)
        .map(|_| strategy.new_tree(runner).expect("a value").current())
        .collect()
}

/// `[u32 length LE][bytes]` records.
fn frame(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend_from_slice(&(m.len() as u32).to_le_bytes());
        out.extend_from_slice(m);
    }
    out
}

fn unframe(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let len = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
        out.push(bytes[4..4 + len].to_vec());
        bytes = &bytes[4 + len..];
    }
    out
}

#[test]
#[ignore = "needs the Java build (a JDK and Maven): ci/test runs it after ci/java-test"]
fn random_messages_round_trip_through_java() {
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let orders: Vec<Order> = draw(strategies::order(), &mut runner);
    let updates: Vec<PriceUpdate> = draw(strategies::price_update(), &mut runner);
    let mut sent = Vec::new();
    for order in &orders {
        let mut buf = vec![0u8; ORDER_LENGTH];
        encode_order(order, &mut buf).unwrap();
        sent.push(buf);
    }
    for update in &updates {
        let mut buf = vec![0u8; update.as_ref().encoded_length()];
        encode_price_update(&update.as_ref(), &mut buf).unwrap();
        sent.push(buf);
    }
    let sidecar = common::schema_dir().join("../java/sidecar");
    let mut java = Command::new(&sidecar)
        .arg("sbe-echo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", sidecar.display()));
    let input = frame(&sent);
    let mut stdin = java.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = java.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "java/sidecar sbe-echo failed");
    let echoed = unframe(&out.stdout);
    assert_eq!(echoed.len(), sent.len());
    for (i, (back, ours)) in echoed.iter().zip(&sent).enumerate() {
        assert_eq!(back, ours, "message {i}: Java's bytes differ from Rust's");
    }
    for (order, back) in orders.iter().zip(&echoed) {
        assert_eq!(&decode_order(back).unwrap(), order);
    }
    for (update, back) in updates.iter().zip(&echoed[CASES..]) {
        assert_eq!(&decode_price_update(back).unwrap(), update);
    }
}
