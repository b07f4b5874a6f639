//! JNI bindings of the Rust ring for `dev.sympathy.nativeffi.NativeRing` (java/native).
//!
//! Handles are `Box::into_raw` pointers passed to Java as `long` and freed only by the matching
//! `close*` call; Java's `NativeRing` owns them and never uses one after closing it. Each
//! producer/consumer handle holds a direct `ByteBuffer` registered at attach time: writes read
//! their payloads from it, batch reads copy records into it as
//! `[type id: i32 LE][length: i32 LE][payload, padded to 8 bytes]`.
//!
//! Every export runs in `EnvUnowned::with_env` (panics are caught there) and resolves with
//! [`error::ThrowRingException`], so ring errors surface as the Java ring's exceptions.
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod error;

use error::{NativeError, ThrowRingException};
use jni::EnvUnowned;
use jni::objects::{JByteBuffer, JClass, JString};
use jni::sys::{jboolean, jint, jlong};
use std::time::Duration;
use sympathy_ring::{Consumer, Producer, Ring};

/// A producer with its registered direct buffer.
struct ProducerHandle {
    producer: Producer,
    buffer: *mut u8,
    buffer_len: usize,
}

/// A consumer with its registered direct buffer.
struct ConsumerHandle {
    consumer: Consumer,
    max_message_length: usize,
    buffer: *mut u8,
    buffer_len: usize,
}

/// Turns a handle back into a reference.
///
/// # Safety
/// `handle` is 0 or came from `Box::into_raw` of a `T` that has not been freed, and no other
/// reference to it is live (Java's NativeRing uses a handle from one thread at a time).
unsafe fn handle<'a, T>(handle: jlong) -> Result<&'a mut T, NativeError> {
    let ptr = handle as *mut T;
    if ptr.is_null() {
        return Err(NativeError::Usage("the native handle is closed (0)".into()));
    }
    // SAFETY: non-null and, by this function's contract, a live unique Box allocation.
    Ok(unsafe { &mut *ptr })
}

fn into_handle<T>(value: T) -> jlong {
    Box::into_raw(Box::new(value)) as jlong
}

