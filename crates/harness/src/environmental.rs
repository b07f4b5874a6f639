//! Failures caused by the machine, not by the code: a run whose own check failed because other
//! processes took its cores (the back-pressure generator late, a pin that did not take).
//!
//! Such a run exits with [`EXIT_STATUS`] (75, `EX_TEMPFAIL`) in Rust (`sympathy run`) and Java
//! (`java/sidecar run`, `java/jmh/run`); `sympathy compare` runs it again, up to twice. A wrong
//! checksum, a lost message or a crash is never environmental and never retried.
//!
//! An error type says which of its cases are environmental by implementing [`Classify`]; the
//! caller wraps those in [`Environmental`], which the `sympathy` executable finds anywhere in
//! an error's chain of causes.
//!
//! # Examples
//! ```
//! use sympathy_harness::environmental::{Classify, Environmental};
//! use sympathy_harness::pin::PinError;
//!
//! let taken = PinError::NotEffective { core: 1, actual: vec![0, 1] };
//! assert!(taken.is_environmental());
//! let busy = Environmental::new(taken);
//! assert!(busy.to_string().contains("did not take effect"));
//! let missing = PinError::NoSuchCore { core: 9, available: vec![0, 1] };
//! assert!(!missing.is_environmental(), "asking for a core that is not there is a user error");
//! ```

use std::error::Error;
use std::fmt;

/// The exit status of a run that failed because the machine was busy (`EX_TEMPFAIL` of
/// sysexits.h): "try again later".
pub const EXIT_STATUS: i32 = 75;

/// Whether an error was caused by a busy machine rather than by the code or its input.
pub trait Classify {
    /// `true` when the same run on a quiet machine would most likely have passed.
    fn is_environmental(&self) -> bool;
}

/// An error whose cause is a busy machine. Its message is its cause's; its cause is the
/// [`Error::source`].
#[derive(Debug)]
pub struct Environmental {
    cause: Box<dyn Error + Send + Sync + 'static>,
}

impl Environmental {
    /// Marks `cause` as environmental.
    pub fn new(cause: impl Into<Box<dyn Error + Send + Sync + 'static>>) -> Environmental {
        Environmental {
            cause: cause.into(),
        }
    }
}

impl fmt::Display for Environmental {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.cause, f)
    }
}

impl Error for Environmental {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&*self.cause)
    }
}

impl Classify for crate::pin::PinError {
    /// A refused or ineffective pin: the core was taken or the process's cores changed under
    /// it. A core that does not exist is the caller's mistake.
    fn is_environmental(&self) -> bool {
        !matches!(self, crate::pin::PinError::NoSuchCore { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pin::PinError;

    #[test]
    fn the_marker_keeps_its_cause_as_message_and_source() {
        let busy = Environmental::new(PinError::Refused { core: 1 });
        assert_eq!(busy.to_string(), PinError::Refused { core: 1 }.to_string());
        let source = busy.source().expect("the cause is the source");
        assert!(source.downcast_ref::<PinError>().is_some());
        let boxed: Box<dyn Error + Send + Sync> = Box::new(busy);
        assert!(boxed.downcast_ref::<Environmental>().is_some());
    }

    #[test]
    fn only_a_missing_core_is_not_environmental() {
        assert!(PinError::Refused { core: 0 }.is_environmental());
        assert!(
            PinError::NotEffective {
                core: 0,
                actual: vec![0, 1]
            }
            .is_environmental()
        );
        assert!(
            !PinError::NoSuchCore {
                core: 7,
                available: vec![0]
            }
            .is_environmental()
        );
    }
}
