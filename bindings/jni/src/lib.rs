//! JNI bindings of the Rust ring for `dev.sympathy.jni.NativeRing` (java/native).
//!
//! Handles are `Box::into_raw` pointers passed to Java as `long` and freed only by the matching
//! `close*` call; Java's `NativeRing` owns them and never uses one after closing it. Each
//! producer/consumer handle holds a direct `ByteBuffer` registered at attach time: writes read
//! their payloads from it, batch reads copy records into it as
//! `[type id: i32 LE][length: i32 LE][payload, padded to 8 bytes]`.
//!
//! A producer handle also holds at most one open claim ([`DetachedClaim`]): Java fills its payload
//! in place through a `MemorySegment` over the record area ([`producerRecordArea0`]), then
//! commits or aborts it by the payload index `claim0` returned; closing the producer aborts it.
//!
//! Every export is declared through `exports!`, which runs its body through [`native`]
//! (`EnvUnowned::with_env`, which catches panics, resolved with [`error::ThrowRingException`]),
//! so ring errors surface as the Java ring's exceptions and panics as an
//! `IllegalStateException`, never unwinding into the JVM.
//!
//! [`producerRecordArea0`]: Java_dev_sympathy_jni_NativeRing_producerRecordArea0
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod error;

use error::{NativeError, ThrowRingException};
use jni::objects::{JByteBuffer, JClass, JString};
use jni::sys::{jboolean, jint, jlong};
use jni::{Env, EnvUnowned};
use std::time::Duration;
use sympathy_ring::{Consumer, DetachedClaim, Producer, Ring};

/// What `claim0` returns when the ring is full (Agrona's `INSUFFICIENT_CAPACITY`).
const INSUFFICIENT_CAPACITY: jlong = -2;

/// A producer with its registered direct buffer and its open claim, if any.
struct ProducerHandle {
    producer: Producer,
    buffer: *mut u8,
    buffer_len: usize,
    claim: Option<DetachedClaim>,
}