/// Frees a handle; 0 is ignored.
///
/// # Safety
/// As [`handle`]; the handle is not used again.
unsafe fn free<T>(handle: jlong) {
    let ptr = handle as *mut T;
    if !ptr.is_null() {
        // SAFETY: by contract, a live Box allocation of T that nobody uses after this.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

fn direct_buffer(
    env: &jni::Env<'_>,
    buffer: &JByteBuffer<'_>,
) -> Result<(*mut u8, usize), NativeError> {
    let address = env.get_direct_buffer_address(buffer)?;
    let len = env.get_direct_buffer_capacity(buffer)?;
    if address.is_null() {
        return Err(NativeError::Usage(
            "the buffer must be a direct ByteBuffer".into(),
        ));
    }
    Ok((address, len))
}

fn slice_range(
    offset: jint,
    length: jint,
    buffer_len: usize,
) -> Result<(usize, usize), NativeError> {
    let (Ok(offset), Ok(length)) = (usize::try_from(offset), usize::try_from(length)) else {
        return Err(NativeError::Usage(format!(
            "offset {offset} and length {length} must not be negative"
        )));
    };
    match offset.checked_add(length) {
        Some(end) if end <= buffer_len => Ok((offset, length)),
        _ => Err(NativeError::Usage(format!(
            "bytes [{offset}, {offset}+{length}) lie outside the {buffer_len}-byte buffer"
        ))),
    }
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_create0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    path: JString<'l>,
    capacity: jlong,
) -> jlong {
    env.with_env(|env| -> Result<jlong, NativeError> {
        let path = path.try_to_string(env)?;
        let capacity = usize::try_from(capacity)
            .map_err(|_| NativeError::Usage(format!("capacity {capacity} must not be negative")))?;
        Ok(into_handle(Ring::create(path, capacity)?))
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_open0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    path: JString<'l>,
    timeout_ms: jlong,
) -> jlong {
    env.with_env(|env| -> Result<jlong, NativeError> {
        let path = path.try_to_string(env)?;
        let timeout = Duration::from_millis(timeout_ms.max(0) as u64);
        Ok(into_handle(Ring::open_with_timeout(path, timeout)?))
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_maxMessageLength0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    ring: jlong,
) -> jint {
    env.with_env(|_| -> Result<jint, NativeError> {
        // SAFETY: `ring` is a live Ring handle owned by the calling NativeRing.
        let ring = unsafe { handle::<Ring>(ring)? };
        Ok(ring.max_message_length() as jint)
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_closeRing0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    ring: jlong,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        // SAFETY: a Ring handle that Java closes once and never uses again.
        unsafe { free::<Ring>(ring) };
        Ok(())
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_producer0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    ring: jlong,
    buffer: JByteBuffer<'l>,
) -> jlong {
    env.with_env(|env| -> Result<jlong, NativeError> {
        // SAFETY: `ring` is a live Ring handle owned by the calling NativeRing.
        let ring = unsafe { handle::<Ring>(ring)? };
        let (buffer, buffer_len) = direct_buffer(env, &buffer)?;
        Ok(into_handle(ProducerHandle {
            producer: ring.producer()?,
            buffer,
            buffer_len,
        }))
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_write0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    producer: jlong,
    type_id: jint,
    offset: jint,
    length: jint,
) -> jboolean {
    env.with_env(|_| -> Result<jboolean, NativeError> {
        // SAFETY: a live producer handle, used by one Java thread at a time.
        let p = unsafe { handle::<ProducerHandle>(producer)? };
        let (offset, length) = slice_range(offset, length, p.buffer_len)?;
        // SAFETY: [offset, offset + length) lies inside the registered direct buffer, which the
        // Java NativeRing keeps reachable for as long as the handle lives.
        let payload = unsafe { std::slice::from_raw_parts(p.buffer.add(offset), length) };
        match p.producer.try_write(type_id, payload) {
            Ok(()) => Ok(true),
            Err(e) if e.is_full() => Ok(false),
            Err(e) => Err(e.into()),
        }
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_writeBatch0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    producer: jlong,
    type_id: jint,
    count: jint,
    length: jint,
) -> jint {
    env.with_env(|_| -> Result<jint, NativeError> {
        // SAFETY: a live producer handle, used by one Java thread at a time.
        let p = unsafe { handle::<ProducerHandle>(producer)? };
        let total = count.checked_mul(length).ok_or_else(|| {
            NativeError::Usage(format!("{count} messages of {length} bytes overflow"))
        })?;
        let (_, length) = slice_range(0, length, p.buffer_len)?;
        slice_range(0, total, p.buffer_len)?;
        let buffer = p.buffer;
        let mut batch = p.producer.batch();
        for k in 0..count as usize {
            // SAFETY: k * length + length <= count * length <= buffer_len (checked above).
            let payload = unsafe { std::slice::from_raw_parts(buffer.add(k * length), length) };
            match batch.try_write(type_id, payload) {
                Ok(()) => {}
                Err(e) if e.is_full() => break,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(batch.finish() as jint)
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_producerHeartbeat0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    producer: jlong,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        // SAFETY: a live producer handle, used by one Java thread at a time.
        unsafe { handle::<ProducerHandle>(producer)? }
            .producer
            .heartbeat();
        Ok(())
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_closeProducer0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    producer: jlong,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        // SAFETY: a producer handle that Java closes once and never uses again.
        unsafe { free::<ProducerHandle>(producer) };
        Ok(())
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_consumer0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    ring: jlong,
    buffer: JByteBuffer<'l>,
) -> jlong {
    env.with_env(|env| -> Result<jlong, NativeError> {
        // SAFETY: `ring` is a live Ring handle owned by the calling NativeRing.
        let ring = unsafe { handle::<Ring>(ring)? };
        let (buffer, buffer_len) = direct_buffer(env, &buffer)?;
        let needed = 8 + ring.max_message_length().next_multiple_of(8);
        if buffer_len < needed {
            return Err(NativeError::Usage(format!(
                "the read buffer has {buffer_len} bytes; this ring needs at least {needed}"
            )));
        }
        Ok(into_handle(ConsumerHandle {
            consumer: ring.consumer()?,
            max_message_length: ring.max_message_length(),
            buffer,
            buffer_len,
        }))
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_read0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    consumer: jlong,
    limit: jint,
) -> jint {
    env.with_env(|_| -> Result<jint, NativeError> {
        // SAFETY: a live consumer handle, used by one Java thread at a time.
        let c = unsafe { handle::<ConsumerHandle>(consumer)? };
        let max_record = 8 + c.max_message_length.next_multiple_of(8);
        let (buffer, buffer_len) = (c.buffer, c.buffer_len);
        let mut used = 0usize;
        let mut total = 0usize;
        let limit = usize::try_from(limit).unwrap_or(0);
        // Each pass reads only as many messages as surely fit in the space left.
        while total < limit {
            let fit = (buffer_len - used) / max_record;
            if fit == 0 {
                break;
            }
            let n = c.consumer.read(
                |type_id, payload| {
                    // SAFETY: at most `fit` records of at most `max_record` bytes are copied
                    // from `used`, and used + fit * max_record <= buffer_len.
                    unsafe {
                        let at = buffer.add(used);
                        std::ptr::copy_nonoverlapping(type_id.to_le_bytes().as_ptr(), at, 4);
                        let len = payload.len() as i32;
                        std::ptr::copy_nonoverlapping(len.to_le_bytes().as_ptr(), at.add(4), 4);
                        std::ptr::copy_nonoverlapping(payload.as_ptr(), at.add(8), payload.len());
                    }
                    used += 8 + payload.len().next_multiple_of(8);
                },
                fit.min(limit - total),
            )?;
            if n == 0 {
                break;
            }
            total += n;
        }
        Ok(total as jint)
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_consumerHeartbeat0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    consumer: jlong,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        // SAFETY: a live consumer handle, used by one Java thread at a time.
        unsafe { handle::<ConsumerHandle>(consumer)? }
            .consumer
            .heartbeat();
        Ok(())
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_closeConsumer0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    consumer: jlong,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        // SAFETY: a consumer handle that Java closes once and never uses again.
        unsafe { free::<ConsumerHandle>(consumer) };
        Ok(())
    })
    .resolve::<ThrowRingException>()
}

#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_sympathy_nativeffi_NativeRing_pinCurrentThread0<'l>(
    mut env: EnvUnowned<'l>,
    _class: JClass<'l>,
    core: jint,
) {
    env.with_env(|_| -> Result<(), NativeError> {
        let core = usize::try_from(core)
            .map_err(|_| NativeError::Usage(format!("core {core} must not be negative")))?;
        sympathy_lab::pin::pin_current_thread(core)
            .map_err(|e| NativeError::Usage(format!("pinning to core {core} failed: {e}")))
    })
    .resolve::<ThrowRingException>()
}
