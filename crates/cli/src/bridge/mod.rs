//! `sympathy bridge send|receive|duplex ARGS...`: starts the Java bridge (`java/sidecar
//! bridge`) of the checkout, which moves a ring's messages between hosts over Aeron. The
//! arguments pass through untouched; the bridge's own `--help` documents them.
//! `sympathy bridge hosts up|down` makes (or removes) two hosts on this machine to run it
//! between ([`hosts`]).

pub mod hosts;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Result, bail};
use clap::{Args, Subcommand};

/// What `sympathy bridge --help` says of the bridge.
pub const LONG_ABOUT: &str = "Moves a ring's messages to another host over Aeron (UDP unicast, \
    multicast or IPC), with nothing lost or repeated across disconnects and restarts: `send` \
    drains a local ring into an Aeron publication, `receive` writes what arrives into a local \
    ring and confirms it back. Runs the Java bridge (java/sidecar bridge); see docs/bridge.md.";

/// `sympathy bridge <send|receive> ARGS...`: its help text is [`LONG_ABOUT`].
#[derive(Args, Debug)]
pub struct BridgeArgs {
    #[command(subcommand)]
    command: BridgeCommand,
}

/// The bridge's verbs, each run as `java/sidecar bridge VERB ARGS...`.
#[derive(Subcommand, Debug)]
enum BridgeCommand {
    /// Drain a local ring into an Aeron publication, giving each message back to the ring's
    /// producer only once the receiver confirms it (`sympathy bridge send --help`: its options).
    #[command(disable_help_flag = true)]
    Send(PassThrough),
    /// Write what arrives over Aeron into a local ring and confirm it back to the sender
    /// (`sympathy bridge receive --help`: its options).
    #[command(disable_help_flag = true)]
    Receive(PassThrough),
    /// Both directions on one driver and thread: send one ring, receive into another
    /// (`sympathy bridge duplex --help`: its options).
    #[command(disable_help_flag = true)]
    Duplex(PassThrough),
    /// Two hosts on this machine: network namespaces PREFIX-a (10.201.0.1) and PREFIX-b
    /// (10.201.0.2) joined by a veth pair (root only); run a bridge end on one with
    /// `ip netns exec PREFIX-a ...`.
    Hosts(HostsArgs),
}

/// `bridge hosts up|down [--prefix P]`
#[derive(Args, Debug)]
struct HostsArgs {
    /// `up` makes the two namespaces (replacing any of the same prefix), `down` removes them.
    #[arg(value_parser = ["up", "down"])]
    action: String,
    /// The namespaces' prefix: PREFIX-a and PREFIX-b (at most 14 characters).
    #[arg(long, default_value = "sympathy")]
    prefix: String,
}

impl BridgeCommand {
    /// The verb `java/sidecar bridge` takes, and the arguments after it; `None` for `hosts`.
    fn split(self) -> Result<(&'static str, Vec<String>), HostsArgs> {
        match self {
            BridgeCommand::Send(p) => Ok(("send", p.args)),
            BridgeCommand::Receive(p) => Ok(("receive", p.args)),
            BridgeCommand::Duplex(p) => Ok(("duplex", p.args)),
            BridgeCommand::Hosts(h) => Err(h),
        }
    }
}

/// `bridge hosts up|down`: prints each host's namespace and address once made.
fn hosts(args: HostsArgs) -> Result<()> {
    if args.action == "down" {
        return hosts::TwoHosts::down(&args.prefix);
    }
    let made = hosts::TwoHosts::up(&args.prefix)?;
    println!(
        "host a: namespace {} address {}",
        made.namespace_a(),
        hosts::ADDRESS_A
    );
    println!(
        "host b: namespace {} address {}",
        made.namespace_b(),
        hosts::ADDRESS_B
    );
    made.keep();
    Ok(())
}

/// The arguments of a bridge verb, handed to the Java bridge as they are (`--help` included).
#[derive(Args, Debug)]
struct PassThrough {
    /// The Java bridge's options (its `--help` lists them).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// Runs `java/sidecar bridge VERB ARGS...` of the checkout in place of this process (stdio
/// inherited; on Unix by `exec`, so signals reach the JVM and its exit status is this command's);
/// `hosts` runs here.
pub fn run(args: BridgeArgs) -> Result<()> {
    let (verb, rest) = match args.command.split() {
        Ok(java) => java,
        Err(h) => return hosts(h),
    };
    let Some(root) = crate::checkout::repo_root() else {
        bail!(
            "`sympathy bridge` starts the Java bridge from the sympathy checkout (java/sidecar), \
             which was not found above the current folder or this executable: run it from \
             inside the checkout"
        );
    };
    let sidecar = sidecar_in(&root)?;
    let mut command = Command::new(&sidecar);
    command.arg("bridge").arg(verb).args(rest);
    start(command, &sidecar)
}

/// `java/sidecar` in the checkout at `root`.
fn sidecar_in(root: &Path) -> Result<PathBuf> {
    let sidecar = root.join("java/sidecar");
    if !sidecar.is_file() {
        bail!(
            "`sympathy bridge` starts the Java bridge with {}, which is missing from the \
             checkout at {}",
            sidecar.display(),
            root.display()
        );
    }
    Ok(sidecar)
}

/// Replaces this process with `command`: returns only when it could not start.
#[cfg(unix)]
fn start(mut command: Command, sidecar: &Path) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let err = command.exec();
    Err(anyhow::Error::new(err).context(format!("could not start {}", sidecar.display())))
}

/// Runs `command` to its end and exits with its status.
#[cfg(not(unix))]
fn start(mut command: Command, sidecar: &Path) -> Result<()> {
    use anyhow::Context;
    let status = command
        .status()
        .with_context(|| format!("could not start {}", sidecar.display()))?;
    std::process::exit(status.code().unwrap_or(1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `sympathy bridge ...` as the top-level command parses it.
    #[derive(Parser, Debug)]
    struct Cli {
        #[command(subcommand)]
        command: Top,
    }

    #[derive(Subcommand, Debug)]
    enum Top {
        Bridge(BridgeArgs),
    }

    fn parse(args: &[&str]) -> (&'static str, Vec<String>) {
        let cli = Cli::try_parse_from([&["sympathy", "bridge"], args].concat()).unwrap();
        let Top::Bridge(bridge) = cli.command;
        bridge.command.split().expect("a Java verb")
    }

    #[test]
    fn every_argument_after_the_verb_passes_through() {
        let (verb, args) = parse(&[
            "send",
            "/tmp/r",
            "--channel",
            "aeron:udp?endpoint=h:1",
            "-v",
        ]);
        assert_eq!(verb, "send");
        assert_eq!(
            args,
            ["/tmp/r", "--channel", "aeron:udp?endpoint=h:1", "-v"]
        );
        let (verb, args) = parse(&["receive", "--help"]);
        assert_eq!((verb, args), ("receive", vec!["--help".to_string()]));
    }

    #[test]
    fn a_checkout_without_the_sidecar_is_named() {
        let err = sidecar_in(Path::new("/nonexistent-checkout")).unwrap_err();
        assert!(
            err.to_string()
                .contains("missing from the checkout at /nonexistent-checkout"),
            "{err}"
        );
    }
}
