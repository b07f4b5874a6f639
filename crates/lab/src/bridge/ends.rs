//! The bridge's own ends: Java processes (`java/sidecar bridge send|receive|duplex`) on host A
//! and host B of a transport, started through [`BridgeHosts`], their channels ([`Link`]) and
//! their lives ([`Ends`]): each started end is waited for until it says it is up, watched
//! while the case runs, stopped with SIGTERM at its end (a clean stop: it detaches from its
//! rings and prints its counters), and killed when the case fails.
//!
//! The ends stay in this process's process group, not one of their own: a bridge end runs
//! until it is told to stop, so an interrupted run (Ctrl-C, or `compare` killing this
//! process's group at a deadline) must reach it too. Each is a single process (`java/sidecar`
//! and `ip netns exec` both `exec` what they run), so its pid is the JVM's.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::Transport;
use crate::peer::PeerError;

/// How long an end may take to say it is up (a JVM start, an Aeron driver, a ring attached).
pub const UP_LIMIT: Duration = Duration::from_secs(60);
/// How long an end may take to stop after SIGTERM before it is killed and the case fails.
pub const STOP_LIMIT: Duration = Duration::from_secs(30);
/// The exit status of a JVM that stopped on SIGTERM after its shutdown hooks ran (128 + 15):
/// the bridge's clean stop, as is 0.
const SIGTERM_EXIT: i32 = 143;
/// The lines of each output stream a failure quotes (the last ones).
const QUOTED_LINES: usize = 20;

/// Where the bridge's Java ends run: the `java/sidecar` command of host A or host B of a
/// transport. The `sympathy` CLI implements it (host A and B of `veth` are its network
/// namespaces).
pub trait BridgeHosts {
    /// Host A's and host B's addresses on the veth pair.
    fn veth_addresses(&self) -> (&str, &str);

    /// `java/sidecar` (no arguments yet) on host A (`on_a`) or host B of `transport`: as it
    /// is for `ipc` and `udp`, inside host A's or host B's network namespace for `veth`.
    ///
    /// # Errors
    /// The transport's hosts are not there (`veth` without its namespaces: why they could not
    /// be made).
    fn sidecar(&self, transport: Transport, on_a: bool) -> Result<Command, PeerError>;
}

/// One direction of a bridge: its data channel and stream (to the receiving host) and its
/// confirm channel and stream (back to the sending host).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The data channel: the receiving host's endpoint.
    pub channel: String,
    /// The data stream id.
    pub stream: i32,
    /// The confirm channel: the sending host's endpoint.
    pub confirm_channel: String,
    /// The confirm stream id.
    pub confirm_stream: i32,
}

/// The ports of host A to host B (data 40123, confirms 40124) and back (40125, 40126).
const PORTS: [u16; 4] = [40_123, 40_124, 40_125, 40_126];

impl Link {
    /// The two directions of `transport` between hosts at `a` and `b` (unused by `ipc`): host
    /// A to host B (streams 1001, 1002) and host B to host A (1003, 1004).
    ///
    /// ```
    /// use sympathy_lab::bridge::{Link, Transport};
    ///
    /// let (ab, ba) = Link::pair(Transport::Veth, "10.201.0.1", "10.201.0.2");
    /// assert_eq!(ab.channel, "aeron:udp?endpoint=10.201.0.2:40123");
    /// assert_eq!(ab.confirm_channel, "aeron:udp?endpoint=10.201.0.1:40124");
    /// assert_eq!(ba.channel, "aeron:udp?endpoint=10.201.0.1:40125");
    /// assert_eq!((ba.stream, ba.confirm_stream), (1003, 1004));
    /// ```
    pub fn pair(transport: Transport, a: &str, b: &str) -> (Link, Link) {
        let channel = |host: &str, port: u16| match transport {
            Transport::Ipc => "aeron:ipc".to_string(),
            Transport::Udp | Transport::Veth => format!("aeron:udp?endpoint={host}:{port}"),
        };
        (
            Link {
                channel: channel(b, PORTS[0]),
                stream: 1001,
                confirm_channel: channel(a, PORTS[1]),
                confirm_stream: 1002,
            },
            Link {
                channel: channel(a, PORTS[2]),
                stream: 1003,
                confirm_channel: channel(b, PORTS[3]),
                confirm_stream: 1004,
            },
        )
    }

    /// `--channel C --confirm-channel K --stream N --confirm-stream M`, or with `prefix`
    /// `in-` a duplex end's incoming direction (`--in-channel ...`).
    pub fn args(&self, prefix: &str) -> Vec<String> {
        vec![
            format!("--{prefix}channel"),
            self.channel.clone(),
            format!("--{prefix}confirm-channel"),
            self.confirm_channel.clone(),
            format!("--{prefix}stream"),
            self.stream.to_string(),
            format!("--{prefix}confirm-stream"),
            self.confirm_stream.to_string(),
        ]
    }
}

