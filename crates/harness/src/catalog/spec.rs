// The catalog's file format: plain serde types and their validation, with no reference to the
// rest of the crate, because the build script includes this file too (`build.rs` parses and
// validates every catalog file, so a bad entry fails the build, not a run).

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

/// How big a run should be. In the catalog a preset is its lower-case name
/// (`skip_at = ["quick"]`); its methods are in `preset.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// One short run on tiny sizes: for tests that check the plumbing, not the figures.
    Smoke,
    /// Seconds per experiment: for a first look and `compare`'s default.
    Quick,
    /// Large enough for stable figures, small enough for a laptop.
    #[default]
    Default,
    /// The sizes the seed articles used (a 2 GiB walk, 50M trades, ...).
    Full,
}

/// A language an experiment's variant runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Rust, under `sympathy run` and criterion.
    Rust,
    /// Java, under JMH (`java/sidecar run`).
    Java,
    /// The C reference kernels, run by the Rust side through FFI.
    C,
}

impl Language {
    /// The name in result records (`"language":"rust"`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Java => "java",
            Language::C => "c",
        }
    }
}

/// `experiments/common.toml`: what every experiment shares.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommonSpec {
    /// Result params that say how a language ran the work, never what it was.
    pub runner_params: Vec<String>,
    /// Every metric a result may carry.
    pub metrics: Vec<MetricSpec>,
    /// How many rounds `sympathy compare` runs of every experiment at each preset (each round
    /// runs every language once, starting one language further along than the round before).
    pub compare_rounds: PerPreset,
    /// Every parity fact a result may carry (`parity` in docs/results.md): what a language
    /// measured or did about the conditions of its work (pinned threads, huge pages, inputs,
    /// what the timer holds), which the two sides of a pair must share.
    #[serde(default)]
    pub parity_facts: Vec<ParityFactSpec>,
}

/// One parity fact: its name in results' `parity` object and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParityFactSpec {
    /// The name in result records, e.g. `pinned`.
    pub name: String,
    /// One sentence: what it says and how it is measured.
    pub does: String,
}

/// Which way a metric improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    /// Rates: more is better.
    Higher,
    /// Times and sizes: less is better.
    Lower,
    /// Neither: the metric describes rather than ranks (one thread's share of the work).
    Neither,
}

impl Better {
    /// How a title says it: `higher is better`, `lower is better`, or nothing.
    pub fn phrase(self) -> Option<&'static str> {
        match self {
            Better::Higher => Some("higher is better"),
            Better::Lower => Some("lower is better"),
            Better::Neither => None,
        }
    }
}

/// One metric: its name in results, its unit, which way is better.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricSpec {
    /// The name in result records, e.g. `ns_per_op`.
    pub name: String,
    /// The unit of its values: `ns`, `ms`, `bytes`, `%`, `ratio`, or a rate `msgs/s`, ...
    pub unit: String,
    /// Which way is better.
    pub better: Better,
    /// One sentence saying what it measures.
    pub does: String,
}

