//! The `messaging` experiment: the seed's messaging-throughput test ("a sender encodes messages
//! as fast as possible and publishes them, a subscriber receives and decodes them";
//! off-heap-serialisation) between two processes, each pinned to its own core, over the
//! memory-mapped ring (`sympathy-ring`). The message is the seed's price update with its
//! embedded instrument ([`sample`]: the same in Rust and Java); the metric is messages received
//! **and decoded** per second, every field of every message checked against what it must be.
//!
//! Variants ([`Variant`], catalog `experiments/messaging.toml`): `raw` (the ring's test pattern
//! of the SBE message's size: the ring's own rate), `sbe` (the generated codecs of
//! `schema/sympathy-messages.xml` through `sympathy-messages`), `struct` (a fixed 64-byte
//! layout in place, [`layout`]), `hand-codec` (the same bytes through a checked cursor),
//! `serde` (serde + postcard) and `sbe-jni` (a Java sender on the Rust ring through JNI). Each
//! runs with a sender in the same language as the receiver or in the other one ([`Sender`]):
//! the Rust receiver of `sympathy run messaging` pairs with the Java receiver of
//! `java/sidecar run messaging`.
//!
//! The sending process starts through the peer layer ([`PeerLauncher`], task [`PublishTask`]):
//! `sympathy run ipc-peer publisher` for Rust, `java/sidecar publish` for Java.
//!
//! [`PeerLauncher`]: crate::peer::PeerLauncher

mod cases;
mod encoding;
pub mod layout;
mod publish;
mod receive;
mod run;
mod sample;
mod wire;

pub use cases::{Case, Overrides, Sender, Variant, cases, java_warmup};
pub use encoding::Encoding;
pub use publish::{BATCH, PublishTask, publish, publish_in_peer};
pub use receive::{Received, measure_messaging, receive};
pub use run::run_cases;
pub use sample::{SYMBOLS, Sample, VENUES, sample};
pub use wire::{Raw, SBE_MESSAGE_BYTES, Sbe, Serde, Wire};

/// The experiment's name in results and the catalog.
pub const EXPERIMENT: &str = "messaging";

#[cfg(test)]
mod tests;
