//! One game: start both players, send `position`/`go`, keep both clocks from the referee's own
//! measurements, check every move with the rules, and end the game by the rules, repetition,
//! move limit, adjudication or a player's fault. The result is a [`GameRecord`].

use std::time::{Duration, Instant};

use crate::referee::players::player::{Fault, Player, Score, ThinkRequest};
use crate::referee::records::record::{GameRecord, MoveRecord};
use crate::referee::settings::{EngineConfig, Proto, RunConfig};
use crate::referee::signals;
use crate::referee::timecontrol::Clock;
use crate::rules::moves::Move;
use crate::rules::notation::{parse_move, parse_position};
use crate::rules::piece::Colour;
use crate::rules::position::{EndReason, Position};

/// Which game of the schedule this is.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// 1-based game number; games `2k-1` and `2k` of an encounter form a pair.
    pub game: u64,
    pub round: u32,
    /// 1-based pair number over the whole run.
    pub pair: u64,
    pub white: usize,
    pub black: usize,
    pub opening_index: u64,
    pub opening: String,
}

/// How the game ended, before it becomes text.
enum Ending {
    Rules(crate::rules::position::Outcome),
    Repetition,
    MaxMoves,
    AdjudicatedDraw,
    Resign(Colour),
    Fault(Colour, FaultKind),
}

enum FaultKind {
    Time(Duration),
    Illegal(String, String),
    Disconnect(String),
    Stall(String),
}

/// Per-colour adjudication counters.
#[derive(Default)]
struct Adjudicator {
    draw_run: u32,
    resign_run: [u32; 2],
}

impl Adjudicator {
    fn after_move(
        &mut self,
        cfg: &RunConfig,
        mover: Colour,
        score: Option<Score>,
        full_move: u32,
    ) -> Option<Ending> {
        if let Some(d) = cfg.draw {
            match score {
                Some(s) if full_move >= d.movenumber && s.value().abs() <= d.score => {
                    self.draw_run += 1
                }
                _ => self.draw_run = 0,
            }
            if self.draw_run >= 2 * d.movecount {
                return Some(Ending::AdjudicatedDraw);
            }
        }
        if let Some(r) = cfg.resign {
            let run = &mut self.resign_run[mover.index()];
            match score {
                Some(s) if s.value() <= -r.score => *run += 1,
                _ => *run = 0,
            }
            if *run >= r.movecount {
                return Some(Ending::Resign(mover));
            }
        }
        None
    }
}

/// How long the mover may take before it is faulted: its clock (or its fixed time per move)
/// plus its time margin; with neither, the watchdog.
pub fn move_deadline(watchdog: Duration, clock: Option<&Clock>, engine: &EngineConfig) -> Duration {
    let margin = engine.timemargin;
    let clock_deadline = clock
        .filter(|c| !c.is_infinite())
        .map(|c| c.remaining() + margin);
    match (engine.st, clock_deadline) {
        (Some(st), Some(d)) => d.min(st + margin),
        (Some(st), None) => st + margin,
        (None, Some(d)) => d,
        (None, None) => watchdog,
    }
}

