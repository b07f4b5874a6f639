//! The catalog (`experiments/*.toml`, compiled into `sympathy-harness`) as the CLI reads it:
//! param values at a preset, and the variant flags, whose valid names are the catalog's.

use anyhow::{Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use sympathy_harness::Preset;
use sympathy_harness::catalog::{ExperimentSpec, Language, ParamSpec, catalog};

/// The catalog entry of `experiment`.
pub fn spec(experiment: &str) -> Result<&'static ExperimentSpec> {
    catalog()
        .experiment(experiment)
        .with_context(|| format!("the catalog has no experiments/{experiment}.toml"))
}

/// Param `name` of `experiment`.
pub fn param(experiment: &str, name: &str) -> Result<&'static ParamSpec> {
    catalog()
        .param(experiment, name)
        .with_context(|| format!("experiments/{experiment}.toml has no param `{name}`"))
}

/// The unsigned integer param `name` at `preset`.
pub fn u64_at(experiment: &str, name: &str, preset: Preset) -> Result<u64> {
    param(experiment, name)?
        .u64_at(preset)
        .with_context(|| not_a(experiment, name, preset, "an unsigned integer"))
}

/// `flag` when given, else the unsigned integer param `name` at `preset`.
pub fn u64_or(flag: Option<u64>, experiment: &str, name: &str, preset: Preset) -> Result<u64> {
    match flag {
        Some(value) => Ok(value),
        None => u64_at(experiment, name, preset),
    }
}

/// `flag` when given, else the catalog's param `name` at `preset` as a `usize`.
pub fn usize_or(
    flag: Option<usize>,
    experiment: &str,
    name: &str,
    preset: Preset,
) -> Result<usize> {
    let value = u64_or(flag.map(|v| v as u64), experiment, name, preset)?;
    usize::try_from(value).with_context(|| format!("{name} {value} does not fit in memory"))
}

/// The unsigned integers of param `name` at `preset` (a list, or one scalar).
pub fn u64s_at(experiment: &str, name: &str, preset: Preset) -> Result<Vec<u64>> {
    param(experiment, name)?
        .u64s_at(preset)
        .with_context(|| not_a(experiment, name, preset, "a list of unsigned integers"))
}

/// The strings of param `name` at `preset` (a list, or one scalar).
pub fn strs_at(experiment: &str, name: &str, preset: Preset) -> Result<Vec<&'static str>> {
    param(experiment, name)?
        .strs_at(preset)
        .with_context(|| not_a(experiment, name, preset, "a list of strings"))
}

/// The boolean param `name` at `preset`.
pub fn bool_at(experiment: &str, name: &str, preset: Preset) -> Result<bool> {
    param(experiment, name)?
        .at(preset)
        .as_bool()
        .with_context(|| not_a(experiment, name, preset, "a boolean"))
}

fn not_a(experiment: &str, name: &str, preset: Preset, what: &str) -> String {
    format!("experiments/{experiment}.toml: param `{name}` at {preset} is not {what}")
}

/// The kernels of `all` that the catalog lists for `language` in `experiment` at `preset`, in
/// catalog order: the variants a run measures when `--variants` is not given.
pub fn variants_at<V: Copy>(
    experiment: &str,
    language: Language,
    preset: Preset,
    all: &[V],
    name: fn(V) -> &'static str,
) -> Result<Vec<V>> {
    Ok(spec(experiment)?
        .variants_at(language, preset)
        .into_iter()
        .filter_map(|n| all.iter().copied().find(|&v| name(v) == n))
        .collect())
}

/// `flag` when given, else [`variants_at`] for Rust at `preset`: the variants a run measures.
pub fn variants_or<V: Copy>(
    flag: &Option<Vec<V>>,
    experiment: &str,
    preset: Preset,
    all: &[V],
    name: fn(V) -> &'static str,
) -> Result<Vec<V>> {
    match flag {
        Some(chosen) => Ok(chosen.clone()),
        None => variants_at(experiment, Language::Rust, preset, all, name),
    }
}