/// One started end.
struct End {
    /// What messages call it: `bridge send`, `host B's bridge duplex`.
    name: String,
    child: Option<Child>,
    stdout: PathBuf,
    stderr: PathBuf,
}

impl End {
    /// The last [`QUOTED_LINES`] lines of each of its output streams, labelled.
    fn output(&self) -> String {
        let mut text = String::new();
        for (what, path) in [("stdout", &self.stdout), ("stderr", &self.stderr)] {
            let said = std::fs::read(path)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let lines: Vec<&str> = said.lines().filter(|l| !l.trim().is_empty()).collect();
            if lines.is_empty() {
                text.push_str(&format!("\n  [{} {what}: empty]", self.name));
                continue;
            }
            text.push_str(&format!("\n  [{} {what}]", self.name));
            for line in &lines[lines.len().saturating_sub(QUOTED_LINES)..] {
                text.push_str(&format!("\n    {line}"));
            }
        }
        text
    }

    /// The last line of its standard output (a stopped end's counters).
    fn last_line(&self) -> String {
        std::fs::read_to_string(&self.stdout)
            .unwrap_or_default()
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("(no counters printed)")
            .to_string()
    }

    /// Its exit status once it has exited.
    fn exited(&mut self) -> Result<Option<ExitStatus>, PeerError> {
        match self.child.as_mut() {
            Some(child) => Ok(child.try_wait()?),
            None => Ok(None),
        }
    }

