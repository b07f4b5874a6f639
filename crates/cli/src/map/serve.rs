//! `sympathy serve-map FILE --port P`: the seed's lookup service ("a persistent KeyValue server
//! with a TCP-based and a HTTP interface") over HTTP on axum, reading the map in place from its
//! own read-only mapping (any number of such servers, and one writer, may share the file).
//!
//! ```text
//! GET /users/{id}   200 the user as JSON (sympathy_map::user::json), 404 when absent,
//!                   400 for an id that is not a decimal u64
//! GET /             200 {"service":"sympathy serve-map","file":...,"users":N,...}
//! anything else     404 (405 for another method on /users/{id}), with a JSON error
//! ```
//! No client can hold it (see [`super::connections`]): headers must arrive within the read
//! timeout, an idle keep-alive connection is closed after it, a half-closed client still gets
//! its answer, and past `--max-connections` a client is answered 503 at once.
//! The Java twin is `java/sidecar serve-map` (the JDK's HttpServer on virtual threads): the
//! same routes, statuses, headers and bodies, byte for byte.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use clap::Args;
use sympathy_map::layout::VALUE_FORMAT_USER_FLYWEIGHT;
use sympathy_map::user::{UserView, json};
use sympathy_map::{MapError, MapFile, format_name};

use super::connections::{self, Limits};

/// `sympathy serve-map FILE --port P [--bind ADDR] [--threads N] [--core C]
/// [--read-timeout-ms MS] [--max-connections N]`
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The map of users (value format user-flyweight), opened read-only.
    pub path: PathBuf,
    /// TCP port; 0 picks a free one (the line on stderr says which).
    #[arg(long)]
    pub port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Worker threads (1: one thread serves everything, as the seed's single-threaded
    /// service).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Pin the worker threads to this core (the pin is checked).
    #[arg(long)]
    pub core: Option<usize>,
    /// The longest a client may take to send a request's headers, and the longest a
    /// keep-alive connection may sit idle, in milliseconds; then it is closed.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub read_timeout_ms: u64,
    /// Connections open at once; past them a client is answered 503 at once.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
}

/// The JSON body of an error.
fn error_body(message: &str) -> String {
    let mut out = String::from("{\"error\":");
    json::write_string(message, &mut out);
    out.push('}');
    out
}

/// The JSON body of the 404 for a user that is not in the map (the load generator of
/// map-service expects it of both servers).
pub fn not_found_body(key: u64) -> String {
    error_body(&format!("user {key} not found"))
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The answer to `GET /users/{id}`: the status and JSON body, shared by the server and its
/// tests (and, in its words, by the Java twin's `MapService.lookup`).
pub fn lookup(map: &MapFile, id: &str) -> (StatusCode, String) {
    let Some(key) = parse_id(id) else {
        return (
            StatusCode::BAD_REQUEST,
            error_body(&format!(
                "malformed user id \"{id}\": expected a decimal integer from 0 to 18446744073709551615"
            )),
        );
    };
    match map.get(key) {
        Ok(Some(bytes)) => {
            let mut body = String::with_capacity(256);
            match UserView::new(bytes).and_then(|view| json::write_user(&view, &mut body)) {
                Ok(()) => (StatusCode::OK, body),
                Err(e) => (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    error_body(&format!("user {key}: {e}")),
                ),
            }
        }
        Ok(None) => (StatusCode::NOT_FOUND, not_found_body(key)),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            error_body(&e.to_string()),
        ),
    }
}

