//! The catalog (`experiments/*.toml`, compiled into `sympathy-harness`) as the CLI reads it:
//! param values at a preset, and the variant flags, whose valid names are the catalog's.

use anyhow::{Context, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use sympathy_harness::Preset;
use sympathy_harness::catalog::{CatalogVariant, ExperimentSpec, Language, ParamSpec, catalog};

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

/// The kernels of `V` that the catalog lists for `language` at `preset`, in catalog order: the
/// variants a run measures when `--variants` is not given.
pub fn variants_at<V: CatalogVariant>(language: Language, preset: Preset) -> Result<Vec<V>> {
    Ok(spec(V::EXPERIMENT)?
        .variants_at(language, preset)
        .into_iter()
        .filter_map(|n| V::ALL.iter().copied().find(|&v| v.catalog_name() == n))
        .collect())
}

/// `flag` when given, else [`variants_at`] for Rust at `preset`: the variants a run measures.
pub fn variants_or<V: CatalogVariant>(flag: &Option<Vec<V>>, preset: Preset) -> Result<Vec<V>> {
    match flag {
        Some(chosen) => Ok(chosen.clone()),
        None => variants_at(Language::Rust, preset),
    }
}

/// The clap value parser of an experiment's `--variants`: the names the catalog lists for
/// Rust (clap's error and `--help` name them all), each parsed into its kernel of `V`.
///
/// ```ignore
/// #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
/// variants: Option<Vec<Variant>>,
/// ```
pub fn variant_parser<V: CatalogVariant>() -> impl TypedValueParser<Value = V> {
    let experiment = V::EXPERIMENT;
    let names: Vec<&'static str> = catalog()
        .experiment(experiment)
        .map(|e| e.variants_in(Language::Rust))
        .unwrap_or_default()
        .into_iter()
        .filter(|&n| V::ALL.iter().any(|&v| v.catalog_name() == n))
        .collect();
    PossibleValuesParser::new(names).try_map(move |text| {
        V::ALL
            .iter()
            .copied()
            .find(|&v| v.catalog_name() == text)
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
        #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
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

    #[test]
    fn values_come_from_the_catalog_and_missing_ones_are_named() {
        // every integer param of every experiment, as the catalog holds it
        let mut read = 0;
        for spec in &catalog().experiments {
            for param in &spec.params {
                if let Some(value) = param.u64_at(Preset::Full) {
                    assert_eq!(
                        u64_at(&spec.name, &param.name, Preset::Full).unwrap(),
                        value
                    );
                    read += 1;
                }
            }
        }
        assert!(read > 0, "the catalog has integer params");
        let name = &catalog().experiments[0].name;
        let err = u64_at(name, "nope", Preset::Full).unwrap_err();
        assert!(err.to_string().contains("has no param `nope`"), "{err}");
    }

    /// Every kernel name parses back to its kernel through the catalog, the catalog's Rust
    /// variants are exactly the kernels, and a name the Rust side does not run (another
    /// language's, or none at all) is an error listing the Rust names.
    fn names_round_trip<V: CatalogVariant + PartialEq + std::fmt::Debug>() {
        let experiment = V::EXPERIMENT;
        let parser = variant_parser::<V>();
        let cmd = clap::Command::new("x");
        for &v in V::ALL {
            let parsed = parser.parse_ref(&cmd, None, std::ffi::OsStr::new(v.catalog_name()));
            assert_eq!(parsed.unwrap(), v, "{experiment}");
        }
        let kernels: Vec<&str> = V::ALL.iter().map(|&v| v.catalog_name()).collect();
        let spec = spec(experiment).unwrap();
        assert_eq!(
            spec.variants_in(Language::Rust),
            kernels,
            "{experiment}: the catalog's Rust variants are the kernels, in order"
        );
        let others = spec.variants_in(Language::Java).into_iter();
        for wrong in others
            .chain(["no-such-variant"])
            .filter(|name| !kernels.contains(name))
        {
            let err = parser
                .parse_ref(&cmd, None, std::ffi::OsStr::new(wrong))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(wrong) && kernels.iter().all(|k| err.contains(k)),
                "{experiment}: {err}"
            );
        }
    }

    #[test]
    fn every_experiments_variant_names_round_trip_through_the_catalog() {
        names_round_trip::<sympathy_lab::atomic_increment::Variant>();
        names_round_trip::<sympathy_lab::back_pressure::Variant>();
        names_round_trip::<sympathy_lab::bridge::Variant>();
        names_round_trip::<sympathy_lab::dispatch::Variant>();
        names_round_trip::<sympathy_lab::memory_walk::Variant>();
        names_round_trip::<sympathy_lab::ping_pong::Variant>();
        names_round_trip::<sympathy_lab::queue::Variant>();
        names_round_trip::<sympathy_lab::serialization::Variant>();
        names_round_trip::<sympathy_lab::struct_table::Variant>();
    }
}