/// The `go` command for the side to move.
pub fn go_command(
    proto: Proto,
    clocks: &[Option<Clock>; 2],
    mover: &EngineConfig,
    side: Colour,
) -> String {
    let mut go = String::from("go");
    let names = match proto {
        Proto::Uci => [("wtime", "winc"), ("btime", "binc")],
        Proto::Ugi => [("p1time", "p1inc"), ("p2time", "p2inc")],
    };
    for (c, (t, i)) in clocks.iter().zip(names) {
        if let Some(clock) = c.as_ref().filter(|c| !c.is_infinite()) {
            let ms = clock.remaining().as_millis();
            let inc = clock.increment().as_millis();
            go.push_str(&format!(" {t} {ms} {i} {inc}"));
        }
    }
    if let Some(mtg) = clocks[side.index()]
        .as_ref()
        .filter(|c| !c.is_infinite())
        .and_then(|c| c.movestogo())
    {
        go.push_str(&format!(" movestogo {mtg}"));
    }
    if let Some(st) = mover.st {
        go.push_str(&format!(" movetime {}", st.as_millis()));
    }
    if let Some(d) = mover.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = mover.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

/// The `position` command: the opening (as `startpos` when it is the start) plus the moves.
pub fn position_command(opening: &str, start_is_initial: bool, moves: &[Move]) -> String {
    let mut s = if start_is_initial {
        String::from("position startpos")
    } else {
        format!("position fen {opening}")
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// Three decimals are enough (microseconds of a millisecond) and keep the log short.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// Plays one game. `players` and `engines` are indexed by colour (White first). Returns None
/// if the run was interrupted (the game then counts for nothing and is played again on resume).
pub fn play_game(
    spec: &GameSpec,
    players: [&mut dyn Player; 2],
    engines: [&EngineConfig; 2],
    cfg: &RunConfig,
) -> Option<GameRecord> {
    let [white, black] = players;
    let players: [&mut dyn Player; 2] = [white, black];
    let mut pos = match parse_position(&spec.opening, cfg.variant) {
        Ok(p) => p,
        Err(e) => {
            log::error!("game {}: bad opening '{}': {e}", spec.game, spec.opening);
            return None;
        }
    };
    let start_is_initial = pos == Position::new(cfg.variant);
    let mut clocks: [Option<Clock>; 2] = [
        engines[0].time_control().map(|tc| Clock::new(&tc)),
        engines[1].time_control().map(|tc| Clock::new(&tc)),
    ];
    let mut moves: Vec<Move> = Vec::new();
    let mut records: Vec<MoveRecord> = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let mut last_received: Option<Instant> = None;

    let mut ending = None;
    for c in Colour::ALL {
        let seed = crate::referee::openings::mix(cfg.srand ^ (spec.game << 1 | c.index() as u64));
        if let Err(f) = players[c.index()].new_game(seed) {
            ending = Some(Ending::Fault(c, fault_kind(f)));
            break;
        }
    }

    while ending.is_none() {
        if signals::interrupted() {
            return None;
        }
        if let Some(o) = pos.outcome() {
            ending = Some(Ending::Rules(o));
            break;
        }
        if cfg.repetition && pos.repetitions() >= 3 {
            ending = Some(Ending::Repetition);
            break;
        }
        if cfg
            .maxmoves
            .is_some_and(|m| moves.len() as u64 >= 2 * m as u64)
        {
            ending = Some(Ending::MaxMoves);
            break;
        }
        let side = pos.side_to_move();
        let mover = engines[side.index()];
        let position = position_command(&spec.opening, start_is_initial, &moves);
        let go = go_command(players[side.index()].proto(), &clocks, mover, side);
        let margin = mover.timemargin;
        let deadline = move_deadline(cfg.watchdog, clocks[side.index()].as_ref(), mover);
        let req = ThinkRequest {
            position: &position,
            go: &go,
            deadline,
            pos: &pos,
        };
        let reply = match players[side.index()].think(&req) {
            Ok(r) => r,
            Err(f) => {
                if signals::interrupted() {
                    return None;
                }
                // A missed deadline is reported as the time beyond what the engine had.
                let f = match f {
                    Fault::Timeout { elapsed } => Fault::Timeout {
                        elapsed: elapsed.saturating_sub(deadline.saturating_sub(margin)),
                    },
                    other => other,
                };
                ending = Some(Ending::Fault(side, fault_kind(f)));
                break;
            }
        };
        let elapsed = reply.received.saturating_duration_since(reply.go_sent);
        let overhead = last_received.map(|t| reply.go_sent.saturating_duration_since(t));
        last_received = Some(reply.received);
        let clock_before = clocks[side.index()]
            .as_ref()
            .filter(|c| !c.is_infinite())
            .map(|c| c.remaining());
        let budget = mover.st.or(clock_before);
        if let Some(clock) = clocks[side.index()].as_mut() {
            if let Err(over) = clock.charge(elapsed, margin) {
                ending = Some(Ending::Fault(side, FaultKind::Time(over)));
                break;
            }
        }
        if let Some(st) = mover.st {
            if elapsed > st + margin {
                ending = Some(Ending::Fault(side, FaultKind::Time(elapsed - st)));
                break;
            }
        }
        let mv = match parse_move(&reply.bestmove) {
            Ok(mv) => mv,
            Err(e) => {
                ending = Some(Ending::Fault(
                    side,
                    FaultKind::Illegal(reply.bestmove.clone(), e.to_string()),
                ));
                break;
            }
        };
        if let Err(e) = pos.play(mv) {
            ending = Some(Ending::Fault(
                side,
                FaultKind::Illegal(reply.bestmove.clone(), e.to_string()),
            ));
            break;
        }
        moves.push(mv);
        records.push(MoveRecord {
            mv: mv.to_string(),
            ms: round3(elapsed.as_secs_f64() * 1000.0),
            score: reply.info.score,
            depth: reply.info.depth,
            nodes: reply.info.nodes,
            overhead_us: overhead.map(|d| round3(d.as_secs_f64() * 1e6)),
            clock_ms: clocks[side.index()]
                .as_ref()
                .filter(|c| !c.is_infinite())
                .map(|c| round3(c.remaining().as_secs_f64() * 1000.0)),
            budget_ms: budget.map(|b| round3(b.as_secs_f64() * 1000.0)),
        });
        // Adjudication needs a score; a finished game is decided by the rules instead.
        if !pos.is_finished() {
            // Number of the move just made (the ply count is already past it).
            let full_move = (pos.ply() - 1) / 2 + 1;
            ending = adjudicator.after_move(cfg, side, reply.info.score, full_move);
        }
    }
    let ending = ending.expect("the loop ends only with an ending");
    if signals::interrupted() {
        return None;
    }
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let (result, reason, text, termination, fault) = describe(&ending, &names);
    let fault_player = fault.map(|c| {
        if c == Colour::White {
            spec.white
        } else {
            spec.black
        }
    });
    Some(GameRecord {
        game: spec.game,
        round: spec.round,
        pair: spec.pair,
        white: names[0].clone(),
        black: names[1].clone(),
        white_player: spec.white,
        black_player: spec.black,
        variant: cfg.variant.name().to_string(),
        opening_index: spec.opening_index,
        opening: spec.opening.clone(),
        white_tc: engines[0].limit_text(),
        black_tc: engines[1].limit_text(),
        white_level: engines[0].level_text(),
        black_level: engines[1].level_text(),
        result: result.to_string(),
        reason: reason.to_string(),
        reason_text: text,
        termination: termination.to_string(),
        fault_player,
        overhead_median_us: median(records.iter().filter_map(|r| r.overhead_us).collect()),
        moves: records,
        final_position: pos.to_string(),
        date: crate::referee::records::pgn::today(),
    })
}

fn fault_kind(f: Fault) -> FaultKind {
    match f {
        Fault::Disconnected(why) => FaultKind::Disconnect(why),
        Fault::Stall(why) => FaultKind::Stall(why),
        Fault::Timeout { elapsed } => FaultKind::Time(elapsed),
    }
}

fn win_for(c: Colour) -> &'static str {
    match c {
        Colour::White => "1-0",
        Colour::Black => "0-1",
    }
}

/// (result, reason key, reason text, PGN termination, faulty colour).
fn describe(
    e: &Ending,
    names: &[String; 2],
) -> (
    &'static str,
    &'static str,
    String,
    &'static str,
    Option<Colour>,
) {
    const DRAW: &str = "1/2-1/2";
    match e {
        Ending::Rules(o) => {
            let result = o.winner.map_or(DRAW, win_for);
            let key = match o.reason {
                EndReason::Connection => "connection",
                EndReason::CentreCount { .. } => "centre_count",
                EndReason::LastDrop => "last_drop",
                EndReason::DoublePass => "double_pass",
            };
            (result, key, o.to_string(), "normal", None)
        }
        Ending::Repetition => (
            DRAW,
            "repetition",
            "Draw by 3-fold repetition".into(),
            "normal",
            None,
        ),
        Ending::MaxMoves => (
            DRAW,
            "max_moves",
            "Draw by adjudication: move limit".into(),
            "adjudication",
            None,
        ),
        Ending::AdjudicatedDraw => (
            DRAW,
            "adjudication_draw",
            "Draw by adjudication".into(),
            "adjudication",
            None,
        ),
        Ending::Resign(loser) => (
            win_for(!*loser),
            "adjudication_resign",
            format!("{} wins by adjudication", (!*loser).name()),
            "adjudication",
            None,
        ),
        Ending::Fault(c, kind) => {
            let name = &names[c.index()];
            let (key, text, term) = match kind {
                FaultKind::Time(over) => (
                    "time_forfeit",
                    format!("{name} loses on time ({} ms)", over.as_millis()),
                    "time forfeit",
                ),
                FaultKind::Illegal(mv, why) => (
                    "illegal_move",
                    format!("{name} makes an illegal move: {mv} ({why})"),
                    "illegal move",
                ),
                FaultKind::Disconnect(why) => (
                    "disconnect",
                    format!("{name} disconnects ({why})"),
                    "abandoned",
                ),
                FaultKind::Stall(why) => (
                    "stall",
                    format!("{name}'s connection stalls ({why})"),
                    "stalled connection",
                ),
            };
            (win_for(!*c), key, text, term, Some(*c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::timecontrol::TimeControl;

    fn cfg(flags: &str) -> RunConfig {
        crate::referee::cli::run_config(flags)
    }

    #[test]
    fn go_commands_carry_both_clocks_and_limits() {
        let c = cfg("-engine cmd=a tc=40/10+0.5 depth=4 -engine cmd=b st=0.2 nodes=99");
        let tc: TimeControl = "40/10+0.5".parse().unwrap();
        let clocks = [Some(Clock::new(&tc)), None];
        let go = go_command(Proto::Uci, &clocks, &c.engines[0], Colour::White);
        assert_eq!(go, "go wtime 10000 winc 500 movestogo 40 depth 4");
        let go = go_command(Proto::Ugi, &clocks, &c.engines[1], Colour::Black);
        assert_eq!(go, "go p1time 10000 p1inc 500 movetime 200 nodes 99");
    }

    #[test]
    fn position_commands() {
        let m: Move = "c5c6d6".parse().unwrap();
        assert_eq!(position_command("- w 0", true, &[]), "position startpos");
        assert_eq!(
            position_command("Wc5c6d6 b 1", false, &[m]),
            "position fen Wc5c6d6 b 1 moves c5c6d6"
        );
    }

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(vec![]), None);
    }

    #[test]
    fn adjudication_counts_runs() {
        let c = cfg(
            "-each depth=1 -engine cmd=a -engine cmd=b -draw movenumber=2 movecount=2 score=5 \
                     -resign movecount=2 score=500",
        );
        let mut a = Adjudicator::default();
        // Too early for the draw rule.
        assert!(a
            .after_move(&c, Colour::White, Some(Score::Cp(0)), 1)
            .is_none());
        assert!(a
            .after_move(&c, Colour::Black, Some(Score::Cp(0)), 2)
            .is_none());
        assert!(a
            .after_move(&c, Colour::White, Some(Score::Cp(3)), 2)
            .is_none());
        assert!(a
            .after_move(&c, Colour::Black, Some(Score::Cp(-5)), 3)
            .is_none());
        assert!(matches!(
            a.after_move(&c, Colour::White, Some(Score::Cp(1)), 3),
            Some(Ending::AdjudicatedDraw)
        ));
        let mut a = Adjudicator::default();
        assert!(a
            .after_move(&c, Colour::Black, Some(Score::Cp(-600)), 1)
            .is_none());
        assert!(a
            .after_move(&c, Colour::White, Some(Score::Cp(600)), 1)
            .is_none());
        assert!(matches!(
            a.after_move(&c, Colour::Black, Some(Score::Mate(-3)), 2),
            Some(Ending::Resign(Colour::Black))
        ));
        // A missing score breaks the run.
        let mut a = Adjudicator::default();
        a.after_move(&c, Colour::Black, Some(Score::Cp(-600)), 1);
        a.after_move(&c, Colour::Black, None, 2);
        assert!(a
            .after_move(&c, Colour::Black, Some(Score::Cp(-600)), 3)
            .is_none());
    }

    /// Plays a fixed cycle of moves (by colour), answering each `go` after `think` of its clock.
    struct Scripted {
        moves: Vec<Move>,
        next: usize,
        think: Duration,
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            "scripted"
        }
        fn proto(&self) -> Proto {
            Proto::Uci
        }
        fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
            Ok(())
        }
        fn think(
            &mut self,
            _req: &ThinkRequest,
        ) -> Result<crate::referee::players::player::Reply, Fault> {
            let mv = self.moves[self.next % self.moves.len()];
            self.next += 1;
            let go_sent = Instant::now();
            Ok(crate::referee::players::player::Reply {
                bestmove: mv.to_string(),
                go_sent,
                // A fabricated arrival time: the clock is charged as if the engine took `think`.
                received: go_sent + self.think,
                info: Default::default(),
            })
        }
        fn reset(&mut self) {}
        fn pid(&self) -> Option<u32> {
            None
        }
    }

    /// The piece's shift and the shift back, for the side to move.
    fn shift_and_back(pos: &mut Position) -> (Move, Move) {
        for m in pos.legal_moves() {
            let Move::Shift { from, to } = m else {
                continue;
            };
            let old = pos
                .pieces()
                .filter(|(_, p)| p.placement.punct() == from)
                .max_by_key(|(_, p)| p.level)
                .map(|(_, p)| p.placement)
                .unwrap();
            pos.make(m);
            // The way back must still be legal after one shift of the opponent.
            let reply = pos
                .legal_moves()
                .into_iter()
                .find(|r| matches!(r, Move::Shift { .. }));
            if let Some(r) = reply {
                pos.make(r);
                let back = Move::Shift {
                    from: to.punct(),
                    to: old,
                };
                let ok = pos.check_move(back).is_ok();
                pos.unmake();
                if ok {
                    pos.unmake();
                    return (m, back);
                }
            }
            pos.unmake();
        }
        panic!("no reversible shift");
    }

    /// An opening where both sides can shift a piece away and back: a 4-move cycle.
    fn cycle(variant: crate::rules::position::Variant) -> (String, Vec<Move>, Vec<Move>) {
        let opening = crate::referee::openings::random_opening(variant, 8, 3);
        let mut pos = parse_position(&opening, variant).unwrap();
        let (w, w_back) = shift_and_back(&mut pos);
        pos.make(w);
        let (b, b_back) = shift_and_back(&mut pos);
        pos.unmake();
        (opening, vec![w, w_back], vec![b, b_back])
    }

    fn play_scripted(flags: &str, think: [Duration; 2]) -> GameRecord {
        let c = cfg(flags);
        let (opening, wm, bm) = cycle(c.variant);
        let spec = GameSpec {
            game: 1,
            round: 1,
            pair: 1,
            white: 0,
            black: 1,
            opening_index: 0,
            opening,
        };
        let mut w = Scripted {
            moves: wm,
            next: 0,
            think: think[0],
        };
        let mut b = Scripted {
            moves: bm,
            next: 0,
            think: think[1],
        };
        play_game(&spec, [&mut w, &mut b], [&c.engines[0], &c.engines[1]], &c).unwrap()
    }

    #[test]
    fn third_occurrence_is_a_draw_unless_turned_off() {
        let ms = Duration::from_millis(1);
        let g = play_scripted("-each depth=1 -engine cmd=a -engine cmd=b", [ms, ms]);
        assert_eq!(
            (g.reason.as_str(), g.result.as_str()),
            ("repetition", "1/2-1/2")
        );
        // The opening occurs again after 4 and 8 plies.
        assert_eq!(g.moves.len(), 8);
        let g = play_scripted(
            "-each depth=1 -engine cmd=a -engine cmd=b -norepetition -maxmoves 7",
            [ms, ms],
        );
        assert_eq!(g.reason, "max_moves");
        // 8 opening plies are not counted: 7 full moves are 14 plies of the game.
        assert_eq!(g.moves.len(), 14);
    }

    #[test]
    fn the_referee_clock_decides_time_losses() {
        // 1 s + 0.1 s per move; Black takes 400 ms a move: the third move overruns.
        let g = play_scripted(
            "-each tc=1+0.1 timemargin=0 -engine cmd=a -engine cmd=b -norepetition",
            [Duration::from_millis(1), Duration::from_millis(400)],
        );
        assert_eq!(
            (g.reason.as_str(), g.result.as_str()),
            ("time_forfeit", "1-0")
        );
        assert_eq!(g.fault_player, Some(1));
        // Black's clock: 1000 -> 700 -> 400 -> 100 left, then 400 > 100: lost at its 4th move.
        assert_eq!(g.moves.len(), 7);
        assert_eq!(g.moves[5].clock_ms, Some(100.0));
        // With a margin large enough Black's 4th move (400 ms on 100 ms left) is in time.
        let g = play_scripted(
            "-each tc=1+0.1 timemargin=350 -engine cmd=a -engine cmd=b -norepetition -maxmoves 4",
            [Duration::from_millis(1), Duration::from_millis(400)],
        );
        assert_eq!(g.reason, "max_moves");
    }
}