/// `experiments/<name>.toml`: one experiment.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// The name in results, `sympathy run <name>` and `compare --only` (lower-kebab case).
    pub name: String,
    /// One line: what it measures.
    pub purpose: String,
    /// The seed articles it ports (keys of `docs/seeds.md`).
    #[serde(default)]
    pub seeds: Vec<String>,
    /// Its variants, in report order.
    pub variants: Vec<VariantSpec>,
    /// Its parameters with their values at each preset.
    #[serde(default)]
    pub params: Vec<ParamSpec>,
    /// The metrics its results carry (names from `common.toml`).
    pub metrics: Vec<String>,
    /// The rule that picks its line in the report's findings (the first metric's best figure
    /// per language when absent).
    #[serde(default)]
    pub headline: Option<HeadlineSpec>,
    /// Figures the seed articles published, shown beside ours.
    #[serde(default)]
    pub seed_figures: Vec<SeedFigureSpec>,
    /// Expected seconds of each language's `run <name> --json` at each preset, as a table
    /// `[estimate_s]` with a line per language that runs it (C variants run inside the Rust
    /// run), e.g. `rust = { smoke = 2, quick = 5, default = 100, full = 300 }`. `compare`
    /// announces their sum, shows the time left, and ends a run that takes three times its
    /// estimate (at least two minutes). A language without an estimate gets `compare`'s
    /// cautious default.
    #[serde(default)]
    pub estimate_s: BTreeMap<Language, PresetSeconds>,
    /// Whether `compare` without `--only` runs it (default true). An experiment that takes
    /// minutes even at its quick sizes (offheap-map and map-service build maps of a million
    /// users) says `compare_default = false`, so the main job does not take minutes more;
    /// `compare --only <name>` runs it.
    #[serde(default = "yes")]
    pub compare_default: bool,
    /// Timed runs of each case `sympathy run <name>` makes at each preset (`--runs` sets
    /// another count), e.g. `runs = { smoke = 1, quick = 3, default = 5, full = 10 }`: more where
    /// one run is short and its spread wide, fewer where one run builds a million-user map.
    pub runs: PerPreset,
    /// Whether its figures move with the one-way hop between two cores (two threads or
    /// processes on two cores: ping-pong, queue, ipc, ...). Only such an experiment's rows carry
    /// the hop probed around their runs and a drift mark, and only its rounds are taken again
    /// when the hop moved; a single-threaded experiment says `hop_dependent = false` (the
    /// default), and a change of the hop during its run is no reason to doubt it.
    #[serde(default)]
    pub hop_dependent: bool,
    /// The parity facts (names from `common.toml`'s `parity_facts`) every result of it
    /// carries and the two sides of a pair must share: the report refuses to pair two results
    /// whose values differ, or one that lacks a fact, and says why.
    #[serde(default)]
    pub parity: Vec<String>,
    /// Why its languages differ where they differ by much: each entry names the rows it
    /// explains, the cause in one line, and the figures that show it. The report prints the
    /// cause and the figures beside every such row (docs/report.md, "Why the gaps").
    #[serde(default)]
    pub gaps: Vec<GapSpec>,
}

fn yes() -> bool {
    true
}

/// How the report's findings sum up an experiment in one line, from the data.
///
/// `headline = { metric = "ns_per_op", variants = ["cas-bool", "lock-xadd"], params = { threads = 2 } }`:
/// how the first variant compares with the second, in each language (the rows whose params
/// include `params`; the first such row of each variant). `headline = { metric =
/// "msgs_per_sec", languages = true }`: the best figure of each language and Java against Rust
/// per variant.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeadlineSpec {
    /// The metric it reads (one of the experiment's `metrics`).
    pub metric: String,
    /// Two variants, the first compared with the second (empty with `languages`).
    #[serde(default)]
    pub variants: Vec<String>,
    /// Params a row must carry to count (values as in results).
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// Compare the languages rather than two variants (the report's answer does; no lesson).
    #[serde(default)]
    pub languages: bool,
    /// The seed's lesson the two variants test, in words (`a CAS loop costs more than one
    /// lock xadd under contention`); the report marks it confirmed or not on this machine.
    #[serde(default)]
    pub claim: Option<String>,
    /// What the seed's lesson expects of the ratio first/second: `above` 1 or `below` 1 (in
    /// the metric's own terms: `above` for a time means the first is slower).
    #[serde(default)]
    pub expect: Option<Expect>,
}

/// Which side of 1 a seed's lesson expects a ratio on ([`HeadlineSpec::expect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// The first variant's figure is the larger.
    Above,
    /// The first variant's figure is the smaller.
    Below,
}

/// Seconds at each preset (see [`ExperimentSpec::estimate_s`]).
pub type PresetSeconds = PerPreset;

/// A whole number at each preset: seconds of a run ([`ExperimentSpec::estimate_s`]), rounds of
/// a comparison ([`CommonSpec::compare_rounds`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerPreset {
    /// At `--smoke`.
    pub smoke: u32,
    /// At `--quick`.
    pub quick: u32,
    /// At the default preset.
    pub default: u32,
    /// At `--full`.
    pub full: u32,
}