/// The clap value parser of an experiment's `--variants`: the names the catalog lists for
/// Rust (clap's error and `--help` name them all), each parsed into its kernel of `all`.
///
/// ```ignore
/// #[arg(long, value_delimiter = ',',
///       value_parser = variant_parser("dispatch", &Variant::ALL, Variant::name))]
/// variants: Option<Vec<Variant>>,
/// ```
pub fn variant_parser<V: Copy + Send + Sync + 'static>(
    experiment: &'static str,
    all: &'static [V],
    name: fn(V) -> &'static str,
) -> impl TypedValueParser<Value = V> {
    let names: Vec<&'static str> = catalog()
        .experiment(experiment)
        .map(|e| e.variants_in(Language::Rust))
        .unwrap_or_default()
        .into_iter()
        .filter(|&n| all.iter().any(|&v| name(v) == n))
        .collect();
    PossibleValuesParser::new(names).try_map(move |text| {
        all.iter()
            .copied()
            .find(|&v| name(v) == text)
            .ok_or_else(|| format!("'{text}' is not a {experiment} variant"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use sympathy_lab::dispatch::Variant;

    #[derive(Parser, Debug)]
    struct Flags {
        #[arg(long, value_delimiter = ',',
              value_parser = variant_parser("dispatch", &Variant::ALL, Variant::name))]
        variants: Vec<Variant>,
    }

    #[test]
    fn variant_flags_take_the_catalog_names_and_list_them_when_wrong() {
        let flags = Flags::try_parse_from(["x", "--variants", "dyn-4,static"]).unwrap();
        assert_eq!(flags.variants, [Variant::Dyn4, Variant::Static]);
        let err = Flags::try_parse_from(["x", "--variants", "mega"])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("mega") && err.contains("dyn-1, dyn-2, dyn-4"),
            "{err}"
        );
    }

    /// Every kernel name parses back to its kernel through the catalog, the catalog's Rust
    /// variants are exactly the kernels, and a wrong name is an error naming a right one.
    fn names_round_trip<V: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static>(
        experiment: &'static str,
        all: &'static [V],
        name: fn(V) -> &'static str,
        wrong: &str,
        listed: &str,
    ) {
        let parser = variant_parser(experiment, all, name);
        let cmd = clap::Command::new("x");
        for &v in all {
            let parsed = parser.parse_ref(&cmd, None, std::ffi::OsStr::new(name(v)));
            assert_eq!(parsed.unwrap(), v, "{experiment}");
        }
        let kernels: Vec<&str> = all.iter().map(|&v| name(v)).collect();
        assert_eq!(
            spec(experiment).unwrap().variants_in(Language::Rust),
            kernels,
            "{experiment}: the catalog's Rust variants are the kernels, in order"
        );
        let err = parser
            .parse_ref(&cmd, None, std::ffi::OsStr::new(wrong))
            .unwrap_err()
            .to_string();
        assert!(err.contains(wrong) && err.contains(listed), "{err}");
    }

    #[test]
    fn every_experiments_variant_names_round_trip_through_the_catalog() {
        use atomic_increment::Variant as Atomic;
        use sympathy_lab::*;
        names_round_trip(
            "atomic-increment",
            &Atomic::ALL,
            Atomic::name,
            "lock-inc",
            "lock-xadd",
        );
        use ping_pong::Variant as Ping;
        names_round_trip("ping-pong", &Ping::ALL, Ping::name, "ping", "same-line");
        use memory_walk::Variant as Walk;
        names_round_trip(
            "memory-walk",
            &Walk::ALL,
            Walk::name,
            "zigzag",
            "chase-heap",
        );
        use struct_table::Variant as Table;
        names_round_trip(
            "struct-table",
            &Table::ALL,
            Table::name,
            "heap",
            "flyweight",
        );
        use queue::Variant as Queue;
        names_round_trip("queue", &Queue::ALL, Queue::name, "ring2", "p1c1-batch");
        use serialization::Variant as Codec;
        names_round_trip(
            "serialization",
            &Codec::ALL,
            Codec::name,
            "unsafe",
            "ring-claim",
        );
        names_round_trip("dispatch", &Variant::ALL, Variant::name, "mono", "dyn-1");
        use back_pressure::Variant as Pressure;
        names_round_trip(
            "back-pressure",
            &Pressure::ALL,
            Pressure::name,
            "lifo",
            "bounded",
        );
    }

    #[test]
    fn values_come_from_the_catalog_and_missing_ones_are_named() {
        assert_eq!(
            u64_at("struct-table", "records", Preset::Full).unwrap(),
            50_000_000
        );
        let err = u64_at("struct-table", "nope", Preset::Full).unwrap_err();
        assert!(err.to_string().contains("has no param `nope`"), "{err}");
    }
}
