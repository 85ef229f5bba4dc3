//! `SearchMode puct`: a policy-guided tree search beside the alpha-beta one, as the strongest
//! Hex, Havannah and Twixt programs search (PUCT, no playouts). The prior of a move is the
//! learned ordering's softmax (`order_model`), the value of a position its evaluation mapped to
//! -1..1 by `tanh(cp / PuctScale)`.
//!
//! The rules stay exact as in alpha-beta: a win in one at the root is played, against a winning
//! threat the root keeps only the moves that stop it; in the tree, a position whose side to
//! move can win at once is decided, one facing a threat expands every possible stopper, and
//! decided positions carry up the tree (MCTS-Solver, [`tree`]). Threads share one tree under a
//! mutex with virtual loss; each expands and evaluates its leaf outside the lock.

mod tree;

use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::search::order_model;
use crate::engine::search::threats::{find_win_cached, root_tactics, RootTactics};
use crate::engine::search::tt::MATE;
use crate::engine::search::worker::{
    root_move_list, terminal_score, uci_score, Shared, ThreadTables, Worker,
};
use crate::engine::types::{lock, Bound, Limits, MoveVisits, SearchInfo, SearchResult};
use crate::rules::moves::Move;
use crate::rules::piece::Colour;
use crate::rules::position::Position;
use tree::{Expansion, Leaf, Proof, RootStat, Rule, Tree};

/// The tree may grow to `Hash` megabytes, and to this many at least (a node with its edges
/// takes some 300 bytes: 256 MB hold about a million visits).
const MIN_TREE_MB: usize = 256;
/// Periodic `info` lines between depth changes.
const REPORT_EVERY: Duration = Duration::from_secs(1);
/// Root moves listed in the `info string visits` line.
const VISITS_LISTED: usize = 8;
/// `go depth d` ends when the visits' mean ply reaches `d`, or after this many visits times
/// `8^d` (the mean stays low for ever when the best moves end the game at once).
const DEPTH_VISITS: u64 = 64;
/// Visits between the main thread's looks at the tree's state.
const CHECK_EVERY: u64 = 8;

/// Searches `pos` by PUCT with the threads of `tables` (the main thread's first).
pub(in crate::engine::search) fn search(
    shared: Shared<'_>,
    tables: &mut [&mut ThreadTables],
    pos: &Position,
    limits: &Limits,
    hash_mb: usize,
    report: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let (main_tables, helper_tables) = tables.split_first_mut().expect("a main thread");
    let mut main = Worker::new(shared, main_tables, 0, limits);
    let mut pos = pos.clone();
    let tree = Mutex::new(Tree::new());
    let root = match main.puct_root(&mut pos, limits, &mut lock(&tree), report) {
        Ok(moves) => moves,
        Err(result) => return result,
    };
    let cap = hash_mb.max(MIN_TREE_MB) << 20;
    let helper_limits = Limits {
        infinite: true,
        nodes: limits.nodes,
        ..Limits::default()
    };
    std::thread::scope(|scope| {
        for (i, tables) in helper_tables.iter_mut().enumerate() {
            let (tree, helper_limits, mut pos) = (&tree, &helper_limits, pos.clone());
            scope.spawn(move || {
                let mut worker = Worker::new(shared, tables, i + 1, helper_limits);
                while !worker.poll() {
                    let busy = {
                        let t = lock(tree);
                        t.root_proof() != Proof::Open || t.bytes() >= cap
                    };
                    if busy {
                        std::thread::sleep(Duration::from_millis(1));
                    } else {
                        worker.visit(tree, &mut pos);
                    }
                }
            });
        }
        main.puct_main(&tree, &mut pos, limits, root, cap, report);
        shared.halt.store(true, Ordering::Relaxed);
    });
    let result = main.puct_result(&lock(&tree));
    result
}

/// `f` of the position after `moves` from `pos` (which is given back unchanged).
fn at<T>(pos: &mut Position, moves: &[Move], f: impl FnOnce(&Position) -> T) -> T {
    for &mv in moves {
        pos.make(mv);
    }
    let x = f(pos);
    for _ in moves {
        pos.unmake();
    }
    x
}

