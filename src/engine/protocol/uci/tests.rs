//! Tests of the reader, the info throttle, the worker's answers and the watchdog.

use super::*;

fn lines(input: &[u8], cap: usize) -> Vec<InputLine> {
    let mut r = BufReader::with_capacity(7, input);
    let mut v = Vec::new();
    loop {
        let l = read_line_capped(&mut r, cap).unwrap();
        if l == InputLine::Eof {
            return v;
        }
        v.push(l);
    }
}

#[test]
fn reader_splits_lines_strips_cr_and_keeps_a_last_line_without_newline() {
    assert_eq!(
        lines(b"uci\r\n\nisready\nquit", 100),
        vec![
            InputLine::Line("uci".into()),
            InputLine::Line("".into()),
            InputLine::Line("isready".into()),
            InputLine::Line("quit".into()),
        ]
    );
}

#[test]
fn reader_decodes_bad_utf8_lossily_and_caps_long_lines() {
    let mut input = b"is\xffready\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 50));
    input.extend(b"\nuci\n");
    assert_eq!(
        lines(&input, 20),
        vec![
            InputLine::Line("is\u{fffd}ready".into()),
            InputLine::TooLong(50),
            InputLine::Line("uci".into()),
        ]
    );
}

/// An output buffer the test can read while the engine writes to it.
#[derive(Clone)]
struct Shared(Arc<Mutex<Vec<u8>>>);
impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

fn info(depth: u32, pv: &[Move]) -> SearchInfo {
    SearchInfo {
        depth,
        seldepth: depth,
        multipv: 1,
        score: crate::engine::types::Score::Cp(7),
        bound: Bound::Exact,
        nodes: 100,
        time: Duration::from_millis(1),
        hashfull: 0,
        pv: pv.to_vec(),
    }
}

#[test]
fn info_lines_are_throttled_within_a_depth_but_every_depth_is_shown() {
    let buf = Shared(Arc::new(Mutex::new(Vec::new())));
    let out = Output::new(Box::new(buf.clone()));
    let mut t = InfoThrottle::new();
    for depth in 1..=3 {
        for _ in 0..50 {
            t.report(&info(depth, &[]), &out);
        }
    }
    assert_eq!(buf.text().lines().count(), 3, "{}", buf.text());
    thread::sleep(INFO_INTERVAL);
    t.report(&info(3, &[]), &out);
    assert_eq!(buf.text().lines().count(), 4);
    assert_eq!(t.latest.as_ref().map(|i| i.depth), Some(3));
}

#[test]
fn the_watchdog_answers_for_a_late_worker_once_it_has_a_line() {
    let buf = Shared(Arc::new(Mutex::new(Vec::new())));
    let out = Output::new(Box::new(buf.clone()));
    let mut session = Session::new(Variant::Standard);
    let go = parse_line("go movetime 50").unwrap().unwrap();
    let Some(Effect::Work(Work::Search(job))) = session.handle(go).into_iter().last() else {
        panic!("go queues a search");
    };
    assert!(session.is_searching());
    let ctl = Arc::new(SearchControl::default());
    let answer = Arc::new(Answer::default());
    let now = Instant::now();
    let w = Watch::new(&job, answer.clone(), ctl.clone(), now);
    assert!(w
        .deadline()
        .is_some_and(|d| d < now + Duration::from_millis(50)));
    let (wake_tx, wake_rx) = unbounded();
    let held = HeldLines::default();
    // No line reported yet (the first iteration runs): the worker is left to answer.
    watchdog(&w, &mut session, &held, &out, &wake_tx);
    assert_eq!(buf.text(), "");
    assert!(session.is_searching() && !ctl.stopped());
    // A line was reported (and printed): its moves are the answer, and the search ends.
    let best = job.pos.legal_moves()[3];
    let reported = info(2, &[best]);
    let offer = Offer::of(&job.pos, &reported, true, true).unwrap();
    assert!(answer.while_open(|s| s.offer(offer)));
    watchdog(&w, &mut session, &held, &out, &wake_tx);
    assert_eq!(buf.text(), format!("bestmove {best}\n"));
    assert!(!session.is_searching() && ctl.stopped() && wake_rx.try_recv().is_ok());
    // The worker, late, prints nothing more of that search; a second alarm neither.
    assert!(!answer.while_open(|_| {}));
    watchdog(&w, &mut session, &held, &out, &wake_tx);
    assert_eq!(buf.text().lines().count(), 1);
}

