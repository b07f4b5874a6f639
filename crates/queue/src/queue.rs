//! Making a P1C1 queue: [`queue`] in memory of one process, split into its two ends, or
//! [`create_file`] for ends in several processes. The ends are [`crate::Producer`] and
//! [`crate::Consumer`]; what they share is [`crate::shared`].

use std::path::Path;
use std::sync::Arc;

use crate::consumer::Consumer;
use crate::element::Element;
use crate::error::QueueError;
use crate::layout::QueueLayout;
use crate::memory::{Memory, MemoryKind};
use crate::producer::Producer;
use crate::shared::{Shared, View};

/// Creates a queue of `capacity` slots in memory of `kind`, split into its two ends.
///
/// # Errors
/// [`QueueError::CapacityNotPowerOfTwo`] for a bad capacity, [`QueueError::Memory`] when the
/// memory cannot be had.
///
/// # Examples
/// ```
/// use sympathy_queue::{MemoryKind, queue};
/// let (mut producer, mut consumer) = queue::<u64>(4, MemoryKind::Heap).unwrap();
/// assert!(producer.offer(7).is_ok());
/// assert_eq!(consumer.poll(), Some(7));
/// assert_eq!(consumer.poll(), None);
/// assert!(queue::<u64>(3, MemoryKind::Anonymous).is_err());
/// ```
pub fn queue<T: Element>(
    capacity: usize,
    kind: MemoryKind,
) -> Result<(Producer<T>, Consumer<T>), QueueError> {
    let () = T::ASSERT_LAYOUT;
    QueueLayout::check_capacity(capacity)?;
    let len = QueueLayout::total_len(capacity, size_of::<T>());
    let memory = Memory::zeroed(kind, len)?;
    let both = QueueLayout::PRODUCER_ROLE | QueueLayout::CONSUMER_ROLE;
    let shared = Arc::new(Shared::initialise(memory, capacity, size_of::<T>(), both));
    Ok((
        Producer {
            view: View::new(shared.clone()),
            tail: 0,
            role: QueueLayout::PRODUCER_ROLE,
        },
        Consumer {
            view: View::new(shared),
            head: 0,
            role: QueueLayout::CONSUMER_ROLE,
        },
    ))
}

/// Creates (or truncates) the queue file `path` for `capacity` elements of `T`; a producer and a
/// consumer then attach to it, from this process or others
/// ([`Producer::attach`], [`Consumer::attach`]).
///
/// Truncating a file that another process still has mapped makes that process fault: use a
/// fresh path per queue.
///
/// # Errors
/// [`QueueError::CapacityNotPowerOfTwo`], or [`QueueError::File`] when the file cannot be
/// created, sized or mapped.
///
/// # Examples
/// ```
/// use sympathy_queue::{Consumer, Producer, create_file};
/// let path = std::env::temp_dir().join(format!("doc-queue-{}", std::process::id()));
/// create_file::<u32>(&path, 8).unwrap();
/// let mut producer = Producer::<u32>::attach(&path).unwrap();
/// let mut consumer = Consumer::<u32>::attach(&path).unwrap();
/// producer.offer(42).unwrap();
/// assert_eq!(consumer.poll(), Some(42));
/// assert!(Consumer::<u64>::attach(&path).is_err()); // wrong element size
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn create_file<T: Element>(path: impl AsRef<Path>, capacity: usize) -> Result<(), QueueError> {
    let () = T::ASSERT_LAYOUT;
    QueueLayout::check_capacity(capacity)?;
    let len = QueueLayout::total_len(capacity, size_of::<T>());
    let memory = Memory::create_file(path.as_ref(), len)?;
    drop(Shared::initialise(memory, capacity, size_of::<T>(), 0));
    Ok(())
}
