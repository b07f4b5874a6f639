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
    /// Many-to-one throughput: `producers` Rust producer processes to this Rust consumer.
    Mpsc,
    /// Many-to-one throughput: a Rust and a Java producer process to this Rust consumer.
    MpscMixed,
    /// Broadcast throughput: a Rust transmitter process to `receivers` Rust receivers (this
    /// process's and the others' processes).
    Broadcast,
}

sympathy_harness::catalog_variant!(Variant, super::EXPERIMENT);

impl Variant {
    /// Every variant, in report order.
    pub const ALL: [Variant; 8] = [
        Variant::Ring,
        Variant::Echo,
        Variant::RingCross,
        Variant::EchoCrossFfm,
        Variant::EchoCrossJni,
        Variant::Mpsc,
        Variant::MpscMixed,
        Variant::Broadcast,
    ];

    /// The name in results and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Ring => "ring",
            Variant::Echo => "echo",
            Variant::RingCross => "ring-cross",
            Variant::EchoCrossFfm => "echo-cross-ffm",
            Variant::EchoCrossJni => "echo-cross-jni",
            Variant::Mpsc => "mpsc",
            Variant::MpscMixed => "mpsc-mixed",
            Variant::Broadcast => "broadcast",
        }
    }

    /// Whether this variant measures round trips (else throughput).
    pub fn is_echo(self) -> bool {
        matches!(
            self,
            Variant::Echo | Variant::EchoCrossFfm | Variant::EchoCrossJni
        )
    }

    /// Whether this variant runs on a many-to-one ring (`producers` producer processes).
    pub fn is_many_to_one(self) -> bool {
        matches!(self, Variant::Mpsc | Variant::MpscMixed)
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
    /// Messages per throughput run (all producers together), or timed round trips per echo run.
    pub messages: u64,
    /// Producer processes (many-to-one variants) or receivers (broadcast); 1 otherwise.
    pub peers: usize,
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

    /// Whether one of the processes is a Java one.
    pub fn needs_java(&self) -> bool {
        self.producer == Language::Java
            || self.consumer == Language::Java
            || self.variant == Variant::MpscMixed
    }

    /// The language of each producer process of a many-to-one case, producer `t` writing type
    /// `t + 1`: all the producer's language, or for mpsc-mixed Rust then Java.
    pub fn producer_languages(&self) -> Vec<Language> {
        if self.variant == Variant::MpscMixed {
            vec![Language::Rust, Language::Java]
        } else {
            vec![self.producer; self.peers]
        }
    }

    /// The result every measurement of this case starts from: experiment, variant and every
    /// param but the runner params all experiments share (cores, preset, ...).
    pub fn measurement(&self) -> Measurement {
        let producer = if self.variant == Variant::MpscMixed {
            "rust+java"
        } else {
            self.producer.name()
        };
        let mut m = Measurement::new(EXPERIMENT, self.variant.name())
            .language(self.language().name())
            .param("producer", producer)
            .param("consumer", self.consumer.name())
            .param("size_bytes", self.size_bytes as u64)
            .param("capacity", self.capacity as u64)
            .param("writes", self.writes.name());
        if self.writes == WriteMode::Batch {
            m = m.param("batch", self.batch as u64);
        }
        if self.variant.is_many_to_one() {
            m = m.param("producers", self.peers as u64);
        } else if self.variant == Variant::Broadcast {
            m = m.param("receivers", self.peers as u64);
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
        peers: 1,
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
            Variant::Mpsc | Variant::MpscMixed => {
                for peers in catalog_counts(variant, "producers", preset)? {
                    out.push(Case {
                        variant,
                        peers,
                        capacity: kind_capacity(variant, preset, overrides, size_bytes)?,
                        messages: count.max(peers as u64 * 2),
                        ..base.clone()
                    });
                }
            }
            Variant::Broadcast => {
                let capacity = kind_capacity(variant, preset, overrides, size_bytes)?;
                let messages = broadcast_count(count, size_bytes, capacity)?;
                for peers in catalog_counts(variant, "receivers", preset)? {
                    out.push(Case {
                        variant,
                        peers,
                        capacity,
                        messages,
                        ..base.clone()
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The ring capacity of a many-to-one or broadcast case: `--capacity`, else the variant's own
/// (broadcast: sized for a whole run) or the experiment's, at least 8 x the size.
fn kind_capacity(
    variant: Variant,
    preset: Preset,
    overrides: &Overrides,
    size_bytes: usize,
) -> Result<usize, PeerError> {
    if let Some(capacity) = overrides.capacity {
        return Ok(capacity);
    }
    let capacity = catalog_counts(variant, "capacity", preset)?
        .into_iter()
        .next()
        .unwrap_or(0);
    Ok(capacity.max(size_bytes.saturating_mul(8).next_power_of_two()))
}

/// Messages per broadcast run: `count`, capped so that the whole run fits in half the ring
/// (the transmitter never waits, so only a ring that holds the run keeps every receiver from
/// being lapped).
///
/// # Errors
/// Fewer than 2 messages fit.
pub fn broadcast_count(count: u64, size_bytes: usize, capacity: usize) -> Result<u64, PeerError> {
    let record = (size_bytes + 8).next_multiple_of(8) as u64;
    let fits = capacity as u64 / 2 / record;
    if fits < 2 {
        return Err(PeerError::BadCase(format!(
            "a broadcast run must fit in half the ring (no receiver lapped): {capacity} bytes \
             hold {fits} messages of {size_bytes} bytes; give a larger --capacity"
        )));
    }
    Ok(count.min(fits))
}

/// The whole numbers param `param` takes for `variant` at `preset` (the variant's own value,
/// else the experiment's: one, or a list).
fn catalog_counts(variant: Variant, param: &str, preset: Preset) -> Result<Vec<usize>, PeerError> {
    let spec = catalog().experiment(EXPERIMENT);
    let values = spec.map(|e| e.values_for(variant.name(), param, preset));
    let counts: Option<Vec<usize>> = values.and_then(|vs| {
        vs.iter()
            .map(|v| v.as_integer().and_then(|i| usize::try_from(i).ok()))
            .filter(|v| v != &Some(0))
            .collect()
    });
    match counts {
        Some(counts) if !counts.is_empty() => Ok(counts),
        _ => Err(PeerError::BadCase(format!(
            "experiments/ipc.toml gives {} no whole number `{param}` at preset {} (1 or more)",
            variant.name(),
            preset.name()
        ))),
    }
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
                    "echo-cross-jni",
                    "mpsc",
                    "mpsc",
                    "mpsc-mixed",
                    "broadcast",
                    "broadcast"
                ],
                "{preset:?}"
            );
            assert!(all.iter().all(|c| c.language() == Language::Rust));
            assert_eq!(all[2].producer, Language::Java);
            assert!(all[3..5].iter().all(|c| c.consumer == Language::Java));
            assert!(all.iter().map(Case::needs_java).eq([
                false, false, true, true, true, false, false, true, false, false
            ]));
            assert!(all[5..].iter().map(|c| c.peers).eq([1, 2, 2, 1, 2]));
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
    fn the_other_ring_kinds_carry_their_producers_and_receivers() {
        let all = cases(
            &[Variant::Mpsc, Variant::MpscMixed, Variant::Broadcast],
            Preset::Full,
            &Overrides::default(),
        )
        .unwrap();
        let mpsc = all[1].measurement();
        assert_eq!(mpsc.params["producers"], 2, "{:?}", mpsc.params);
        assert!(!mpsc.params.contains_key("receivers"));
        assert_eq!(
            all[2].producer_languages(),
            [Language::Rust, Language::Java]
        );
        assert_eq!(all[2].measurement().params["producer"], "rust+java");
        assert_eq!(all[1].producer_languages(), [Language::Rust; 2]);
        let broadcast = &all[4];
        assert_eq!(broadcast.measurement().params["receivers"], 2);
        assert_eq!(broadcast.capacity, 64 << 20);
        // The run fits in half the ring (16-byte records): no receiver can be lapped.
        assert!(broadcast.messages * 16 <= broadcast.capacity as u64 / 2);
        assert_eq!(broadcast.messages, 2_097_152);
        assert_eq!(broadcast_count(1000, 4, 64 << 20).unwrap(), 1000);
        let err = broadcast_count(1000, 4, 16).unwrap_err();
        assert!(err.to_string().contains("larger --capacity"), "{err}");
        // Every write mode asked for still makes one case of each (they write per message).
        let overrides = Overrides {
            writes: vec![WriteMode::PerMessage, WriteMode::Batch],
            ..Overrides::default()
        };
        let both = cases(&[Variant::Mpsc], Preset::Smoke, &overrides).unwrap();
        assert!(both.iter().all(|c| c.writes == WriteMode::PerMessage));
        assert_eq!(both.len(), 2);
        assert_eq!(super::super::split_count(7, 2), [4, 3]);
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
