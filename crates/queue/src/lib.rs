//! Martin Thompson's P1C1 queue: a bounded single-producer/single-consumer array queue in which
//! each side keeps a cached copy of the other side's counter, so that it touches the other
//! side's cache line only when the cached copy says "possibly full" or "possibly empty".
//!
//! The queue lives in one block laid out by [`QueueLayout`] (`docs/queue-layout.md`): a header,
//! `head`, `cached_tail`, `tail`, `cached_head` each on its own 128-byte line, then the slots.
//! The block can be
//! - a heap allocation ([`MemoryKind::Heap`]),
//! - an anonymous mapping ([`MemoryKind::Anonymous`]), the seed's "off-heap" queue,
//! - a mapped file shared by two processes ([`create_file`], [`Producer::attach`],
//!   [`Consumer::attach`]), the seed's 135M msgs/s IPC queue.
//!
//! Public items:
//! - [`queue`]: a queue in this process, split into [`Producer`] and [`Consumer`].
//! - [`create_file`]: a queue file for two processes.
//! - [`Producer`] (`offer`, `offer_batch`, `offer_slice`) and [`Consumer`] (`poll`,
//!   `poll_batch`, `poll_slice`); a batch publishes its whole run with one counter store.
//! - [`Element`]: the plain-data types a queue can hold; [`Full`]: back pressure;
//!   [`QueueError`]: why a queue could not be made or attached; [`QueueLayout`]: the layout.
//!
//! # Examples
//! ```
//! use sympathy_queue::{MemoryKind, queue};
//! let (mut producer, mut consumer) = queue::<u32>(1024, MemoryKind::Heap).unwrap();
//! let worker = std::thread::spawn(move || {
//!     let mut expected = 0;
//!     while expected < 10_000 {
//!         if let Some(v) = consumer.poll() {
//!             assert_eq!(v, expected);
//!             expected += 1;
//!         }
//!     }
//! });
//! for i in 0..10_000 {
//!     let mut value = i;
//!     while let Err(full) = producer.offer(value) {
//!         value = full.0;
//!         std::hint::spin_loop();
//!     }
//! }
//! worker.join().unwrap();
//! ```
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]
#![deny(missing_docs)]

mod consumer;
mod element;
mod error;
mod layout;
mod memory;
mod producer;
mod queue;
mod shared;

pub use consumer::Consumer;
pub use element::Element;
pub use error::QueueError;
pub use layout::QueueLayout;
pub use memory::MemoryKind;
pub use producer::{Full, Producer};
pub use queue::{create_file, queue};
