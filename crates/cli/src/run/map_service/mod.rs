//! `sympathy run map-service`: the seed's lookup service measured on loopback. A map of `users`
//! users is built (the Rust writer, untimed), a server is started on it in its own process
//! (`sympathy serve-map`, or with `--server java` the Java twin `java/sidecar serve-map`), pinned
//! (with `taskset`) to one core, and a load generator pinned to another sends `GET /users/{id}`
//! of random ids: hits (each answer must be 200 and the user's JSON) and misses (404 and the
//! error's JSON). Each case is measured two ways, after an untimed warm-up:
//!
//! - **closed loop, at saturation** (`lookups_per_sec`): wrk (`wrk.lua`) with `connections`
//!   connections, each sending its next request as soon as its last answer came, for at most
//!   `requests` answers or `max_seconds`; every status checked, every body's shape (a hit's
//!   begins with its `{"id":`, a miss's is the not-found error).
//! - **open loop, at fixed rates** (`latency_p50_ns`, `latency_p99_ns`, `latency_max_ns`): each
//!   `rate` of the catalog for `open_seconds`, requests sent when they fall due whatever the
//!   server does, latency from when each fell due, every body compared byte for byte with the
//!   one expected ([`open_loop`]). wrk's closed-loop percentiles hide a server's pauses (a
//!   stalled connection sends nothing more), so no latency comes from it.
//!
//! The store-release hop between the two cores is probed before and after (printed beside the
//! figures).
//!
//! `java/sidecar run map-service` is this command with `--server java`: one harness for both
//! servers, so the two languages' rows differ only in the server. `--server rust,java` measures
//! both in one command, over one map, alternating run by run (the way to compare them).

mod open_loop;

use open_loop::{Exchange, OpenLoad};

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use serde_json::Value;
use sympathy_harness::rng::SplitMix64;
use sympathy_harness::{Check, Metric, Reporter, Stats};
use sympathy_map::MapFile;
use sympathy_map::user::{FlyweightCodec, UserCodec, UserView, generate, json, map_config};

use crate::experiment::catalog::{u64_or, u64s_at, variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};

const EXPERIMENT: &str = "map-service";

/// The most requests one open-loop run may send (rate x open_seconds): a billion, hours of any
/// server this harness has met.
const MAX_OPEN_REQUESTS: u64 = 1_000_000_000;

/// The closed-loop load script (wrk's Lua): random ids, every status and body shape checked, a
/// JSON line at the end.
const WRK_SCRIPT: &str = include_str!("wrk.lua");

/// What is asked of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Users that exist.
    HttpHit,
    /// Ids past the last user.
    HttpMiss,
}

sympathy_harness::catalog_variant!(Variant, EXPERIMENT);

impl Variant {
    /// Every variant, in the catalog's order.
    pub const ALL: [Variant; 2] = [Variant::HttpHit, Variant::HttpMiss];

    /// The catalog's name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::HttpHit => "http-hit",
            Variant::HttpMiss => "http-miss",
        }
    }

    fn wrk_mode(self) -> &'static str {
        match self {
            Variant::HttpHit => "hit",
            Variant::HttpMiss => "miss",
        }
    }
}

/// Which server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Server {
    /// `sympathy serve-map` (axum), one thread.
    #[default]
    Rust,
    /// `java/sidecar serve-map` (the JDK's HttpServer, virtual threads).
    Java,
}

impl Server {
    fn language(self) -> &'static str {
        match self {
            Server::Rust => "rust",
            Server::Java => "java",
        }
    }
}

