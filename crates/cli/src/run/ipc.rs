//! `sympathy run ipc`: the memory-mapped ring between two pinned processes (`ring`, `echo`,
//! `ring-cross`; see `sympathy_lab::ipc`). The peer processes start through [`CliPeers`]: a
//! Rust peer is this binary with a hidden `ipc` subcommand, a Java peer is `java/sidecar`.
//!
//! `ring-cross` needs Java (its producer is `java/sidecar produce`). When Java cannot run here
//! (no checkout with `java/sidecar`, no JDK, or its build fails), a run of the default
//! variants skips it with a note on stderr and still succeeds; naming it in `--variants` makes
//! that an error. `--plan` lists it either way (it says what a run would emit, without
//! starting anything).

use anyhow::Result;
use clap::Args;
use sympathy_harness::Reporter;
use sympathy_harness::catalog::Language;
use sympathy_lab::ipc::{
    self, Case, IpcError, JavaSidecar, Overrides, PeerLauncher, PeerTask, Variant, WriteMode,
};

use super::Common;

/// Flags of `sympathy run ipc`.
#[derive(Args, Debug, Clone, Default)]
pub struct IpcArgs {
    #[command(flatten)]
    pub common: Common,
    /// Print one JSON line per result group the run would emit, and measure nothing.
    #[arg(long)]
    pub plan: bool,
    /// Variants to run, comma-separated [default: ring, echo, ring-cross].
    #[arg(long, value_delimiter = ',')]
    pub variants: Option<Vec<Variant>>,
    /// Payload bytes per message (4..=capacity/8) [default: the catalog's size_bytes].
    #[arg(long)]
    pub size: Option<usize>,
    /// Ring capacity in bytes [default: the catalog's capacity, or 8 x the size if larger].
    #[arg(long)]
    pub capacity: Option<usize>,
    /// Messages per throughput run [default: the catalog's count at the preset].
    #[arg(long)]
    pub count: Option<u64>,
    /// Timed round trips per echo run [default: the catalog's round_trips at the preset].
    #[arg(long)]
    pub round_trips: Option<u64>,
    /// How the producer of `ring` writes, one or more of `per-message,batch`: `batch` fills
    /// runs of --batch messages in place (`Producer::try_write_batch`); with both, the runs
    /// alternate between them and the ratio per round is printed.
    #[arg(long, value_delimiter = ',')]
    pub writes: Vec<WriteMode>,
    /// Messages per `try_write_batch` run (with --writes batch) [default: 256].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: Option<u64>,
    /// Two cores `producer,consumer` (echo: `pinger,echo`) [default: the first two available].
    #[arg(long)]
    pub cores: Option<String>,
}

/// `sympathy run ipc ...`
pub fn run(args: &IpcArgs) -> Result<()> {
    if args.plan {
        for case in plan_cases(args)? {
            println!("{}", case.plan_json());
        }
        return Ok(());
    }
    let mut reporter = super::reporter(&args.common)?;
    execute(args, &mut reporter)
}

/// The entry for `run all`: every variant at the chosen preset.
pub fn run_with_common(common: &Common, reporter: &mut Reporter) -> Result<()> {
    let args = IpcArgs {
        common: common.clone(),
        ..IpcArgs::default()
    };
    execute(&args, reporter)
}

/// The cases the flags select (the run's and the plan's).
fn plan_cases(args: &IpcArgs) -> Result<Vec<Case>, IpcError> {
    let variants = args.variants.clone().unwrap_or(Variant::ALL.to_vec());
    let overrides = Overrides {
        size_bytes: args.size,
        capacity: args.capacity,
        count: args.count,
        round_trips: args.round_trips,
        writes: args.writes.clone(),
        batch: args.batch.map(|b| b as usize),
    };
    ipc::cases(&variants, args.common.preset(), &overrides)
}

/// Measures the selected cases (the run behind `run ipc`, `ipc bench` and `ipc latency`).
pub fn execute(args: &IpcArgs, reporter: &mut Reporter) -> Result<()> {
    let mut cases = plan_cases(args)?;
    let cores = pick_cores(&args.cores)?;
    let mut peers = CliPeers { java: None };
    if cases.iter().any(|c| c.producer == Language::Java) {
        match JavaSidecar::locate().and_then(|java| java.probe().map(|()| java)) {
            Ok(java) => peers.java = Some(java),
            Err(err) if args.variants.is_none() => {
                eprintln!("note: ipc ring-cross skipped: {err}");
                cases.retain(|c| c.producer != Language::Java);
            }
            Err(err) => return Err(err.into()),
        }
    }
    let runs = args.common.runs_or(3, 5, 10);
    let preset = args.common.preset();
    ipc::run_cases(&cases, runs, cores, preset, &peers, reporter)?;
    Ok(())
}

/// Two distinct cores for the two processes: `--cores a,b`, or the first two available.
fn pick_cores(cores: &Option<String>) -> Result<(usize, usize)> {
    let list = match cores {
        Some(text) => sympathy_harness::pin::parse_core_list(text).map_err(anyhow::Error::msg)?,
        None => sympathy_harness::pin::available_cores(),
    };
    match list[..] {
        [a, b, ..] if a != b => Ok((a, b)),
        _ => anyhow::bail!(
            "need two distinct cores for the two processes, have {list:?}; pass --cores a,b"
        ),
    }
}

/// The peer processes of the CLI: a Rust peer re-runs this binary with a hidden subcommand
/// (`ipc bench-producer`, `ipc latency-echo`), a Java peer runs `java/sidecar`.
struct CliPeers {
    /// The sidecar, once probed.
    java: Option<JavaSidecar>,
}

impl PeerLauncher for CliPeers {
    fn command(
        &self,
        language: Language,
        task: &PeerTask,
    ) -> Result<std::process::Command, IpcError> {
        match language {
            Language::Java => match &self.java {
                Some(java) => java.command(task),
                None => Err(IpcError::JavaUnavailable(
                    "java/sidecar was not probed".into(),
                )),
            },
            Language::Rust => {
                let mut command = std::process::Command::new(std::env::current_exe()?);
                command.args(crate::ipc::peers::peer_args(task));
                Ok(command)
            }
            Language::C => Err(IpcError::BadCase("there is no C ipc peer".into())),
        }
    }
}
