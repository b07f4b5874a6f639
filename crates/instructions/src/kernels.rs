//! The measured loops: each runs one hot path `n` times, so that a count taken at `n` and at
//! `2 * n` messages differs by exactly `n` messages' worth of instructions (setup, the call and
//! the teardown cancel). The inputs are made by the `*_for` functions, outside the measurement.
//!
//! ```
//! use sympathy_instructions::kernels::{RingPair, ring_read, ring_write};
//! let mut pair = RingPair::new().unwrap();
//! ring_write(&mut pair.producer, &[7; 4], 10).unwrap();
//! assert_eq!(ring_read(&mut pair.consumer, 10).unwrap(), 70);
//! ```

use std::hint::black_box;

use sympathy_lab::queue::BATCH;
use sympathy_lab::serialization::{Codec, CodecError, Order};
use sympathy_queue::{Consumer as QueueConsumer, MemoryKind, Producer as QueueProducer, queue};
use sympathy_ring::{Consumer, Producer, Ring, RingError};

/// The type id every ring message carries.
pub const TYPE_ID: i32 = 1;
/// Ring capacity: room for 2 x 2000 records of a 256-byte payload without wrapping.
pub const RING_CAPACITY: usize = 2 << 20;
/// Queue capacity: room for every message of a run without wrapping.
pub const QUEUE_CAPACITY: usize = 1 << 14;
/// Buffer bytes for one encoded order (the serde buffer of the serialization experiment).
pub const ORDER_BUFFER: usize = sympathy_lab::serialization::BUFFER_BYTES;

/// A ring in anonymous memory with its producer and consumer.
pub struct RingPair {
    /// The ring's one producer.
    pub producer: Producer,
    /// The ring's one consumer.
    pub consumer: Consumer,
    _ring: Ring,
}

impl RingPair {
    /// An empty ring of [`RING_CAPACITY`] bytes.
    ///
    /// # Errors
    /// [`RingError`] when the memory cannot be mapped.
    pub fn new() -> Result<RingPair, RingError> {
        let ring = Ring::anonymous(RING_CAPACITY)?;
        Ok(RingPair {
            producer: ring.producer()?,
            consumer: ring.consumer()?,
            _ring: ring,
        })
    }

    /// A ring holding `n` messages of `payload_len` bytes (each byte 7), ready to be read.
    ///
    /// # Errors
    /// [`RingError`] when the ring cannot be made or the messages do not fit.
    pub fn filled(payload_len: usize, n: usize) -> Result<RingPair, RingError> {
        let mut pair = RingPair::new()?;
        ring_write(&mut pair.producer, &vec![7; payload_len], n)?;
        Ok(pair)
    }
}

/// Writes `payload` `n` times, one `try_write` (claim, copy, publish) per message.
///
/// # Errors
/// [`RingError::Full`] when the ring has no room: a measurement must never skip a message.
#[inline(never)]
pub fn ring_write(producer: &mut Producer, payload: &[u8], n: usize) -> Result<(), RingError> {
    for _ in 0..n {
        producer.try_write(TYPE_ID, black_box(payload))?;
    }
    Ok(())
}

/// Reads `n` messages, one `read(handler, 1)` call (one head release) per message; returns the
/// sum of their first bytes.
///
/// # Errors
/// A [`RingError`] from the read, or fewer than `n` messages waiting.
#[inline(never)]
pub fn ring_read(consumer: &mut Consumer, n: usize) -> anyhow::Result<u64> {
    let mut sum = 0u64;
    for taken in 0..n {
        if consumer.read(|_, bytes| sum += u64::from(black_box(bytes)[0]), 1)? != 1 {
            anyhow::bail!("the ring was empty after {taken} of {n} messages");
        }
    }
    Ok(sum)
}

/// A heap P1C1 queue of `u32` of [`QUEUE_CAPACITY`] holding `n` values (0, 1, ...).
///
/// # Errors
/// When the queue cannot be made or `n` exceeds its capacity.
pub fn queue_filled(n: usize) -> anyhow::Result<(QueueProducer<u32>, QueueConsumer<u32>)> {
    let (mut producer, consumer) = queue::<u32>(QUEUE_CAPACITY, MemoryKind::Heap)?;
    queue_offer(&mut producer, n)?;
    Ok((producer, consumer))
}

/// Offers `0..n` one value at a time.
///
/// # Errors
/// When the queue is full before `n` values.
#[inline(never)]
pub fn queue_offer(producer: &mut QueueProducer<u32>, n: usize) -> anyhow::Result<()> {
    for value in 0..n as u32 {
        if producer.offer(black_box(value)).is_err() {
            anyhow::bail!("the queue was full after {value} of {n} values");
        }
    }
    Ok(())
}