/// Flags of `sympathy run map-service`.
#[derive(Args, Debug, Clone, Default)]
pub struct MapServiceArgs {
    /// Users in the served map [default: users of experiments/map-service.toml].
    #[arg(long)]
    pub users: Option<u64>,
    /// Open connections of the load generators [default: the catalog's connections].
    #[arg(long)]
    pub connections: Option<u64>,
    /// Answers per closed-loop run [default: the catalog's requests].
    #[arg(long)]
    pub requests: Option<u64>,
    /// The longest a closed-loop run may last, in seconds [default: the catalog's max_seconds].
    #[arg(long)]
    pub max_seconds: Option<u64>,
    /// Open-loop rates, requests per second, comma-separated [default: the catalog's rate].
    #[arg(long, value_delimiter = ',')]
    pub rate: Option<Vec<u64>>,
    /// Seconds of requests per open-loop run [default: the catalog's open_seconds].
    #[arg(long)]
    pub open_seconds: Option<u64>,
    /// Lookups to measure, comma-separated: http-hit, http-miss [default: both].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// The servers, comma-separated: rust (`sympathy serve-map`), java (`java/sidecar
    /// serve-map`); results carry each one's language. With both, one command measures both,
    /// alternating run by run over one map [default: rust].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub server: Vec<Server>,
    /// Serve this map of users (ids 0..--users) instead of building one for the run.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// The server's core and the load generator's, `S,L` [default: the last two usable cores,
    /// the server on the last].
    #[arg(long)]
    pub cores: Option<String>,
}

/// How a case loads the server.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// wrk, closed loop, as fast as the server answers: at most `requests` answers or
    /// `max_seconds`.
    Saturate { requests: u64, max_seconds: u64 },
    /// The open-loop generator at `rate` requests/s for `seconds`.
    Fixed { rate: u64, seconds: u64 },
}

/// One measured case: the server, the lookups, the map and how it is loaded.
#[derive(Debug, Clone, Copy)]
pub struct Load {
    server: Server,
    variant: Variant,
    users: u64,
    connections: u64,
    pace: Pace,
}

