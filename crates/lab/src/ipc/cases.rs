//! What an ipc run measures: [`cases`] reads the catalog's values at a preset, applies the
//! command line's [`Overrides`] and lists one [`Case`] per result group. The run and `--plan`
//! both go through it, so a plan names exactly the params the results carry.

use sympathy_harness::catalog::{Language, catalog};
use sympathy_harness::{Measurement, Preset};

use super::EXPERIMENT;
use crate::peer::{JavaRing, PeerError};

/// An ipc variant (catalog `experiments/ipc.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Throughput, both ends in Rust.
    Ring,
    /// Echo round trip, both ends in Rust.
    Echo,
    /// Throughput, a Java producer to a Rust consumer.
    RingCross,
    /// Echo round trip, this Rust process pinging a Java echo on the FFM ring.
    EchoCrossFfm,
    /// Echo round trip, this Rust process pinging a Java echo on the Rust ring through JNI.
    EchoCrossJni,
}

sympathy_harness::catalog_variant!(Variant, super::EXPERIMENT);

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 5] = [
        Variant::Ring,
        Variant::Echo,
        Variant::RingCross,
        Variant::EchoCrossFfm,
        Variant::EchoCrossJni,
    ];

    /// The name in results and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Ring => "ring",
            Variant::Echo => "echo",
            Variant::RingCross => "ring-cross",
            Variant::EchoCrossFfm => "echo-cross-ffm",
            Variant::EchoCrossJni => "echo-cross-jni",
        }
    }

    /// Whether this variant measures round trips (else throughput).
    pub fn is_echo(self) -> bool {
        matches!(
            self,
            Variant::Echo | Variant::EchoCrossFfm | Variant::EchoCrossJni
        )
    }

    /// The ring implementation the Java process of this variant drives (`ring-cross`'s
    /// producer and `echo-cross-ffm`'s echo: FFM; `echo-cross-jni`'s: JNI).
    pub fn java_ring(self) -> JavaRing {
        if self == Variant::EchoCrossJni {
            JavaRing::Jni
        } else {
            JavaRing::Ffm
        }
    }
}

/// How a throughput producer writes (param `writes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// One API call per message (`Batch::try_write`, or a claim per message over 64 bytes).
    PerMessage,
    /// `Producer::try_write_batch`: runs of up to `batch` messages filled in place.
    Batch,
}

impl WriteMode {
    /// Both modes.
    pub const ALL: [WriteMode; 2] = [WriteMode::PerMessage, WriteMode::Batch];

    /// `params.writes` in the results, and the command line's name.
    pub fn name(self) -> &'static str {
        match self {
            WriteMode::PerMessage => "per-message",
            WriteMode::Batch => "batch",
        }
    }

    /// The mode called `name`.
    pub fn named(name: &str) -> Option<WriteMode> {
        WriteMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// `--writes per-message`: a mode by [name](WriteMode::name), as a command line gives it.
impl std::str::FromStr for WriteMode {
    type Err = String;

    fn from_str(text: &str) -> Result<WriteMode, String> {
        WriteMode::named(text)
            .ok_or_else(|| format!("'{text}' is not a write mode: use one of per-message, batch"))
    }
}

/// Command-line values that replace the catalog's (the results then carry them).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--size`: payload bytes per message.
    pub size_bytes: Option<usize>,
    /// `--capacity`: ring bytes.
    pub capacity: Option<usize>,
    /// `--count`: messages per throughput run.
    pub count: Option<u64>,
    /// `--round-trips`: timed round trips per echo run.
    pub round_trips: Option<u64>,
    /// `--writes`: the throughput write modes (several: alternated run by run).
    pub writes: Vec<WriteMode>,
    /// `--batch`: messages per `try_write_batch` run (writes = batch only).
    pub batch: Option<usize>,
}

/// Messages per `try_write_batch` run unless `--batch` says otherwise; also the most messages
/// a per-message producer publishes at once (one `Batch`).
pub const DEFAULT_BATCH: usize = 256;

/// One result group: a variant with every param its results carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The variant.
    pub variant: Variant,
    /// The producing process's language (for an echo: the pinging one's).
    pub producer: Language,
    /// The consuming process's language (for an echo: the echoing one's).
    pub consumer: Language,
    /// Payload bytes per message.
    pub size_bytes: usize,
    /// Ring bytes (each of the two rings, for echo).
    pub capacity: usize,
    /// How the producer writes (echo: always per message).
    pub writes: WriteMode,
    /// Messages per `try_write_batch` run (with [`WriteMode::Batch`]), else per publish.
    pub batch: usize,
    /// Messages per throughput run, or timed round trips per echo run.
    pub messages: u64,
}

