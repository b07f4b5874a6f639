//! The open-loop load of map-service: requests sent at a fixed rate whatever the server does,
//! each answer's latency counted from the moment its request was *due*, and every answer's
//! status and body compared, byte for byte, with the one expected.
//!
//! A closed-loop generator (wrk) sends a connection's next request only when its last answer
//! has come: a server that stalls for 50 ms delays one request per connection, and the requests
//! that would have been sent during the stall are never sent, so the pause hardly shows in the
//! percentiles ("coordinated omission"). Here request `k` of a run is due `k / rate` seconds
//! after the start, whether or not the server kept up. Connection `k % connections` sends it
//! once it is due and that connection's previous answer has been read (HTTP/1.1 without
//! pipelining, as wrk2 does), and its latency runs from when it was due to when its answer was
//! read: a server that stalls is charged for every request that fell due during the stall.
//!
//! ```text
//!   due       0    1/r   2/r   3/r   ...       request k is due at start + k/r
//!   conn 0    |k=0 ------>|       |k=c --->    on connection k % c, sent at
//!   conn 1         |k=1 -->|                   max(due, that connection's last answer)
//!   latency   answer read - due
//! ```
//!
//! The generator is one thread spinning over one `mio` poll (edge-triggered epoll, a zero
//! timeout) on a core of its own: it sends on time without a timer (tokio's timers count whole
//! milliseconds, coarser than the answers it measures), and how late it sent is counted
//! ([`OpenOutcome::late`]).

use std::io::{ErrorKind, Read, Write};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use hdrhistogram::Histogram;
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

/// A request sent this long after it was due counts as late ([`OpenOutcome::late`]).
pub const LATE: Duration = Duration::from_millis(1);

/// One request of a load and the answer it must get.
#[derive(Debug, Clone)]
pub struct Exchange {
    /// What the request asks for (its path), for messages.
    path: String,
    /// The request's bytes.
    request: Vec<u8>,
    /// The status the answer must have.
    status: u16,
    /// The body the answer must have, byte for byte.
    body: Vec<u8>,
}

impl Exchange {
    /// `GET path` on a keep-alive connection to `host`, which must answer `status` with `body`.
    ///
    /// ```ignore
    /// let hit = Exchange::get("127.0.0.1:8080", "/users/7", 200, user_json(7));
    /// ```
    pub fn get(host: &str, path: &str, status: u16, body: impl Into<Vec<u8>>) -> Exchange {
        Exchange {
            path: path.to_string(),
            request: format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes(),
            status,
            body: body.into(),
        }
    }
}

/// A load at a fixed rate: `requests` requests, request `k` being `exchanges[k % len]`.
#[derive(Debug, Clone, Copy)]
pub struct OpenLoad<'a> {
    /// The server.
    pub addr: SocketAddr,
    /// Keep-alive connections, opened before the first request is due.
    pub connections: usize,
    /// Requests per second over all connections.
    pub rate: f64,
    /// Requests in the run.
    pub requests: u64,
    /// How long after the last request fell due the run may wait for the answers still owed;
    /// past it, the run fails (the server could not keep up with the rate).
    pub grace: Duration,
    /// The requests and their answers, used in turn.
    pub exchanges: &'a [Exchange],
}

/// What one open-loop run measured.
#[derive(Debug)]
pub struct OpenOutcome {
    /// Answers read, all as expected (every request of the run).
    pub answered: u64,
    /// From when the first request fell due to when the last answer was read.
    pub seconds: f64,
    /// Each answer's latency, from when its request fell due, in nanoseconds.
    pub latency_ns: Histogram<u64>,
    /// Requests sent more than [`LATE`] after they fell due, because their connection still
    /// waited for an answer (the server fell behind) or the generator did.
    pub late: u64,
}

/// A connection and the request it waits on.
struct Connection {
    stream: TcpStream,
    /// The index of the next request this connection sends.
    next: u64,
    /// The request sent and not yet answered: its index and when it fell due.
    waiting: Option<(u64, Instant)>,
    /// Bytes read and not yet consumed.
    read: Vec<u8>,
}

