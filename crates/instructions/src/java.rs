//! The Java side of the gate: instructions per message of the Java kernels
//! (`java/jmh/.../instructions/`), counted by callgrind in a JVM that ran one kernel.
//!
//! `ci/java-instructions` runs `InstructionCounts ID MESSAGES` under
//! `valgrind --tool=callgrind --separate-threads=yes --zero-before=getpgrp --dump-before=getsid`
//! with `-Xbatch -XX:+PrintCompilation`, one folder per id holding the JVM's stdout
//! (`stdout.log`) and callgrind's files. The JVM warms the kernel up, then runs its loop in
//! sections of `n` and `2n` messages; before each it prints a section line
//!
//! ```text
//! section id=queue/offer/u32 messages=1000 method=dev.sympathy.jmh.instructions.Kernels::queueOffer start=getpgrp counted=yes
//! ```
//!
//! and calls `getpgrp` (callgrind zeroes its counts), runs the loop, calls `getsid` (callgrind
//! dumps them): section `k` is dump part `k`, and its thread's file is the one in which the
//! `start` function ran. The first sections (`counted=no`) only prime the calls around the
//! loop; each counted pair `(n, 2n)` gives `(Ir(2n) - Ir(n)) / n`, and the pairs of one run must
//! agree within [`REPEAT_TOLERANCE_PERCENT`].
//!
//! ```
//! use sympathy_instructions::java::{Section, parse_section};
//! let line = "section id=ring/read/4b messages=2000 method=K::ringRead start=getpgrp counted=yes";
//! let section = parse_section(line).unwrap().unwrap();
//! assert_eq!((section.id.as_str(), section.messages, section.counted), ("ring/read/4b", 2000, true));
//! assert!(parse_section("  812  b  4  K::ringRead (61 bytes)").is_none(), "not a section line");
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, bail};

use crate::callgrind::Profile;
use crate::gate::{self, Baseline, Case};

/// The most the estimates of one run (its counted `(n, 2n)` pairs) may differ, in percent of
/// the smallest. Compiled code runs the same instructions every time, so they agree exactly;
/// a difference means something else ran inside a section (a compilation, a collection, a
/// safepoint).
pub const REPEAT_TOLERANCE_PERCENT: f64 = 1.0;

/// The file in each run's folder that holds the JVM's stdout.
pub const LOG_FILE: &str = "stdout.log";

/// One measured section of a run, from its line on the JVM's stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The kernel's id (`group/op/param`, as its Rust twin's).
    pub id: String,
    /// Messages the loop ran.
    pub messages: u64,
    /// The loop method, as `-XX:+PrintCompilation` names it.
    pub method: String,
    /// The function whose call started the section (callgrind's `--zero-before`).
    pub start: String,
    /// Whether the section counts (`counted=yes`), or only primes the calls around the loop.
    pub counted: bool,
}

/// Reads a section line (`section id=... messages=... method=... start=... counted=yes|no`);
/// `None` for any other line.
///
/// # Errors
/// When a section line lacks a field or has a bad message count.
pub fn parse_section(line: &str) -> Option<anyhow::Result<Section>> {
    // The JIT's compiler thread prints its lines on the same stdout, now and then into the
    // middle of a section line's: the section starts where its `section id=` does.
    let fields = &line[line.find("section id=")? + "section ".len()..];
    Some((|| {
        let fields: BTreeMap<&str, &str> = fields
            .split_whitespace()
            .filter_map(|field| field.split_once('='))
            .collect();
        let field = |name: &str| {
            fields
                .get(name)
                .map(|value| value.to_string())
                .with_context(|| format!("section line without {name}=: `{line}`"))
        };
        Ok(Section {
            id: field("id")?,
            messages: field("messages")?
                .parse()
                .with_context(|| format!("messages= is not a count: `{line}`"))?,
            method: field("method")?,
            start: field("start")?,
            counted: match field("counted")?.as_str() {
                "yes" => true,
                "no" => false,
                other => bail!("counted={other}: expected yes or no: `{line}`"),
            },
        })
    })())
}

/// One line of `-XX:+PrintCompilation`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compilation {
    /// The compile id (the second column).
    pub compile_id: u64,
    /// The tier (0 to 4; 4 is C2), when the JVM runs tiered.
    pub level: Option<u8>,
    /// An on-stack replacement (`%`), entered from a running loop, not by a call.
    pub osr: bool,
    /// `package.Class::method`.
    pub method: String,
    /// The line says this compilation's code was made not entrant (no longer entered).
    pub made_not_entrant: bool,
}