impl Worker<'_> {
    fn rule(&self) -> Rule {
        Rule {
            c: f64::from(self.params.puct_c) / 100.0,
            fpu: f64::from(self.params.puct_fpu) / 100.0,
        }
    }

    /// Expands the root; `Err` with the answer when there is nothing to search (no move, a win
    /// in one).
    fn puct_root(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        tree: &mut Tree,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Result<usize, SearchResult> {
        let moves = root_move_list(pos, limits);
        if moves.is_empty() {
            let score = pos
                .outcome()
                .map_or(0, |o| terminal_score(o, pos.side_to_move(), 0));
            return Err(self.immediate(None, score, 0, report));
        }
        let tactics = root_tactics(pos, &moves);
        let (list, complete) = match tactics {
            RootTactics::Win(mv) => return Err(self.immediate(Some(mv), MATE - 1, 1, report)),
            RootTactics::Stoppers(stoppers) if !stoppers.is_empty() => (stoppers, true),
            _ => {
                let mut ordered = (self.picker).order_root(pos, &moves, self.params, self.history);
                if tactics == RootTactics::Stoppers(Vec::new()) {
                    // Every move loses to the opponent's next move.
                    return Err(self.immediate(Some(ordered[0]), -(MATE - 2), 1, report));
                }
                let all = ordered.len();
                ordered.truncate(self.params.puct_root_width as usize);
                let complete = ordered.len() == all;
                (ordered, complete)
            }
        };
        let n = list.len();
        let x = self.expansion(pos, list, complete);
        tree.expand_root(x);
        self.nodes += 1;
        Ok(n)
    }

    /// The answer when the rules leave nothing to search, reported as one line.
    fn immediate(
        &self,
        best: Option<Move>,
        score: i32,
        depth: u32,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if let Some(mv) = best {
            report(&self.puct_info(depth, depth, 1, score, vec![mv]));
        }
        SearchResult {
            best,
            ponder: None,
            score: uci_score(score),
            depth,
            nodes: self.nodes,
            time: self.clock.elapsed(),
            visits: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// `moves` with their priors: the learned ordering's softmax at temperature `PuctTemp`.
    fn priors(&self, pos: &Position, moves: Vec<Move>) -> Vec<(Move, f32)> {
        let mut logits = Vec::new();
        order_model::score_moves(pos, &moves, self.params, &mut logits);
        let temp = f64::from(self.params.puct_temp);
        let top = logits.iter().copied().max().unwrap_or(0);
        (moves.into_iter().zip(logits))
            .map(|(mv, l)| (mv, (f64::from(l - top) / temp).exp() as f32))
            .collect()
    }

    /// The evaluation of `pos` as a value in White's terms, -1..1.
    fn value(&mut self, pos: &Position) -> f64 {
        let v = (f64::from(self.evaluation(pos)) / f64::from(self.params.puct_scale)).tanh();
        if pos.side_to_move() == Colour::White {
            v
        } else {
            -v
        }
    }

    /// The root's expansion: `moves` with priors, and the value.
    fn expansion(&mut self, pos: &Position, moves: Vec<Move>, complete: bool) -> Expansion {
        Expansion {
            stm: pos.side_to_move(),
            moves: Some(self.priors(pos, moves)),
            complete,
            proof: Proof::Open,
            white_value: self.value(pos),
        }
    }

    /// A new leaf: decided by the rules (over, or a win in one), else its value; its moves
    /// wait for a second visit ([`Self::moves_of`]).
    fn leaf(&mut self, pos: &Position) -> Expansion {
        let stm = pos.side_to_move();
        let decided = |winner, plies| Expansion {
            stm,
            moves: Some(Vec::new()),
            complete: true,
            proof: Proof::Decided { winner, plies },
            white_value: 0.0,
        };
        if let Some(o) = pos.outcome() {
            return decided(o.winner, 0);
        }
        if find_win_cached(pos, &mut self.touches).is_some() {
            return decided(Some(stm), 1);
        }
        let value = self.value(pos);
        Expansion {
            stm,
            moves: None,
            complete: false,
            proof: Proof::Open,
            white_value: value,
        }
    }

    /// The moves of an evaluated leaf: the ordering's best `PuctWidth` and every possible
    /// stopper of a winning threat (a position with none is lost).
    fn moves_of(&mut self, pos: &Position) -> Expansion {
        let stm = pos.side_to_move();
        let width = self.params.puct_width as usize;
        (self.picker).pick(
            pos,
            0,
            width,
            self.params.block_cap as usize,
            None,
            [None; 2],
            self.params,
            self.history,
            &mut self.touches,
            true,
        );
        let mut moves: Vec<Move> = (0..self.picker.len(0))
            .map(|i| self.picker.get(0, i).0)
            .collect();
        moves.extend_from_slice(self.picker.overflow(0));
        let complete = self.picker.is_complete(0);
        let proof = if moves.is_empty() {
            // Every move loses to the opponent's threat.
            Proof::Decided {
                winner: Some(!stm),
                plies: 2,
            }
        } else {
            Proof::Open
        };
        Expansion {
            stm,
            moves: Some(self.priors(pos, moves)),
            complete,
            proof,
            white_value: 0.0,
        }
    }

    /// One descent: select, expand and evaluate outside the lock, back up.
    fn visit(&mut self, tree: &Mutex<Tree>, pos: &mut Position) {
        let rule = self.rule();
        let leaf = lock(tree).select(rule);
        match leaf {
            Leaf::New { path, moves } => {
                let x = at(pos, &moves, |pos| self.leaf(pos));
                lock(tree).expand(&path, x);
                self.seldepth = self.seldepth.max(moves.len());
                self.nodes += 1;
            }
            Leaf::Grow { path, moves } => {
                let x = at(pos, &moves, |pos| self.moves_of(pos));
                lock(tree).grow(&path, x);
            }
            Leaf::Known => self.nodes += 1,
            Leaf::Busy => std::thread::yield_now(),
        }
    }

    /// The main thread: visits until a limit, reporting on the way.
    fn puct_main(
        &mut self,
        tree: &Mutex<Tree>,
        pos: &mut Position,
        limits: &Limits,
        root_moves: usize,
        cap: usize,
        report: &mut dyn FnMut(&SearchInfo),
    ) {
        let depth_limit = limits.depth;
        let mut reported_depth = 0;
        let mut last_report = Instant::now();
        let mut since_check = 0;
        loop {
            if self.poll() {
                break;
            }
            since_check += 1;
            if since_check >= CHECK_EVERY {
                since_check = 0;
                let soft = self.clock.anytime_expired(self.ctl);
                let timed = !limits.infinite && !self.clock.pondering;
                let t = lock(tree);
                let depth = t.mean_depth().max(1);
                let decided = t.root_proof() != Proof::Open;
                let full = t.bytes() >= cap;
                let done = soft
                    || decided
                    || full
                    || (root_moves == 1 && timed)
                    || depth_limit.is_some_and(|d| {
                        depth >= d || u64::from(t.visits()) >= DEPTH_VISITS << (3 * d.min(15))
                    });
                let print = depth > reported_depth || last_report.elapsed() >= REPORT_EVERY;
                if print || (done && timed) {
                    reported_depth = reported_depth.max(depth);
                    last_report = Instant::now();
                    self.puct_report(&t, reported_depth, limits, cap, report);
                }
                drop(t);
                if done {
                    if timed || depth_limit.is_some() {
                        break;
                    }
                    // `go infinite` or pondering: hold on until `stop` (or `ponderhit`).
                    std::thread::sleep(Duration::from_millis(1));
                    continue;
                }
            }
            self.visit(tree, pos);
        }
        self.thread_nodes[self.index].store(self.nodes, Ordering::Relaxed);
        let t = lock(tree);
        // The reported depth never falls back (the mean may, as shallow lines get visits).
        let depth = reported_depth.max(t.mean_depth().max(1));
        self.puct_report(&t, depth, limits, cap, report);
    }

    /// The internal score of a root move for the side to move at the root.
    fn root_score(&self, stat: &RootStat, stm: Colour) -> i32 {
        match stat.proof {
            Proof::Decided { winner: None, .. } => 0,
            Proof::Decided {
                winner: Some(w),
                plies,
            } => {
                let s = MATE - i32::from(plies) - 1;
                if w == stm {
                    s
                } else {
                    -s
                }
            }
            Proof::Open if stat.q.is_nan() => 0,
            Proof::Open => {
                let q = stat.q.clamp(-0.999, 0.999);
                (q.atanh() * f64::from(self.params.puct_scale)).round() as i32
            }
        }
    }

    fn puct_info(
        &self,
        depth: u32,
        seldepth: u32,
        multipv: usize,
        score: i32,
        pv: Vec<Move>,
    ) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: seldepth.max(depth),
            multipv,
            score: uci_score(score.clamp(-MATE, MATE)),
            bound: Bound::Exact,
            nodes: self.total_nodes(),
            time: self.clock.elapsed(),
            hashfull: 0,
            pv,
        }
    }

    fn puct_report(
        &self,
        tree: &Tree,
        depth: u32,
        limits: &Limits,
        cap: usize,
        report: &mut dyn FnMut(&SearchInfo),
    ) {
        let stm = tree.root_stm();
        let ranked = tree.root_moves();
        let lines = limits.multipv.clamp(1, ranked.len().max(1));
        for (i, stat) in ranked.iter().take(lines).enumerate() {
            let mut info = self.puct_info(
                depth,
                tree.max_depth,
                i + 1,
                self.root_score(stat, stm),
                tree.pv(Some(stat.mv)),
            );
            if info.pv.is_empty() {
                info.pv.push(stat.mv);
            }
            info.hashfull = (tree.bytes() * 1000 / cap).min(1000) as u32;
            report(&info);
        }
    }

    fn puct_result(&self, tree: &Tree) -> SearchResult {
        let stm = tree.root_stm();
        let ranked = tree.root_moves();
        let best = ranked.first();
        let pv = best.map(|b| tree.pv(Some(b.mv))).unwrap_or_default();
        SearchResult {
            best: best.map(|b| b.mv),
            ponder: pv.get(1).copied(),
            score: uci_score(
                best.map_or(0, |b| self.root_score(b, stm))
                    .clamp(-MATE, MATE),
            ),
            depth: tree.mean_depth().max(1),
            nodes: self.total_nodes(),
            time: self.clock.elapsed(),
            visits: (ranked.iter().take(VISITS_LISTED))
                .map(|s| MoveVisits {
                    mv: s.mv,
                    visits: s.visits,
                    prior: s.prior,
                    q: s.q,
                })
                .collect(),
            lines: Vec::new(),
        }
    }
}
