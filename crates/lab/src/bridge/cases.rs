//! What a bridge run measures: [`cases`] reads the catalog's values at a preset, applies the
//! command line's [`Overrides`] and lists one [`Case`] per result group (a variant on a
//! transport). The run and `--plan` both go through it, so a plan names exactly the params the
//! results carry.

use sympathy_harness::catalog::{Language, catalog};
use sympathy_harness::{Measurement, Preset};

use super::EXPERIMENT;
use crate::peer::PeerError;

/// A bridge variant the Rust side runs (catalog `experiments/bridge.toml`; `aeron` and
/// `aeron-echo`, Aeron alone, are Java's only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Throughput: a Rust producer, ring A, `bridge send`, Aeron, `bridge receive`, ring B,
    /// this process's Rust consumer.
    RingAeronRing,
    /// Round trip: this process pings through a duplex bridge on each host, a Rust echo on
    /// host B sending every message back.
    RingAeronRingEcho,
}

sympathy_harness::catalog_variant!(Variant, super::EXPERIMENT);

impl Variant {
    /// Every variant, in catalog order.
    pub const ALL: [Variant; 2] = [Variant::RingAeronRing, Variant::RingAeronRingEcho];

    /// The name in results and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::RingAeronRing => "ring-aeron-ring",
            Variant::RingAeronRingEcho => "ring-aeron-ring-echo",
        }
    }

    /// Whether this variant measures round trips (else throughput).
    pub fn is_echo(self) -> bool {
        self == Variant::RingAeronRingEcho
    }
}

/// How the two hosts are joined (param `transport`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Aeron's shared-memory channel (`aeron:ipc`): one driver, the first end's; the other
    /// end connects to it.
    Ipc,
    /// Unicast UDP on loopback (127.0.0.1), a driver per end.
    Udp,
    /// Unicast UDP between two network namespaces joined by a veth pair (root only).
    Veth,
}

impl Transport {
    /// Every transport.
    pub const ALL: [Transport; 3] = [Transport::Ipc, Transport::Udp, Transport::Veth];

    /// `params.transport` in the results, and the command line's name.
    pub fn name(self) -> &'static str {
        match self {
            Transport::Ipc => "ipc",
            Transport::Udp => "udp",
            Transport::Veth => "veth",
        }
    }

    /// The transport called `name`.
    pub fn named(name: &str) -> Option<Transport> {
        Transport::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// `--transports udp,veth`: a transport by [name](Transport::name), as a command line gives it.
impl std::str::FromStr for Transport {
    type Err = String;

    fn from_str(text: &str) -> Result<Transport, String> {
        Transport::named(text)
            .ok_or_else(|| format!("'{text}' is not a transport: use one of ipc, udp, veth"))
    }
}

/// Command-line values that replace the catalog's (the results then carry them).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--transports`: the transports, in order (empty: the catalog's).
    pub transports: Vec<Transport>,
    /// `--size`: payload bytes per message.
    pub size_bytes: Option<usize>,
    /// `--capacity`: each ring's bytes.
    pub capacity: Option<usize>,
    /// `--count`: messages per throughput run.
    pub count: Option<u64>,
    /// `--round-trips`: timed round trips per echo run.
    pub round_trips: Option<u64>,
}

/// The smallest payload: the pattern's first 8 bytes are the message's index (the catalog's
/// `size_bytes` says so, for both languages).
pub const MIN_SIZE: usize = 8;

/// One result group: a variant on a transport, with every param its results carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The variant.
    pub variant: Variant,
    /// How the hosts are joined.
    pub transport: Transport,
    /// Payload bytes per message.
    pub size_bytes: usize,
    /// Bytes of each ring's record area.
    pub capacity: usize,
    /// Messages per throughput run, or timed round trips per echo run.
    pub messages: u64,
}

impl Case {
    /// The language of the ring ends, the result's: Rust (the bridge's own ends are Java in
    /// every language's rows).
    pub fn language(&self) -> Language {
        Language::Rust
    }

    /// The result every measurement of this case starts from: experiment, variant, language
    /// and the case's params (the work params `transport`, `size_bytes`, `capacity`, and
    /// `count` or `round_trips`).
    pub fn measurement(&self) -> Measurement {
        let count = if self.variant.is_echo() {
            "round_trips"
        } else {
            "count"
        };
        Measurement::new(EXPERIMENT, self.variant.name())
            .language(self.language().name())
            .param("transport", self.transport.name())
            .param("size_bytes", self.size_bytes as u64)
            .param("capacity", self.capacity as u64)
            .param(count, self.messages)
    }

    /// `ring-aeron-ring udp`: the case in progress lines and failures.
    pub fn label(&self) -> String {
        format!("{} {}", self.variant.name(), self.transport.name())
    }
}

