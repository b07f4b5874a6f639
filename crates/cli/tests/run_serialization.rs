//! `sympathy run serialization` end to end: every codec reports write, read and encoded size.

mod common;

use common::{results, sympathy};

#[test]
fn every_codec_reports_write_read_and_size() {
    let out = sympathy(&[
        "run",
        "serialization",
        "--count",
        "2000",
        "--runs",
        "2",
        "--json",
    ]);
    let lines = results(&out);
    let variants = [
        "serde-binary",
        "hand-codec",
        "zero-copy",
        "ring-claim",
        "sbe",
    ];
    assert_eq!(lines.len(), variants.len() * 3);
    for (variant, rows) in variants.iter().zip(lines.chunks(3)) {
        let metrics: Vec<&str> = rows.iter().map(|r| r["metric"].as_str().unwrap()).collect();
        assert_eq!(
            metrics,
            ["write_ns", "read_ns", "encoded_bytes"],
            "{variant}"
        );
        for row in rows {
            assert_eq!(row["experiment"], "serialization");
            assert_eq!(row["variant"], *variant);
            assert_eq!(row["params"]["count"], 2000);
        }
        assert_eq!(rows[0]["check"], "ok");
        assert_eq!(rows[0]["stats"]["runs"], 2);
        assert_eq!(rows[0]["unit"], "ns");
        assert_eq!(rows[2]["check"], "n/a");
        assert_eq!(rows[2]["unit"], "bytes");
        let bytes = rows[2]["value"].as_f64().unwrap();
        let want = match *variant {
            "serde-binary" => 97.0,
            "sbe" => 192.0,
            _ => 184.0,
        };
        assert_eq!(bytes, want, "{variant}");
    }
}

#[test]
fn human_output_is_seed_style_and_bad_counts_are_rejected() {
    let out = sympathy(&[
        "run",
        "serialization",
        "--count",
        "100",
        "--runs",
        "1",
        "--variants",
        "zero-copy",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("0 zero-copy     write="), "{text}");
    let out = sympathy(&["run", "serialization", "--count", "0"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--count 0"));
    let out = sympathy(&["run", "serialization", "--variants", "unsafe"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ring-claim"));
}
