//! The root: iterative deepening, aspiration windows, the root move list (wins, stoppers, the
//! centre race's solved endings, threats searched past the width) and what is reported.

use std::sync::atomic::Ordering;

use crate::engine::search::busy::BusyTable;
use crate::engine::search::race;
use crate::engine::search::searcher::{shuffle_root, skips_depth};
use crate::engine::search::threats::{root_tactics, RootTactics};
use crate::engine::search::tt::{MATE, MATE_BOUND};
use crate::engine::search::worker::{
    root_move_list, terminal_score, uci_score, Line, Worker, INFINITY, MAX_DEPTH, MAX_PLY,
};
use crate::engine::types::{Bound, Limits, RootLine, SearchInfo, SearchResult};
use std::time::Duration;

use crate::rules::moves::Move;
use crate::rules::position::Position;

/// Pieces in hand (each player at most) from which the root solves the centre race's last plies.
const RACE_HAND: u8 = 2;
/// The solver's budget in moves played: about a tenth of the soft time limit (it plays some
/// 2,000 moves per ms), at least a few ms, and without a clock twice the node limit.
const RACE_MOVES_PER_MS: u64 = 200;
const RACE_MIN_BUDGET: u64 = 5_000;
const RACE_MAX_BUDGET: u64 = 2_000_000;
/// Root improvements are reported only after this much time (no flood of info lines).
const IMPROVEMENT_REPORT_AFTER: Duration = Duration::from_millis(100);

#[derive(Clone)]
struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    /// Depth of the last iteration that searched this move (0: only ordered).
    pub(super) depth: u32,
    /// Whether `score` is exact (else an upper bound).
    pub(super) exact: bool,
    /// It threatens to win next move: searched at every depth, past the root width too.
    pub(super) threat: bool,
    pub(super) pv: Vec<Move>,
}

