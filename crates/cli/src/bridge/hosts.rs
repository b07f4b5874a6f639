//! Two hosts on one machine: two network namespaces joined by a veth pair, host A at
//! [`ADDRESS_A`] and host B at [`ADDRESS_B`] (`sympathy bridge hosts up|down`). The bridge's
//! experiment runs its ends on them (the `veth` transport), and its two-host test. Making them
//! needs root (`ip netns add`); without it [`TwoHosts::up`] fails saying so.
//!
//! ```text
//!   namespace PREFIX-a                         namespace PREFIX-b
//!   +---------------------+   veth pair   +---------------------+
//!   | PREFIXa 10.201.0.1  |===============| PREFIXb 10.201.0.2  |
//!   +---------------------+               +---------------------+
//! ```

use std::path::Path;
use std::process::Command;

use anyhow::{Result, bail};

/// Host A's address on the veth pair.
pub const ADDRESS_A: &str = "10.201.0.1";
/// Host B's address on the veth pair.
pub const ADDRESS_B: &str = "10.201.0.2";

/// The two namespaces of `prefix`; [`TwoHosts::down`] (or drop) removes them.
#[derive(Debug)]
pub struct TwoHosts {
    prefix: String,
    /// Whether this value removes the namespaces when dropped.
    owned: bool,
}

impl TwoHosts {
    /// Makes namespaces `PREFIX-a` and `PREFIX-b` joined by a veth pair (`PREFIXa`, `PREFIXb`:
    /// at most 14 characters of prefix), replacing any left by an earlier run of that prefix,
    /// with loopback up in each.
    ///
    /// # Errors
    /// `ip` is missing or a step fails (not root: namespaces need CAP_SYS_ADMIN); what was
    /// made is removed again.
    pub fn up(prefix: &str) -> Result<TwoHosts> {
        if prefix.is_empty()
            || prefix.len() > 14
            || !prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
        {
            bail!(
                "the hosts' prefix '{prefix}' must be 1 to 14 letters, digits or '-' (it names the veth ends)"
            );
        }
        let _ = TwoHosts::down(prefix);
        let hosts = TwoHosts {
            prefix: prefix.to_string(),
            owned: true,
        };
        let (a, b) = (hosts.namespace_a(), hosts.namespace_b());
        let (va, vb) = (format!("{prefix}a"), format!("{prefix}b"));
        let steps: [&[&str]; 11] = [
            &["netns", "add", &a],
            &["netns", "add", &b],
            &["link", "add", &va, "type", "veth", "peer", "name", &vb],
            &["link", "set", &va, "netns", &a],
            &["link", "set", &vb, "netns", &b],
            &[
                "-n",
                &a,
                "addr",
                "add",
                &format!("{ADDRESS_A}/24"),
                "dev",
                &va,
            ],
            &[
                "-n",
                &b,
                "addr",
                "add",
                &format!("{ADDRESS_B}/24"),
                "dev",
                &vb,
            ],
            &["-n", &a, "link", "set", &va, "up"],
            &["-n", &b, "link", "set", &vb, "up"],
            &["-n", &a, "link", "set", "lo", "up"],
            &["-n", &b, "link", "set", "lo", "up"],
        ];
        for step in steps {
            let why = match Command::new("ip").args(step).output() {
                Ok(out) if out.status.success() => continue,
                Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
                Err(e) => format!("`ip` does not run: {e}"),
            };
            drop(hosts); // removes what was made
            bail!(
                "cannot make two network namespaces joined by a veth pair: `ip {}`: {why} (root is \
                 needed: run as root, or use the udp transport on loopback)",
                step.join(" ")
            );
        }
        Ok(hosts)
    }

    /// Removes the namespaces of `prefix` (and so the veth pair); quiet when there are none.
    pub fn down(prefix: &str) -> Result<()> {
        for side in ["a", "b"] {
            let _ = Command::new("ip")
                .args(["netns", "del", &format!("{prefix}-{side}")])
                .output();
        }
        Ok(())
    }

    /// Host A's namespace.
    pub fn namespace_a(&self) -> String {
        format!("{}-a", self.prefix)
    }

    /// Host B's namespace.
    pub fn namespace_b(&self) -> String {
        format!("{}-b", self.prefix)
    }

    /// `program args` on host A (`on_a`) or host B: `ip netns exec NS program args`.
    pub fn command(&self, on_a: bool, program: &Path) -> Command {
        let mut command = Command::new("ip");
        command
            .args(["netns", "exec"])
            .arg(if on_a {
                self.namespace_a()
            } else {
                self.namespace_b()
            })
            .arg(program);
        command
    }

    /// Leaves the namespaces in place when this value is dropped (`bridge hosts up`).
    pub fn keep(mut self) {
        self.owned = false;
    }
}

impl Drop for TwoHosts {
    fn drop(&mut self) {
        if self.owned {
            let _ = TwoHosts::down(&self.prefix);
        }
    }
}