#[test]
fn an_illegal_or_missing_best_move_is_replaced_by_a_legal_one() {
    let buf = Shared(Arc::new(Mutex::new(Vec::new())));
    let out = Output::new(Box::new(buf.clone()));
    let pos = Position::new(Variant::Standard);
    let legal = pos.legal_moves();
    let centre = crate::rules::notation::parse_move("i9i10j10").unwrap();
    let job = SearchJob {
        id: 1,
        pos: pos.clone(),
        limits: crate::engine::types::Limits::default(),
        ponder: false,
        omit_ponder: false,
    };
    let result = |best| SearchResult {
        best,
        ponder: Some(centre),
        score: crate::engine::types::Score::Cp(0),
        depth: 1,
        nodes: 1,
        time: Duration::ZERO,
        visits: Vec::new(),
        lines: Vec::new(),
    };
    let (best, ponder) = checked_moves(&job, Some(&result(Some(centre))), None, &out);
    assert!(pos.check_move(best.unwrap()).is_ok());
    assert_eq!(
        ponder, None,
        "the ponder move must be legal after the best move"
    );
    assert!(
        buf.text().contains("illegal move i9i10j10"),
        "{}",
        buf.text()
    );
    let (best, _) = checked_moves(&job, None, None, &out);
    assert!(pos.check_move(best.unwrap()).is_ok());
    // A legal best move is kept, and the ponder move comes from the reported line.
    let (a, b) = (legal[3], {
        let mut p = pos.clone();
        p.make(legal[3]);
        p.legal_moves()[5]
    });
    let mut r = result(Some(a));
    r.ponder = None;
    let reported = info(2, &[a, b]);
    assert_eq!(
        checked_moves(&job, Some(&r), Some(&reported), &out),
        (Some(a), Some(b))
    );
    let fin = final_info(Some(&r), Some(reported), Some(a), Some(b), 5);
    assert_eq!(
        (fin.pv, fin.score, fin.nodes, fin.hashfull),
        (vec![a, b], crate::engine::types::Score::Cp(7), 1, 5)
    );
}

/// Runs the loop on a script and returns its output.
fn session_output(script: &str) -> String {
    session_output_until(script, "")
}

/// The script, then end of input (which stops all work) once the output holds `marker`
/// (at most 10 s later) and 200 ms more: a loaded machine may be slow to start the worker.
fn session_output_until(script: &str, marker: &str) -> String {
    struct LateEof {
        input: io::Cursor<Vec<u8>>,
        out: Shared,
        marker: String,
    }
    impl Read for LateEof {
        fn read(&mut self, b: &mut [u8]) -> io::Result<usize> {
            let n = self.input.read(b)?;
            if n == 0 {
                let start = std::time::Instant::now();
                while !self.out.text().contains(&self.marker)
                    && start.elapsed() < Duration::from_secs(10)
                {
                    thread::sleep(Duration::from_millis(10));
                }
                thread::sleep(Duration::from_millis(200));
            }
            Ok(n)
        }
    }
    let buf = Shared(Arc::new(Mutex::new(Vec::new())));
    let input = LateEof {
        input: io::Cursor::new(script.as_bytes().to_vec()),
        out: buf.clone(),
        marker: marker.to_string(),
    };
    let status = run_with(Variant::Standard, input, Box::new(buf.clone()));
    assert_eq!(status, 0);
    buf.text()
}

#[test]
fn readyok_comes_after_the_bestmove_of_a_stopped_search() {
    let out = session_output("go infinite\nstop\nisready\n");
    let best = out.find("bestmove ").expect(&out);
    let ready = out.find("readyok").expect(&out);
    assert!(best < ready, "{out}");
    // The final info comes right before bestmove.
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(lines[at - 1].starts_with("info depth "), "{out}");
}

/// A burst of commands: the error about the second `go` comes out before that search's
/// `bestmove` (it used to wait until every queued search had started, after the answer).
#[test]
fn an_error_about_a_go_comes_before_its_bestmove() {
    for _ in 0..5 {
        let out =
            session_output("go infinite\ngo wtime abc\ngo infinite\ngo infinite\nstop\nisready\n");
        assert_eq!(out.matches("bestmove ").count(), 4, "{out}");
        let error = out.find("info string error: wtime").expect(&out);
        let second = out.match_indices("bestmove ").nth(1).expect(&out).0;
        assert!(error < second, "{out}");
        assert!(out.trim_end().ends_with("readyok"), "{out}");
    }
}

#[test]
fn one_bestmove_per_go_even_when_go_follows_go() {
    let out = session_output("go infinite\ngo infinite\ngo depth 1\nstop\nisready\n");
    assert_eq!(out.matches("bestmove ").count(), 3, "{out}");
    assert!(out.trim_end().ends_with("readyok"), "{out}");
}

#[test]
fn perft_through_the_worker_matches_the_library() {
    let out = session_output_until("go perft 1\nisready\n", "Nodes searched");
    let total = Position::new(Variant::Standard).legal_moves().len();
    assert!(
        out.contains(&format!("\nNodes searched: {total}\n")),
        "{out}"
    );
}