impl Experiment for MapServiceArgs {
    type Work = Load;
    const NAME: &'static str = EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<Load>>> {
        let preset = common.preset();
        let users = u64_or(self.users, EXPERIMENT, "users", preset)?;
        let connections = u64_or(self.connections, EXPERIMENT, "connections", preset)?;
        let requests = u64_or(self.requests, EXPERIMENT, "requests", preset)?;
        let max_seconds = u64_or(self.max_seconds, EXPERIMENT, "max_seconds", preset)?;
        let open_seconds = u64_or(self.open_seconds, EXPERIMENT, "open_seconds", preset)?;
        let rates = match &self.rate {
            Some(rates) => rates.clone(),
            None => u64s_at(EXPERIMENT, "rate", preset)?,
        };
        if users == 0 || connections == 0 || requests == 0 || max_seconds == 0 || open_seconds == 0
        {
            bail!(
                "--users, --connections, --requests, --max-seconds and --open-seconds must be at \
                 least 1"
            );
        }
        if rates.contains(&0) {
            bail!("--rate: every rate must be at least 1 request per second");
        }
        if let Some(&rate) = rates.iter().find(|&&rate| {
            rate.checked_mul(open_seconds)
                .is_none_or(|n| n > MAX_OPEN_REQUESTS)
        }) {
            bail!(
                "--rate {rate} for --open-seconds {open_seconds}: more than {MAX_OPEN_REQUESTS} \
                 requests in one open-loop run; give a lower rate or fewer seconds"
            );
        }
        let variants = variants_or(&self.variants, preset)?;
        let mut cases = Vec::new();
        for server in self.servers() {
            for &variant in &variants {
                let load = |pace| Load {
                    server,
                    variant,
                    users,
                    connections,
                    pace,
                };
                let case = |pace| {
                    Case::new(load(pace), variant.name(), server.language())
                        .param("users", users)
                        .param("connections", connections)
                };
                cases.push(
                    case(Pace::Saturate {
                        requests,
                        max_seconds,
                    })
                    .param("requests", requests)
                    .param("max_seconds", max_seconds),
                );
                for &rate in &rates {
                    cases.push(
                        case(Pace::Fixed {
                            rate,
                            seconds: open_seconds,
                        })
                        .param("rate", rate)
                        .param("open_seconds", open_seconds),
                    );
                }
            }
        }
        Ok(cases)
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<Load>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let Some(first) = cases.first() else {
            return Ok(());
        };
        let runs = common.runs(Self::NAME)?;
        let (server_core, load_core) = self.cores()?;
        let wrk = which("wrk").context(
            "wrk (the load generator) is not installed: `apt-get install wrk` (ci/setup does)",
        )?;
        let scratch = Scratch::new()?;
        let script = scratch.dir.join("map-service.lua");
        std::fs::write(&script, WRK_SCRIPT).context("write the wrk script")?;
        let users = first.work.users;
        let map_path = match &self.map {
            Some(path) => {
                let map = MapFile::open_read_only(path)?;
                if map.len() != users {
                    bail!(
                        "{}: holds {} users, not --users {users}",
                        path.display(),
                        map.len(),
                    );
                }
                path.clone()
            }
            None => {
                let path = scratch.dir.join("users.map");
                let start = Instant::now();
                build_users(&path, users)?;
                reporter.line(&format!(
                    "# map-service: {users} users built in {:.1} s into {}",
                    start.elapsed().as_secs_f64(),
                    path.display()
                ))?;
                path
            }
        };
        let mut servers = Vec::new();
        for server in self.servers() {
            let process = ServerProcess::start(server, &map_path, server_core)?;
            reporter.line(&format!(
                "# map-service: {} server at {} on core {server_core}",
                server.language(),
                process.url
            ))?;
            servers.push(process);
        }
        reporter.line(&format!(
            "# map-service: load on core {load_core}, {} connections: wrk (1 thread, closed \
             loop) and the open-loop generator; {runs} run(s) per case, alternating run by run",
            first.work.connections
        ))?;
        let hop_before = probe_hop((load_core, server_core));
        // Warm-up: the JIT (Java) and the caches, untimed; both kinds of lookup, every server.
        let warm_seconds = match common.preset() {
            sympathy_harness::Preset::Smoke => 1,
            sympathy_harness::Preset::Quick => 3,
            _ => 10,
        };
        for server in &servers {
            for variant in Variant::ALL {
                let warm = Load {
                    variant,
                    pace: Pace::Saturate {
                        requests: u64::MAX / 4,
                        max_seconds: warm_seconds,
                    },
                    ..first.work
                };
                run_wrk(&wrk, &script, &server.url, &warm, load_core, 99)?;
            }
        }
        // Run 0 of every case, then run 1 of every case, ...: each server, kind of lookup and
        // pace meets the same machine. A case's samples: one per metric it reports.
        let mut samples: Vec<Vec<Vec<f64>>> = vec![Vec::new(); cases.len()];
        for run in 0..runs {
            // The open-loop requests of this run, the same bytes for every server.
            let mut exchanges: Vec<(Variant, Vec<Exchange>)> = Vec::new();
            for case in cases {
                let variant = case.work.variant;
                if matches!(case.work.pace, Pace::Fixed { .. })
                    && !exchanges.iter().any(|(v, _)| *v == variant)
                {
                    exchanges.push((variant, self::exchanges(variant, users, run as u64)));
                }
            }
            for (case, samples) in cases.iter().zip(samples.iter_mut()) {
                let load = case.work;
                let server = servers
                    .iter_mut()
                    .find(|s| s.server == load.server)
                    .expect("a process per server");
                server.check_alive()?;
                let figures = match load.pace {
                    Pace::Saturate { .. } => {
                        let cpu_before = server.cpu_seconds()?;
                        let outcome =
                            run_wrk(&wrk, &script, &server.url, &load, load_core, run as u64)?;
                        let cpu = server.cpu_seconds()? - cpu_before;
                        let per_cpu_second = outcome.answered as f64 / cpu.max(f64::EPSILON);
                        reporter.line(&format!(
                            "{run} - {} {:<9} closed loop: {:.0} lookups/s ({} answers in {:.2} s; \
                             the server's CPU {cpu:.2} s: {per_cpu_second:.0} lookups per CPU-second)",
                            load.server.language(),
                            load.variant.name(),
                            outcome.rate,
                            outcome.answered,
                            outcome.seconds
                        ))?;
                        vec![outcome.rate, per_cpu_second]
                    }
                    Pace::Fixed { rate, seconds } => {
                        let (_, pool) = exchanges
                            .iter()
                            .find(|(v, _)| *v == load.variant)
                            .expect("a pool per variant");
                        let outcome = OpenLoad {
                            addr: server.addr()?,
                            connections: load.connections as usize,
                            rate: rate as f64,
                            requests: rate * seconds,
                            grace: Duration::from_secs(10),
                            exchanges: pool,
                        }
                        .run_on(load_core)
                        .with_context(|| {
                            format!(
                                "{} server, {} at {rate}/s",
                                load.server.language(),
                                load.variant.name()
                            )
                        })?;
                        let h = &outcome.latency_ns;
                        let [p50, p99, max] =
                            [h.value_at_quantile(0.5), h.value_at_quantile(0.99), h.max()]
                                .map(|ns| ns as f64);
                        reporter.line(&format!(
                            "{run} - {} {:<9} open loop at {rate}/s: p50={:.1}us p99={:.1}us \
                             max={:.1}us ({} answers in {:.2} s, {} sent late)",
                            load.server.language(),
                            load.variant.name(),
                            p50 / 1e3,
                            p99 / 1e3,
                            max / 1e3,
                            outcome.answered,
                            outcome.seconds,
                            outcome.late
                        ))?;
                        vec![p50, p99, max]
                    }
                };
                samples.resize(figures.len(), Vec::new());
                for (metric, figure) in samples.iter_mut().zip(figures) {
                    metric.push(figure);
                }
            }
        }
        for (case, samples) in cases.iter().zip(&samples) {
            let metrics: &[Metric] = match case.work.pace {
                Pace::Saturate { .. } => &[Metric::LookupsPerSec, Metric::LookupsPerCpuSec],
                Pace::Fixed { .. } => &[
                    Metric::LatencyP50Ns,
                    Metric::LatencyP99Ns,
                    Metric::LatencyMaxNs,
                ],
            };
            for (&metric, samples) in metrics.iter().zip(samples) {
                let stats = Stats::from_samples(samples).context("no valid samples")?;
                reporter.result(case.result(EXPERIMENT, metric, stats).check(Check::Ok))?;
            }
        }
        let hop_after = probe_hop((load_core, server_core));
        reporter.line(&format!(
            "# map-service: store-release hop between cores {load_core} and {server_core}: \
             {hop_before} before, {hop_after} after"
        ))?;
        for server in servers {
            server.stop()?;
        }
        Ok(())
    }
}