/// Reads a `-XX:+PrintCompilation` line
/// (`  836  883    b  4       dev.K::ringWrite (43 bytes)`); `None` for any other line.
///
/// ```
/// use sympathy_instructions::java::parse_compilation;
/// let osr = parse_compilation("834  882 %  b  4       K::ringWrite @ 2 (43 bytes)").unwrap();
/// assert!(osr.osr && osr.level == Some(4) && osr.method == "K::ringWrite");
/// let old = parse_compilation("837  788       3       K::ringWrite (43 bytes)   made not entrant: not used");
/// assert!(old.unwrap().made_not_entrant);
/// ```
pub fn parse_compilation(line: &str) -> Option<Compilation> {
    let mut tokens = line.split_whitespace().peekable();
    tokens.next()?.parse::<u64>().ok()?; // the time stamp
    let compile_id = tokens.next()?.parse().ok()?;
    let mut osr = false;
    while let Some(flags) = tokens.next_if(|t| t.chars().all(|c| "%sb!n".contains(c))) {
        osr |= flags.contains('%');
    }
    let level = tokens
        .next_if(|t| t.len() == 1 && t.as_bytes()[0].is_ascii_digit())
        .map(|t| t.as_bytes()[0] - b'0');
    let method = tokens.next().filter(|m| m.contains("::"))?.to_string();
    Some(Compilation {
        compile_id,
        level,
        osr,
        method,
        made_not_entrant: line.contains("made not entrant"),
    })
}

/// Checks that `method` was compiled by C2 (level 4, entered by a call, not on-stack
/// replacement) before the first counted section line of `log`, and that this code was not made
/// not entrant before the last section: the counted sections ran C2's code of the loop.
///
/// # Errors
/// When there is no counted section line, or no such compilation.
pub fn check_compiled(log: &str, method: &str) -> anyhow::Result<()> {
    let lines: Vec<&str> = log.lines().collect();
    let is_counted =
        |line: &&str| parse_section(line).is_some_and(|section| section.is_ok_and(|s| s.counted));
    let first = lines
        .iter()
        .position(is_counted)
        .context("no counted section line in the log")?;
    let last = lines
        .iter()
        .rposition(|line| parse_section(line).is_some())
        .unwrap_or(first);
    let mut compiled = BTreeSet::new();
    for (index, line) in lines[..=last].iter().enumerate() {
        let Some(c) = parse_compilation(line).filter(|c| c.method == method) else {
            continue;
        };
        if c.made_not_entrant {
            compiled.remove(&c.compile_id);
        } else if index < first && c.level == Some(4) && !c.osr {
            compiled.insert(c.compile_id);
        }
    }
    if compiled.is_empty() {
        bail!(
            "{method} was not C2-compiled (level 4, not OSR) before the counted sections, \
             or its code was made not entrant during them (-XX:+PrintCompilation in the log)"
        );
    }
    Ok(())
}

/// One run's result: the kernel's id and one estimate of instructions per message per counted
/// `(n, 2n)` pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The kernel's id.
    pub id: String,
    /// `(Ir(2n) - Ir(n)) / n` of each counted pair, in order.
    pub estimates: Vec<f64>,
}

impl Run {
    /// How far apart the estimates are, in percent of the smallest (0 for one estimate).
    pub fn spread_percent(&self) -> f64 {
        let min = self.estimates.iter().copied().fold(f64::INFINITY, f64::min);
        let max = self
            .estimates
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        if min > 0.0 && max >= min {
            (max - min) / min * 100.0
        } else {
            0.0
        }
    }
}

