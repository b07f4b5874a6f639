//! `sympathy run bridge`: a ring's messages carried to another host by the bridge over Aeron,
//! with the ring ends in Rust (`ring-aeron-ring`: throughput; `ring-aeron-ring-echo`: round
//! trip; see `sympathy_lab::bridge`). The bridge's ends are Java processes (`java/sidecar
//! bridge send|receive|duplex`), so every case needs Java: a run where `java/sidecar` cannot
//! run fails saying why. The Rust ring ends start through [`CliPeers`] as `run ipc`'s do (this
//! binary's hidden `run ipc-peer producer|echo`). `aeron` and `aeron-echo`, Aeron alone, are
//! Java's rows only (`java/sidecar run bridge`).
//!
//! Each case runs on one transport: `ipc`, `udp` (loopback) or `veth`, whose two hosts are two
//! network namespaces joined by a veth pair ([`TwoHosts`]), made once per run when a case needs
//! them and removed at its end; where they cannot be made (not root) each veth case fails with
//! the reason, and the other cases still run. The bridge's JVMs take their flags from
//! `SIDECAR_JVM_OPTS`, as every `java/sidecar` process does.
//!
//! ```text
//! sympathy run bridge --transports udp,veth --variants ring-aeron-ring --count 200000 --runs 3
//! ```

use std::process::Command;

use anyhow::Result;
use clap::Args;
use sympathy_harness::Reporter;
use sympathy_lab::bridge::{self, BridgeHosts, Overrides, Transport, Variant};
use sympathy_lab::peer::{JavaSidecar, PeerError, PeerRuns};

use crate::bridge::hosts::{ADDRESS_A, ADDRESS_B, TwoHosts};
use crate::experiment::catalog::{variant_parser, variants_or};
use crate::experiment::{Case, Common, Experiment};
use crate::run::peers::{CliPeers, pick_cores};

/// Flags of `sympathy run bridge` (beside the common ones).
#[derive(Args, Debug, Clone, Default)]
pub struct BridgeArgs {
    /// Variants to run, comma-separated [default: both Rust variants of experiments/bridge.toml].
    #[arg(long, value_delimiter = ',', value_parser = variant_parser::<Variant>())]
    pub variants: Option<Vec<Variant>>,
    /// Transports to run, comma-separated, of ipc, udp, veth (veth: root only) [default: the
    /// catalog's transport at the preset].
    #[arg(long, alias = "transport", value_delimiter = ',', value_parser = transport)]
    pub transports: Vec<Transport>,
    /// Payload bytes per message (8..=capacity/8) [default: the catalog's size_bytes].
    #[arg(long)]
    pub size: Option<usize>,
    /// Bytes of each ring's record area [default: the catalog's capacity].
    #[arg(long)]
    pub capacity: Option<usize>,
    /// Messages per throughput run [default: the catalog's count at the preset].
    #[arg(long)]
    pub count: Option<u64>,
    /// Timed round trips per echo run [default: the catalog's round_trips at the preset].
    #[arg(long)]
    pub round_trips: Option<u64>,
    /// Two cores `producer,consumer` (echoes: `pinger,echo`) [default: the first two available].
    #[arg(long)]
    pub cores: Option<String>,
}

/// `--transports`: a transport by name.
fn transport(text: &str) -> Result<Transport, String> {
    text.parse()
}

impl Experiment for BridgeArgs {
    type Work = bridge::Case;
    const NAME: &'static str = bridge::EXPERIMENT;

    fn cases(&self, common: &Common) -> Result<Vec<Case<bridge::Case>>> {
        let variants = variants_or(&self.variants, common.preset())?;
        let overrides = Overrides {
            transports: self.transports.clone(),
            size_bytes: self.size,
            capacity: self.capacity,
            count: self.count,
            round_trips: self.round_trips,
        };
        Ok(bridge::cases(&variants, common.preset(), &overrides)?
            .into_iter()
            .map(|work| {
                let (variant, language) = (work.variant.name(), work.language().name());
                Case::from_measurement(work.clone(), variant, language, work.measurement())
            })
            .collect())
    }

    fn measure(
        &self,
        common: &Common,
        cases: &[Case<bridge::Case>],
        reporter: &mut Reporter,
    ) -> Result<()> {
        let cases: Vec<bridge::Case> = cases.iter().map(|c| c.work.clone()).collect();
        let cores = pick_cores(&self.cores)?;
        let runs = common.runs(Self::NAME)?;
        // Every case's bridge ends are Java: found and built once, before anything starts.
        let sidecar = JavaSidecar::locate().and_then(|java| java.probe().map(|()| java))?;
        let veth = cases
            .iter()
            .any(|c| c.transport == Transport::Veth)
            .then(|| {
                TwoHosts::up(&format!("sym{}", std::process::id())).map_err(|e| format!("{e:#}"))
            });
        let hosts = CliHosts { sidecar, veth };
        let peers = CliPeers { java: None };
        let plan = PeerRuns {
            runs,
            cores,
            preset: common.preset(),
            launcher: &peers,
        };
        bridge::run_cases(&cases, &plan, &hosts, reporter).map_err(crate::classified)?;
        Ok(())
    }
}

