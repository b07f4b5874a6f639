//! Errors crossing into Java: every [`RingError`] becomes the matching exception of the Java
//! ring module (built by `dev.sympathy.jni.NativeErrors.exception`), JNI failures and
//! panics become an `IllegalStateException`. Nothing unwinds into the JVM: exports run their
//! body in `EnvUnowned::with_env` (which catches panics) and resolve with [`ThrowRingException`].

use jni::Env;
use jni::errors::ErrorPolicy;
use jni::objects::{JThrowable, JValue};
use jni::{jni_sig, jni_str};
use sympathy_ring::Role;
use sympathy_ring::{FileError, RingError};

/// What a native call can fail with.
#[derive(Debug)]
pub enum NativeError {
    /// The ring refused (bad file, corrupt record, attached peer, ...).
    Ring(RingError),
    /// A JNI call failed (usually a pending Java exception).
    Jni(jni::errors::Error),
    /// A call Java may not make now (a closed handle, a slice outside the buffer, a second
    /// open claim, finishing a claim twice): an `IllegalStateException`.
    Usage(String),
    /// A bad argument (a claim index `tryClaim` did not return): an
    /// `IllegalArgumentException`, as the FFM ring throws.
    BadArgument(String),
    /// A negative message length: a `MessageTooLongException`, as the FFM ring throws.
    NegativeLength {
        /// The length Java passed.
        length: i64,
        /// The ring's largest message.
        max: usize,
    },
}

impl From<jni::errors::Error> for NativeError {
    fn from(error: jni::errors::Error) -> Self {
        NativeError::Jni(error)
    }
}

impl From<RingError> for NativeError {
    fn from(error: RingError) -> Self {
        NativeError::Ring(error)
    }
}

/// The Java-side description of an error: kind code (see `NativeErrors.java`), message, path,
/// detail and three numbers.
struct Described {
    kind: i32,
    message: String,
    path: String,
    detail: String,
    a: i64,
    b: i64,
    c: i64,
}

fn role_name(role: Role) -> String {
    match role {
        Role::Producer => "producer".into(),
        Role::Consumer => "consumer".into(),
    }
}

fn describe(error: &NativeError) -> Described {
    let mut d = Described {
        kind: 0,
        message: match error {
            NativeError::Ring(e) => e.to_string(),
            NativeError::Jni(e) => format!("JNI call failed: {e}"),
            NativeError::Usage(m) | NativeError::BadArgument(m) => m.clone(),
            NativeError::NegativeLength { length, max } => {
                format!("message length {length} is negative (0..={max} bytes)")
            }
        },
        path: String::new(),
        detail: String::new(),
        a: 0,
        b: 0,
        c: 0,
    };
    let error = match error {
        NativeError::Ring(error) => error,
        NativeError::BadArgument(_) => {
            d.kind = 15;
            return d;
        }
        NativeError::NegativeLength { length, max } => {
            (d.kind, d.a, d.b) = (7, *length, *max as i64);
            return d;
        }
        NativeError::Jni(_) | NativeError::Usage(_) => return d,
    };
    match error {
        RingError::File(e) => describe_file(e, &mut d),
        RingError::BadCapacity { capacity, .. } => (d.kind, d.a) = (5, *capacity as i64),
        RingError::CorruptRecord { position, .. } => (d.kind, d.a) = (6, *position),
        RingError::MessageTooLong { length, max, .. } => {
            (d.kind, d.a, d.b) = (7, *length as i64, *max as i64)
        }
        RingError::InvalidTypeId { type_id } => (d.kind, d.a) = (8, i64::from(*type_id)),
        RingError::AlreadyAttached { role, pid } => {
            (d.kind, d.detail, d.a) = (11, role_name(*role), i64::from(*pid))
        }
        RingError::Full { .. } => d.kind = 12,
        RingError::Timeout { waited, what } => {
            (d.kind, d.detail, d.a) = (13, (*what).to_string(), waited.as_millis() as i64)
        }
        RingError::PeerDead { role, pid, .. } => {
            (d.kind, d.detail, d.a) = (14, role_name(*role), i64::from(*pid))
        }
        RingError::WrongKind {
            path,
            found,
            wanted,
        } => {
            (d.kind, d.path, d.a, d.b) = (
                19,
                path.display().to_string(),
                i64::from(found.word()),
                i64::from(wanted.word()),
            )
        }
    }
    d
}

