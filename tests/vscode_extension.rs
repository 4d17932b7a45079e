//! The VS Code extension (editors/vscode): its activation logic under node's test runner
//! (`node --test`, no npm packages needed), and its manifest as the packaging needs it.
//!
//! Where `node` is missing the node tests say so on the terminal and pass:
//! `SKIPPED vscode_extension: ...`. The manifest checks always run.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

fn extension_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("editors/vscode")
}

#[test]
fn activation_logic_under_node() {
    let version = Command::new("node").arg("--version").output();
    let Some(version) = version.ok().filter(|o| o.status.success()) else {
        eprintln!("SKIPPED vscode_extension: `node` is not installed");
        return;
    };
    let major: u32 = String::from_utf8_lossy(&version.stdout)
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 18 {
        eprintln!("SKIPPED vscode_extension: node {major} has no `node --test` (18 or later)");
        return;
    }
    let out = Command::new("node")
        .args(["--test", "test/"])
        .current_dir(extension_dir())
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Every test ran (a test file that fails to load reports no tests, not a failure).
    assert!(stdout.contains("# fail 0"), "{stdout}");
    assert!(stdout.contains("# pass 4"), "{stdout}");
}

#[test]
fn manifest_is_ready_to_package() {
    let dir = extension_dir();
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).unwrap()).unwrap();
    // The client is bundled: the .vsix carries out/extension.js, not node_modules.
    assert_eq!(manifest["main"], "./out/extension.js");
    assert!(
        manifest["scripts"]["bundle"]
            .as_str()
            .unwrap()
            .starts_with("esbuild src/extension.ts --bundle"),
        "{}",
        manifest["scripts"]
    );
    assert!(manifest
        .get("dependencies")
        .is_none_or(|d| d.as_object().is_some_and(|d| d.is_empty())));
    let ignore = std::fs::read_to_string(dir.join(".vscodeignore")).unwrap();
    assert!(ignore.lines().any(|l| l == "node_modules/**"), "{ignore}");
    // Never activated everywhere; the server starts only where RPython is.
    let events: Vec<&str> = manifest["activationEvents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(!events.contains(&"*"), "{events:?}");
    assert!(manifest["repository"]["url"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://")));
    // The icon: a 128×128 PNG (the marketplace's size).
    let icon = std::fs::read(dir.join(manifest["icon"].as_str().unwrap())).unwrap();
    assert_eq!(&icon[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(&icon[12..16], b"IHDR");
    let width = u32::from_be_bytes(icon[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(icon[20..24].try_into().unwrap());
    assert_eq!((width, height), (128, 128));
}