/// Pool of the open-loop requests of `variant` (as many as wrk's Lua script prepares): random
/// ids from `seed`, each with the answer it must get. A hit's body is the user as `generate`
/// makes it, rendered as the server renders a stored user (flyweight bytes, then JSON), so it
/// checks the map's contents as well as the server; a miss's is the not-found error. The
/// `Host` header names the loopback address without a port, so both servers get the same bytes.
fn exchanges(variant: Variant, users: u64, seed: u64) -> Vec<Exchange> {
    const POOL: usize = 65_536;
    let host = "127.0.0.1";
    let mut rng = SplitMix64::new(seed.wrapping_mul(0x9E37_79B9) ^ 0x6d61_7073);
    (0..POOL)
        .map(|_| match variant {
            Variant::HttpHit => {
                let id = rng.below(users);
                let user = generate(id, users);
                let mut bytes = vec![0u8; FlyweightCodec.encoded_len(&user)];
                FlyweightCodec.encode(&user, &mut bytes);
                let mut body = String::with_capacity(256);
                UserView::new(&bytes)
                    .and_then(|view| json::write_user(&view, &mut body))
                    .expect("a generated user encodes and renders");
                Exchange::get(host, &format!("/users/{id}"), 200, body)
            }
            Variant::HttpMiss => {
                let id = users.saturating_add(rng.below(1_000_000));
                Exchange::get(
                    host,
                    &format!("/users/{id}"),
                    404,
                    crate::map::serve::not_found_body(id),
                )
            }
        })
        .collect()
}

