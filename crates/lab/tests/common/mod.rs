//! Helpers shared by the lab's code-generation tests.

use std::process::Command;

/// The instructions of `symbol` in the running test binary, as `objdump -d` prints them.
///
/// # Panics
/// When objdump (GNU binutils) is missing or fails, or the symbol is not in the binary.
pub fn disassemble(symbol: &str) -> Vec<String> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new("objdump")
        .args([
            "-d",
            "--no-show-raw-insn",
            &format!("--disassemble={symbol}"),
        ])
        .arg(&exe)
        .output()
        .expect("objdump must be installed (GNU binutils) to check the generated code");
    assert!(output.status.success(), "objdump failed: {output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    let body: Vec<String> = text
        .lines()
        .skip_while(|l| !l.contains(&format!("<{symbol}>:")))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.to_string())
        .collect();
    assert!(!body.is_empty(), "{symbol} not found in {}", exe.display());
    body
}