/// The cases of `variants` at `preset`, each variant once per transport (variant by variant,
/// the transports in order), with `overrides` applied.
///
/// # Errors
/// A size outside 8..=capacity/8, too few messages, a transport named twice, or a catalog
/// value of the wrong type.
pub fn cases(
    variants: &[Variant],
    preset: Preset,
    overrides: &Overrides,
) -> Result<Vec<Case>, PeerError> {
    let transports = if overrides.transports.is_empty() {
        catalog_transports(preset)?
    } else {
        overrides.transports.clone()
    };
    if let Some(twice) = transports
        .iter()
        .enumerate()
        .find_map(|(i, t)| transports[..i].contains(t).then_some(t))
    {
        return Err(PeerError::BadCase(format!(
            "--transports names {} twice",
            twice.name()
        )));
    }
    let size_bytes = match overrides.size_bytes {
        Some(size) => size,
        None => catalog_u64("size_bytes", preset)? as usize,
    };
    let capacity = match overrides.capacity {
        Some(capacity) => capacity,
        None => catalog_u64("capacity", preset)? as usize,
    };
    let max = sympathy_ring::layout::max_message_length(capacity);
    if !(MIN_SIZE..=max).contains(&size_bytes) {
        return Err(PeerError::BadCase(format!(
            "--size {size_bytes} is outside {MIN_SIZE}..={max} (the pattern's index takes \
             {MIN_SIZE} bytes; a ring of {capacity} bytes takes capacity / 8); pick a size in \
             that range or a larger --capacity"
        )));
    }
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
    let mut out = Vec::new();
    for &variant in variants {
        let messages = if variant.is_echo() {
            round_trips
        } else {
            count
        };
        out.extend(transports.iter().map(|&transport| Case {
            variant,
            transport,
            size_bytes,
            capacity,
            messages,
        }));
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
                "experiments/bridge.toml has no whole number `{param}` at preset {}",
                preset.name()
            ))
        })
}

fn catalog_transports(preset: Preset) -> Result<Vec<Transport>, PeerError> {
    let names = catalog()
        .experiment(EXPERIMENT)
        .and_then(|e| e.param("transport"))
        .and_then(|p| p.strs_at(preset))
        .ok_or_else(|| {
            PeerError::BadCase(format!(
                "experiments/bridge.toml has no list of strings `transport` at preset {}",
                preset.name()
            ))
        })?;
    names
        .into_iter()
        .map(|name| {
            Transport::named(name).ok_or_else(|| {
                PeerError::BadCase(format!(
                    "experiments/bridge.toml: transport `{name}` at preset {} is not one of \
                     ipc, udp, veth",
                    preset.name()
                ))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_runs_on_each_of_the_catalogs_transports() {
        for preset in Preset::ALL {
            let transports = catalog_transports(preset).unwrap();
            assert!(!transports.is_empty(), "{preset:?}");
            let all = cases(&Variant::ALL, preset, &Overrides::default()).unwrap();
            assert_eq!(all.len(), 2 * transports.len(), "{preset:?}");
            let (throughput, echo) = all.split_at(transports.len());
            assert!(
                throughput
                    .iter()
                    .all(|c| c.variant == Variant::RingAeronRing)
            );
            assert!(echo.iter().all(|c| c.variant == Variant::RingAeronRingEcho));
            for half in [throughput, echo] {
                assert!(
                    half.iter()
                        .map(|c| c.transport)
                        .eq(transports.iter().copied())
                );
            }
            assert!(all.iter().all(|c| c.size_bytes >= MIN_SIZE));
        }
        let smoke = cases(&Variant::ALL, Preset::Smoke, &Overrides::default()).unwrap();
        let named: Vec<String> = smoke.iter().map(Case::label).collect();
        assert_eq!(
            named,
            [
                "ring-aeron-ring ipc",
                "ring-aeron-ring udp",
                "ring-aeron-ring-echo ipc",
                "ring-aeron-ring-echo udp"
            ]
        );
    }

    #[test]
    fn params_follow_the_catalog() {
        let all = cases(&Variant::ALL, Preset::Smoke, &Overrides::default()).unwrap();
        let ring = all[0].measurement();
        assert_eq!(
            (ring.experiment.as_str(), ring.language.as_str()),
            ("bridge", "rust")
        );
        let keys: Vec<&str> = ring.params.keys().map(String::as_str).collect();
        for key in ["transport", "size_bytes", "capacity", "count"] {
            assert!(keys.contains(&key), "{key}: {keys:?}");
        }
        assert_eq!(ring.params["transport"], "ipc");
        assert_eq!(ring.params["count"], 100_000);
        let echo = all[2].measurement();
        assert_eq!(echo.params["round_trips"], 500);
        assert!(!echo.params.contains_key("count"), "{:?}", echo.params);
    }

    #[test]
    fn overrides_replace_the_catalog_and_bad_ones_are_named() {
        let overrides = Overrides {
            transports: vec![Transport::Veth, Transport::Udp],
            size_bytes: Some(64),
            count: Some(10),
            ..Overrides::default()
        };
        let all = cases(&[Variant::RingAeronRing], Preset::Quick, &overrides).unwrap();
        assert_eq!(
            all.iter().map(|c| c.transport).collect::<Vec<_>>(),
            [Transport::Veth, Transport::Udp]
        );
        assert!(all.iter().all(|c| c.size_bytes == 64 && c.messages == 10));
        let twice = Overrides {
            transports: vec![Transport::Udp, Transport::Udp],
            ..Overrides::default()
        };
        let err = cases(&Variant::ALL, Preset::Smoke, &twice).unwrap_err();
        assert!(err.to_string().contains("names udp twice"), "{err}");
        let small = Overrides {
            size_bytes: Some(4),
            ..Overrides::default()
        };
        let err = cases(&Variant::ALL, Preset::Smoke, &small).unwrap_err();
        assert!(err.to_string().contains("outside 8..="), "{err}");
        let one = Overrides {
            count: Some(1),
            ..Overrides::default()
        };
        assert!(cases(&Variant::ALL, Preset::Smoke, &one).is_err());
        assert_eq!("veth".parse::<Transport>(), Ok(Transport::Veth));
        assert!(
            "tcp"
                .parse::<Transport>()
                .unwrap_err()
                .contains("ipc, udp, veth")
        );
    }
}