/// The bridge's hosts as this CLI has them: `java/sidecar` of the checkout, run as it is for
/// `ipc` and `udp`, and in the namespaces of [`TwoHosts`] for `veth`.
struct CliHosts {
    /// The probed sidecar.
    sidecar: JavaSidecar,
    /// The veth hosts of this run, or why they could not be made; `None` when no case asked.
    veth: Option<Result<TwoHosts, String>>,
}

impl BridgeHosts for CliHosts {
    fn veth_addresses(&self) -> (&str, &str) {
        (ADDRESS_A, ADDRESS_B)
    }

    fn sidecar(&self, transport: Transport, on_a: bool) -> Result<Command, PeerError> {
        match (transport, &self.veth) {
            (Transport::Ipc | Transport::Udp, _) => Ok(Command::new(self.sidecar.path())),
            (Transport::Veth, Some(Ok(hosts))) => Ok(hosts.command(on_a, self.sidecar.path())),
            (Transport::Veth, Some(Err(why))) => Err(PeerError::BadCase(why.clone())),
            (Transport::Veth, None) => Err(PeerError::BadCase(
                "the veth hosts were not made for this run".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sympathy_harness::Preset;

    fn flags(args: &[&str]) -> BridgeArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            bridge: BridgeArgs,
        }
        Cli::try_parse_from([&["x"], args].concat()).unwrap().bridge
    }

    #[test]
    fn the_plan_is_each_rust_variant_on_each_transport_with_the_catalogs_params() {
        let smoke = Common {
            smoke: true,
            ..Common::default()
        };
        let cases = BridgeArgs::default().cases(&smoke).unwrap();
        let planned: Vec<(&str, &str)> = cases
            .iter()
            .map(|c| (c.variant, c.params["transport"].as_str().unwrap()))
            .collect();
        assert_eq!(
            planned,
            [
                ("ring-aeron-ring", "ipc"),
                ("ring-aeron-ring", "udp"),
                ("ring-aeron-ring-echo", "ipc"),
                ("ring-aeron-ring-echo", "udp"),
            ]
        );
        for case in &cases {
            assert_eq!(case.language, "rust");
            assert_eq!(case.params["size_bytes"], 32);
            assert_eq!(case.params["capacity"], 1_048_576);
            assert!(!case.params.contains_key("preset"), "{:?}", case.params);
        }
        assert_eq!(cases[0].params["count"], 100_000);
        assert_eq!(cases[2].params["round_trips"], 500);
        let quick = Common {
            quick: true,
            ..Common::default()
        };
        let transports =
            crate::experiment::catalog::strs_at(BridgeArgs::NAME, "transport", Preset::Quick)
                .unwrap();
        let quick = BridgeArgs::default().cases(&quick).unwrap();
        assert_eq!(quick.len(), 2 * transports.len());
        assert_eq!(quick[0].params["count"], 300_000);
    }

    #[test]
    fn the_flags_choose_variants_and_transports() {
        let args = flags(&[
            "--variants",
            "ring-aeron-ring-echo",
            "--transport",
            "veth,ipc",
            "--round-trips",
            "7",
        ]);
        let cases = args.cases(&Common::default()).unwrap();
        let planned: Vec<(&str, &str)> = cases
            .iter()
            .map(|c| (c.variant, c.params["transport"].as_str().unwrap()))
            .collect();
        assert_eq!(
            planned,
            [
                ("ring-aeron-ring-echo", "veth"),
                ("ring-aeron-ring-echo", "ipc")
            ]
        );
        assert_eq!(cases[0].params["round_trips"], 7);
        // Aeron alone is Java's: the Rust side refuses it, naming its own variants.
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            bridge: BridgeArgs,
        }
        let err = Cli::try_parse_from(["x", "--variants", "aeron"])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("ring-aeron-ring-echo"), "{err}");
        let err = Cli::try_parse_from(["x", "--transports", "tcp"])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("ipc, udp, veth"), "{err}");
    }

    #[test]
    fn the_rust_variants_are_the_catalogs_rust_variants() {
        let listed = crate::experiment::catalog::variants_at::<Variant>(
            sympathy_harness::catalog::Language::Rust,
            Preset::Default,
        )
        .unwrap();
        assert_eq!(listed, Variant::ALL);
    }

    #[test]
    fn veth_cases_fail_with_the_reason_the_hosts_could_not_be_made() {
        let Ok(sidecar) = JavaSidecar::locate() else {
            return; // no checkout around this binary: nothing to start anyway
        };
        let hosts = CliHosts {
            sidecar,
            veth: Some(Err("cannot make two network namespaces: not root".into())),
        };
        let err = hosts.sidecar(Transport::Veth, true).unwrap_err();
        assert!(err.to_string().contains("not root"), "{err}");
        assert!(hosts.sidecar(Transport::Udp, false).is_ok());
    }
}