/// One variant of an experiment.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// Its name in results (the Rust name when the languages differ).
    pub name: String,
    /// One sentence: what it does.
    pub does: String,
    /// The languages that implement it.
    pub languages: Vec<Language>,
    /// Java's name for the same work, when it differs from `name`.
    #[serde(default)]
    pub java: Option<String>,
    /// Params whose value this variant fixes at every preset, in place of the experiment's
    /// (dispatch's `dyn-4` always has `implementations = 4`; a Java library queue that boxes
    /// its elements has `element = "boxed-u32"`). Keys are params of the experiment.
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// Presets at which no language runs it (`skip_at = ["quick"]`): a single-language
    /// baseline that pairs with nothing leaves `quick` (compare's default, timed in minutes) and
    /// runs from `default` on. Never `smoke` (which checks every variant's plumbing), never a
    /// headline variant.
    #[serde(default)]
    pub skip_at: Vec<Preset>,
}

impl VariantSpec {
    /// Whether it runs at `preset` (not listed in [`VariantSpec::skip_at`]).
    pub fn runs_at(&self, preset: Preset) -> bool {
        !self.skip_at.contains(&preset)
    }

    /// Its name in `language`'s results: [`VariantSpec::java`] for Java when set, else `name`.
    pub fn name_in(&self, language: Language) -> &str {
        match (language, &self.java) {
            (Language::Java, Some(java)) => java,
            _ => &self.name,
        }
    }
}

/// What a parameter describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The work itself (a size, a count of threads): a Rust and a Java result pair only when
    /// these match.
    Work,
    /// How one language ran it (a loop length, repetitions): shown, never part of pairing.
    Runner,
}

/// One parameter and its value at each preset. A value is a TOML scalar, or an array when the
/// experiment runs every element (thread counts, loads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    /// Its key in result params (snake case; Java's JMH `@Param` is its lower camel case).
    pub name: String,
    /// One sentence: what it sets.
    pub does: String,
    /// Whether it describes the work or how a language ran it.
    pub role: Role,
    /// Value at `--smoke`.
    pub smoke: toml::Value,
    /// Value at `--quick`.
    pub quick: toml::Value,
    /// Value at the default preset.
    pub default: toml::Value,
    /// Value at `--full` (the seeds' sizes).
    pub full: toml::Value,
}

/// A figure a seed article published.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedFigureSpec {
    /// The variant it applies to (empty: every variant).
    #[serde(default)]
    pub variant: String,
    /// The metric, in our units.
    pub metric: String,
    /// Params a result must have for the figure to apply (values as text).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// The figure, converted to the metric's unit.
    pub value: f64,
    /// The language the seed measured.
    pub language: String,
    /// The seed's machine.
    pub hardware: String,
    /// Author, title, date (and section) of the source.
    pub citation: String,
    /// How the figure was read or converted.
    #[serde(default)]
    pub note: String,
}

/// Why one language's rows of a variant are slower than another's, with the evidence:
///
/// ```toml
/// [[gaps]]
/// variant = "ring"
/// slower = "java"
/// than = "rust"
/// cause = "every access to the mapped ring goes through a checked FFM segment"
/// differs = "Java's write checks the segment's bounds and liveness on each of its four accesses"
/// [[gaps.evidence]]
/// measure = "instructions"
/// what = "one write and one read of a 4-byte record"
/// rust = { value = 143.3, ids = ["ring/write/4b", "ring/read/4b"] }
/// java = { value = 260.0, ids = ["ring/write/4b", "ring/read/4b"] }
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GapSpec {
    /// The variant whose rows it explains (the catalog's name).
    pub variant: String,
    /// Params a row must carry to be explained (values as in results, as text); empty: every
    /// row of the variant.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
    /// The metrics whose tables it explains; empty: every metric of the experiment.
    #[serde(default)]
    pub metrics: Vec<String>,
    /// The language whose figure is the worse one.
    pub slower: Language,
    /// The language it is compared with in the report's pair (Java with Rust, Rust with C).
    pub than: Language,
    /// One line: why.
    pub cause: String,
    /// What the slower side's loop does that the other's does not (a bounds check, a spill, a
    /// call, an allocation, a lock).
    pub differs: String,
    /// The figures behind the cause: at least one.
    #[serde(default)]
    pub evidence: Vec<EvidenceSpec>,
}

