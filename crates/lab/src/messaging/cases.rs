//! What a messaging run measures: [`cases`] reads the catalog (`experiments/messaging.toml`) at
//! a preset, applies the command line's [`Overrides`] and lists one [`Case`] per result group;
//! the run and `--plan` both go through it.

use sympathy_harness::catalog::{Language, catalog};
use sympathy_harness::{Measurement, Preset};

use super::{EXPERIMENT, Encoding};
use crate::peer::{JavaRing, PeerError};

/// A messaging variant (catalog `experiments/messaging.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The ring's raw rate for the SBE message's size.
    Raw,
    /// SBE through the generated codecs.
    Sbe,
    /// The fixed 64-byte struct, in place.
    Struct,
    /// The same bytes through a bounds-checked cursor.
    HandCodec,
    /// serde + postcard (Java: java.io serialization).
    Serde,
    /// SBE from a Java sender on the Rust ring through JNI.
    SbeJni,
}

sympathy_harness::catalog_variant!(Variant, super::EXPERIMENT);

impl Variant {
    /// Every Rust variant, in report order.
    pub const ALL: [Variant; 6] = [
        Variant::Raw,
        Variant::Sbe,
        Variant::Struct,
        Variant::HandCodec,
        Variant::Serde,
        Variant::SbeJni,
    ];

    /// The name in results and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Raw => "raw",
            Variant::Sbe => "sbe",
            Variant::Struct => "struct",
            Variant::HandCodec => "hand-codec",
            Variant::Serde => "serde",
            Variant::SbeJni => "sbe-jni",
        }
    }

    /// How its messages are encoded.
    pub fn encoding(self) -> Encoding {
        match self {
            Variant::Raw => Encoding::Raw,
            Variant::Sbe | Variant::SbeJni => Encoding::Sbe,
            Variant::Struct => Encoding::Struct,
            Variant::HandCodec => Encoding::HandCodec,
            Variant::Serde => Encoding::Serde,
        }
    }

    /// The ring a Java sender drives: the Rust ring through JNI for `sbe-jni`, else FFM.
    pub fn java_ring(self) -> JavaRing {
        if self == Variant::SbeJni {
            JavaRing::Jni
        } else {
            JavaRing::Ffm
        }
    }

    /// The catalog param that says how many messages a run sends.
    /// The byte format on the ring (the `format` parity fact): `postcard` for serde (Java's
    /// twin writes `java.io`'s stream, a different format), SBE for sbe-jni, else the name.
    pub fn format(self) -> &'static str {
        match self {
            Variant::Serde => "postcard",
            Variant::SbeJni => "sbe",
            other => other.name(),
        }
    }

    fn count_param(self) -> &'static str {
        if self == Variant::Serde {
            "stock_count"
        } else {
            "count"
        }
    }
}

/// The sending process's language against the receiver's (param `sender`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sender {
    /// Both processes in the receiver's language.
    SameLanguage,
    /// The sender in the other language.
    OtherLanguage,
}

impl Sender {
    /// Both.
    pub const ALL: [Sender; 2] = [Sender::SameLanguage, Sender::OtherLanguage];

    /// `params.sender` in the results, and the command line's name.
    pub fn name(self) -> &'static str {
        match self {
            Sender::SameLanguage => "same-language",
            Sender::OtherLanguage => "other-language",
        }
    }

    /// The sender called `name`.
    pub fn named(name: &str) -> Option<Sender> {
        Sender::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Command-line values that replace the catalog's (the results then carry them).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--count`: messages per run (every variant).
    pub count: Option<u64>,
    /// `--capacity`: ring bytes.
    pub capacity: Option<usize>,
    /// `--senders`: only these senders.
    pub senders: Vec<Sender>,
}

/// One result group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The variant.
    pub variant: Variant,
    /// The sender's language against the receiver's.
    pub sender: Sender,
    /// The receiver's language (the result's): Rust in `sympathy run messaging`.
    pub receiver: Language,
    /// Ring bytes.
    pub capacity: usize,
    /// Messages per run.
    pub messages: u64,
    /// Warm-up rounds of a Java sender before it sends (its loops compiled by C2 first, rounds
    /// added while the JIT still compiles): none at smoke, which checks the plumbing, else 4 (2
    /// left quick's SBE sender partly uncompiled: 4.5M msgs/s against 18M); not a result param.
    pub java_warmup: u32,
}

/// A Java sender's warm-up rounds at `preset` (see [`Case::java_warmup`]; Java's
/// `MessagingExperiment.warmupRounds` gives its receiver the same).
pub fn java_warmup(preset: Preset) -> u32 {
    if preset == Preset::Smoke { 0 } else { 4 }
}

impl Case {
    /// The sending process's language.
    pub fn sender_language(&self) -> Language {
        match (self.sender, self.receiver) {
            (Sender::SameLanguage, language) => language,
            (Sender::OtherLanguage, Language::Java) => Language::Rust,
            (Sender::OtherLanguage, _) => Language::Java,
        }
    }

    /// Whether one of the two processes is a Java one.
    pub fn needs_java(&self) -> bool {
        self.sender_language() == Language::Java || self.receiver == Language::Java
    }

    /// `sbe same-language (rust -> rust)`.
    pub fn label(&self) -> String {
        format!(
            "{} {} ({} -> {})",
            self.variant.name(),
            self.sender.name(),
            self.sender_language().name(),
            self.receiver.name()
        )
    }

