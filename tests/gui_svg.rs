//! The board picture outside the GUI: `punct svg` and the referee's `-svgout`.

use std::process::Command;

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("punct-svg-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn punct_svg_writes_the_board_to_stdout_or_a_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["svg", "Wc5c6d6/Bf5f6f7 w 2", "--last", "f5f6f7"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert!(svg.starts_with("<svg"));
    assert_eq!(svg.matches("class=\"cell").count(), 211);
    assert_eq!(svg.matches("class=\"dot\"").count(), 6);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 3);
    assert!(svg.contains("White to move"));

    let dir = tmpdir("cli");
    // A folder that is not there yet is made, as the other outputs' are (`--out out/b.svg`).
    let file = dir.join("pictures").join("b.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_punct"))
        .args(["--variant", "basic", "svg", "startpos", "--flip", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("data-flipped=\"true\"") && text.contains("basic game"));

    for bad in [
        vec!["svg", "Wzz w 1"],
        vec!["svg", "--last", "q99q98"],
        vec!["svg", "--out"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_punct"))
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_referee_draws_each_final_position() {
    let dir = tmpdir("referee");
    let mock = env!("CARGO_BIN_EXE_punct-mock-engine");
    let out = Command::new(env!("CARGO_BIN_EXE_punct-referee"))
        .args(["-engine", &format!("cmd={mock}"), "name=a"])
        .args(["-engine", &format!("cmd={mock}"), "name=b"])
        .args([
            "-each",
            "depth=1",
            "-games",
            "2",
            "-maxmoves",
            "20",
            "-svgout",
        ])
        .arg(dir.join("pictures"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for n in [1, 2] {
        let f = dir.join(format!("pictures/game-{n:04}.svg"));
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(text.contains("class=\"piece"), "game {n} has pieces");
        assert!(text.contains("class=\"last-move\""));
    }
    let _ = std::fs::remove_dir_all(dir);
}
