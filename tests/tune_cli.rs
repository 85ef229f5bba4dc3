//! `punct-tune` end to end on a tiny scale: gen writes a data set that texel reads and fits,
//! spsa plays real games, logs every iteration, draws its chart and resumes a finished run
//! without playing more.

use crate::referee_common;

use std::process::Command;

use referee_common::tmpdir;

const TUNE: &str = env!("CARGO_BIN_EXE_punct-tune");
const ENGINE: &str = env!("CARGO_BIN_EXE_punct");

fn tune(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(TUNE)
        .args(args)
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn gen_then_texel() {
    let dir = tmpdir("tune-cli-gen");
    let data = dir.join("d.txt");
    let engine = format!("cmd={ENGINE}");
    let (code, out, err) = tune(&[
        "gen",
        "-engine",
        &engine,
        "-out",
        data.to_str().unwrap(),
        "-games",
        "6",
        "-nodes",
        "200",
        "-freq",
        "1",
        "-concurrency",
        "2",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("Finished match"));
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.starts_with("# punct-sample 2 text"));
    assert!(lines.lines().count() > 20);
    let (code, out, err) = tune(&["texel", "-data", data.to_str().unwrap(), "-valid", "0.2"]);
    assert_eq!(code, 0, "{out}\n{err}");
    for want in [
        "Loss evaluation:",
        "K = ",
        "setoption name PathWeight value ",
        "path_weight \"PathWeight\" Eval = ",
    ] {
        assert!(out.contains(want), "no '{want}' in\n{out}");
    }
    // A second gen into the same file is refused without -resume or -overwrite.
    let (code, _, err) = tune(&[
        "gen",
        "-engine",
        &engine,
        "-out",
        data.to_str().unwrap(),
        "-games",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn gen_warns_when_no_position_gets_a_label() {
    // 100 nodes complete no iteration in a mid-game position: the games are played, but no
    // sampled position gets a label, which the user is told.
    let dir = tmpdir("tune-cli-gen-nolabel");
    let bin = dir.join("d.bin");
    let (code, out, err) = tune(&[
        "gen",
        "-out",
        bin.to_str().unwrap(),
        "-games",
        "1",
        "-nodes",
        "100",
        "-playnodes",
        "100",
        "-threads",
        "1",
        "-maxmoves",
        "20",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 games, 0 positions"), "{out}");
    assert!(err.contains("no position of 1 games was labelled"), "{err}");
    // With enough nodes there are labels and no warning.
    let (code, out, err) = tune(&[
        "gen",
        "-out",
        bin.to_str().unwrap(),
        "-games",
        "1",
        "-nodes",
        "1500",
        "-playnodes",
        "100",
        "-threads",
        "1",
        "-maxmoves",
        "20",
        "-overwrite",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("1 games, 0 positions"), "{out}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn gen_in_process_then_convert_and_texel() {
    let dir = tmpdir("tune-cli-gen-inprocess");
    let bin = dir.join("d.bin");
    let args = [
        "gen",
        "-out",
        bin.to_str().unwrap(),
        "-games",
        "4",
        "-nodes",
        "800",
        "-playnodes",
        "600",
        "-threads",
        "2",
        "-freq",
        "1",
        "-srand",
        "3",
    ];
    let (code, out, err) = tune(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("gen finished: 4 games,"), "{out}");
    // 88 bytes a position after an 88-byte header (docs/tuning.md, "Binary format").
    let held = out.split(" holds ").nth(1).expect("the summary line");
    let words: Vec<&str> = held.split_whitespace().collect();
    let (n, bytes): (u64, u64) = (words[0].parse().unwrap(), words[3].parse().unwrap());
    assert!(n > 0 && words[4] == "bytes", "{out}");
    assert_eq!(bytes, 88 * (n + 1), "{out}");
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), bytes);
    // Again: refused, then resumed with nothing left to play.
    let (code, _, err) = tune(&args);
    assert_eq!(code, 2, "{err}");
    let resumed = [&args[..], &["-resume"]].concat();
    let (code, out, _) = tune(&resumed);
    assert_eq!(code, 0);
    assert!(out.contains("gen finished: 0 games, 0 positions"), "{out}");
    let txt = dir.join("d.txt");
    let (code, out, err) = tune(&[
        "convert",
        "-in",
        bin.to_str().unwrap(),
        "-out",
        txt.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(text.starts_with("# punct-sample 2 text"));
    assert!(text.lines().count() > 40);
    let (code, out, err) = tune(&[
        "texel",
        "-data",
        bin.to_str().unwrap(),
        "-valid",
        "0.3",
        "-threads",
        "1",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("K = "), "{out}");
}

#[test]
fn spsa_runs_logs_charts_and_resumes() {
    let dir = tmpdir("tune-cli-spsa");
    let log = dir.join("s.jsonl");
    let engine = format!("cmd={ENGINE}");
    let args = [
        "spsa",
        "-engine",
        &engine,
        "nodes=150",
        "-param",
        "WidthBase",
        "-param",
        "Tempo,15,0,200,5,0.01",
        "-iterations",
        "3",
        "-concurrency",
        "2",
        "-random-openings",
        "plies=4",
        "-log",
        log.to_str().unwrap(),
    ];
    let (code, out, err) = tune(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("setoption name WidthBase value "), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    let objs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 4);
    for (k, o) in objs[1..].iter().enumerate() {
        assert_eq!(o["k"], k as u64 + 1);
        assert_eq!(o["games"], 2, "one pair: both colours");
        let r = o["result"].as_f64().unwrap();
        assert!((-2.0..=2.0).contains(&r));
    }
    let svg = std::fs::read_to_string(log.with_extension("svg")).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2);
    let mut again = args.to_vec();
    again.push("-resume");
    let (code, out, _) = tune(&again);
    assert_eq!(code, 0);
    assert!(out.contains("Resuming after iteration 3 of 3"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        text,
        "nothing played twice"
    );
}

#[test]
fn order_label_reads_gen_journals() {
    // `gen`'s own journal keeps moves as plain strings (a referee journal as records): both
    // feed `order-label -games`, each label with the moves that led to its position.
    use punct::rules::notation::{parse_move, parse_position};
    use punct::rules::position::Variant;
    let dir = tmpdir("tune-cli-order-label-gen");
    let bin = dir.join("d.bin");
    let gen = [
        "gen",
        "-out",
        bin.to_str().unwrap(),
        "-games",
        "2",
        "-nodes",
        "300",
        "-playnodes",
        "200",
        "-threads",
        "1",
        "-maxmoves",
        "12",
    ];
    let (code, out, err) = tune(&gen);
    assert_eq!(code, 0, "{out}\n{err}");
    let journal = dir.join("d.bin.gen.jsonl");
    let labels = dir.join("l.tsv");
    let label = [
        "order-label",
        "-games",
        journal.to_str().unwrap(),
        "-freq",
        "1",
        "-nodes",
        "300",
        "-limit",
        "8",
        "-out",
        labels.to_str().unwrap(),
    ];
    let (code, out, err) = tune(&label);
    assert_eq!(code, 0, "{out}\n{err}");
    // Every position reached by replaying a journal game, with its two moves before (and
    // how many of them the first game gave).
    let mut reached = Vec::new();
    let mut first_game = None;
    for line in std::fs::read_to_string(&journal).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] != "game" {
            continue;
        }
        let mut pos = parse_position(v["opening"].as_str().unwrap(), Variant::Standard).unwrap();
        let mut played: Vec<String> = Vec::new();
        for m in v["moves"].as_array().unwrap() {
            let recent: Vec<&str> = played.iter().rev().take(2).map(String::as_str).collect();
            let recent = if recent.is_empty() {
                "-".to_string()
            } else {
                recent.join(" ")
            };
            reached.push(format!("{pos}\t{recent}"));
            let m = m.as_str().unwrap();
            pos.play(parse_move(m).unwrap()).unwrap();
            played.push(m.to_string());
        }
        first_game.get_or_insert(reached.len());
    }
    let text = std::fs::read_to_string(&labels).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 8, "{text}\n{err}");
    for row in rows {
        let f: Vec<&str> = row.split('\t').collect();
        assert_eq!(f.len(), 3, "{row}");
        assert!(
            reached.contains(&format!("{}\t{}", f[0], f[2])),
            "{row} not in the journal"
        );
    }
    // A rerun labels nothing more (resume).
    let (code, _, err) = tune(&label);
    assert_eq!(code, 0);
    assert!(err.contains("8 already labelled"), "{err}");
    // -maxgames 1: positions of the first game only.
    let one = dir.join("one.tsv");
    let (code, out, err) = tune(&[
        "order-label",
        "-games",
        journal.to_str().unwrap(),
        "-freq",
        "1",
        "-nodes",
        "300",
        "-maxgames",
        "1",
        "-out",
        one.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&one).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!rows.is_empty(), "{err}");
    for row in rows {
        let f: Vec<&str> = row.split('\t').collect();
        let key = format!("{}\t{}", f[0], f[2]);
        assert!(
            reached[..first_game.unwrap()].contains(&key),
            "{row} not in game 1"
        );
    }
    // A learning curve over them: one row per size, a picture with a point per size.
    let prefix = dir.join("curve");
    let (code, out, err) = tune(&[
        "order-fit",
        "-data",
        labels.to_str().unwrap(),
        "-test",
        labels.to_str().unwrap(),
        "-valid",
        "0.3",
        "-sizes",
        "1,2",
        "-iters",
        "20",
        "-curve",
        prefix.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let tsv = std::fs::read_to_string(dir.join("curve.tsv")).unwrap();
    let rows: Vec<&str> = tsv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 3, "{tsv}");
    assert!(
        rows[1].starts_with("1\t") && rows[2].starts_with("2\t"),
        "{tsv}"
    );
    for size in [1, 2] {
        let model = std::fs::read_to_string(dir.join(format!("curve-{size}.txt"))).unwrap();
        punct::engine::search::order_model::Model::parse(&model).unwrap();
    }
    let svg = std::fs::read_to_string(dir.join("curve.svg")).unwrap();
    assert_eq!(svg.matches("<circle").count(), 2 * 5, "{svg}");
}

#[test]
fn train_net_draws_a_learning_curve() {
    // One network per training size, each a valid EvalFile, and their validation losses.
    let dir = tmpdir("tune-cli-net-curve");
    let bin = dir.join("d.bin");
    let (code, out, err) = tune(&[
        "gen",
        "-out",
        bin.to_str().unwrap(),
        "-games",
        "6",
        "-nodes",
        "600",
        "-playnodes",
        "300",
        "-threads",
        "2",
        "-freq",
        "1",
        "-srand",
        "5",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let prefix = dir.join("nc");
    let (code, out, err) = tune(&[
        "train-net",
        "-data",
        bin.to_str().unwrap(),
        "-sizes",
        "20,60,all",
        "-epochs",
        "2",
        "-hidden",
        "8",
        "-valid",
        "0.3",
        "-curve",
        prefix.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    for size in [20, 60] {
        let net = dir.join(format!("nc-{size}.nnue"));
        punct::engine::search::nnue::net::Network::load(&net).unwrap();
        assert!(
            out.contains(&format!("size {size}: validation loss ")),
            "{out}"
        );
    }
    // `all` is the whole training set, the last point.
    let trained: usize = (out.split(" for training").next().unwrap())
        .rsplit('(')
        .next()
        .unwrap()
        .parse()
        .expect("the training count");
    assert!(trained > 60, "{out}");
    let tsv = std::fs::read_to_string(dir.join("nc.tsv")).unwrap();
    let rows: Vec<&str> = tsv.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 4, "{tsv}");
    assert!(rows[3].starts_with(&format!("{trained}\t")), "{tsv}");
    // -compare measures an existing network on the same held-out games: the curve's loss.
    let net20 = dir.join("nc-20.nnue");
    let (code, cmp, err) = tune(&[
        "train-net",
        "-data",
        bin.to_str().unwrap(),
        "-valid",
        "0.3",
        "-compare",
        &format!("{},<default>", net20.to_str().unwrap()),
    ]);
    assert_eq!(code, 0, "{cmp}\n{err}");
    let curve_loss = (out.lines())
        .find_map(|l| l.strip_prefix("size 20: validation loss "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    assert!(
        cmp.contains(&format!(
            "Validation loss of {} (8 hidden, pure): {curve_loss}",
            net20.display()
        )),
        "{cmp}\n{out}"
    );
    assert!(cmp.contains("Validation loss of <default> ("), "{cmp}");
    assert!(!cmp.contains("epoch"), "nothing is trained: {cmp}");
    assert!(
        tsv.contains("# reference for validation loss: hand evaluation"),
        "{tsv}"
    );
    assert!(std::fs::read_to_string(dir.join("nc.svg"))
        .unwrap()
        .contains("<polyline"));
}

#[test]
fn order_label_reads_referee_journals() {
    // Moves recorded by the referee (records with a "move" field) feed order-label as well.
    let dir = tmpdir("tune-cli-order-label-referee");
    let journal = dir.join("m.jsonl");
    let (code, out, err) =
        crate::referee_common::output_of(crate::referee_common::random_pair().args([
            "-games",
            "2",
            "-jsonl",
            journal.to_str().unwrap(),
        ]));
    assert_eq!(code, Some(0), "{out}\n{err}");
    let labels = dir.join("l.tsv");
    let (code, out, err) = tune(&[
        "order-label",
        "-games",
        journal.to_str().unwrap(),
        "-freq",
        "1",
        "-nodes",
        "200",
        "-limit",
        "4",
        "-out",
        labels.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let text = std::fs::read_to_string(&labels).unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 4, "{text}\n{err}");
    // The games start from the start position: every label knows the moves before it.
    assert!(
        rows.iter()
            .all(|r| r.split('\t').nth(2).is_some_and(|m| m != "-")),
        "{text}"
    );
}

#[test]
fn gen_plays_a_strength_level_passed_as_an_option() {
    let dir = tmpdir("tune-cli-gen-level");
    let data = dir.join("d.bin");
    let engine = format!("cmd={ENGINE}");
    let (code, out, err) = tune(&[
        "gen",
        "-engine",
        &engine,
        "option.UCI_LimitStrength=true",
        "option.UCI_Elo=700",
        "depth=2",
        "-out",
        data.to_str().unwrap(),
        "-games",
        "2",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("Level: a  UCI_Elo 700"), "{out}");
    let games = std::fs::read_to_string(dir.join("d.bin.games.jsonl")).unwrap();
    assert!(games.contains("\"white_level\":\"UCI_Elo 700\""), "{games}");
}
