//! The hostile-file conformance suite shared with the Java ring: `tests/conformance/manifest.json`
//! lists each case (a committed file under `tests/conformance/files/`, made from the case's
//! `make` recipe by the generator here, or a special path made at test time: a link to
//! `/dev/zero`, a FIFO, a directory, a file without read or write permission) and the step at
//! which it must fail, with the error's kind (`RingError::kind`), or `ok`. The Java
//! `ConformanceTest` runs the same cases and must get the same answers.
//!
//! Regenerate the committed files after changing a recipe or adding a case:
//! `SYMPATHY_CONFORMANCE_REGENERATE=1 cargo test -p sympathy-ring --test conformance`.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde::Deserialize;
use sympathy_ring::inspect::RingView;
use sympathy_ring::layout::Kind;
use sympathy_ring::layout::*;
use sympathy_ring::{BroadcastRing, ManyToOneRing, Ring, RingError};

/// The folder of the manifest and the committed files.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Set to `1` to rewrite the committed files from the recipes instead of checking them.
const REGENERATE_ENV: &str = "SYMPATHY_CONFORMANCE_REGENERATE";

/// The creation time every generated ring carries (files must be byte-for-byte reproducible).
const CREATION_TIME_MS: i64 = 1_700_000_000_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    #[allow(dead_code)]
    about: String,
    open_timeout_ms: u64,
    steps: Vec<String>,
    first_read_limit: usize,
    first_write: FirstWrite,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FirstWrite {
    #[serde(rename = "type")]
    type_id: i32,
    /// Hex.
    payload: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[allow(dead_code)]
    about: String,
    /// The kind of ring the steps open the file as (`spsc` when absent), and so which steps:
    /// a one-to-one or many-to-one ring attaches its consumer, reads, attaches a producer and
    /// writes; a broadcast ring makes a receiver, receives, attaches its transmitter and
    /// transmits.
    #[serde(default)]
    ring: Option<String>,
    make: Option<Make>,
    special: Option<Special>,
    expect: Expect,
}

/// How a committed file is made.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Make {
    /// `ring` (a ring as `create` writes it), `zeros` or `random`.
    base: Base,
    /// The ring's capacity (`ring` only; default 64): also where the trailer patches go.
    #[serde(default = "default_capacity")]
    capacity: usize,
    /// The ring's kind (`ring` only; `spsc` when absent): its layout version, `kind` word and
    /// trailer.
    #[serde(default)]
    kind: Option<String>,
    /// The random generator's seed (`random` only).
    seed: Option<u64>,
    /// The file's final length: cut or zero-extended after the patches (required for `zeros`
    /// and `random`).
    length: Option<usize>,
    /// Header fields to overwrite, by name (see [`header_field`]).
    #[serde(default)]
    header: BTreeMap<String, serde_json::Number>,
    /// Trailer fields to overwrite, by name (see [`trailer_field`]).
    #[serde(default)]
    trailer: BTreeMap<String, serde_json::Number>,
    /// Record headers (and payloads) to write into the record area.
    #[serde(default)]
    records: Vec<RecordPatch>,
}

/// The kind a case names (`spsc`, `mpsc`, `broadcast`), one-to-one when it names none.
fn kind_named(name: &Option<String>) -> Kind {
    name.as_deref().map_or(Kind::OneToOne, |n| {
        n.parse().unwrap_or_else(|e| panic!("{e}"))
    })
}