impl OpenLoad<'_> {
    /// [`OpenLoad::run`] on a thread pinned to `core` (the pin read back).
    pub fn run_on(&self, core: usize) -> Result<OpenOutcome> {
        sympathy_harness::pin::run_pinned(core, || self.run())
            .map_err(|e| anyhow::anyhow!("pin the load generator to core {core}: {e}"))?
    }

    /// Runs the load: opens the connections, sends every request when it falls due, reads and
    /// checks every answer. Fails at the first answer that is not the one expected, a
    /// connection the server closed or broke, or answers still owed `grace` after the last
    /// request fell due.
    pub fn run(&self) -> Result<OpenOutcome> {
        if self.connections == 0 || self.requests == 0 || self.exchanges.is_empty() {
            bail!("an open-loop load needs connections, requests and exchanges");
        }
        if !(self.rate.is_finite() && self.rate > 0.0) {
            bail!("an open-loop rate must be a positive number of requests per second");
        }
        let mut poll = Poll::new().context("create the load generator's poll")?;
        let mut connections = Vec::with_capacity(self.connections);
        for i in 0..self.connections {
            let stream = std::net::TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))
                .with_context(|| format!("connect to the server at {}", self.addr))?;
            stream.set_nodelay(true).context("set TCP_NODELAY")?;
            stream
                .set_nonblocking(true)
                .context("make a socket non-blocking")?;
            let mut stream = TcpStream::from_std(stream);
            poll.registry()
                .register(&mut stream, Token(i), Interest::READABLE)
                .context("register a connection")?;
            connections.push(Connection {
                stream,
                next: i as u64,
                waiting: None,
                read: Vec::with_capacity(4096),
            });
        }
        let period_ns = 1e9 / self.rate;
        let start = Instant::now() + Duration::from_millis(10);
        let due = |k: u64| start + Duration::from_nanos((k as f64 * period_ns) as u64);
        let give_up = due(self.requests - 1) + self.grace;
        let mut latency_ns =
            Histogram::<u64>::new_with_bounds(1, 600_000_000_000, 3).expect("valid bounds");
        let (mut answered, mut late, mut last_answer) = (0u64, 0u64, start);
        let mut events = Events::with_capacity(self.connections.max(64));
        let step = self.connections as u64;
        while answered < self.requests {
            let now = Instant::now();
            if now > give_up {
                bail!(
                    "{answered} of {} answers read {:.1} s after the last request fell due: the \
                     server does not keep up with {:.0} requests/s; give a lower rate",
                    self.requests,
                    self.grace.as_secs_f64(),
                    self.rate
                );
            }
            for connection in &mut connections {
                if connection.waiting.is_some() || connection.next >= self.requests {
                    continue;
                }
                let k = connection.next;
                let at = due(k);
                if at > now {
                    continue;
                }
                let exchange = &self.exchanges[(k % self.exchanges.len() as u64) as usize];
                connection.send(&exchange.request, give_up)?;
                if now.duration_since(at) > LATE {
                    late += 1;
                }
                connection.waiting = Some((k, at));
                connection.next += step;
            }
            poll.poll(&mut events, Some(Duration::ZERO))
                .context("poll the connections")?;
            for event in events.iter() {
                let connection = &mut connections[event.token().0];
                connection.fill()?;
                let Some((k, at)) = connection.waiting else {
                    if connection.read.is_empty() {
                        continue;
                    }
                    bail!("the server sent bytes no request asked for");
                };
                let exchange = &self.exchanges[(k % self.exchanges.len() as u64) as usize];
                if connection.take_answer(exchange)? {
                    let read_at = Instant::now();
                    let ns = read_at.duration_since(at).as_nanos() as u64;
                    latency_ns
                        .record(ns.clamp(1, latency_ns.high()))
                        .expect("clamped into the bounds");
                    connection.waiting = None;
                    answered += 1;
                    last_answer = read_at;
                }
            }
        }
        Ok(OpenOutcome {
            answered,
            seconds: last_answer.duration_since(start).as_secs_f64(),
            latency_ns,
            late,
        })
    }
}

