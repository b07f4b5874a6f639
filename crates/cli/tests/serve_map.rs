//! The lookup services facing hostile clients, one set of cases run against each:
//! `sympathy serve-map` and its Java twin `java/sidecar serve-map`.
//!
//! - `half_closed_clients_get_their_answers`: with 500 slow clients holding connections, 100
//!   clients that shut down their sending side after the request (as `nc -N` does) each get
//!   their user;
//! - `slow_and_idle_clients_are_cut`: a client that trickles its headers, one that sends
//!   nothing and an idle keep-alive connection are each closed by the service (at the read
//!   timeout, 1 s here), never held;
//! - `clients_past_the_cap_are_refused_at_once`: past `--max-connections`, a client is refused at
//!   once, never queued: with `503` and a JSON error by the Rust service, by a closed connection
//!   from the Java one (what the JDK server does at its cap); once connections close, clients
//!   are served again.
//!
//! - `the_services_answer_the_table`: one table of requests, ordinary and odd (percent-encodings
//!   that are not UTF-8, HEAD, another method, HTTP/9.9, no Host), with the one answer both
//!   services give; the few the JDK server answers itself, before the service sees them (a bare
//!   LF line end, 1 MB of headers, an invalid percent-encoding), carry each side's answer and why;
//! - `a_truncated_map_ends_the_service`: a map truncated under the service ends it with exit
//!   status 3 and one message saying what happened and what to do (the same words in both).
//!
//! The Java cases are `#[ignore]`d: they need the Java build (ci/java-test runs them with
//! `--ignored`).

#[path = "common/processes.rs"]
mod processes;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use processes::{Proc, TempDir, describe, one_at_a_time, sidecar, sidecar_built, sympathy};

/// Clients that hold a connection with half a request while others are served.
const SLOW_CLIENTS: usize = 500;
/// Users in the map the services serve.
const USERS: u64 = 1000;
/// How long a case waits for an answer or a close before it calls the service stuck: far past
/// any read timeout used here, so it decides only "answered / closed" against "held".
const PATIENCE: Duration = Duration::from_secs(20);

/// A running service.
struct Service {
    address: SocketAddr,
    /// `None` once [`Service::wait`] has collected it.
    process: Option<Proc>,
    map: std::path::PathBuf,
    _dir: TempDir,
}

impl Service {
    /// Loads the users with the Rust tool and starts the service `tool` on them with `flags`.
    fn start(tool: fn(&[&str]) -> Command, flags: &[&str]) -> Service {
        let dir = TempDir::new("serve-map");
        let map_file = dir.join("users.map");
        let map = map_file.to_str().expect("a UTF-8 temp path");
        let load = sympathy(&["map", "load-users", map, "--users", &USERS.to_string()])
            .output()
            .expect("sympathy runs");
        assert!(load.status.success(), "load-users failed: {load:?}");
        let mut args = vec!["serve-map", map, "--port", "0"];
        args.extend_from_slice(flags);
        let cmd = tool(&args);
        let what = describe(&cmd);
        let process = Proc::spawn(&what, cmd, &dir, Duration::from_secs(300));
        let since = Instant::now();
        let address = loop {
            let said = process.stderr_so_far();
            if let Some(rest) = said.split("listening on http://").nth(1) {
                let end = rest.find([' ', '\n']).unwrap_or(rest.len());
                break rest[..end]
                    .parse()
                    .expect("an address after `listening on`");
            }
            assert!(
                since.elapsed() < Duration::from_secs(60),
                "{what} did not start listening:\n{said}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        Service {
            address,
            process: Some(process),
            map: map_file,
            _dir: dir,
        }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.address).expect("the service accepts");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream
    }

    /// The service's resident memory in KiB (`VmRSS`).
    fn resident_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.running().pid()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Which service this is, for the lines the cases print.
    fn process_name(&self) -> &'static str {
        if self.running().stderr_so_far().contains("JDK HttpServer") {
            "java/sidecar serve-map"
        } else {
            "sympathy serve-map"
        }
    }

    fn running(&self) -> &Proc {
        self.process.as_ref().expect("the service is running")
    }

    /// Waits for the service to exit by itself: what it said.
    fn wait(mut self) -> processes::Finished {
        let process = self.process.take().expect("the service is running");
        process
            .wait()
            .unwrap_or_else(|e| panic!("the service kept running: {e}"))
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        if let Some(process) = &mut self.process {
            process.kill();
        }
    }
}

fn request(id: u64) -> String {
    format!("GET /users/{id} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n")
}