impl MapServiceArgs {
    /// The servers asked for, each once, in order (rust when none).
    fn servers(&self) -> Vec<Server> {
        let mut servers = Vec::new();
        for &s in &self.server {
            if !servers.contains(&s) {
                servers.push(s);
            }
        }
        if servers.is_empty() {
            servers.push(Server::Rust);
        }
        servers
    }

    /// The server's core and the load generator's.
    fn cores(&self) -> Result<(usize, usize)> {
        if let Some(text) = &self.cores {
            let cores = sympathy_harness::pin::parse_core_list(text)
                .map_err(|e| anyhow::anyhow!("--cores {text}: {e}"))?;
            match cores[..] {
                [server, load] if server != load => return Ok((server, load)),
                _ => bail!("--cores {text}: give two different cores, the server's then wrk's"),
            }
        }
        let cores = sympathy_harness::pin::available_cores();
        match cores[..] {
            [.., load, server] => Ok((server, load)),
            _ => bail!(
                "map-service needs two cores (the server's and the load generator's); this \
                 process may use {cores:?}"
            ),
        }
    }
}

/// Puts users `0..users` into a new map at `path`.
fn build_users(path: &Path, users: u64) -> Result<()> {
    let map = MapFile::create(path, &map_config(users)?)?;
    let mut writer = map.writer()?;
    for id in 0..users {
        let user = generate(id, users);
        writer.put_with(id, FlyweightCodec.encoded_len(&user), |b| {
            FlyweightCodec.encode(&user, b)
        })?;
    }
    Ok(())
}

/// A folder for the run's map and script, removed when dropped.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new() -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("sympathy-map-service-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("create {}", dir.display()))?;
        Ok(Scratch { dir })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running server process.
struct ServerProcess {
    child: Child,
    url: String,
    server: Server,
}