impl Case {
    /// Whether this case measures throughput (else round trips).
    pub fn is_throughput(&self) -> bool {
        !self.variant.is_echo()
    }

    /// The language of the process that measures, the result's: the consumer of a throughput
    /// run, the pinger of an echo.
    pub fn language(&self) -> Language {
        if self.is_throughput() {
            self.consumer
        } else {
            self.producer
        }
    }

    /// Whether one of the two processes is a Java one.
    pub fn needs_java(&self) -> bool {
        self.producer == Language::Java || self.consumer == Language::Java
    }

    /// The result every measurement of this case starts from: experiment, variant and every
    /// param but the runner params all experiments share (cores, preset, ...).
    pub fn measurement(&self) -> Measurement {
        let mut m = Measurement::new(EXPERIMENT, self.variant.name())
            .language(self.language().name())
            .param("producer", self.producer.name())
            .param("consumer", self.consumer.name())
            .param("size_bytes", self.size_bytes as u64)
            .param("capacity", self.capacity as u64)
            .param("writes", self.writes.name());
        if self.writes == WriteMode::Batch {
            m = m.param("batch", self.batch as u64);
        }
        let count = if self.is_throughput() {
            "count"
        } else {
            "round_trips"
        };
        m.param(count, self.messages)
            .param("placement", "cross-core")
    }
}

/// The cases of `variants` at `preset`, in that order (a throughput variant once per write
/// mode), with `overrides` applied.
///
/// # Errors
/// A size that does not fit the ring, too few messages, or a catalog value of the wrong type.
pub fn cases(
    variants: &[Variant],
    preset: Preset,
    overrides: &Overrides,
) -> Result<Vec<Case>, PeerError> {
    let size_bytes = overrides
        .size_bytes
        .map_or_else(|| catalog_u64("size_bytes", preset), |v| Ok(v as u64))?
        as usize;
    // Without --capacity, a large --size gets a ring that takes it (8 x the size).
    let capacity = match overrides.capacity {
        Some(capacity) => capacity,
        None => (catalog_u64("capacity", preset)? as usize)
            .max(size_bytes.saturating_mul(8).next_power_of_two()),
    };
    check_size(
        size_bytes,
        sympathy_ring::layout::max_message_length(capacity),
    )?;
    let count = overrides
        .count
        .map_or_else(|| catalog_u64("count", preset), Ok)?;
    let round_trips = overrides
        .round_trips
        .map_or_else(|| catalog_u64("round_trips", preset), Ok)?;
    if count < 2 || round_trips < 1 {
        return Err(PeerError::BadCase(format!(
            "--count {count} / --round-trips {round_trips}: a throughput run times the first \
             message to the last (2 or more), an echo run needs a round trip"
        )));
    }
    let writes = if overrides.writes.is_empty() {
        vec![catalog_writes(preset)?]
    } else {
        overrides.writes.clone()
    };
    if let Some(twice) = writes
        .iter()
        .enumerate()
        .find_map(|(i, m)| writes[..i].contains(m).then_some(m))
    {
        return Err(PeerError::BadCase(format!(
            "--writes names {} twice",
            twice.name()
        )));
    }
    let batch = overrides.batch.unwrap_or(DEFAULT_BATCH);
    if batch == 0 {
        return Err(PeerError::BadCase("--batch must be 1 or more".into()));
    }
    let base = Case {
        variant: Variant::Ring,
        producer: Language::Rust,
        consumer: Language::Rust,
        size_bytes,
        capacity,
        writes: WriteMode::PerMessage,
        batch,
        messages: count,
    };
    let mut out = Vec::new();
    for &variant in variants {
        match variant {
            Variant::Echo => out.push(Case {
                variant,
                messages: round_trips,
                ..base.clone()
            }),
            Variant::Ring => out.extend(writes.iter().map(|&writes| Case {
                variant,
                writes,
                ..base.clone()
            })),
            Variant::RingCross => out.extend(writes.iter().map(|&writes| Case {
                variant,
                producer: Language::Java,
                writes,
                ..base.clone()
            })),
            Variant::EchoCrossFfm | Variant::EchoCrossJni => out.push(Case {
                variant,
                consumer: Language::Java,
                messages: round_trips,
                ..base.clone()
            }),
        }
    }
    Ok(out)
}

fn catalog_u64(param: &str, preset: Preset) -> Result<u64, PeerError> {
    catalog()
        .experiment(EXPERIMENT)
        .and_then(|e| e.param(param))
        .and_then(|p| p.u64_at(preset))
        .ok_or_else(|| {
            PeerError::BadCase(format!(
                "experiments/ipc.toml has no whole number `{param}` at preset {}",
                preset.name()
            ))
        })
}