/// Everything the service sends until it closes (or [`PATIENCE`] runs out: then an error).
fn read_all(stream: &mut TcpStream) -> Result<String, String> {
    let mut answer = Vec::new();
    match stream.read_to_end(&mut answer) {
        Ok(_) => Ok(String::from_utf8_lossy(&answer).into_owned()),
        Err(e) if !answer.is_empty() => {
            Err(format!("{e} after {:?}", String::from_utf8_lossy(&answer)))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Whether `answer` is the 200 for user `id`.
fn is_user(answer: &str, id: u64) -> bool {
    answer.starts_with("HTTP/1.1 200") && answer.contains(&format!("{{\"id\":{id},"))
}

fn half_closed_clients_get_their_answers(tool: fn(&[&str]) -> Command) {
    let _one = one_at_a_time();
    let service = Service::start(tool, &["--read-timeout-ms", "30000"]);
    let rss_before = service.resident_kib();
    let slow: Vec<TcpStream> = (0..SLOW_CLIENTS)
        .map(|_| {
            let mut s = service.connect();
            s.write_all(b"GET /users/1 HTTP/1.1\r\nhost: slow\r\n")
                .unwrap();
            s
        })
        .collect();
    // All 100 ask before any reads its answer, so that the service meets their end of input
    // while their requests are still waiting to be answered.
    let asked: Vec<(u64, TcpStream)> = (0..100)
        .map(|id| {
            let mut s = service.connect();
            s.write_all(request(id).as_bytes()).unwrap();
            s.shutdown(Shutdown::Write).unwrap();
            (id, s)
        })
        .collect();
    let mut failed = Vec::new();
    for (id, mut s) in asked {
        match read_all(&mut s) {
            Ok(answer) if is_user(&answer, id) => {}
            other => failed.push(format!("user {id}: {other:?}")),
        }
    }
    let rss_after = service.resident_kib();
    drop(slow);
    assert!(
        failed.is_empty(),
        "{} of 100 half-closed clients got no answer: {failed:?}",
        failed.len()
    );
    eprintln!(
        "{}: 100 of 100 half-closed clients answered beside {SLOW_CLIENTS} slow ones; resident \
         memory {rss_before} KiB before, {rss_after} KiB with them",
        service.process_name()
    );
}

fn slow_and_idle_clients_are_cut(tool: fn(&[&str]) -> Command) {
    let _one = one_at_a_time();
    let service = Service::start(tool, &["--read-timeout-ms", "1000"]);
    let mut trickling = service.connect();
    trickling.write_all(b"GET /users/1 HTTP/1.1\r\n").unwrap();
    let mut silent = service.connect();
    let mut idle = service.connect();
    idle.write_all(b"GET /users/2 HTTP/1.1\r\nhost: idle\r\n\r\n")
        .unwrap();
    let start = Instant::now();
    for (what, stream) in [
        ("a client that trickles its headers", &mut trickling),
        ("a client that sends nothing", &mut silent),
        ("an idle keep-alive connection", &mut idle),
    ] {
        let answer = read_all(stream).unwrap_or_else(|e| panic!("{what} was held open ({e})"));
        assert!(
            !answer.contains(" 200 ") || what.contains("keep-alive"),
            "{what}: {answer}"
        );
        eprintln!(
            "{}: {what} closed after {} ms",
            service.process_name(),
            start.elapsed().as_millis()
        );
    }
}

/// What a client past the cap gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PastTheCap {
    /// `503` with a JSON error (the Rust service).
    Answered503,
    /// The connection closed without an answer (the JDK server).
    Closed,
}

fn clients_past_the_cap_are_refused_at_once(tool: fn(&[&str]) -> Command, refusal: PastTheCap) {
    let _one = one_at_a_time();
    let service = Service::start(
        tool,
        &["--read-timeout-ms", "2000", "--max-connections", "4"],
    );
    let held: Vec<TcpStream> = (0..4).map(|_| service.connect()).collect();
    std::thread::sleep(Duration::from_millis(200)); // the service has taken all four
    let mut fifth = service.connect();
    fifth.write_all(request(7).as_bytes()).unwrap();
    let answer = read_all(&mut fifth);
    match refusal {
        PastTheCap::Answered503 => {
            let answer = answer.unwrap_or_else(|e| panic!("the fifth client: {e}"));
            assert!(
                answer.starts_with("HTTP/1.1 503")
                    && answer.contains("{\"error\":\"the service has its 4 connections open"),
                "{answer}"
            );
        }
        // Closed or reset: either way at once, not after PATIENCE.
        PastTheCap::Closed => assert!(
            answer.as_ref().is_ok_and(String::is_empty)
                || answer.as_ref().is_err_and(|e| e.contains("reset")),
            "{answer:?}"
        ),
    }
    // Once the held connections close, the service has room again (a 503 says to retry).
    drop(held);
    let since = Instant::now();
    loop {
        let mut later = service.connect();
        let answer = later
            .write_all(request(8).as_bytes())
            .map_err(|e| e.to_string())
            .and_then(|()| read_all(&mut later));
        if answer.as_deref().is_ok_and(|a| is_user(a, 8)) {
            break;
        }
        assert!(since.elapsed() < PATIENCE, "still refused: {answer:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn a_truncated_map_ends_the_service(tool: fn(&[&str]) -> Command) {
    let _one = one_at_a_time();
    let service = Service::start(tool, &[]);
    let mut first = service.connect();
    first.write_all(request(5).as_bytes()).unwrap();
    assert!(is_user(&read_all(&mut first).unwrap(), 5));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&service.map)
        .unwrap();
    file.set_len(4096).unwrap();
    for id in [999, 500, 1] {
        // Each lookup meets the missing pages, or the service has already gone.
        if let Ok(mut s) = TcpStream::connect(service.address) {
            s.set_read_timeout(Some(PATIENCE)).unwrap();
            let _ = s.write_all(request(id).as_bytes());
            let answer = read_all(&mut s).unwrap_or_default();
            assert!(
                answer.is_empty(),
                "a lookup in a truncated map answered: {answer}"
            );
        }
    }
    let done = service.wait();
    assert_eq!(done.status.code(), Some(3), "{}", done.report());
    let lines: Vec<&str> = done
        .stderr
        .lines()
        .filter(|l| l.contains("memory became inaccessible"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", done.report());
    assert!(
        lines[0].contains(
            "users.map: the map's memory became inaccessible (SIGBUS): the file was \
             truncated or resized while mapped"
        ) && lines[0].ends_with("never truncate or resize a map file in use"),
        "{}",
        done.report()
    );
    assert!(!done.stderr.contains("Exception"), "{}", done.report());
}

/// Which service a case runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Rust,
    Java,
}

/// An answer expected of a service.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// This status and a body that starts with this (`""`: empty), with this `content-length` when
    /// given (a HEAD's).
    Answer(u16, &'static str, Option<usize>),
    /// The connection closed (or reset) without an answer.
    NoAnswer,
}

/// A request and what each service answers; `why` says why they differ, where they do.
struct Case {
    name: &'static str,
    request: Vec<u8>,
    rust: Expect,
    java: Expect,
    why: &'static str,
}

/// Bytes of user 1's JSON in a map of [`USERS`] users (the GET that a HEAD of user 1 stands for).
const USER_1_LENGTH: usize = 188;

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n").into_bytes()
}

/// The table: every case the services must answer, the same unless `why` says otherwise.
fn cases() -> Vec<Case> {
    let same = |name, request, expect| Case {
        name,
        request,
        rust: expect,
        java: expect,
        why: "",
    };
    let malformed = "{\"error\":\"malformed user id";
    let mut big = b"GET /users/1 HTTP/1.1\r\nhost: t\r\nconnection: close\r\n".to_vec();
    for i in 0..1000 {
        big.extend_from_slice(format!("x-h{i}: {}\r\n", "a".repeat(1000)).as_bytes());
    }
    big.extend_from_slice(b"\r\n");
    vec![
        same(
            "a user",
            get("/users/1"),
            Expect::Answer(200, "{\"id\":1,\"name\":\"user1\"", Some(USER_1_LENGTH)),
        ),
        same(
            "a missing user",
            get("/users/1000"),
            Expect::Answer(404, "{\"error\":\"user 1000 not found\"}", None),
        ),
        same(
            "a malformed id",
            get("/users/abc"),
            Expect::Answer(400, malformed, None),
        ),
        same(
            "a percent-encoded id",
            get("/users/%31"),
            Expect::Answer(200, "{\"id\":1,", None),
        ),
        same(
            "a percent-encoding that is not UTF-8",
            get("/users/%ff"),
            Expect::Answer(400, "{\"error\":\"malformed user id \\\"%ff\\\"", None),
        ),
        same(
            "the service",
            get("/"),
            Expect::Answer(200, "{\"service\":\"sympathy serve-map\",", None),
        ),
        same(
            "another path",
            get("/x"),
            Expect::Answer(
                404,
                "{\"error\":\"no such resource /x: try GET /users/{id}\"}",
                None,
            ),
        ),
        same(
            "HEAD",
            b"HEAD /users/1 HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n".to_vec(),
            Expect::Answer(200, "", Some(USER_1_LENGTH)),
        ),
        same(
            "another method",
            b"POST /users/1 HTTP/1.1\r\nhost: t\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                .to_vec(),
            Expect::Answer(405, "", Some(0)),
        ),
        same(
            "HTTP/9.9",
            b"GET /users/1 HTTP/9.9\r\nhost: t\r\nconnection: close\r\n\r\n".to_vec(),
            Expect::Answer(400, "", Some(0)),
        ),
        // Answered HTTP/1.0 by hyper, HTTP/1.1 by the JDK: both allowed (RFC 9110, 6.2).
        same(
            "HTTP/1.0",
            b"GET /users/1 HTTP/1.0\r\n\r\n".to_vec(),
            Expect::Answer(200, "{\"id\":1,", None),
        ),
        same(
            "no Host",
            b"GET /users/1 HTTP/1.1\r\nconnection: close\r\n\r\n".to_vec(),
            Expect::Answer(200, "{\"id\":1,", None),
        ),
        Case {
            name: "an invalid percent-encoding",
            request: get("/users/%zz"),
            rust: Expect::Answer(400, malformed, None),
            java: Expect::Answer(400, "<h1>400 Bad Request</h1>", None),
            why: "the JDK server refuses a URI it cannot parse with its own page",
        },
        Case {
            name: "bare LF line ends",
            request: b"GET /users/1 HTTP/1.1\nhost: t\nconnection: close\n\n".to_vec(),
            rust: Expect::Answer(200, "{\"id\":1,", None),
            java: Expect::NoAnswer,
            why: "hyper reads LF as a line end (RFC 9112, 2.2 allows it); the JDK server waits for \
                  CRLF until the read timeout",
        },
        Case {
            name: "1 MB of headers",
            request: big,
            rust: Expect::Answer(431, "", Some(0)),
            java: Expect::NoAnswer,
            why: "the JDK server closes a connection past its 380 KiB of headers unanswered",
        },
    ]
}

/// What `answer` (the raw response) says: its status, `content-length` and body.
fn parse(answer: &str) -> Option<(u16, Option<usize>, &str)> {
    let (head, body) = answer.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let length = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse().ok())
            .flatten()
    });
    Some((status, length, body))
}