/// How a piece of evidence was measured ([`EvidenceSpec::measure`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// Instructions per message under valgrind's callgrind, counted the same way in each
    /// language: the difference between runs of n and 2n messages (`ci/instructions` for Rust,
    /// `ci/java-instructions` for Java), by the ids of those gates, whose baselines keep the
    /// catalog's figures current.
    Instructions,
    /// Bytes allocated per message or operation (JMH `-prof gc`'s `gc.alloc.rate.norm`).
    BytesAllocated,
    /// Another measured figure, named in `what` with the command that measured it in `source`.
    Figure,
}

impl Measure {
    /// The unit its values are in.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Instructions => "instructions",
            Measure::BytesAllocated => "bytes",
            Measure::Figure => "",
        }
    }
}

/// One figure behind a gap's cause, in each language it was taken in.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceSpec {
    /// How it was measured.
    pub measure: Measure,
    /// What one unit of it is, e.g. `per message: one write and one read of a 4-byte record`.
    pub what: String,
    /// The command that measures it (for [`Measure::Instructions`] the gates are implied).
    #[serde(default)]
    pub source: String,
    /// Its unit, for [`Measure::Figure`] (the others imply theirs).
    #[serde(default)]
    pub unit: String,
    /// Rust's figure.
    #[serde(default)]
    pub rust: Option<EvidenceValue>,
    /// Java's figure.
    #[serde(default)]
    pub java: Option<EvidenceValue>,
    /// C's figure.
    #[serde(default)]
    pub c: Option<EvidenceValue>,
}

impl EvidenceSpec {
    /// The figures it holds, by language, in [`Language`] order.
    pub fn values(&self) -> Vec<(Language, &EvidenceValue)> {
        [
            (Language::Rust, &self.rust),
            (Language::Java, &self.java),
            (Language::C, &self.c),
        ]
        .into_iter()
        .filter_map(|(l, v)| Some((l, v.as_ref()?)))
        .collect()
    }

    /// Its unit: the measure's, or `unit` for a [`Measure::Figure`].
    pub fn unit(&self) -> &str {
        match self.measure {
            Measure::Figure => &self.unit,
            m => m.unit(),
        }
    }
}

/// One language's figure of a piece of evidence.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceValue {
    /// The figure.
    pub value: f64,
    /// For [`Measure::Instructions`]: the gate ids whose counts add up to it
    /// (`["ring/write/4b", "ring/read/4b"]`).
    #[serde(default)]
    pub ids: Vec<String>,
}

/// How far, in percent, an instruction count in a gap's evidence may drift from the sum of its
/// ids in the gate's committed baseline before the catalog's figure must be taken again.
pub const EVIDENCE_DRIFT_PERCENT: f64 = 10.0;

/// Checks one experiment's gap entries: each names a known variant and metrics, two different
/// languages that both run the variant, a cause, what the loops do differently, and at least one
/// piece of evidence with a figure and the command behind it; instruction counts need both
/// languages' with the gate ids behind them.
fn validate_gaps(e: &ExperimentSpec, errors: &mut Vec<String>, at: &dyn Fn(String) -> String) {
    for (i, g) in e.gaps.iter().enumerate() {
        let name = format!(
            "gaps[{i}] ({} {} than {})",
            g.variant,
            g.slower.name(),
            g.than.name()
        );
        match e.variants.iter().find(|v| v.name == g.variant) {
            None => errors.push(at(format!("{name}: unknown variant `{}`", g.variant))),
            Some(v) => {
                for l in [g.slower, g.than] {
                    let runs = v.languages.contains(&l);
                    if !runs {
                        errors.push(at(format!(
                            "{name}: the variant does not run in {}",
                            l.name()
                        )));
                    }
                }
            }
        }
        if g.slower == g.than {
            errors.push(at(format!("{name}: `slower` and `than` name one language")));
        }
        for m in &g.metrics {
            if !e.metrics.contains(m) {
                errors.push(at(format!("{name}: metric `{m}` is not the experiment's")));
            }
        }
        for key in g.params.keys() {
            if !e.params.iter().any(|p| &p.name == key) {
                errors.push(at(format!(
                    "{name}: `{key}` is not a param of the experiment"
                )));
            }
        }
        if g.cause.trim().is_empty() || g.differs.trim().is_empty() {
            errors.push(at(format!(
                "{name}: give the `cause` in one line and what the loops do differently (`differs`)"
            )));
        }
        if g.evidence.is_empty() {
            errors.push(at(format!(
                "{name}: no evidence; add a [[gaps.evidence]] with the figures that show the cause \
                 (instructions per message, bytes allocated, or a measured figure and its command)"
            )));
        }
        for (j, ev) in g.evidence.iter().enumerate() {
            let which = format!("{name} evidence[{j}]");
            let values = ev.values();
            if values
                .iter()
                .any(|(_, v)| !(v.value >= 0.0 && v.value.is_finite()))
            {
                errors.push(at(format!("{which}: a figure is negative or not a number")));
            }
            if ev.what.trim().is_empty() {
                errors.push(at(format!("{which}: say what one unit is (`what`)")));
            }
            match ev.measure {
                Measure::Instructions => {
                    for l in [g.slower, g.than] {
                        match values.iter().find(|(vl, _)| *vl == l) {
                            None => errors.push(at(format!(
                                "{which}: instruction counts compare two languages; give {}'s",
                                l.name()
                            ))),
                            Some((_, v)) if v.ids.is_empty() => errors.push(at(format!(
                                "{which}: {}'s count names no gate ids (`ids`)",
                                l.name()
                            ))),
                            Some(_) => {}
                        }
                    }
                }
                Measure::BytesAllocated | Measure::Figure => {
                    if values.is_empty() {
                        errors.push(at(format!(
                            "{which}: no figure; give one language's at least (`rust = {{ value = ... }}`)"
                        )));
                    }
                    if ev.source.trim().is_empty() {
                        errors.push(at(format!(
                            "{which}: name the command that measured it (`source`)"
                        )));
                    }
                    if ev.measure == Measure::Figure && ev.unit.trim().is_empty() {
                        errors.push(at(format!("{which}: give the figure's `unit`")));
                    }
                }
            }
        }
    }
}