impl Connection {
    /// Writes all of `request` (a few dozen bytes into an idle socket: written at once unless
    /// the server stopped reading).
    fn send(&mut self, request: &[u8], give_up: Instant) -> Result<()> {
        let mut written = 0;
        while written < request.len() {
            match self.stream.write(&request[written..]) {
                Ok(0) => bail!("the server closed a connection while a request was written"),
                Ok(n) => written += n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if Instant::now() > give_up {
                        bail!(
                            "the server stopped reading requests (a connection's send buffer stayed full)"
                        );
                    }
                    std::hint::spin_loop();
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e).context("send a request"),
            }
        }
        Ok(())
    }

    /// Reads what the socket holds (edge-triggered: until it would block).
    fn fill(&mut self) -> Result<()> {
        let mut chunk = [0u8; 8192];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => bail!(
                    "the server closed a keep-alive connection{}",
                    if self.waiting.is_some() {
                        " before answering its request"
                    } else {
                        ""
                    }
                ),
                Ok(n) => self.read.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(()),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e).context("read an answer"),
            }
        }
    }

    /// Consumes the answer to `exchange` when all of it has been read (`Ok(false)`: not yet),
    /// after checking its status and body.
    fn take_answer(&mut self, exchange: &Exchange) -> Result<bool> {
        let Some((head, status, length)) = parse_head(&self.read, &exchange.path)? else {
            return Ok(false);
        };
        if self.read.len() < head + length {
            return Ok(false);
        }
        let body = &self.read[head..head + length];
        if status != exchange.status || body != exchange.body.as_slice() {
            bail!(
                "GET {} answered {status} {} where {} {} was expected",
                exchange.path,
                shorten(body),
                exchange.status,
                shorten(&exchange.body)
            );
        }
        self.read.drain(..head + length);
        Ok(true)
    }
}

/// The status line and headers at the front of `read`: `(head length, status,
/// content-length)`, or `None` while incomplete.
fn parse_head(read: &[u8], path: &str) -> Result<Option<(usize, u16, usize)>> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut response = httparse::Response::new(&mut headers);
    let head = match response.parse(read) {
        Ok(httparse::Status::Complete(head)) => head,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => bail!(
            "GET {path}: the answer is not HTTP/1.1 ({e}): {}",
            shorten(read)
        ),
    };
    let status = response.code.unwrap_or_default();
    let mut length = None;
    for header in response.headers.iter() {
        if header.name.eq_ignore_ascii_case("content-length") {
            length = std::str::from_utf8(header.value)
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok());
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            bail!(
                "GET {path}: the answer is chunked; the load generator reads only answers with a content-length"
            );
        }
    }
    let length =
        length.with_context(|| format!("GET {path}: the answer has no valid content-length"))?;
    Ok(Some((head, status, length)))
}