impl Worker<'_> {
    pub(super) fn run(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut moves = root_move_list(pos, limits);
        if moves.is_empty() {
            let score = pos
                .outcome()
                .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0));
            return SearchResult {
                best: None,
                ponder: None,
                score: uci_score(score),
                depth: 0,
                nodes: 0,
                time: self.clock.elapsed(),
                visits: Vec::new(),
                lines: Vec::new(),
            };
        }
        // The rules first: a win in one is searched first at every depth; against a winning
        // threat only the moves that stop it are searched (the others lose at once).
        let tactics = root_tactics(pos, &moves);
        if let RootTactics::Stoppers(stoppers) = &tactics {
            if !stoppers.is_empty() {
                moves = stoppers.clone();
            }
        }
        // The centre race's last plies are solved exactly: a win in three is the only move
        // searched (deep enough to show the mate).
        let mut proven_depth = 0;
        if tactics == RootTactics::Open && race::in_race(pos, RACE_HAND) {
            let budget = match self.clock.limits {
                Some(l) => (l.soft.as_millis() as u64 * RACE_MOVES_PER_MS).max(RACE_MIN_BUDGET),
                None => self.node_limit.saturating_mul(2).min(RACE_MAX_BUDGET),
            };
            let (ctl, halt) = (self.ctl, self.halt);
            let clock = &mut self.clock;
            let mut stop =
                || ctl.stopped() || halt.load(Ordering::Relaxed) || clock.hard_expired(ctl);
            if let Ok((Some(mv), _)) = race::win_in_three_within(pos, &moves, budget, &mut stop) {
                moves = vec![mv];
                proven_depth = 3;
            }
        }
        let mut ordered = self
            .picker
            .order_root(pos, &moves, self.params, self.history);
        if let RootTactics::Win(win) = tactics {
            ordered.retain(|&m| m != win);
            ordered.insert(0, win);
        }
        if let Some(seed) = self.shuffle_seed {
            shuffle_root(&mut ordered, seed, self.index);
            if let RootTactics::Win(win) = tactics {
                ordered.retain(|&m| m != win);
                ordered.insert(0, win);
            }
        }
        // With a clock, the root's threatening moves (dear: each move is played) are found
        // only once the first iteration has an answer, which never waits for them.
        let timed = self.clock.limits.is_some();
        let want_threats = tactics == RootTactics::Open && self.params.threat_moves_ply > 0;
        let threats = if want_threats && !timed {
            self.threat_moves(pos, pos.hash()).unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut root: Vec<RootMove> = ordered
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                depth: 0,
                exact: false,
                threat: threats.contains(&mv),
                pv: vec![mv],
            })
            .collect();
        let multipv = limits.multipv.clamp(1, root.len());
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut completed = 0;
        let mut best_score = -INFINITY;
        // The answer so far: score and PV of the last completed iteration's best move.
        let mut answer: Option<(i32, Vec<Move>)> = None;
        // The last completed iteration's `multipv` best lines (a strength level picks among
        // them: `skill`).
        let mut lines: Vec<RootLine> = Vec::new();
        for depth in 1..=max_depth {
            if skips_depth(self.index, depth, pos.ply()) {
                continue;
            }
            self.partial = None;
            // The first iteration always completes: the clock cannot abort it, it only
            // narrows it (see `root_search`).
            self.clock_armed = completed > 0;
            if want_threats && timed && completed > 0 && root.iter().all(|rm| !rm.threat) {
                match self.threat_moves(pos, pos.hash()) {
                    Some(threats) => root
                        .iter_mut()
                        .for_each(|rm| rm.threat = threats.contains(&rm.mv)),
                    None => break,
                }
            }
            // Leaves lie at ply `depth`; extensions up to `ThreatExtension` plies past it.
            self.extension_limit = match self.params.threat_extension as usize {
                0 => 0,
                k => (depth as usize + k - 1).min(MAX_PLY),
            };
            let score = if multipv == 1 && depth > 1 && best_score.abs() < MATE_BOUND {
                self.aspiration(pos, &mut root, depth, best_score, report)
            } else {
                self.root_search(pos, &mut root, depth, -INFINITY, INFINITY, multipv, report)
            };
            // Searched moves first, best first; a stable sort keeps the earlier order on ties.
            root.sort_by(|a, b| b.depth.cmp(&a.depth).then(b.score.cmp(&a.score)));
            if self.aborted {
                // A move that raised alpha in the interrupted iteration beat the rest so far
                // (with MultiPV the completed lines stand).
                // It is reported, so that the last line and the answer agree.
                if multipv == 1 {
                    if let Some((score, pv, bound)) = self.partial.take() {
                        report(&self.info(completed, 1, score, bound, &pv));
                        answer = Some((score, pv));
                    }
                }
                break;
            }
            completed = depth;
            best_score = score;
            answer = Some((root[0].score, root[0].pv.clone()));
            // Cleared before the completed line goes out: never older than the last line.
            if self.index == 0 {
                self.ctl.set_partial(None);
            }
            lines.clear();
            for (i, rm) in root.iter().take(multipv).enumerate() {
                let info = self.info(depth, i + 1, rm.score, Bound::Exact, &rm.pv);
                report(&info);
                lines.push(RootLine {
                    score: info.score,
                    pv: info.pv,
                });
            }
            let mate_found =
                best_score.abs() >= MATE_BOUND && (MATE - best_score.abs()) as u32 <= depth;
            let timed = !limits.infinite && !self.clock.pondering;
            if timed && (mate_found || (root.len() == 1 && depth >= proven_depth)) {
                break;
            }
            if self.clock.soft_expired(self.ctl) {
                break;
            }
        }
        self.thread_nodes[self.index].store(self.nodes, Ordering::Relaxed);
        // A helper that completed the depth asked for ends the search: its line is the answer
        // (see `Searcher::search`).
        if self.index > 0 && limits.depth.is_some() && completed == max_depth {
            self.halt.store(true, Ordering::Relaxed);
        }
        if let (Some((score, pv)), true) = (&answer, completed > 0) {
            self.line = Some(Line {
                depth: completed,
                seldepth: self.seldepth as u32,
                score: *score,
                pv: pv.clone(),
            });
        }
        // Stopped before any move was scored: the static order's first, score unknown.
        let (score, pv) = answer.unwrap_or_else(|| (0, vec![root[0].mv]));
        SearchResult {
            best: Some(pv[0]),
            ponder: pv.get(1).copied(),
            score: uci_score(score.clamp(-MATE, MATE)),
            depth: completed,
            nodes: self.nodes,
            time: self.clock.elapsed(),
            visits: Vec::new(),
            lines,
        }
    }

    fn info(
        &self,
        depth: u32,
        multipv: usize,
        score: i32,
        bound: Bound,
        pv: &[Move],
    ) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: (self.seldepth as u32).max(depth),
            multipv,
            score: uci_score(score.clamp(-MATE, MATE)),
            bound,
            nodes: self.total_nodes(),
            time: self.clock.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    fn aspiration(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        depth: u32,
        previous: i32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let mut delta = self.params.aspiration;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.root_search(pos, root, depth, alpha, beta, 1, report);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta = delta.saturating_mul(4);
            if delta > 4 * MATE {
                alpha = -INFINITY;
                beta = INFINITY;
            }
            root.sort_by(|a, b| b.depth.cmp(&a.depth).then(b.score.cmp(&a.score)));
        }
    }

    /// One iteration over the root moves; returns the best score (a bound on fail low/high).
    #[allow(clippy::too_many_arguments)]
    fn root_search(
        &mut self,
        pos: &mut Position,
        root: &mut [RootMove],
        depth: u32,
        alpha_in: i32,
        beta: i32,
        multipv: usize,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> i32 {
        let width = if depth == 1 {
            (self.params.root_width_first as usize)
                .max(multipv)
                .min(root.len())
        } else {
            (self.params.root_width as usize)
                .max(multipv)
                .min(root.len())
        };
        let min_first = (self.params.root_width as usize).max(multipv);
        let mut alpha = alpha_in;
        let mut best = -INFINITY;
        let mut exact_scores: Vec<i32> = Vec::new();
        // With several threads a root move (after the first) that another thread is on comes
        // last, as in the tree (see `busy`): `order` grows by the moves deferred.
        let busy = self.busy.filter(|_| multipv == 1);
        let root_key = pos.hash();
        let mut order: Vec<usize> = (0..root.len()).collect();
        let mut k = 0;
        while k < order.len() {
            let (i, first_pass) = (order[k], k < root.len());
            k += 1;
            // Past the width only threats to win, or every move while every searched move
            // loses: a lost root is proven over all moves, or an escape is found.
            if self.poll() {
                break;
            }
            // A first iteration short of time ends early, complete over the moves searched.
            if !self.clock_armed && i >= min_first && self.clock.hard_expired(self.ctl) {
                log::debug!("first iteration cut to {i} moves by the clock");
                break;
            }
            if i >= width && best > -MATE_BOUND && !root[i].threat {
                continue;
            }
            // With MultiPV, a move must beat the K-th best line so far to be searched exactly.
            let floor = if multipv > 1 {
                if exact_scores.len() >= multipv {
                    let mut s = exact_scores.clone();
                    s.sort_unstable_by(|a, b| b.cmp(a));
                    s[multipv - 1]
                } else {
                    -INFINITY
                }
            } else {
                alpha
            };
            let mv = root[i].mv;
            let move_key = BusyTable::key(root_key, mv);
            if let Some(busy) = busy {
                if first_pass && i > 0 && busy.is_busy(move_key) {
                    order.push(i);
                    continue;
                }
                busy.start(move_key);
            }
            pos.make(mv);
            let d = depth as i32 - 1;
            let mut score = if i == 0 || floor == -INFINITY {
                -self.negamax(pos, d, 1, -beta, -floor)
            } else {
                let s = -self.negamax(pos, d, 1, -floor - 1, -floor);
                if s > floor && s < beta && !self.aborted {
                    -self.negamax(pos, d, 1, -beta, -floor)
                } else {
                    s
                }
            };
            pos.unmake();
            if let Some(busy) = busy {
                busy.finish(move_key);
            }
            // An interrupted search of a move says nothing about it.
            if self.aborted {
                break;
            }
            let rm = &mut root[i];
            score = score.clamp(-MATE, MATE);
            rm.depth = depth;
            rm.score = score;
            rm.exact = score > floor && score < beta;
            if score > floor || i == 0 {
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            }
            if rm.exact {
                exact_scores.push(score);
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                let bound = if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.partial = Some((score, rm.pv.clone(), bound));
                // Shared at once (a late search thread's answer, `SearchControl::partial`),
                // at the last completed depth, as an interrupted iteration reports it.
                if self.index == 0 && multipv == 1 && depth > 1 {
                    let line = self.info(depth - 1, 1, score, bound, &rm.pv);
                    self.ctl.set_partial(Some(line));
                }
                if i > 0 && depth > 1 && self.clock.elapsed() >= IMPROVEMENT_REPORT_AFTER {
                    report(&self.info(depth, 1, score, bound, &rm.pv));
                }
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}