fn the_services_answer_the_table(tool: fn(&[&str]) -> Command, side: Side) {
    let _one = one_at_a_time();
    let service = Service::start(tool, &["--read-timeout-ms", "1000"]);
    let mut wrong = Vec::new();
    for case in cases() {
        let expect = match side {
            Side::Rust => case.rust,
            Side::Java => case.java,
        };
        let mut s = service.connect();
        let answer = s
            .write_all(&case.request)
            .map_err(|e| e.to_string())
            .and_then(|()| read_all(&mut s));
        let fits = match (expect, &answer) {
            (Expect::NoAnswer, Ok(a)) => a.is_empty(),
            (Expect::NoAnswer, Err(e)) => e.contains("reset"),
            (Expect::Answer(status, body, length), Ok(a)) => parse(a).is_some_and(|(s, l, b)| {
                s == status
                    && b.starts_with(body)
                    && (body.is_empty() == b.is_empty())
                    && length.is_none_or(|n| l == Some(n))
            }),
            (Expect::Answer(..), Err(_)) => false,
        };
        if !fits {
            wrong.push(format!(
                "{}: expected {expect:?}{}, got {answer:?}",
                case.name,
                if case.why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", case.why)
                }
            ));
        }
    }
    assert!(wrong.is_empty(), "{side:?}:\n{}", wrong.join("\n"));
}