fn default_capacity() -> usize {
    64
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Base {
    Ring,
    Zeros,
    Random,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordPatch {
    /// Index in the record area.
    at: usize,
    length: i32,
    #[serde(rename = "type")]
    type_id: i32,
    /// Hex bytes written after the header.
    #[serde(default)]
    payload: String,
}

/// A path made at test time (it cannot be committed).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum Special {
    Symlink { target: String },
    SymlinkToCase { case: String },
    Fifo,
    Directory,
    ExistingPath { path: String },
    CopyWithMode { case: String, mode: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// The step that fails; absent when `kind` is `ok`.
    step: Option<String>,
    kind: String,
    /// Messages the first read hands out before it returns or fails.
    #[serde(default)]
    delivered: usize,
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(suite_dir().join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

// ---- the generator ----------------------------------------------------------------------------

/// `(offset, bytes)` of a named header field.
fn header_field(name: &str) -> (usize, usize) {
    match name {
        "magic" => (MAGIC_OFFSET, 8),
        "version" => (LAYOUT_VERSION_OFFSET, 4),
        "ready" => (READY_OFFSET, 4),
        "capacity" => (CAPACITY_OFFSET, 8),
        "max_message_length" => (MAX_MESSAGE_LENGTH_OFFSET, 4),
        "header_length" => (HEADER_LENGTH_OFFSET, 4),
        "creation_time" => (CREATION_TIME_OFFSET, 8),
        "producer_pid" => (PRODUCER_PID_OFFSET, 4),
        "producer_heartbeat" => (PRODUCER_HEARTBEAT_OFFSET, 8),
        "consumer_pid" => (CONSUMER_PID_OFFSET, 4),
        "kind" => (KIND_OFFSET, 4),
        _ => panic!("unknown header field {name:?}"),
    }
}

/// Offset from the trailer's start of a named trailer field (all i64).
fn trailer_field(name: &str) -> usize {
    match name {
        "tail_intent" => BROADCAST_TAIL_INTENT_OFFSET,
        "broadcast_tail" => BROADCAST_TAIL_OFFSET,
        "latest" => BROADCAST_LATEST_OFFSET,
        "tail" => TAIL_POSITION_OFFSET,
        "head_cache" => HEAD_CACHE_POSITION_OFFSET,
        "head" => HEAD_POSITION_OFFSET,
        "correlation" => CORRELATION_COUNTER_OFFSET,
        "consumer_heartbeat" => CONSUMER_HEARTBEAT_OFFSET,
        _ => panic!("unknown trailer field {name:?}"),
    }
}

/// Writes `value` little-endian in `width` bytes, as a signed or unsigned field would hold it.
fn put(bytes: &mut [u8], offset: usize, width: usize, value: i128) {
    let bits = 8 * width as u32;
    let fits = (-(1i128 << (bits - 1))..(1i128 << bits)).contains(&value);
    assert!(fits, "{value} does not fit {width} bytes");
    bytes[offset..offset + width].copy_from_slice(&(value as u64).to_le_bytes()[..width]);
}

fn integer(value: &serde_json::Number) -> i128 {
    value
        .as_i64()
        .map(i128::from)
        .or(value.as_u64().map(i128::from))
        .unwrap_or_else(|| panic!("{value} is not an integer"))
}

fn hex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex {text:?}");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// The bytes of a case's file.
fn generate(make: &Make) -> Vec<u8> {
    let mut bytes = match make.base {
        Base::Ring => {
            let capacity = make.capacity;
            let kind = kind_named(&make.kind);
            let mut b = vec![0u8; kind.file_length(capacity)];
            put(&mut b, MAGIC_OFFSET, 8, MAGIC.into());
            put(
                &mut b,
                LAYOUT_VERSION_OFFSET,
                4,
                kind.layout_version().into(),
            );
            if kind.layout_version() >= KIND_LAYOUT_VERSION {
                put(&mut b, KIND_OFFSET, 4, kind.word().into());
            }
            put(&mut b, READY_OFFSET, 4, READY.into());
            put(&mut b, CAPACITY_OFFSET, 8, capacity as i128);
            let max = max_message_length(capacity) as i128;
            put(&mut b, MAX_MESSAGE_LENGTH_OFFSET, 4, max);
            put(&mut b, HEADER_LENGTH_OFFSET, 4, HEADER_LENGTH as i128);
            put(&mut b, CREATION_TIME_OFFSET, 8, CREATION_TIME_MS.into());
            b
        }
        Base::Zeros => vec![0u8; make.length.expect("zeros needs a length")],
        Base::Random => {
            let mut state = make.seed.expect("random needs a seed") | 1;
            let length = make.length.expect("random needs a length");
            let mut b = Vec::with_capacity(length + 8);
            while b.len() < length {
                // xorshift64*
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                b.extend_from_slice(&state.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
            }
            b.truncate(length);
            b
        }
    };
    for (name, value) in &make.header {
        let (offset, width) = header_field(name);
        put(&mut bytes, offset, width, integer(value));
    }
    let trailer = HEADER_LENGTH + make.capacity;
    for (name, value) in &make.trailer {
        put(&mut bytes, trailer + trailer_field(name), 8, integer(value));
    }
    for r in &make.records {
        let at = HEADER_LENGTH + r.at;
        bytes[at..at + 8].copy_from_slice(&pack_header(r.length, r.type_id).to_le_bytes());
        let payload = hex(&r.payload);
        bytes[at + 8..at + 8 + payload.len()].copy_from_slice(&payload);
    }
    if let Some(length) = make.length {
        bytes.resize(length, 0);
    }
    bytes
}

fn committed_file(name: &str) -> PathBuf {
    suite_dir().join("files").join(format!("{name}.ring"))
}

/// The committed files are exactly what the recipes make (and nothing else is there); with
/// `SYMPATHY_CONFORMANCE_REGENERATE=1` they are rewritten instead.
#[test]
#[cfg_attr(miri, ignore = "reads files")]
fn committed_files_match_the_generator() {
    let manifest = manifest();
    let regenerate = std::env::var(REGENERATE_ENV).is_ok_and(|v| v == "1");
    let files = suite_dir().join("files");
    let mut made = std::collections::BTreeSet::new();
    let mut stale = Vec::new();
    for case in &manifest.cases {
        let Some(make) = &case.make else { continue };
        assert!(
            case.special.is_none(),
            "{}: make or special, not both",
            case.name
        );
        let bytes = generate(make);
        let path = committed_file(&case.name);
        made.insert(path.file_name().unwrap().to_owned());
        if regenerate {
            std::fs::create_dir_all(&files).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
            stale.push(case.name.clone());
        }
    }
    for entry in std::fs::read_dir(&files).unwrap() {
        let entry = entry.unwrap();
        if !made.contains(&entry.file_name()) {
            if regenerate {
                std::fs::remove_file(entry.path()).unwrap();
            } else {
                stale.push(format!("{} (no case makes it)", entry.path().display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "committed conformance files differ from their recipes: {stale:?}; run \
         `{REGENERATE_ENV}=1 cargo test -p sympathy-ring --test conformance` and commit the files"
    );
}

/// The generator's `ring` base is byte for byte what `Ring::create` writes (but the clock).
#[test]
#[cfg_attr(miri, ignore = "maps a file")]
fn the_generators_ring_is_what_create_writes() {
    let path = common::TempPath::new("conformance-base");
    drop(Ring::create(&path.0, 64).unwrap());
    let mut created = std::fs::read(&path.0).unwrap();
    created[CREATION_TIME_OFFSET..CREATION_TIME_OFFSET + 8]
        .copy_from_slice(&CREATION_TIME_MS.to_le_bytes());
    let make: Make = serde_json::from_str(r#"{"base": "ring"}"#).unwrap();
    assert!(created == generate(&make));
}

// ---- running the cases ------------------------------------------------------------------------

/// What the steps did: the step that failed with its error kind (`None` when all passed), and
/// the messages the first read handed out.
#[derive(Debug, PartialEq)]
struct Outcome {
    failed: Option<(String, String)>,
    delivered: usize,
}

/// Runs the manifest's steps on `path` with the ring of `kind`, stopping at the first failure.
fn run_steps(manifest: &Manifest, path: &Path, kind: Kind) -> Outcome {
    let steps = Steps {
        timeout: Duration::from_millis(manifest.open_timeout_ms),
        read_limit: manifest.first_read_limit,
        write_type: manifest.first_write.type_id,
        write_payload: hex(&manifest.first_write.payload),
    };
    match kind {
        Kind::OneToOne => steps.one_to_one(path),
        Kind::ManyToOne => steps.many_to_one(path),
        Kind::Broadcast => steps.broadcast(path),
    }
}

/// What the manifest's steps take: the open's timeout, the first read's limit, the first
/// write's message.
struct Steps {
    timeout: Duration,
    read_limit: usize,
    write_type: i32,
    write_payload: Vec<u8>,
}

fn fail(step: &str, e: RingError, delivered: usize) -> Outcome {
    Outcome {
        failed: Some((step.to_string(), e.kind().to_string())),
        delivered,
    }
}

impl Steps {
    /// The steps on a many-to-one ring: open, the consumer, one read, a producer (which never
    /// fails: producers do not attach), one write.
    fn many_to_one(&self, path: &Path) -> Outcome {
        let mut delivered = 0;
        let ring = match ManyToOneRing::open_with_timeout(path, self.timeout) {
            Ok(ring) => ring,
            Err(e) => return fail("open", e, 0),
        };
        let mut consumer = match ring.consumer() {
            Ok(c) => c,
            Err(e) => return fail("attach-consumer", e, 0),
        };
        if let Err(e) = consumer.read(|_, _| delivered += 1, self.read_limit) {
            return fail("first-read", e, delivered);
        }
        let mut producer = ring.producer();
        if let Err(e) = producer.try_write(self.write_type, &self.write_payload) {
            return fail("first-write", e, delivered);
        }
        Outcome {
            failed: None,
            delivered,
        }
    }

    /// The steps on a broadcast ring: open, a receiver (`attach-consumer`), receives up to the
    /// read limit (`first-read`), the transmitter (`attach-producer`), one transmit
    /// (`first-write`).
    fn broadcast(&self, path: &Path) -> Outcome {
        let mut delivered = 0;
        let ring = match BroadcastRing::open_with_timeout(path, self.timeout) {
            Ok(ring) => ring,
            Err(e) => return fail("open", e, 0),
        };
        let mut receiver = match ring.receiver() {
            Ok(r) => r,
            Err(e) => return fail("attach-consumer", e, 0),
        };
        while delivered < self.read_limit {
            match receiver.receive(|_, _| ()) {
                Ok(Some(())) => delivered += 1,
                Ok(None) => break,
                Err(e) => return fail("first-read", e, delivered),
            }
        }
        let mut transmitter = match ring.transmitter() {
            Ok(t) => t,
            Err(e) => return fail("attach-producer", e, delivered),
        };
        if let Err(e) = transmitter.transmit(self.write_type, &self.write_payload) {
            return fail("first-write", e, delivered);
        }
        Outcome {
            failed: None,
            delivered,
        }
    }

    /// The steps on a one-to-one ring: open, attach the consumer, one read, attach the producer,
    /// one write.
    fn one_to_one(&self, path: &Path) -> Outcome {
        let mut delivered = 0;
        let ring = match Ring::open_with_timeout(path, self.timeout) {
            Ok(ring) => ring,
            Err(e) => return fail("open", e, 0),
        };
        let mut consumer = match ring.consumer() {
            Ok(c) => c,
            Err(e) => return fail("attach-consumer", e, 0),
        };
        if let Err(e) = consumer.read(|_, _| delivered += 1, self.read_limit) {
            return fail("first-read", e, delivered);
        }
        let mut producer = match ring.producer() {
            Ok(p) => p,
            Err(e) => return fail("attach-producer", e, delivered),
        };
        if let Err(e) = producer.try_write(self.write_type, &self.write_payload) {
            return fail("first-write", e, delivered);
        }
        Outcome {
            failed: None,
            delivered,
        }
    }
}

/// A scratch folder, removed with everything in it when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("sympathy-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Makes the case's path in `dir`: a fresh copy of its committed file, or the special path.
/// `Err` holds why the case is skipped here.
fn prepare(case: &Case, dir: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(&case.name);
    let copy = |name: &str, to: &Path| {
        std::fs::copy(committed_file(name), to).unwrap();
    };
    match (&case.make, &case.special) {
        (Some(_), None) => copy(&case.name, &path),
        (None, Some(Special::Symlink { target })) => {
            std::os::unix::fs::symlink(target, &path).unwrap()
        }
        (None, Some(Special::SymlinkToCase { case: other })) => {
            let target = dir.join(format!("{other}.target"));
            copy(other, &target);
            std::os::unix::fs::symlink(&target, &path).unwrap();
        }
        (None, Some(Special::Fifo)) => {
            let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        }
        (None, Some(Special::Directory)) => std::fs::create_dir(&path).unwrap(),
        (None, Some(Special::ExistingPath { path })) => return Ok(PathBuf::from(path)),
        (None, Some(Special::CopyWithMode { case: other, mode })) => {
            if running_as_root() {
                return Err("running as root, which ignores file modes".into());
            }
            copy(other, &path);
            let mode = u32::from_str_radix(mode, 8).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        _ => panic!("{}: a case has either make or special", case.name),
    }
    Ok(path)
}

fn expected(case: &Case) -> Outcome {
    let e = &case.expect;
    match (&e.step, e.kind.as_str()) {
        (None, "ok") => Outcome {
            failed: None,
            delivered: e.delivered,
        },
        (Some(step), kind) if kind != "ok" => Outcome {
            failed: Some((step.clone(), kind.to_string())),
            delivered: e.delivered,
        },
        _ => panic!("{}: expect a step with a kind, or kind ok alone", case.name),
    }
}

/// Every case fails at its step with its kind (or passes), and never panics, hangs or signals.
#[test]
#[cfg_attr(miri, ignore = "maps files")]
fn every_case_gives_the_expected_step_and_kind() {
    let manifest = manifest();
    let dir = TempDir::new("conformance");
    let steps = [
        "open",
        "attach-consumer",
        "first-read",
        "attach-producer",
        "first-write",
    ];
    assert_eq!(
        manifest.steps, steps,
        "the steps this runner takes, in order"
    );
    let mut wrong = Vec::new();
    for case in &manifest.cases {
        let want = expected(case);
        if let Some((step, _)) = &want.failed {
            assert!(
                steps.contains(&step.as_str()),
                "{}: unknown step {step}",
                case.name
            );
        }
        let path = match prepare(case, &dir.0) {
            Ok(path) => path,
            Err(why) => {
                eprintln!("skipped {}: {why}", case.name);
                continue;
            }
        };
        let got = run_steps(&manifest, &path, kind_named(&case.ring));
        if got != want {
            wrong.push(format!("{}: expected {want:?}, got {got:?}", case.name));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The read-only view opens every file that `Ring::open` opens, and those it refuses only for
/// their positions; it refuses the others with the same kind; its snapshot and record walk
/// never panic.
#[test]
#[cfg_attr(miri, ignore = "maps files")]
fn the_read_only_view_agrees_with_open() {
    let manifest = manifest();
    let dir = TempDir::new("conformance-view");
    let timeout = Duration::from_millis(manifest.open_timeout_ms);
    let mut wrong = Vec::new();
    for case in &manifest.cases {
        if matches!(case.special, Some(Special::CopyWithMode { .. })) {
            continue; // its own test: inspecting_needs_only_read_permission
        }
        let path = prepare(case, &dir.0).unwrap();
        // The view opens every kind: a file refused as the wrong kind opens, and says its kind.
        let refused_at_open = match (&case.expect.step, case.expect.kind.as_str()) {
            (Some(step), kind)
                if step == "open" && kind != "corrupt-record" && kind != "wrong-kind" =>
            {
                Some(kind)
            }
            _ => None,
        };
        match (RingView::open_with_timeout(&path, timeout), refused_at_open) {
            (Err(e), Some(kind)) if e.kind() == kind => {}
            (Ok(view), None) => {
                let snapshot = view.snapshot();
                std::hint::black_box((snapshot, view.peek_records(16)));
                let positions_bad = view.positions_error().is_some();
                let bad_at_open = case.expect.step.as_deref() == Some("open")
                    && case.expect.kind == "corrupt-record";
                if positions_bad != bad_at_open {
                    wrong.push(format!("{}: positions_error {positions_bad}", case.name));
                }
            }
            (Err(e), want) => wrong.push(format!("{}: {e} (expected {want:?})", case.name)),
            (Ok(_), want) => wrong.push(format!("{}: opened (expected {want:?})", case.name)),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Set in the child of [`inspecting_needs_only_read_permission`]: the folder of its files.
const READ_ONLY_CHILD_ENV: &str = "SYMPATHY_CONFORMANCE_READ_ONLY_CHILD";

/// A ring this user may only read (mode 0444, not its owner) can be inspected, not attached;
/// one it may not read is refused with `permission-denied` by both. As root, where modes do not
/// bite, the checks run in a child process started as the unprivileged user 65534 (`nobody`).
#[test]
#[cfg_attr(miri, ignore = "maps files and spawns a process")]
fn inspecting_needs_only_read_permission() {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(dir) = std::env::var(READ_ONLY_CHILD_ENV) {
        return read_only_checks(Path::new(&dir));
    }
    let dir = TempDir::new("conformance-read-only");
    let readable = dir.0.join("readable");
    let ring = Ring::create(&readable, 64).unwrap();
    ring.producer().unwrap().try_write(1, b"seen").unwrap();
    drop(ring);
    let unreadable = dir.0.join("unreadable");
    std::fs::copy(&readable, &unreadable).unwrap();
    let mode = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    mode(&readable, 0o444);
    mode(&unreadable, 0o200);
    if !running_as_root() {
        return read_only_checks(&dir.0);
    }
    use std::os::unix::process::CommandExt;
    mode(&dir.0, 0o755);
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "inspecting_needs_only_read_permission",
            "--exact",
            "--nocapture",
        ])
        .env(READ_ONLY_CHILD_ENV, &dir.0)
        .uid(65534)
        .gid(65534)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the child as user 65534 failed:\n{text}"
    );
    assert!(text.contains("1 passed"), "the child ran no test:\n{text}");
}

fn read_only_checks(dir: &Path) {
    let readable = dir.join("readable");
    let err = Ring::open(&readable).unwrap_err();
    assert_eq!(err.kind(), "permission-denied", "{err}");
    let view = RingView::open(&readable).expect("a read-only file can be inspected");
    assert_eq!(
        (view.snapshot().tail, view.snapshot().producer_pid),
        (16, 0)
    );
    assert_eq!(view.peek_records(4)[0].payload_prefix, b"seen");
    assert!(view.positions_error().is_none());
    let unreadable = dir.join("unreadable");
    assert_eq!(
        Ring::open(&unreadable).unwrap_err().kind(),
        "permission-denied"
    );
    assert_eq!(
        RingView::open(&unreadable).unwrap_err().kind(),
        "permission-denied"
    );
}