impl ServerProcess {
    /// Starts the server on a free port, confined to `core` with `taskset`, and waits for its
    /// "listening on" line (a JVM takes a while).
    fn start(server: Server, map: &Path, core: usize) -> Result<ServerProcess> {
        let taskset =
            which("taskset").context("taskset (util-linux) is needed to pin the server")?;
        let mut command = Command::new(taskset);
        command.arg("-c").arg(core.to_string());
        match server {
            Server::Rust => {
                command
                    .arg(std::env::current_exe().context("find the sympathy executable")?)
                    .args(["serve-map", "--port", "0", "--threads", "1"])
                    .arg(map);
            }
            Server::Java => {
                let java = sympathy_lab::peer::JavaSidecar::locate()?;
                java.probe()?;
                command
                    .arg(java.path())
                    .args(["serve-map", "--port", "0"])
                    .arg(map);
            }
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("start the {} server", server.language()))?;
        let stderr = child.stderr.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if !sent && let Some(at) = line.find("listening on http://") {
                    let url: String = line[at + "listening on ".len()..]
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_string();
                    let _ = tx.send(Ok(url));
                    sent = true;
                } else if !sent {
                    let _ = tx.send(Err(line));
                } else {
                    eprintln!("server: {line}");
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(180);
        let mut said = Vec::new();
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(Ok(url)) => {
                    return Ok(ServerProcess { child, url, server });
                }
                Ok(Err(line)) => said.push(line),
                Err(_) => {
                    if let Some(status) = child.try_wait()? {
                        bail!(
                            "the {} server exited ({status}) before listening: {}",
                            server.language(),
                            said.join("; ")
                        );
                    }
                    if Instant::now() > deadline {
                        let _ = child.kill();
                        bail!(
                            "the {} server did not listen within 180 s: {}",
                            server.language(),
                            said.join("; ")
                        );
                    }
                }
            }
        }
    }

    /// The server's socket address (from its URL, `http://127.0.0.1:PORT`).
    /// The CPU time the server's process has used so far, every thread's, user and system
    /// (`/proc/PID/stat` fields 14 and 15, in clock ticks): `taskset` and java/sidecar exec the
    /// server, so the child is the server itself.
    fn cpu_seconds(&self) -> Result<f64> {
        let pid = self.child.id();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .with_context(|| format!("read the {} server's CPU time", self.server.language()))?;
        // The fields after the command's closing parenthesis: state is field 3, utime 14.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace().collect())
            .unwrap_or_default();
        let ticks = |field: usize| -> Result<f64> {
            fields
                .get(field - 3)
                .and_then(|t| t.parse::<u64>().ok())
                .map(|t| t as f64)
                .with_context(|| format!("/proc/{pid}/stat has no field {field}: {stat}"))
        };
        // SAFETY: sysconf only reads a configuration value.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        Ok((ticks(14)? + ticks(15)?) / per_second)
    }

    fn addr(&self) -> Result<std::net::SocketAddr> {
        let host = self.url.trim_start_matches("http://").trim_end_matches('/');
        host.parse()
            .with_context(|| format!("the server's URL {} names no socket address", self.url))
    }

    fn check_alive(&mut self) -> Result<()> {
        if let Some(status) = self.child.try_wait()? {
            bail!(
                "the {} server exited ({status}) during the run",
                self.server.language()
            );
        }
        Ok(())
    }

    /// SIGTERM, then waits (SIGKILL after 10 s).
    fn stop(mut self) -> Result<()> {
        // SAFETY: a plain syscall on our own child's pid.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait()?.is_none() {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.wait();
        Ok(())
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What one wrk run counted.
struct Outcome {
    rate: f64,
    answered: u64,
    seconds: f64,
}

/// One closed-loop wrk run of `load` (a [`Pace::Saturate`]), pinned to `core`, checked: no
/// socket error, every status the one expected, every body of the expected shape.
fn run_wrk(
    wrk: &Path,
    script: &Path,
    url: &str,
    load: &Load,
    core: usize,
    seed: u64,
) -> Result<Outcome> {
    let Pace::Saturate {
        requests,
        max_seconds,
    } = load.pace
    else {
        bail!("wrk runs only the closed-loop cases");
    };
    let out = Command::new("taskset")
        .arg("-c")
        .arg(core.to_string())
        .arg(wrk)
        .args(["-t1", "--timeout", "10s"])
        .arg(format!("-c{}", load.connections))
        .arg(format!("-d{max_seconds}s"))
        .arg("-s")
        .arg(script)
        .arg(url)
        .env("WRK_MODE", load.variant.wrk_mode())
        .env("WRK_USERS", load.users.to_string())
        .env("WRK_REQUESTS", requests.to_string())
        .env("WRK_SEED", (seed + 1).to_string())
        .stdin(Stdio::null())
        .output()
        .context("run wrk")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "wrk failed ({}): {}{}",
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .with_context(|| format!("wrk printed no result line: {stdout}"))?;
    let v: Value = serde_json::from_str(line).with_context(|| format!("wrk's line: {line}"))?;
    let number = |key: &str| {
        v[key]
            .as_f64()
            .with_context(|| format!("wrk's line has no {key}: {line}"))
    };
    let answered = number("answered")? as u64;
    let seconds = number("duration_us")? / 1e6;
    let (bad, errors) = (number("bad_answers")?, number("socket_errors")?);
    if bad > 0.0 || errors > 0.0 {
        bail!(
            "{}: {bad} answers had the wrong status or body and {errors} requests failed on the \
             socket (of {answered}); every hit must answer 200 with its user, every miss 404 \
             with the not-found error",
            load.variant.name()
        );
    }
    if answered == 0 || seconds <= 0.0 {
        bail!("{}: wrk got no answers: {line}", load.variant.name());
    }
    Ok(Outcome {
        rate: answered as f64 / seconds,
        answered,
        seconds,
    })
}

/// The store-release hop between two cores, for the human lines.
fn probe_hop(cores: (usize, usize)) -> String {
    match sympathy_lab::hop_probe::probe_hop_ns(cores) {
        Ok(ns) => format!("{ns:.0} ns"),
        Err(e) => format!("not measured ({e})"),
    }
}

/// The first `name` on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}