/// The Java exception's fields for an error of the ring file itself.
fn describe_file(error: &FileError, d: &mut Described) {
    let path_of = |p: &std::path::Path| p.display().to_string();
    match error {
        FileError::NotThisKind { path, .. } => (d.kind, d.path) = (1, path_of(path)),
        FileError::UnsupportedVersion { path, found, .. } => {
            (d.kind, d.path, d.a) = (2, path_of(path), i64::from(*found))
        }
        // A ring never grows, so never FileShort; described alike should one come.
        FileError::FileLength {
            path,
            actual,
            expected,
            ..
        }
        | FileError::FileShort {
            path,
            actual,
            expected,
            ..
        } => (d.kind, d.path, d.a, d.b) = (3, path_of(path), *actual as i64, *expected as i64),
        FileError::CorruptHeader { path, what, .. } => {
            (d.kind, d.path, d.detail) = (4, path_of(path), what.clone())
        }
        FileError::NotReady { waited, .. } => (d.kind, d.a) = (18, waited.as_millis() as i64),
        FileError::PermissionDenied { path, .. } => (d.kind, d.path) = (9, path_of(path)),
        FileError::Io { path, .. } => (d.kind, d.path) = (10, path_of(path)),
        FileError::NotARegularFile { path, what, .. } => {
            (d.kind, d.path, d.detail) = (16, path_of(path), what.clone())
        }
        FileError::NoSpace {
            path,
            filesystem,
            available,
            kept,
            needed,
            ..
        } => {
            (d.kind, d.path, d.detail, d.a, d.b, d.c) = (
                17,
                path_of(path),
                filesystem.clone(),
                *available as i64,
                *needed as i64,
                *kept as i64,
            )
        }
    }
}

/// Builds the Java exception for `error` and throws it (unless one is already pending).
fn throw(env: &mut Env<'_>, error: &NativeError) -> jni::errors::Result<()> {
    if env.exception_check() {
        return Ok(()); // a Java exception (e.g. from a JNI call) is already on its way
    }
    let d = describe(error);
    let message = env.new_string(&d.message)?;
    let path = env.new_string(&d.path)?;
    let detail = env.new_string(&d.detail)?;
    let exception = env
        .call_static_method(
            jni_str!("dev/sympathy/jni/NativeErrors"),
            jni_str!("exception"),
            jni_sig!("(ILjava/lang/String;Ljava/lang/String;Ljava/lang/String;JJJ)Ljava/lang/RuntimeException;"),
            &[
                JValue::Int(d.kind),
                JValue::Object(&message),
                JValue::Object(&path),
                JValue::Object(&detail),
                JValue::Long(d.a),
                JValue::Long(d.b),
                JValue::Long(d.c),
            ],
        )?
        .l()?;
    let throwable = env.cast_local::<JThrowable>(exception)?;
    let _ = env.throw(throwable); // Err(JavaException) just says it is now pending
    Ok(())
}

/// The error policy of every export: ring errors become the Java ring's exceptions, panics an
/// `IllegalStateException` naming the panic; the return value is then the type's default.
pub struct ThrowRingException;

impl<T: Default> ErrorPolicy<T, NativeError> for ThrowRingException {
    type Captures<'unowned_env_local: 'native_method, 'native_method> = ();

    fn on_error<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        err: NativeError,
    ) -> jni::errors::Result<T> {
        throw(env, &err)?;
        Ok(T::default())
    }

    fn on_panic<'unowned_env_local: 'native_method, 'native_method>(
        env: &mut Env<'unowned_env_local>,
        _cap: &mut Self::Captures<'unowned_env_local, 'native_method>,
        payload: Box<dyn std::any::Any + Send + 'static>,
    ) -> jni::errors::Result<T> {
        let text = if let Some(s) = payload.downcast_ref::<&'static str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "non-string panic payload".to_string()
        };
        std::mem::forget(payload); // dropping a payload may itself panic
        throw(
            env,
            &NativeError::Usage(format!("panic in the native ring: {text}")),
        )?;
        Ok(T::default())
    }
}