/// One run from its log (section lines, compilations) and its callgrind profiles: checks the
/// loop was C2-compiled, pairs each section with the profile of its dump part that ran the
/// section's `start` function, and turns the counted pairs into estimates.
///
/// # Errors
/// When the log has no counted sections, the loop was not compiled, a section has no profile
/// (or several), or a pair is not `(n, 2n)` of one id.
pub fn read_run(log: &str, profiles: &[Profile]) -> anyhow::Result<Run> {
    let sections = log
        .lines()
        .filter_map(parse_section)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let first = sections.first().context("no section line in the log")?;
    check_compiled(log, &first.method)?;
    let mut counted = Vec::new();
    for (index, section) in sections.iter().enumerate() {
        let part = index as u32 + 1;
        let mut ran = profiles
            .iter()
            .filter(|p| p.part == Some(part) && p.ran(&section.start));
        let (Some(profile), None) = (ran.next(), ran.next()) else {
            bail!(
                "section {part} ({} messages of {}): expected one thread's profile of dump part \
                 {part} in which {} ran",
                section.messages,
                section.id,
                section.start
            );
        };
        if section.id != first.id {
            bail!("a run of {} has a section of {}", first.id, section.id);
        }
        if section.counted {
            counted.push(Case {
                id: section.id.clone(),
                messages: section.messages,
                instructions: profile.instructions,
            });
        }
    }
    if counted.is_empty() || counted.len() % 2 != 0 {
        bail!(
            "{}: {} counted sections, expected pairs of n and 2n messages",
            first.id,
            counted.len()
        );
    }
    let mut estimates = Vec::new();
    for pair in counted.chunks(2) {
        if pair[1].messages != 2 * pair[0].messages {
            bail!(
                "{}: a counted pair of {} and {} messages, expected n and 2n",
                first.id,
                pair[0].messages,
                pair[1].messages
            );
        }
        estimates.push(gate::per_message(pair)?[&first.id]);
    }
    Ok(Run {
        id: first.id.clone(),
        estimates,
    })
}

/// Reads every run folder under `dir` (one per id: [`LOG_FILE`] and callgrind's files, of which
/// the dump parts are read: [`is_dump_part`]), sorted by name.
///
/// # Errors
/// When a folder cannot be read or does not hold a valid run.
pub fn read_runs(dir: &Path) -> anyhow::Result<Vec<Run>> {
    let mut folders: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    folders.retain(|path| path.is_dir());
    folders.sort();
    let mut runs = Vec::new();
    for folder in folders {
        let log_path = folder.join(LOG_FILE);
        let log = std::fs::read_to_string(&log_path)
            .with_context(|| format!("reading {}", log_path.display()))?;
        let mut profiles = Vec::new();
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if is_dump_part(name) {
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("reading {}", path.display()))?;
                profiles.push(
                    Profile::parse(&text).with_context(|| format!("parsing {}", path.display()))?,
                );
            }
        }
        runs.push(read_run(&log, &profiles).with_context(|| format!("{}", folder.display()))?);
    }
    if runs.is_empty() {
        bail!("no run folders under {}", dir.display());
    }
    Ok(runs)
}

/// Whether `name` is the file of one thread's dump part, `callgrind.out.<pid>.<part>-<thread>`
/// (not the dump at exit, `callgrind.out.<pid>-<thread>`, nor the empty `callgrind.out.<pid>`).
///
/// ```
/// use sympathy_instructions::java::is_dump_part;
/// assert!(is_dump_part("callgrind.out.7408.3-02"));
/// assert!(!is_dump_part("callgrind.out.7408-02") && !is_dump_part("stdout.log"));
/// ```
pub fn is_dump_part(name: &str) -> bool {
    name.strip_prefix("callgrind.out.")
        .and_then(|rest| rest.split_once('.'))
        .is_some_and(|(pid, part)| pid.bytes().all(|b| b.is_ascii_digit()) && part.contains('-'))
}