    /// Waits until its standard output has a line starting with `up`; fails when it exits
    /// first or takes longer than [`UP_LIMIT`].
    fn wait_up(&mut self, up: &str) -> Result<(), PeerError> {
        let started = Instant::now();
        loop {
            let said = std::fs::read_to_string(&self.stdout).unwrap_or_default();
            if said.lines().any(|l| l.starts_with(up)) {
                return Ok(());
            }
            if let Some(status) = self.exited()? {
                return Err(PeerError::Peer(format!(
                    "{} exited ({status}) before it was up:{}",
                    self.name,
                    self.output()
                )));
            }
            if started.elapsed() > UP_LIMIT {
                return Err(PeerError::Peer(format!(
                    "{} did not say `{up}` within {UP_LIMIT:?}:{}",
                    self.name,
                    self.output()
                )));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Stops it with SIGTERM and waits for it: its counters line, or why the stop was not
    /// clean (an exit status other than 0 or 143, or still running after [`STOP_LIMIT`]).
    fn stop(&mut self) -> Result<String, PeerError> {
        let Some(child) = self.child.as_mut() else {
            return Ok(self.last_line());
        };
        if child.try_wait()?.is_none() {
            // `kill` the command: a signal other than SIGKILL without unsafe code. The child
            // is not reaped before this returns, so its pid is still its own.
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .stderr(Stdio::null())
                .status();
        }
        let deadline = Instant::now() + STOP_LIMIT;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                self.child = None;
                return Err(PeerError::Peer(format!(
                    "{} did not stop within {STOP_LIMIT:?} of SIGTERM and was killed:{}",
                    self.name,
                    self.output()
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        self.child = None;
        if status.success() || status.code() == Some(SIGTERM_EXIT) {
            Ok(self.last_line())
        } else {
            Err(PeerError::Peer(format!(
                "{} did not stop cleanly on SIGTERM ({status}):{}",
                self.name,
                self.output()
            )))
        }
    }
}

impl Drop for End {
    /// An end still running when dropped (a failed case) is killed and reaped.
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The bridge ends of one case, in the order they started; those still running are killed
/// when this is dropped, so none outlives a failed case.
#[derive(Default)]
pub(crate) struct Ends(Vec<End>);

impl Ends {
    /// Starts `command` as `name` (`bridge send`), its output in `logs` (as `<stem>.out` and
    /// `<stem>.err`), and waits until it prints a line starting with `up` (`bridge send:`).
    ///
    /// # Errors
    /// It cannot start, exits first, or says nothing for [`UP_LIMIT`] (with what it printed).
    pub(crate) fn start(
        &mut self,
        name: &str,
        mut command: Command,
        logs: &Path,
        stem: &str,
        up: &str,
    ) -> Result<(), PeerError> {
        let (stdout, stderr) = (
            logs.join(format!("{stem}.out")),
            logs.join(format!("{stem}.err")),
        );
        let child = command
            .stdin(Stdio::null())
            .stdout(File::create(&stdout)?)
            .stderr(File::create(&stderr)?)
            .spawn()
            .map_err(|e| PeerError::Peer(format!("cannot start {name} ({command:?}): {e}")))?;
        self.0.push(End {
            name: name.to_string(),
            child: Some(child),
            stdout,
            stderr,
        });
        let end = self.0.last_mut().expect("just pushed");
        end.wait_up(up)
    }

    /// Fails when an end has exited: none may before the case stops it.
    ///
    /// # Errors
    /// [`PeerError::Peer`] naming the end and its status ([`Ends::explain`] adds what the
    /// ends printed).
    pub(crate) fn look(&mut self) -> Result<(), PeerError> {
        for end in &mut self.0 {
            if let Some(status) = end.exited()? {
                return Err(PeerError::Peer(format!(
                    "{} exited ({status}) while the case ran",
                    end.name
                )));
            }
        }
        Ok(())
    }

    /// Stops every end, the last started first (a client before the driver it connects to),
    /// each with SIGTERM: `name: counters` of each, in the order they started.
    ///
    /// # Errors
    /// The first end that did not stop cleanly (the others are still stopped, or killed).
    pub(crate) fn stop(mut self) -> Result<Vec<String>, PeerError> {
        let mut counters = Vec::new();
        let mut first_error = None;
        for end in self.0.iter_mut().rev() {
            match end.stop() {
                Ok(line) => counters.push(format!("{}: {line}", end.name)),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        self.0.clear();
        match first_error {
            Some(e) => Err(e),
            None => {
                counters.reverse();
                Ok(counters)
            }
        }
    }

    /// `err` with what every end printed, when it is a peer's failure (a stall, an exit): the
    /// bridge's side of the story.
    pub(crate) fn explain(&self, err: PeerError) -> PeerError {
        match err {
            PeerError::Peer(m) => {
                let outputs: String = self.0.iter().map(End::output).collect();
                PeerError::Peer(format!("{m}\nthe bridge's ends said:{outputs}"))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::ScratchDir;

    #[test]
    fn the_links_carry_each_direction_to_its_receiver_and_confirm_to_its_sender() {
        let (ab, ba) = Link::pair(Transport::Udp, "127.0.0.1", "127.0.0.1");
        assert_eq!(
            ab.args(""),
            [
                "--channel",
                "aeron:udp?endpoint=127.0.0.1:40123",
                "--confirm-channel",
                "aeron:udp?endpoint=127.0.0.1:40124",
                "--stream",
                "1001",
                "--confirm-stream",
                "1002"
            ]
        );
        assert_eq!(ba.args("in-")[0], "--in-channel");
        assert_eq!(ba.confirm_channel, "aeron:udp?endpoint=127.0.0.1:40126");
        let (ab, ba) = Link::pair(Transport::Ipc, "", "");
        assert!(
            [
                &ab.channel,
                &ab.confirm_channel,
                &ba.channel,
                &ba.confirm_channel
            ]
            .iter()
            .all(|c| *c == "aeron:ipc")
        );
        assert_eq!((ab.stream, ab.confirm_stream), (1001, 1002));
        assert_eq!((ba.stream, ba.confirm_stream), (1003, 1004));
    }

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn an_end_is_up_once_it_says_so_and_stops_cleanly_on_sigterm() {
        let logs = ScratchDir::new("sympathy-test-ends").unwrap();
        let mut ends = Ends::default();
        // A stand-in for a bridge end: says it is up, exits 143 on SIGTERM as a JVM does.
        let script = "trap 'echo send: 3 sent; exit 143' TERM; echo 'bridge send: up'; \
                      while :; do sleep 0.05; done";
        ends.start(
            "bridge send",
            sh(script),
            logs.path(),
            "send",
            "bridge send:",
        )
        .unwrap();
        ends.look().unwrap();
        let counters = ends.stop().unwrap();
        assert_eq!(counters, ["bridge send: send: 3 sent"]);
    }

    #[test]
    fn an_end_that_exits_early_or_fails_to_stop_fails_the_case_with_its_output() {
        let logs = ScratchDir::new("sympathy-test-ends").unwrap();
        let mut ends = Ends::default();
        let err = ends
            .start(
                "bridge receive",
                sh("echo 'no such ring' >&2; exit 1"),
                logs.path(),
                "receive",
                "bridge receive:",
            )
            .unwrap_err()
            .to_string();
        assert!(err.contains("bridge receive exited"), "{err}");
        assert!(err.contains("no such ring"), "{err}");

        let mut ends = Ends::default();
        ends.start(
            "bridge send",
            sh("echo 'bridge send: up'; sleep 0.2; echo 'driver gone' >&2; exit 3"),
            logs.path(),
            "send",
            "bridge send:",
        )
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let err = loop {
            match ends.look() {
                Ok(()) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                other => break ends.explain(other.unwrap_err()).to_string(),
            }
        };
        assert!(err.contains("exited (exit status: 3)"), "{err}");
        assert!(err.contains("driver gone"), "{err}");
        let err = ends.stop().unwrap_err().to_string();
        assert!(err.contains("did not stop cleanly"), "{err}");
    }
}