/// A decimal u64 of 1 to 20 ASCII digits, nothing else (no sign, no spaces).
fn parse_id(id: &str) -> Option<u64> {
    if id.is_empty() || id.len() > 20 || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

/// The body of `GET /`.
pub fn about(map: &MapFile) -> String {
    let mut out = String::from("{\"service\":\"sympathy serve-map\",\"file\":");
    json::write_string(
        &map.path()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        &mut out,
    );
    out.push_str(&format!(
        ",\"users\":{},\"value_format\":\"{}\",\"lookup\":\"/users/{{id}}\"}}",
        map.len(),
        format_name(map.value_format())
    ));
    out
}

/// `GET /users/{id}`: an id whose percent-encoding is not UTF-8 (`%ff`) is a malformed id named
/// as it was sent, in the service's JSON, as the Java service answers it.
async fn user(
    State(map): State<Arc<MapFile>>,
    id: Result<Path<String>, PathRejection>,
    uri: axum::http::Uri,
) -> Response {
    let (status, body) = match &id {
        Ok(Path(id)) => lookup(&map, id),
        Err(_) => lookup(&map, uri.path().trim_start_matches("/users/")),
    };
    json_response(status, body)
}

async fn root(State(map): State<Arc<MapFile>>) -> Response {
    json_response(StatusCode::OK, about(&map))
}

async fn not_found(uri: axum::http::Uri) -> Response {
    json_response(
        StatusCode::NOT_FOUND,
        error_body(&format!(
            "no such resource {}: try GET /users/{{id}}",
            uri.path()
        )),
    )
}

/// The service's routes over `map`.
pub fn router(map: Arc<MapFile>) -> Router {
    Router::new()
        .route("/", get(root))
        .route("/users/{id}", get(user))
        .fallback(not_found)
        .with_state(map)
}

/// Runs `sympathy serve-map`: until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> Result<()> {
    crate::ring::sigbus::report_on_sigbus_in_map(Some(&args.path));
    let map = MapFile::open_read_only(&args.path)?;
    if map.value_format() != VALUE_FORMAT_USER_FLYWEIGHT {
        return Err(MapError::ValueFormat {
            found: map.value_format(),
            expected: VALUE_FORMAT_USER_FLYWEIGHT,
        }
        .into());
    }
    if args.threads == 0 {
        anyhow::bail!("--threads 0: the service needs at least one worker thread");
    }
    let core = args.core;
    let mut builder = if args.threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(args.threads);
        b
    };
    if let Some(core) = core {
        // Every thread the runtime starts (workers, blocking pool) on the core; the pin of the
        // thread that runs a current-thread runtime is made below.
        builder.on_thread_start(move || {
            if let Err(e) = sympathy_harness::pin::pin_current_thread(core) {
                eprintln!("serve-map: could not pin a runtime thread to core {core}: {e}");
                std::process::exit(1);
            }
        });
        sympathy_harness::pin::pin_current_thread(core)
            .with_context(|| format!("pin the service to core {core}"))?;
    }
    let runtime = builder
        .enable_io()
        .enable_time()
        .build()
        .context("start the service's runtime")?;
    let users = map.len();
    let map = Arc::new(map);
    runtime.block_on(async move {
        let address: SocketAddr = format!("{}:{}", args.bind, args.port)
            .parse()
            .with_context(|| format!("--bind {} --port {}: not an address", args.bind, args.port))?;
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("listen on {address} (is the port in use? pick another with --port, or 0)"))?;
        let bound = listener.local_addr()?;
        eprintln!(
            "serve-map: {} users from {}, listening on http://{bound} (GET /users/{{id}}; {} thread{}{}; \
             read timeout {} ms, at most {} connections)",
            users,
            args.path.display(),
            args.threads,
            if args.threads == 1 { "" } else { "s" },
            core.map(|c| format!(", pinned to core {c}")).unwrap_or_default(),
            args.read_timeout_ms,
            args.max_connections,
        );
        let limits = Limits {
            read_timeout: Duration::from_millis(args.read_timeout_ms),
            max_connections: args.max_connections as usize,
        };
        connections::serve(listener, router(map), limits, shutdown())
            .await
            .context("serve")
    })
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {},
        _ = int.recv() => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_map::user::{FlyweightCodec, UserCodec, generate};

    fn users(n: u64) -> MapFile {
        let map = MapFile::anonymous(
            &sympathy_map::MapConfig::for_entries(n, 120)
                .unwrap()
                .with_value_format(VALUE_FORMAT_USER_FLYWEIGHT),
        )
        .unwrap();
        let mut writer = map.writer().unwrap();
        for id in 0..n {
            let user = generate(id, n);
            writer
                .put_with(id, FlyweightCodec.encoded_len(&user), |b| {
                    FlyweightCodec.encode(&user, b)
                })
                .unwrap();
        }
        std::mem::forget(writer);
        map
    }

    #[test]
    fn hits_misses_and_malformed_ids_get_their_statuses() {
        let map = users(10);
        let (status, body) = lookup(&map, "3");
        assert_eq!(status, StatusCode::OK);
        assert!(body.starts_with("{\"id\":3,\"name\":\"user3\""), "{body}");
        assert_eq!(
            lookup(&map, "10"),
            (
                StatusCode::NOT_FOUND,
                "{\"error\":\"user 10 not found\"}".into()
            )
        );
        for bad in [
            "abc",
            "-1",
            "+1",
            " 1",
            "1.0",
            "",
            "18446744073709551616",
            "0x10",
        ] {
            let (status, body) = lookup(&map, bad);
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(body.contains("malformed user id"), "{body}");
        }
        assert_eq!(
            lookup(&map, "18446744073709551615").0,
            StatusCode::NOT_FOUND
        );
        assert_eq!(lookup(&map, "007").0, StatusCode::OK);
    }
}