    /// The result every measurement of this case starts from: experiment, variant and its
    /// params, runner params all experiments share aside (cores, preset, ...).
    pub fn measurement(&self) -> Measurement {
        Measurement::new(EXPERIMENT, self.variant.name())
            .language(self.receiver.name())
            .param("sender", self.sender.name())
            .param("producer", self.sender_language().name())
            .param("consumer", self.receiver.name())
            .param("capacity", self.capacity as u64)
            .param(self.variant.count_param(), self.messages)
            .param("placement", "cross-core")
            .fact("format", self.variant.format())
    }
}

/// The cases of `variants` at `preset` with `overrides`, Rust receiving: each variant once per
/// sender the catalog gives it (serde within Rust only, sbe-jni from Java only).
///
/// # Errors
/// A catalog value of the wrong type, a variant without the sender asked for, too few
/// messages, or a ring too small for a message.
pub fn cases(
    variants: &[Variant],
    preset: Preset,
    overrides: &Overrides,
) -> Result<Vec<Case>, PeerError> {
    let spec = catalog()
        .experiment(EXPERIMENT)
        .ok_or_else(|| PeerError::BadCase("experiments/messaging.toml is missing".into()))?;
    let capacity = match overrides.capacity {
        Some(capacity) => capacity,
        None => catalog_u64("capacity", None, preset)? as usize,
    };
    let max = sympathy_ring::layout::max_message_length(capacity);
    if max < 512 {
        return Err(PeerError::BadCase(format!(
            "--capacity {capacity} takes messages of up to {max} bytes; the encodings need 512 \
             (give it 4096 or more, a power of two)"
        )));
    }
    let mut out = Vec::new();
    for &variant in variants {
        let senders: Vec<Sender> = spec
            .values_for(variant.name(), "sender", preset)
            .into_iter()
            .map(|v| {
                let name = v.as_str().unwrap_or_default();
                Sender::named(name).ok_or_else(|| {
                    PeerError::BadCase(format!(
                        "experiments/messaging.toml: sender `{name}` is neither same-language nor other-language"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        let messages = match overrides.count {
            Some(count) => count,
            None => catalog_u64(variant.count_param(), Some(variant), preset)?,
        };
        if messages < 2 {
            return Err(PeerError::BadCase(format!(
                "--count {messages}: a run times the first message to the last, 2 or more"
            )));
        }
        for sender in senders {
            if !overrides.senders.is_empty() && !overrides.senders.contains(&sender) {
                continue;
            }
            out.push(Case {
                variant,
                sender,
                receiver: Language::Rust,
                capacity,
                messages,
                java_warmup: java_warmup(preset),
            });
        }
    }
    Ok(out)
}

fn catalog_u64(param: &str, variant: Option<Variant>, preset: Preset) -> Result<u64, PeerError> {
    let spec = catalog().experiment(EXPERIMENT);
    let value = match variant {
        Some(v) => spec.and_then(|e| e.values_for(v.name(), param, preset).first().copied()),
        None => spec.and_then(|e| e.param(param)).map(|p| p.at(preset)),
    };
    value
        .and_then(|v| v.as_integer())
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(|| {
            PeerError::BadCase(format!(
                "experiments/messaging.toml has no whole number `{param}` at preset {}",
                preset.name()
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_gives_each_variant_its_senders() {
        // quick takes same-language senders only; a variant fixing its sender keeps it
        let quick = cases(&Variant::ALL, Preset::Quick, &Overrides::default()).unwrap();
        let labels: Vec<String> = quick.iter().map(Case::label).collect();
        assert_eq!(
            labels,
            [
                "raw same-language (rust -> rust)",
                "sbe same-language (rust -> rust)",
                "struct same-language (rust -> rust)",
                "hand-codec same-language (rust -> rust)",
                "serde same-language (rust -> rust)",
                "sbe-jni other-language (java -> rust)",
            ]
        );
        for preset in [Preset::Smoke, Preset::Default, Preset::Full] {
            let all = cases(&Variant::ALL, preset, &Overrides::default()).unwrap();
            let labels: Vec<String> = all.iter().map(Case::label).collect();
            assert_eq!(
                labels,
                [
                    "raw same-language (rust -> rust)",
                    "raw other-language (java -> rust)",
                    "sbe same-language (rust -> rust)",
                    "sbe other-language (java -> rust)",
                    "struct same-language (rust -> rust)",
                    "struct other-language (java -> rust)",
                    "hand-codec same-language (rust -> rust)",
                    "hand-codec other-language (java -> rust)",
                    "serde same-language (rust -> rust)",
                    "sbe-jni other-language (java -> rust)",
                ],
                "{preset:?}"
            );
            let serde = &all[8];
            assert!(serde.messages < all[0].messages, "{preset:?}");
            assert!(serde.measurement().params.contains_key("stock_count"));
            assert!(!serde.needs_java() && all[9].needs_java());
            assert_eq!(all[9].variant.java_ring(), JavaRing::Jni);
        }
    }

    #[test]
    fn senders_and_counts_can_be_narrowed_and_bad_values_are_named() {
        let only_rust = Overrides {
            senders: vec![Sender::SameLanguage],
            count: Some(1000),
            ..Overrides::default()
        };
        let all = cases(&[Variant::Sbe, Variant::SbeJni], Preset::Smoke, &only_rust).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].measurement().params["count"], 1000);
        let tiny = Overrides {
            capacity: Some(1024),
            ..Overrides::default()
        };
        let err = cases(&[Variant::Raw], Preset::Smoke, &tiny).unwrap_err();
        assert!(err.to_string().contains("--capacity 1024"), "{err}");
        let one = Overrides {
            count: Some(1),
            ..Overrides::default()
        };
        assert!(cases(&[Variant::Raw], Preset::Smoke, &one).is_err());
    }
}
