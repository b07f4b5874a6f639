//! The `bridge` experiment's Rust rows: a ring's messages carried to another host by the
//! bridge (docs/bridge.md), with the ring ends in Rust. The bridge's own ends are always Java
//! processes (`java/sidecar bridge send|receive|duplex`); the ring ends are this process and
//! the ipc experiment's Rust peers (`sympathy run ipc-peer producer|echo`, the same
//! [`ProduceTask`](crate::ipc::ProduceTask) and [`EchoTask`](crate::ipc::EchoTask) `run ipc`
//! starts), which only touch ring files and so run on no host in particular.
//!
//! Variants ([`Variant`], catalog entry `experiments/bridge.toml`; `aeron` and `aeron-echo`,
//! Aeron without the rings, are Java's only):
//! - `ring-aeron-ring`: throughput. A Rust producer writes ring A; `bridge send` (host A)
//!   drains it over Aeron to `bridge receive` (host B), which writes ring B; this process
//!   reads and verifies ring B, timed from the first message to the last.
//! - `ring-aeron-ring-echo`: round trip. This process writes ring A-out and reads ring A-in;
//!   `bridge duplex` on host A carries A-out to host B's `bridge duplex`, which writes ring
//!   B-in; a Rust echo copies B-in to B-out, which comes back the same way into A-in.
//!
//! ```text
//!  producer -> A -> bridge send ==Aeron==> bridge receive -> B -> this process (verifies)
//!  this process -> A-out -> duplex(A) ==> duplex(B) -> B-in -> echo -> B-out -> duplex(B)
//!               <- A-in  <- duplex(A) <==                                              ==
//! ```
//!
//! Each case runs on one transport ([`Transport`]): `ipc` (`aeron:ipc`, one driver: the first
//! end's, which the other joins with `--external-driver`), `udp` (unicast on 127.0.0.1, a
//! driver per end) or `veth` (unicast between two network namespaces, the ends started on
//! their host through [`BridgeHosts`]). Its [`Link`]s: data from host A to host B on port 40123
//! (stream 1001), its confirms back on 40124 (1002); the echo's way back on 40125 (1003), its
//! confirms on 40126 (1004).
//!
//! [`cases`] lists what a run measures from the catalog at a preset (and the command line's
//! overrides); [`run_cases`] measures and reports them; `sympathy run bridge --plan` prints the
//! same cases' [`Case::measurement`] params.

mod cases;
mod ends;
mod run;

pub use cases::{Case, MIN_SIZE, Overrides, Transport, Variant, cases};
pub use ends::{BridgeHosts, Link, STOP_LIMIT, UP_LIMIT};
pub use run::{
    CasesFailed, MIN_WARMUP, measure_echo, measure_throughput, run_cases, warmup_round_trips,
};

/// The experiment's name in results and the catalog.
pub const EXPERIMENT: &str = "bridge";