/// Checks what serde cannot: unique and well-formed names, known metrics and variants, array
/// values only where every preset has one. Each error names the file and the entry.
pub fn validate(common: &CommonSpec, experiments: &[(String, ExperimentSpec)]) -> Vec<String> {
    let mut errors = Vec::new();
    let r = common.compare_rounds;
    if [r.smoke, r.quick, r.default, r.full].contains(&0) {
        errors.push("common.toml: compare_rounds must be at least 1 at every preset".to_string());
    }
    if [r.smoke, r.quick, r.default, r.full]
        .iter()
        .any(|&n| n > 10)
    {
        errors.push(
            "common.toml: compare_rounds above 10 would make a comparison take hours; use at most 10"
                .to_string(),
        );
    }
    let metrics: BTreeSet<&str> = common.metrics.iter().map(|m| m.name.as_str()).collect();
    if metrics.len() != common.metrics.len() {
        errors.push("common.toml: a metric is listed twice".to_string());
    }
    let facts: BTreeSet<&str> = common
        .parity_facts
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    if facts.len() != common.parity_facts.len() {
        errors.push("common.toml: a parity fact is listed twice".to_string());
    }
    let mut names = BTreeSet::new();
    for (file, e) in experiments {
        let at = |what: String| format!("{file}: {what}");
        for fact in &e.parity {
            if !facts.contains(fact.as_str()) {
                errors.push(at(format!(
                    "parity fact `{fact}` is not one of common.toml's parity_facts ({})",
                    facts.iter().copied().collect::<Vec<_>>().join(", ")
                )));
            }
        }
        if file != &format!("{}.toml", e.name) {
            errors.push(at(format!("holds `{}`; name the file after it", e.name)));
        }
        if !names.insert(e.name.clone()) {
            errors.push(at(format!("a second entry for `{}`", e.name)));
        }
        for name in std::iter::once(&e.name).chain(e.variants.iter().map(|v| &v.name)) {
            if !is_kebab(name) {
                errors.push(at(format!("`{name}` is not lower-kebab case")));
            }
        }
        let variants: BTreeSet<&str> = e.variants.iter().map(|v| v.name.as_str()).collect();
        if variants.len() != e.variants.len() {
            errors.push(at("a variant is listed twice".into()));
        }
        for v in &e.variants {
            if v.languages.is_empty() {
                errors.push(at(format!("variant `{}` names no language", v.name)));
            }
            if v.skip_at.contains(&Preset::Smoke) {
                errors.push(at(format!(
                    "variant `{}` skips smoke, which checks every variant's plumbing",
                    v.name
                )));
            }
            if !v.skip_at.is_empty()
                && e.headline
                    .as_ref()
                    .is_some_and(|h| h.variants.contains(&v.name))
            {
                errors.push(at(format!(
                    "variant `{}` is a headline variant and must run at every preset, but skips {}",
                    v.name,
                    format!("{:?}", v.skip_at).to_lowercase()
                )));
            }
            for key in v.params.keys() {
                if !e.params.iter().any(|p| &p.name == key) {
                    errors.push(at(format!(
                        "variant `{}` fixes `{key}`, which is not a param of the experiment",
                        v.name
                    )));
                }
            }
        }
        for m in &e.metrics {
            if !metrics.contains(m.as_str()) {
                errors.push(at(format!("metric `{m}` is not in common.toml")));
            }
        }
        if let Some(h) = &e.headline {
            if !e.metrics.contains(&h.metric) {
                errors.push(at(format!(
                    "headline: metric `{}` is not one of the experiment's metrics",
                    h.metric
                )));
            }
            if h.languages != h.variants.is_empty() || !(h.languages || h.variants.len() == 2) {
                errors.push(at(
                    "headline: give either two `variants` or `languages = true`".into(),
                ));
            }
            for v in &h.variants {
                if !variants.contains(v.as_str()) {
                    errors.push(at(format!("headline: unknown variant `{v}`")));
                }
            }
            for key in h.params.keys() {
                if !e.params.iter().any(|p| &p.name == key) {
                    errors.push(at(format!(
                        "headline: `{key}` is not a param of the experiment"
                    )));
                }
            }
        }
        let mut params = BTreeSet::new();
        for p in &e.params {
            if !params.insert(p.name.as_str()) {
                errors.push(at(format!("param `{}` is listed twice", p.name)));
            }
            // An experiment may list a runner param of common.toml as `role = "work"`: its
            // results differ in it (atomic-increment's `thread`), so it splits their rows there.
            if common.runner_params.contains(&p.name) && p.role == Role::Runner {
                errors.push(at(format!(
                    "param `{}` is a runner param of every experiment (common.toml): drop it, or give it `role = \"work\"` where it says what a result is about",
                    p.name
                )));
            }
            let arrays = [&p.smoke, &p.quick, &p.default, &p.full]
                .iter()
                .filter(|v| v.is_array())
                .count();
            if arrays != 0 && arrays != 4 {
                errors.push(at(format!(
                    "param `{}` is a list at some presets and not at others",
                    p.name
                )));
            }
        }
        let r = &e.runs;
        if [r.smoke, r.quick, r.default, r.full].contains(&0) {
            errors.push(at(
                "runs: every preset makes at least one run (a zero would report nothing)".into(),
            ));
        }
        for (language, seconds) in &e.estimate_s {
            let name = language.name();
            if *language == Language::C {
                errors.push(at(
                    "estimate_s: C variants run inside the Rust run; give `rust` the time".into(),
                ));
            } else if !e.variants.iter().any(|v| {
                v.languages.contains(language)
                    || (*language == Language::Rust && v.languages.contains(&Language::C))
            }) {
                errors.push(at(format!(
                    "estimate_s: `{name}` runs no variant of this experiment"
                )));
            }
            let s = seconds;
            if !(s.smoke <= s.quick && s.quick <= s.default && s.default <= s.full) {
                errors.push(at(format!(
                    "estimate_s: `{name}` must not take less time at a larger preset (smoke <= quick <= default <= full)"
                )));
            }
        }
        validate_gaps(e, &mut errors, &at);
        for f in &e.seed_figures {
            if !f.variant.is_empty() && !variants.contains(f.variant.as_str()) {
                errors.push(at(format!(
                    "seed figure for unknown variant `{}`",
                    f.variant
                )));
            }
            if !metrics.contains(f.metric.as_str()) {
                errors.push(at(format!("seed figure for unknown metric `{}`", f.metric)));
            }
            if f.value.is_nan() || f.value <= 0.0 || f.citation.is_empty() || f.hardware.is_empty()
            {
                errors.push(at(format!(
                    "seed figure {} {}: needs a positive value, a citation and the hardware",
                    f.variant, f.metric
                )));
            }
        }
    }
    errors
}

fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}
