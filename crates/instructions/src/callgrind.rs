//! Reading callgrind's own output files (`callgrind.out.<pid>.<part>-<thread>`): which dump part
//! and thread a file holds, its instruction total, and which functions ran in it.
//!
//! The Java gate (`crate::java`) counts a JVM's hot loop between two dumps of one thread, so it
//! needs a file's totals directly, where the Rust gate reads gungraun's summaries.
//!
//! ```
//! use sympathy_instructions::callgrind::Profile;
//! let text = "# callgrind format\nversion: 1\npart: 3\nthread: 2\nevents: Ir\nsummary: 51528\n\
//!             ob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6\nfn=(12) getpgrp\n91 2\n";
//! let profile = Profile::parse(text).unwrap();
//! assert_eq!((profile.part, profile.thread, profile.instructions), (Some(3), Some(2), 51528));
//! assert!(profile.ran("getpgrp"));
//! ```

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, bail};

/// One callgrind output file: one thread's costs of one dump part (or of the whole run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The dump part (`part:`): 1 for the first dump of a run, the last for the dump at exit.
    pub part: Option<u32>,
    /// Callgrind's thread number (`thread:`, with `--separate-threads=yes`).
    pub thread: Option<u32>,
    /// Instructions executed (`Ir` of the `summary:` line).
    pub instructions: u64,
    /// Names of the functions that executed instructions in this part (`fn=` entries).
    functions: BTreeSet<String>,
}

impl Profile {
    /// Parses the text of a callgrind output file (compressed names or not).
    ///
    /// # Errors
    /// When the file has no `events:` line naming `Ir`, or no `summary:` line with a count for it.
    pub fn parse(text: &str) -> anyhow::Result<Profile> {
        let mut part = None;
        let mut thread = None;
        let mut ir_index = None;
        let mut instructions = None;
        // Function names by their compressed id: `fn=(12) name` defines 12, `fn=(12)` refers
        // to it; `cfn=` lines (the callee of a call) share the same table.
        let mut names: BTreeMap<&str, &str> = BTreeMap::new();
        let mut functions = BTreeSet::new();
        for line in text.lines() {
            if let Some(value) = line.strip_prefix("part:") {
                part = Some(number(value, "part")?);
            } else if let Some(value) = line.strip_prefix("thread:") {
                thread = Some(number(value, "thread")?);
            } else if let Some(events) = line.strip_prefix("events:") {
                ir_index = events.split_whitespace().position(|event| event == "Ir");
            } else if let Some(values) = line.strip_prefix("summary:") {
                let index = ir_index.context("a summary: line before an events: line naming Ir")?;
                let value = values
                    .split_whitespace()
                    .nth(index)
                    .with_context(|| format!("summary:{values}: no Ir count"))?;
                instructions = Some(number(value, "summary")?);
            } else if let Some(spec) = line.strip_prefix("fn=") {
                functions.insert(function_name(spec, &mut names).to_string());
            } else if let Some(spec) = line.strip_prefix("cfn=") {
                function_name(spec, &mut names);
            }
        }
        if ir_index.is_none() {
            bail!("no events: line naming Ir (not a callgrind output file?)");
        }
        Ok(Profile {
            part,
            thread,
            instructions: instructions.context("no summary: line")?,
            functions,
        })
    }

    /// Whether `function` executed instructions in this part of this thread.
    pub fn ran(&self, function: &str) -> bool {
        self.functions.contains(function)
    }
}

/// The name a `fn=` or `cfn=` value stands for, recording a compressed id's name when the value
/// defines one (`(12) name`).
fn function_name<'a>(spec: &'a str, names: &mut BTreeMap<&'a str, &'a str>) -> &'a str {
    let Some(rest) = spec.strip_prefix('(') else {
        return spec.trim();
    };
    let Some((id, name)) = rest.split_once(')') else {
        return spec.trim();
    };
    let name = name.trim();
    if name.is_empty() {
        names.get(id).copied().unwrap_or(spec)
    } else {
        names.insert(id, name);
        name
    }
}

fn number<T: std::str::FromStr>(value: &str, what: &str) -> anyhow::Result<T> {
    value
        .trim()
        .parse()
        .ok()
        .with_context(|| format!("{what}: `{}` is not a number", value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 23409
cmd:  java -Xbatch Counts queue/offer/u32 1000
part: 2
thread: 2

desc: Trigger: --dump-before=getsid

positions: line
events: Ir
summary: 2260194

ob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6
fl=(197) ./posix/../sysdeps/unix/syscall-template.S
fn=(38220) getpgrp
91 2
+2 1
fl=(203) ./nptl/pthread_mutex_lock.c
fn=(928) pthread_mutex_lock@@GLIBC_2.2.5
80 12
cfn=(38221) getsid
calls=1 0
0 3
fn=(38220)
93 1

totals: 2260195
";

    #[test]
    fn a_dump_gives_its_part_thread_total_and_functions() {
        let profile = Profile::parse(DUMP).unwrap();
        assert_eq!(profile.part, Some(2));
        assert_eq!(profile.thread, Some(2));
        assert_eq!(profile.instructions, 2_260_194, "summary:, not totals:");
        assert!(profile.ran("getpgrp"));
        assert!(profile.ran("pthread_mutex_lock@@GLIBC_2.2.5"));
        assert!(!profile.ran("getsid"), "called (cfn=) is not run (fn=)");
        assert!(
            !profile.ran("(38220)"),
            "a compressed reference resolves to its name"
        );
    }

    #[test]
    fn uncompressed_names_and_several_events_are_read() {
        let text = "events: Dr Ir\nsummary: 5 70\nfn=main\n1 1\n";
        let profile = Profile::parse(text).unwrap();
        assert_eq!(profile.instructions, 70);
        assert_eq!((profile.part, profile.thread), (None, None));
        assert!(profile.ran("main"));
    }

    #[test]
    fn a_file_without_ir_or_a_summary_is_an_error() {
        assert!(Profile::parse("events: Dr\nsummary: 1\n").is_err());
        assert!(Profile::parse("events: Ir\n").is_err());
        let error = format!(
            "{:#}",
            Profile::parse("events: Ir\nsummary: many\n").unwrap_err()
        );
        assert!(error.contains("`many`"), "{error}");
    }
}
