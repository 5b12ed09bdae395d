//! Running the built binary with the model from `.deps`, and a shared index of the reference catalog.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use toolscout_indexer::{INSTALLED_MODEL, INSTALLED_ORT};
pub(crate) use toolscout_test_support::{deps, root};

/// `toolscout` with the model paths set, run from a scratch folder (no reliance on the cwd).
pub(crate) fn toolscout() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolscout"));
    cmd.env("TOOLSCOUT_MODEL_DIR", deps().join(INSTALLED_MODEL))
        .env("ORT_DYLIB_PATH", deps().join(INSTALLED_ORT))
        .env("RUST_LOG", "warn")
        .current_dir(env!("CARGO_TARGET_TMPDIR"));
    cmd
}

pub(crate) fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("run toolscout");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// An index of `data/catalog/reference-servers.jsonl`, built by the CLI once per test binary.
pub(crate) fn index() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-reference-index");
        run_ok(
            toolscout()
                .args(["index", "--catalog"])
                .arg(root().join("data/catalog/reference-servers.jsonl"))
                .arg("--out")
                .arg(&dir),
        );
        dir
    })
    .clone()
}