#[test]
fn rust_half_closed_clients_get_their_answers() {
    half_closed_clients_get_their_answers(sympathy);
}

#[test]
fn rust_slow_and_idle_clients_are_cut() {
    slow_and_idle_clients_are_cut(sympathy);
}

#[test]
fn rust_clients_past_the_cap_are_answered_503_at_once() {
    clients_past_the_cap_are_refused_at_once(sympathy, PastTheCap::Answered503);
}

#[test]
fn rust_the_service_answers_the_table() {
    the_services_answer_the_table(sympathy, Side::Rust);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_the_service_answers_the_table() {
    sidecar_built();
    the_services_answer_the_table(sidecar, Side::Java);
}

#[test]
fn rust_a_truncated_map_ends_the_service() {
    a_truncated_map_ends_the_service(sympathy);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_a_truncated_map_ends_the_service() {
    sidecar_built();
    a_truncated_map_ends_the_service(sidecar);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_half_closed_clients_get_their_answers() {
    sidecar_built();
    half_closed_clients_get_their_answers(sidecar);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_slow_and_idle_clients_are_cut() {
    sidecar_built();
    slow_and_idle_clients_are_cut(sidecar);
}

#[test]
#[ignore = "needs the Java build: ci/java-test runs it"]
fn java_clients_past_the_cap_are_closed_at_once() {
    sidecar_built();
    clients_past_the_cap_are_refused_at_once(sidecar, PastTheCap::Closed);
}