impl Drop for ProducerHandle {
    /// A claim still open when Java closes the producer is aborted (becomes padding), as
    /// dropping a Rust `Claim` does, so the consumer is not left waiting at it.
    fn drop(&mut self) {
        if let Some(claim) = self.claim.take() {
            self.producer.abort_detached(claim);
        }
    }
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

/// Runs an export's body: panics are caught by `with_env`, and an error (or a caught panic)
/// becomes the Java ring's exception, the export then returning `T::default()`.
fn native<'l, T: Default + 'l>(
    mut env: EnvUnowned<'l>,
    body: impl FnOnce(&mut Env<'l>) -> Result<T, NativeError>,
) -> T {
    env.with_env(body).resolve::<ThrowRingException>()
}

/// [`native`] for the exports that take a handle of type `H` and need no JNI calls.
fn with_handle<'l, H, T: Default + 'l>(
    env: EnvUnowned<'l>,
    raw: jlong,
    body: impl FnOnce(&mut H) -> Result<T, NativeError>,
) -> T {
    native(env, |_| {
        // SAFETY: every handle Java passes is 0 or a live handle of the type the export names,
        // owned by the calling NativeRing object and used by one Java thread at a time.
        body(unsafe { handle::<H>(raw)? })
    })
}

/// [`native`] for the `close*` exports: frees the handle (0 is ignored).
fn close_handle<H>(env: EnvUnowned<'_>, raw: jlong) {
    native(env, |_| {
        // SAFETY: a handle of type H that Java closes once (it zeroes its copy first) and never
        // uses again.
        unsafe { free::<H>(raw) };
        Ok(())
    })
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

/// The ring behind the handle `ring` and the address and length of the direct `buffer` that
/// `producer0` and `consumer0` register with the endpoint they attach to it.
///
/// # Safety
/// As [`handle`], for a handle of a [`Ring`].
unsafe fn ring_and_buffer<'a>(
    env: &Env<'_>,
    ring: jlong,
    buffer: &JByteBuffer<'_>,
) -> Result<(&'a mut Ring, *mut u8, usize), NativeError> {
    // SAFETY: by this function's contract.
    let ring = unsafe { handle::<Ring>(ring)? };
    let (buffer, buffer_len) = direct_buffer(env, buffer)?;
    Ok((ring, buffer, buffer_len))
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

/// Takes the open claim whose payload index is `index`, for commit or abort.
fn take_claim(p: &mut ProducerHandle, index: jlong) -> Result<DetachedClaim, NativeError> {
    match &p.claim {
        None => Err(NativeError::Usage(
            "no claim is open: it was already committed or aborted".into(),
        )),
        Some(open) if open.payload_index() as jlong != index => {
            Err(NativeError::BadArgument(format!(
                "invalid claim index {index} (the open claim is at {}; use the value tryClaim \
                 returned)",
                open.payload_index()
            )))
        }
        Some(_) => Ok(p.claim.take().expect("matched Some above")),
    }
}

/// Declares the exports: each becomes `#[unsafe(no_mangle)] pub extern "system" fn name<'l>`
/// whose parameters are `EnvUnowned<'l>` and the `JClass<'l>` of the static native method, then
/// the Java arguments, in one of three forms:
/// - `fn name(h: &mut H, args..) -> R { body }`: the first Java argument is a `jlong` handle of
///   type `H`; the body runs through [`with_handle`] with `h` bound to it;
/// - `fn name(env, args..) -> R { body }`: the body runs through [`native`] with `env` bound to
///   the `&mut Env` (or `_` when it needs none);
/// - `close fn name(H);`: frees a `jlong` handle of type `H` ([`close_handle`]).
///
/// The expansion is the function one would write by hand: no work is added per call.
macro_rules! exports {
    () => {};
    (@export $(#[$attr:meta])* $name:ident($env:ident $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?
        $body:block
    ) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<'l>($env: EnvUnowned<'l>, _class: JClass<'l>, $($arg: $ty),*)
            $(-> $ret)? $body
    };
    (
        $(#[$attr:meta])*
        fn $name:ident($h:ident: &mut $H:ty $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?
        $body:block
        $($rest:tt)*
    ) => {
        exports! { @export $(#[$attr])* $name(env, raw: jlong $(, $arg: $ty)*) $(-> $ret)? {
            with_handle(env, raw, |$h: &mut $H| $body)
        } }
        exports! { $($rest)* }
    };
    (
        $(#[$attr:meta])*
        fn $name:ident($env:pat_param $(, $arg:ident: $ty:ty)* $(,)?) $(-> $ret:ty)?
        $body:block
        $($rest:tt)*
    ) => {
        exports! { @export $(#[$attr])* $name(env $(, $arg: $ty)*) $(-> $ret)? {
            native(env, |$env| $body)
        } }
        exports! { $($rest)* }
    };
    ($(#[$attr:meta])* close fn $name:ident($H:ty); $($rest:tt)*) => {
        exports! { @export $(#[$attr])* $name(env, raw: jlong) { close_handle::<$H>(env, raw) } }
        exports! { $($rest)* }
    };
}

exports! {
    fn Java_dev_sympathy_jni_NativeRing_create0(env, path: JString<'l>, capacity: jlong) -> jlong {
        let path = path.try_to_string(env)?;
        let capacity = usize::try_from(capacity)
            .map_err(|_| NativeError::Usage(format!("capacity {capacity} must not be negative")))?;
        Ok(into_handle(Ring::create(path, capacity)?))
    }

    fn Java_dev_sympathy_jni_NativeRing_open0(env, path: JString<'l>, timeout_ms: jlong) -> jlong {
        let path = path.try_to_string(env)?;
        let timeout = Duration::from_millis(timeout_ms.max(0) as u64);
        Ok(into_handle(Ring::open_with_timeout(path, timeout)?))
    }

    fn Java_dev_sympathy_jni_NativeRing_maxMessageLength0(ring: &mut Ring) -> jint {
        Ok(ring.max_message_length() as jint)
    }

    close fn Java_dev_sympathy_jni_NativeRing_closeRing0(Ring);

    fn Java_dev_sympathy_jni_NativeRing_producer0(
        env, ring: jlong, buffer: JByteBuffer<'l>,
    ) -> jlong {
        // SAFETY: `ring` is a live Ring handle owned by the calling NativeRing.
        let (ring, buffer, buffer_len) = unsafe { ring_and_buffer(env, ring, &buffer)? };
        Ok(into_handle(ProducerHandle {
            producer: ring.producer()?,
            buffer,
            buffer_len,
            claim: None,
        }))
    }

    /// The address of the producer's record area (`capacity` bytes), which Java wraps in a
    /// `MemorySegment` scoped to the producer to fill claims in place.
    fn Java_dev_sympathy_jni_NativeRing_producerRecordArea0(p: &mut ProducerHandle) -> jlong {
        Ok(p.producer.record_area().0 as jlong)
    }

    fn Java_dev_sympathy_jni_NativeRing_write0(
        p: &mut ProducerHandle, type_id: jint, offset: jint, length: jint,
    ) -> jboolean {
        let (offset, length) = slice_range(offset, length, p.buffer_len)?;
        // SAFETY: [offset, offset + length) lies inside the registered direct buffer, which the
        // Java NativeRing keeps reachable for as long as the handle lives.
        let payload = unsafe { std::slice::from_raw_parts(p.buffer.add(offset), length) };
        match p.producer.try_write(type_id, payload) {
            Ok(()) => Ok(true),
            Err(e) if e.is_full() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    fn Java_dev_sympathy_jni_NativeRing_writeBatch0(
        p: &mut ProducerHandle, type_id: jint, count: jint, length: jint,
    ) -> jint {
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
    }

    /// Claims room for a `length`-byte message: returns the payload's index in the record area
    /// (Java fills it through its segment over the area), or `INSUFFICIENT_CAPACITY` when full.
    /// One claim may be open per producer.
    fn Java_dev_sympathy_jni_NativeRing_claim0(
        p: &mut ProducerHandle, type_id: jint, length: jint,
    ) -> jlong {
        if let Some(open) = &p.claim {
            return Err(NativeError::Usage(format!(
                "a claim is already open at index {}: commit or abort it first (one claim at a \
                 time through JNI)",
                open.payload_index()
            )));
        }
        let Ok(length) = usize::try_from(length) else {
            return Err(NativeError::NegativeLength {
                length: length.into(),
                max: p.producer.max_message_length(),
            });
        };
        match p.producer.try_claim_detached(type_id, length) {
            Ok(claim) => {
                let index = claim.payload_index() as jlong;
                p.claim = Some(claim);
                Ok(index)
            }
            Err(e) if e.is_full() => Ok(INSUFFICIENT_CAPACITY),
            Err(e) => Err(e.into()),
        }
    }

    fn Java_dev_sympathy_jni_NativeRing_commit0(p: &mut ProducerHandle, index: jlong) {
        let claim = take_claim(p, index)?;
        p.producer.commit_detached(claim);
        Ok(())
    }

    fn Java_dev_sympathy_jni_NativeRing_abort0(p: &mut ProducerHandle, index: jlong) {
        let claim = take_claim(p, index)?;
        p.producer.abort_detached(claim);
        Ok(())
    }

    fn Java_dev_sympathy_jni_NativeRing_producerHeartbeat0(p: &mut ProducerHandle) {
        p.producer.heartbeat();
        Ok(())
    }

    close fn Java_dev_sympathy_jni_NativeRing_closeProducer0(ProducerHandle);

    fn Java_dev_sympathy_jni_NativeRing_consumer0(
        env, ring: jlong, buffer: JByteBuffer<'l>,
    ) -> jlong {
        // SAFETY: `ring` is a live Ring handle owned by the calling NativeRing.
        let (ring, buffer, buffer_len) = unsafe { ring_and_buffer(env, ring, &buffer)? };
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
    }

    fn Java_dev_sympathy_jni_NativeRing_read0(c: &mut ConsumerHandle, limit: jint) -> jint {
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
    }

    fn Java_dev_sympathy_jni_NativeRing_consumerHeartbeat0(c: &mut ConsumerHandle) {
        c.consumer.heartbeat();
        Ok(())
    }

    close fn Java_dev_sympathy_jni_NativeRing_closeConsumer0(ConsumerHandle);

    fn Java_dev_sympathy_jni_NativeRing_pinCurrentThread0(_, core: jint) {
        let core = usize::try_from(core)
            .map_err(|_| NativeError::Usage(format!("core {core} must not be negative")))?;
        sympathy_affinity::pin_current_thread(core)
            .map_err(|e| NativeError::Usage(format!("pinning to core {core} failed: {e}")))
    }
}