/// Instructions per message by id: the mean of each run's estimates, to 0.1.
///
/// # Errors
/// When a run's estimates are more than [`REPEAT_TOLERANCE_PERCENT`] apart, or two runs have
/// one id.
pub fn per_message(runs: &[Run]) -> anyhow::Result<Baseline> {
    let mut out = Baseline::new();
    for run in runs {
        if run.spread_percent() > REPEAT_TOLERANCE_PERCENT {
            bail!(
                "{}: the repeats gave {:?} instructions per message, {:.2}% apart \
                 (more than the {REPEAT_TOLERANCE_PERCENT}% allowed): something else ran inside \
                 the measured sections",
                run.id,
                run.estimates,
                run.spread_percent()
            );
        }
        let mean = run.estimates.iter().sum::<f64>() / run.estimates.len() as f64;
        if out
            .insert(run.id.clone(), (mean * 10.0).round() / 10.0)
            .is_some()
        {
            bail!("{}: two runs", run.id);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const METHOD: &str = "dev.sympathy.jmh.instructions.Kernels::queueOffer";

    fn section(messages: u64, counted: bool) -> String {
        format!(
            "section id=queue/offer/u32 messages={messages} method={METHOD} start=getpgrp counted={}",
            if counted { "yes" } else { "no" }
        )
    }

    fn log(compiled: &str) -> String {
        let mut lines = vec![
            format!("  425  629    b  3       {METHOD} (41 bytes)"),
            format!("  461  694 %  b  4       {METHOD} @ 2 (41 bytes)"),
            compiled.to_string(),
            format!("  479  629       3       {METHOD} (41 bytes)   made not entrant: not used"),
        ];
        lines.extend([
            section(1000, false),
            section(2000, false),
            section(1000, true),
            section(2000, true),
            section(1000, true),
            section(2000, true),
        ]);
        lines.join("\n")
    }

    fn profile(part: u32, thread: u32, start_ran: bool, instructions: u64) -> Profile {
        let function = if start_ran { "getpgrp" } else { "futex_wait" };
        Profile::parse(&format!(
            "part: {part}\nthread: {thread}\nevents: Ir\nsummary: {instructions}\nfn=(1) {function}\n"
        ))
        .unwrap()
    }

    fn profiles(fourth: u64) -> Vec<Profile> {
        let mut out = vec![
            profile(1, 2, true, 1_971_875),
            profile(2, 2, true, 38_952),
            profile(3, 2, true, 32_028),
            profile(4, 2, true, fourth),
            profile(5, 2, true, 32_028),
            profile(6, 2, true, 51_528),
            profile(7, 2, false, 900_000_000), // the dump at exit
        ];
        out.push(profile(4, 9, false, 7_000)); // another thread's share of a part
        out
    }

    #[test]
    fn the_counted_pairs_of_a_compiled_loop_give_its_instructions_per_message() {
        let compiled = format!("  468  695    b  4       {METHOD} (41 bytes)");
        let run = read_run(&log(&compiled), &profiles(51_528)).unwrap();
        assert_eq!(
            run,
            Run {
                id: "queue/offer/u32".into(),
                estimates: vec![19.5, 19.5]
            }
        );
        assert_eq!(run.spread_percent(), 0.0);
        assert_eq!(per_message(&[run]).unwrap()["queue/offer/u32"], 19.5);
    }

    #[test]
    fn a_loop_not_compiled_by_c2_fails() {
        let error = read_run(&log("no compilation"), &profiles(51_528)).unwrap_err();
        assert!(
            format!("{error:#}").contains("not C2-compiled"),
            "{error:#}"
        );
        let deoptimized = format!(
            "  468  695    b  4       {METHOD} (41 bytes)\n  470  695   4  {METHOD} (41 bytes)   made not entrant"
        );
        assert!(read_run(&log(&deoptimized), &profiles(51_528)).is_err());
    }

    #[test]
    fn repeats_that_disagree_fail() {
        let compiled = format!("  468  695    b  4       {METHOD} (41 bytes)");
        let run = read_run(&log(&compiled), &profiles(51_528 + 500)).unwrap();
        assert_eq!(run.estimates, vec![20.0, 19.5]);
        let error = per_message(&[run]).unwrap_err();
        assert!(format!("{error}").contains("2.56% apart"), "{error}");
    }

    #[test]
    fn a_section_without_its_threads_profile_fails() {
        let compiled = format!("  468  695    b  4       {METHOD} (41 bytes)");
        let mut missing = profiles(51_528);
        missing.retain(|p| p.part != Some(5));
        let error = read_run(&log(&compiled), &missing).unwrap_err();
        assert!(format!("{error}").contains("section 5"), "{error}");
    }

    #[test]
    fn a_section_line_interrupted_by_the_jit_is_read() {
        let line = format!("17479 {}", section(1000, false));
        let parsed = parse_section(&line).unwrap().unwrap();
        assert_eq!((parsed.messages, parsed.counted), (1000, false));
    }

    #[test]
    fn a_bad_section_line_is_an_error() {
        assert!(
            parse_section("section id=a/b/c messages=many")
                .unwrap()
                .is_err()
        );
        let no_counted = "section id=a/b/c messages=1 method=K::m start=getpgrp";
        assert!(parse_section(no_counted).unwrap().is_err());
    }

    #[test]
    fn compilation_lines_of_a_non_tiered_jvm_have_no_level() {
        let c = parse_compilation("13316  250    b        K::queueOffer (41 bytes)").unwrap();
        assert_eq!((c.level, c.osr, c.compile_id), (None, false, 250));
        assert!(parse_compilation("CompileCommand: dontinline K::*").is_none());
    }
}