/// At most 120 bytes of `bytes`, as text.
fn shorten(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned();
    if bytes.len() > 120 {
        format!("{text}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;
    use std::net::TcpListener;

    /// A server on a thread answering each request with `answer(path)`, after `delay`.
    fn serve(
        answer: fn(&str) -> (u16, String),
        delay: Duration,
    ) -> (SocketAddr, std::thread::JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let handle = std::thread::spawn(move || {
            let mut workers = Vec::new();
            for stream in listener.incoming().take(2) {
                let stream = stream.unwrap();
                workers.push(std::thread::spawn(move || {
                    let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                    let mut writer = stream;
                    loop {
                        let mut line = String::new();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
                        loop {
                            let mut header = String::new();
                            reader.read_line(&mut header).unwrap();
                            if header == "\r\n" {
                                break;
                            }
                        }
                        std::thread::sleep(delay);
                        let (status, body) = answer(&path);
                        let text = format!(
                            "HTTP/1.1 {status} X\r\ncontent-length: {}\r\n\r\n{body}",
                            body.len()
                        );
                        if writer.write_all(text.as_bytes()).is_err() {
                            return;
                        }
                    }
                }));
            }
            for worker in workers {
                let _ = worker.join();
            }
        });
        (addr, handle)
    }

    fn exchanges() -> Vec<Exchange> {
        (0..10)
            .map(|i| Exchange::get("h", &format!("/users/{i}"), 200, format!("user {i}")))
            .collect()
    }

    fn load(addr: SocketAddr, exchanges: &[Exchange], rate: f64) -> OpenLoad<'_> {
        OpenLoad {
            addr,
            connections: 2,
            rate,
            requests: 40,
            grace: Duration::from_secs(5),
            exchanges,
        }
    }

    fn echo_user(path: &str) -> (u16, String) {
        (200, format!("user {}", path.trim_start_matches("/users/")))
    }

    #[test]
    fn every_request_is_answered_and_checked_at_the_rate_asked() {
        let (addr, server) = serve(echo_user, Duration::ZERO);
        let exchanges = exchanges();
        let outcome = load(addr, &exchanges, 2000.0).run().unwrap();
        assert_eq!(outcome.answered, 40);
        assert_eq!(outcome.latency_ns.len(), 40);
        // 40 requests at 2000/s fall due over 19.5 ms: the run cannot be shorter.
        assert!(outcome.seconds >= 0.0195, "{}", outcome.seconds);
        server.join().unwrap();
    }

    #[test]
    fn a_wrong_body_fails_the_run_and_names_the_request() {
        fn wrong(path: &str) -> (u16, String) {
            if path == "/users/3" {
                (200, "user 4".to_string())
            } else {
                echo_user(path)
            }
        }
        let (addr, _server) = serve(wrong, Duration::ZERO);
        let exchanges = exchanges();
        let error = load(addr, &exchanges, 5000.0)
            .run()
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("GET /users/3 answered 200 user 4 where 200 user 3 was expected"),
            "{error}"
        );
    }

    #[test]
    fn a_wrong_status_fails_the_run() {
        fn missing(path: &str) -> (u16, String) {
            let (_, body) = echo_user(path);
            (404, body)
        }
        let (addr, _server) = serve(missing, Duration::ZERO);
        let exchanges = exchanges();
        let error = load(addr, &exchanges, 5000.0)
            .run()
            .unwrap_err()
            .to_string();
        assert!(error.contains("answered 404"), "{error}");
    }

    #[test]
    fn a_slow_server_is_charged_from_when_each_request_fell_due() {
        // 10 ms per answer on each of 2 connections serves 200/s; 1000/s are asked for, so the
        // requests queue behind each other: a closed-loop generator would see ~10 ms each, an
        // open-loop one sees the queue grow to ~(40/2 answers * 10 ms - 40/1000 s) at the end.
        let (addr, server) = serve(echo_user, Duration::from_millis(10));
        let exchanges = exchanges();
        let outcome = load(addr, &exchanges, 1000.0).run().unwrap();
        assert_eq!(outcome.answered, 40);
        let max_ms = outcome.latency_ns.max() as f64 / 1e6;
        assert!(max_ms > 100.0, "max latency {max_ms} ms");
        assert!(outcome.late > 0);
        server.join().unwrap();
    }

    #[test]
    fn answers_owed_past_the_grace_fail_the_run_with_what_to_do() {
        let (addr, _server) = serve(echo_user, Duration::from_millis(200));
        let exchanges = exchanges();
        let mut slow = load(addr, &exchanges, 1000.0);
        slow.grace = Duration::from_millis(100);
        let error = slow.run().unwrap_err().to_string();
        assert!(
            error.contains("does not keep up with 1000 requests/s; give a lower rate"),
            "{error}"
        );
    }
}
