//! `sympathy map ...`: tools for the off-heap map file (create, load-users, verify-users, get,
//! inspect, copy, layout, and the stress writer and reader of the cross-language tests); the
//! lookup service is `sympathy serve-map` ([`serve`]), the experiments `sympathy run offheap-map`
//! and `sympathy run map-service`. The Java twins are `java/sidecar map ...` and
//! `java/sidecar serve-map`.
//!
//! ```text
//! sympathy map load-users /dev/shm/users.map --users 1000000
//! sympathy map verify-users /dev/shm/users.map --users 1000000
//! sympathy map load-users /dev/shm/big.map --initial-users 1000000 --users 15000000 &
//! java/sidecar map watch-users /dev/shm/big.map --users 15000000   # every key, while it grows
//! sympathy serve-map /dev/shm/users.map --port 18080 &
//! curl http://127.0.0.1:18080/users/42
//! ```

mod connections;
pub mod serve;
mod stress;
mod tools;
mod watch;

use anyhow::Result;
use clap::{Args, Subcommand};

/// `sympathy map ...`
#[derive(Args, Debug)]
pub struct MapArgs {
    #[command(subcommand)]
    command: MapCommand,
}

#[derive(Subcommand, Debug)]
enum MapCommand {
    /// Create an empty map file.
    Create(tools::CreateArgs),
    /// Put users 0..N (the generator shared with Java) into a map, creating it if missing.
    LoadUsers(tools::LoadUsersArgs),
    /// Check that a map holds exactly users 0..N, each field equal to the generator's.
    VerifyUsers(tools::VerifyUsersArgs),
    /// Check every user counted so far, pass after pass, while a load puts users 0..N and the
    /// map grows; report the longest lookup.
    WatchUsers(watch::WatchUsersArgs),
    /// Print one key's value: a user as JSON, other values in hex.
    Get(tools::GetArgs),
    /// Show a map's header, counters and writer.
    Inspect(tools::InspectArgs),
    /// Copy the live entries of a map into a new, larger (or compacted) one.
    Copy(tools::CopyArgs),
    /// Print the layout constants as NAME=decimal lines (for the Java parity test).
    Layout,
    /// Apply the stress schedule's puts and removes (self-checking values) as the writer.
    StressWrite(stress::WriteArgs),
    /// Read random keys while a writer applies the stress schedule, checking every value.
    StressRead(stress::ReadArgs),
}

/// Runs a `map` command.
pub fn run(args: MapArgs) -> Result<()> {
    crate::ring::sigbus::report_on_sigbus_in_map(None);
    match args.command {
        MapCommand::Create(a) => tools::create(a),
        MapCommand::LoadUsers(a) => tools::load_users(a),
        MapCommand::VerifyUsers(a) => tools::verify_users(a),
        MapCommand::WatchUsers(a) => watch::watch_users(a),
        MapCommand::Get(a) => tools::get(a),
        MapCommand::Inspect(a) => tools::inspect(a),
        MapCommand::Copy(a) => tools::copy(a),
        MapCommand::Layout => tools::layout(),
        MapCommand::StressWrite(a) => stress::write(a),
        MapCommand::StressRead(a) => stress::read(a),
    }
}