fn catalog_writes(preset: Preset) -> Result<WriteMode, PeerError> {
    let text = catalog()
        .experiment(EXPERIMENT)
        .and_then(|e| e.param("writes"))
        .and_then(|p| p.at(preset).as_str())
        .unwrap_or_default();
    WriteMode::named(text).ok_or_else(|| {
        PeerError::BadCase(format!(
            "experiments/ipc.toml `writes` is `{text}`: the write modes are per-message, batch"
        ))
    })
}

/// Checks that a payload size fits the pattern (>= 4) and a ring whose largest message is
/// `max` bytes (capacity / 8).
///
/// # Errors
/// [`PeerError::BadCase`] naming the range and what to change.
pub fn check_size(size: usize, max: usize) -> Result<(), PeerError> {
    let min = sympathy_ring::pattern::MIN_MESSAGE_SIZE;
    if size < min || size > max {
        return Err(PeerError::BadCase(format!(
            "--size {size} is outside {min}..={max} (the pattern needs {min} bytes; the ring \
             takes capacity / 8); pick a size in that range or a larger --capacity"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_gives_every_variant_at_every_preset() {
        for preset in Preset::ALL {
            let all = cases(&Variant::ALL, preset, &Overrides::default()).unwrap();
            let names: Vec<_> = all.iter().map(|c| c.variant.name()).collect();
            assert_eq!(
                names,
                [
                    "ring",
                    "echo",
                    "ring-cross",
                    "echo-cross-ffm",
                    "echo-cross-jni"
                ],
                "{preset:?}"
            );
            assert!(all.iter().all(|c| c.language() == Language::Rust));
            assert_eq!(all[2].producer, Language::Java);
            assert!(all[3..].iter().all(|c| c.consumer == Language::Java));
            assert!(
                all.iter()
                    .map(Case::needs_java)
                    .eq([false, false, true, true, true])
            );
        }
    }

    #[test]
    fn params_follow_the_contract() {
        let all = cases(&Variant::ALL, Preset::Smoke, &Overrides::default()).unwrap();
        let ring = all[0].measurement();
        for key in [
            "producer",
            "consumer",
            "size_bytes",
            "capacity",
            "writes",
            "count",
            "placement",
        ] {
            assert!(ring.params.contains_key(key), "{key}: {:?}", ring.params);
        }
        assert!(!ring.params.contains_key("batch"), "{:?}", ring.params);
        let echo = all[1].measurement();
        assert!(echo.params.contains_key("round_trips"));
        assert!(!echo.params.contains_key("count"));
        let cross = all[2].measurement();
        assert_eq!(
            (
                cross.experiment.as_str(),
                cross.language.as_str(),
                cross.variant.as_str()
            ),
            ("ipc", "rust", "ring-cross")
        );
        assert_eq!(cross.params["producer"], "java", "{:?}", cross.params);
        let echo_cross = all[4].measurement();
        assert_eq!(
            (echo_cross.language.as_str(), echo_cross.variant.as_str()),
            ("rust", "echo-cross-jni")
        );
        assert_eq!(echo_cross.params["producer"], "rust");
        assert_eq!(echo_cross.params["consumer"], "java");
        assert!(echo_cross.params.contains_key("round_trips"));
        assert_eq!(all[4].variant.java_ring(), JavaRing::Jni);
    }

    #[test]
    fn batch_writes_carry_the_batch_and_bad_values_are_named() {
        let overrides = Overrides {
            writes: vec![WriteMode::PerMessage, WriteMode::Batch],
            batch: Some(64),
            ..Overrides::default()
        };
        let all = cases(&[Variant::Ring], Preset::Smoke, &overrides).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].measurement().params["batch"], 64);
        // The Java producer of ring-cross writes either way too (its runs filled in place).
        let cross = cases(&[Variant::RingCross], Preset::Smoke, &overrides).unwrap();
        assert_eq!(
            cross
                .iter()
                .map(|c| (c.producer, c.writes))
                .collect::<Vec<_>>(),
            [
                (Language::Java, WriteMode::PerMessage),
                (Language::Java, WriteMode::Batch)
            ]
        );
        assert_eq!(cross[1].measurement().params["batch"], 64);
        let twice = Overrides {
            writes: vec![WriteMode::Batch, WriteMode::Batch],
            ..Overrides::default()
        };
        let err = cases(&[Variant::Ring], Preset::Smoke, &twice).unwrap_err();
        assert!(err.to_string().contains("names batch twice"), "{err}");
        let big = Overrides {
            size_bytes: Some(1 << 20),
            capacity: Some(1 << 20),
            ..Overrides::default()
        };
        let err = cases(&[Variant::Ring], Preset::Smoke, &big).unwrap_err();
        assert!(err.to_string().contains("larger --capacity"), "{err}");
    }
}
