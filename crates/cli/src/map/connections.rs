//! The connections of `sympathy serve-map`, served so that no client can hold the service: each
//! connection is hyper's HTTP/1 with
//!
//! - a read timeout ([`Limits::read_timeout`]) on every request's headers, which also bounds
//!   how long a keep-alive connection may sit idle between requests (a slowloris client that
//!   trickles its headers, or one that never sends any, is cut when it runs out);
//! - half-closed clients answered: a client that shuts down its sending side after its request
//!   (as `nc -N` and many scripts do) still gets the response;
//! - a cap on open connections ([`Limits::max_connections`]): a connection past it is answered at
//!   once with `503` and a JSON error, then closed, instead of waiting in a queue.
//!
//! The Java twin (`java/sidecar serve-map`) sets the same limits on the JDK's server.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// What one client may take of the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest a client may take to send a request's headers, and the longest a keep-alive
    /// connection may sit idle between requests.
    pub read_timeout: Duration,
    /// Connections open at once; the next is answered `503` and closed.
    pub max_connections: usize,
}

/// The body of the `503` past the cap (the Java twin's words too).
pub fn over_capacity_body(max_connections: usize) -> String {
    format!(
        "{{\"error\":\"the service has its {max_connections} connections open: try again later, \
         or start it with a larger --max-connections\"}}"
    )
}

/// Serves `router` on the connections of `listener` within `limits` until `shutdown` resolves.
///
/// # Errors
/// Accepting failed for a reason other than a client that went away or a full descriptor table
/// (those are reported and survived).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.read_timeout)
        .half_close(true);
    let http = Arc::new(http);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) if survivable(&e) => {
                    eprintln!("serve-map: could not accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
                Err(e) => return Err(e),
            },
            () = &mut shutdown => return Ok(()),
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream, limits.max_connections));
            continue;
        };
        let (http, service) = (http.clone(), TowerToHyperService::new(router.clone()));
        tokio::spawn(async move {
            // A client that sends garbage, times out or goes away ends its own connection only.
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
            drop(permit);
        });
    }
}

/// Errors of `accept` that concern one connection or a passing shortage, not the listener.
fn survivable(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted};
    matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted)
        || matches!(
            e.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        )
}

/// Answers a connection past the cap with `503` and closes it: the response is written, the
/// sending side shut, and what the client sent is read and dropped for a moment, so that closing
/// with unread bytes does not reset the connection before the client has read the answer.
async fn refuse(mut stream: TcpStream, max_connections: usize) {
    let body = over_capacity_body(max_connections);
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    );
    let linger = async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), linger).await;
}