/// Polls `n` values one at a time; returns their sum.
///
/// # Errors
/// When fewer than `n` values were waiting.
#[inline(never)]
pub fn queue_poll(consumer: &mut QueueConsumer<u32>, n: usize) -> anyhow::Result<u64> {
    let mut sum = 0u64;
    for polled in 0..n {
        match consumer.poll() {
            Some(value) => sum += u64::from(black_box(value)),
            None => anyhow::bail!("the queue was empty after {polled} of {n} values"),
        }
    }
    Ok(sum)
}

/// Offers `0..n` in batches of up to [`BATCH`] values, one publish per batch (the
/// producer of `p1c1-batch`).
///
/// # Errors
/// When the queue is full before `n` values.
#[inline(never)]
pub fn queue_offer_batch(producer: &mut QueueProducer<u32>, n: usize) -> anyhow::Result<()> {
    let mut next = 0u32;
    while (next as usize) < n {
        let max = (n - next as usize).min(BATCH);
        let sent = producer.offer_batch(max, || {
            next += 1;
            black_box(next - 1)
        });
        if sent == 0 {
            anyhow::bail!("the queue was full after {next} of {n} values");
        }
    }
    Ok(())
}

/// Polls `n` values in batches of up to [`BATCH`], one head release per batch (the
/// consumer of `p1c1-batch`); returns their sum.
///
/// # Errors
/// When fewer than `n` values were waiting.
#[inline(never)]
pub fn queue_poll_batch(consumer: &mut QueueConsumer<u32>, n: usize) -> anyhow::Result<u64> {
    let mut sum = 0u64;
    let mut polled = 0;
    while polled < n {
        let taken = consumer.poll_batch((n - polled).min(BATCH), |value| {
            sum += u64::from(black_box(value));
        });
        if taken == 0 {
            anyhow::bail!("the queue was empty after {polled} of {n} values");
        }
        polled += taken;
    }
    Ok(sum)
}

/// A buffer holding one order encoded by `C`, for [`decode`].
///
/// # Errors
/// [`CodecError`] from the encoding.
pub fn encoded<C: Codec>() -> Result<Vec<u8>, CodecError> {
    let mut buf = vec![0; ORDER_BUFFER];
    C::encode(&Order::seed(), &mut buf)?;
    Ok(buf)
}

/// Encodes `order` into `buf` `n` times; returns the bytes of the last encoding.
///
/// # Errors
/// [`CodecError`] when `buf` is too small.
#[inline(never)]
pub fn encode<C: Codec>(order: &Order, buf: &mut [u8], n: usize) -> Result<usize, CodecError> {
    let mut written = 0;
    for _ in 0..n {
        written = C::encode(black_box(order), black_box(&mut *buf))?;
    }
    Ok(written)
}

/// Decodes an order from `buf` `n` times; returns the last one.
///
/// # Errors
/// [`CodecError`] when `buf` holds no valid order.
#[inline(never)]
pub fn decode<C: Codec>(buf: &[u8], n: usize) -> Result<Option<Order>, CodecError> {
    let mut last = None;
    for _ in 0..n {
        last = Some(black_box(C::decode(black_box(buf))?));
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_lab::serialization::{HandCodec, Sbe, SerdeBinary, ZeroCopy};

    #[test]
    fn the_ring_kernels_move_every_message() {
        let mut pair = RingPair::filled(256, 2000).unwrap();
        assert_eq!(ring_read(&mut pair.consumer, 2000).unwrap(), 7 * 2000);
        assert!(
            ring_read(&mut pair.consumer, 1).is_err(),
            "an empty ring is an error"
        );
    }

    #[test]
    fn the_queue_kernels_move_every_value() {
        let (_producer, mut consumer) = queue_filled(2000).unwrap();
        assert_eq!(queue_poll(&mut consumer, 2000).unwrap(), 1999 * 2000 / 2);
        assert!(queue_poll(&mut consumer, 1).is_err());
    }

    #[test]
    fn the_batch_queue_kernels_move_every_value_in_order() {
        let (mut producer, mut consumer) = queue_filled(0).unwrap();
        queue_offer_batch(&mut producer, 2000).unwrap();
        assert_eq!(
            queue_poll_batch(&mut consumer, 2000).unwrap(),
            1999 * 2000 / 2
        );
        assert!(queue_poll_batch(&mut consumer, 1).is_err());
        let (mut full, _consumer) = queue_filled(QUEUE_CAPACITY).unwrap();
        assert!(
            queue_offer_batch(&mut full, 1).is_err(),
            "a full queue is an error"
        );
    }

    #[test]
    fn every_codec_round_trips_the_order() {
        fn check<C: Codec>() {
            let mut buf = vec![0; ORDER_BUFFER];
            assert!(encode::<C>(&Order::seed(), &mut buf, 3).unwrap() > 0);
            assert_eq!(decode::<C>(&buf, 3).unwrap(), Some(Order::seed()));
            assert_eq!(
                decode::<C>(&encoded::<C>().unwrap(), 1).unwrap(),
                Some(Order::seed())
            );
        }
        check::<SerdeBinary>();
        check::<HandCodec>();
        check::<ZeroCopy>();
        check::<Sbe>();
    }
}
