//! The PUCT search tree: nodes and their edges in two arenas, selection by the PUCT rule with
//! virtual loss (several threads descend at once), backup of values, and proofs (a won or lost
//! position propagates up as in MCTS-Solver). It knows nothing of positions: the caller plays
//! the moves of a selected path and brings back the leaf's [`Expansion`].

use crate::rules::moves::Move;
use crate::rules::piece::Colour;

/// No child yet.
const NONE: u32 = u32::MAX;

/// A move out of a node, with its prior and the node it leads to once visited.
#[derive(Copy, Clone, Debug)]
pub(super) struct Edge {
    pub(super) mv: Move,
    pub(super) prior: f32,
    pub(super) child: u32,
}

/// What is known for certain about a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Proof {
    Open,
    /// The game's result with best play (`None`: a draw), `plies` moves from this position.
    Decided {
        winner: Option<Colour>,
        plies: u16,
    },
}

impl Proof {
    /// The proven value in White's terms (only for `Decided`).
    fn white_value(self) -> f64 {
        match self {
            Proof::Decided {
                winner: Some(Colour::White),
                ..
            } => 1.0,
            Proof::Decided {
                winner: Some(Colour::Black),
                ..
            } => -1.0,
            _ => 0.0,
        }
    }
}

#[derive(Clone, Debug)]
struct Node {
    /// The side to move (set when expanded).
    stm: Colour,
    first_edge: u32,
    edges: u32,
    visits: u32,
    /// Threads on their way through this node (each counts as a lost visit meanwhile).
    in_flight: u32,
    /// Sum of the values backed up through this node, in White's terms (+1 White wins).
    white_sum: f64,
    proof: Proof,
    state: State,
    /// Whether the edges hold every move that might avoid a loss (a loss over them is proven).
    complete: bool,
}

/// How far a node is known. A new position is first only evaluated; its moves are listed
/// (the dear part) when a descent comes back to it, so that leaves visited once cost no list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// A thread is evaluating it.
    Pending,
    /// Its value is known, its moves are not.
    Evaluated,
    /// A thread is listing its moves.
    Growing,
    Expanded,
}

/// What the caller learnt about a selected leaf's position.
#[derive(Clone, Debug)]
pub(super) struct Expansion {
    pub(super) stm: Colour,
    /// The moves with their priors (they need not sum to 1); `None`: not listed yet.
    pub(super) moves: Option<Vec<(Move, f32)>>,
    pub(super) complete: bool,
    pub(super) proof: Proof,
    /// The evaluation in White's terms, -1..1 (ignored when `proof` is decided).
    pub(super) white_value: f64,
}

/// Where a descent ended.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Leaf {
    /// A new node: play `moves` from the root, evaluate, then call [`Tree::expand`].
    New { path: Vec<u32>, moves: Vec<Move> },
    /// An evaluated node visited again: play `moves`, list its moves, call [`Tree::grow`]
    /// (no visit is counted: the next descent goes on from it).
    Grow { path: Vec<u32>, moves: Vec<Move> },
    /// A decided position: its value was backed up already.
    Known,
    /// Another thread is expanding this leaf: the descent was undone; try again.
    Busy,
}

/// Selection constants (see `Params::puct_*`).
#[derive(Copy, Clone, Debug)]
pub(super) struct Rule {
    pub(super) c: f64,
    pub(super) fpu: f64,
}

pub(super) struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// Sum over visits of their leaf's ply, and the deepest leaf.
    depth_sum: u64,
    pub(super) max_depth: u32,
}

impl Tree {
    /// A tree of one unexpanded root.
    pub(super) fn new() -> Tree {
        Tree {
            nodes: vec![Node::new()],
            edges: Vec::new(),
            depth_sum: 0,
            max_depth: 0,
        }
    }

    /// Bytes the arenas hold.
    pub(super) fn bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + self.edges.len() * std::mem::size_of::<Edge>()
    }

    pub(super) fn visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// The visits' mean leaf ply (what `info depth` reports).
    pub(super) fn mean_depth(&self) -> u32 {
        (self.depth_sum / u64::from(self.visits().max(1))) as u32
    }

    pub(super) fn root_proof(&self) -> Proof {
        self.nodes[0].proof
    }

    pub(super) fn root_stm(&self) -> Colour {
        self.nodes[0].stm
    }

    /// Expands the root (before any descent).
    pub(super) fn expand_root(&mut self, x: Expansion) {
        self.nodes[0].in_flight += 1;
        self.expand(&[0], x);
    }

    /// Descends from the root by the PUCT rule, counting a virtual loss on the way. A new leaf
    /// is left for the caller to expand; a decided one is backed up at once.
    pub(super) fn select(&mut self, rule: Rule) -> Leaf {
        let mut path = vec![0u32];
        let mut moves = Vec::new();
        let mut n = 0usize;
        loop {
            self.nodes[n].in_flight += 1;
            let node = &self.nodes[n];
            if let Proof::Decided { .. } = node.proof {
                let v = node.proof.white_value();
                self.backup(&path, v);
                return Leaf::Known;
            }
            match node.state {
                State::Expanded => {}
                State::Evaluated => {
                    self.nodes[n].state = State::Growing;
                    return Leaf::Grow { path, moves };
                }
                State::Pending | State::Growing => {
                    self.undo(&path);
                    return Leaf::Busy;
                }
            }
            let Some(e) = self.best_edge(n, rule) else {
                // No move (cannot happen in a game that is not over): a draw.
                self.backup(&path, 0.0);
                return Leaf::Known;
            };
            let edge = self.edges[e];
            moves.push(edge.mv);
            if edge.child == NONE {
                let child = self.nodes.len() as u32;
                let mut node = Node::new();
                node.in_flight = 1;
                node.state = State::Pending;
                self.nodes.push(node);
                self.edges[e].child = child;
                path.push(child);
                return Leaf::New { path, moves };
            }
            n = edge.child as usize;
            path.push(edge.child);
        }
    }

    /// The edge the PUCT rule picks at node `n` (expanded, not decided).
    fn best_edge(&self, n: usize, rule: Rule) -> Option<usize> {
        let node = &self.nodes[n];
        let s = node.stm;
        let sign = if s == Colour::White { 1.0 } else { -1.0 };
        let parent_n = f64::from(node.visits + node.in_flight);
        let parent_q = if node.visits > 0 {
            sign * node.white_sum / f64::from(node.visits)
        } else {
            0.0
        };
        let fpu = parent_q - rule.fpu;
        let explore = rule.c * parent_n.max(1.0).sqrt();
        let range = node.first_edge as usize..(node.first_edge + node.edges) as usize;
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for e in range {
            let edge = &self.edges[e];
            let (q, seen) = if edge.child == NONE {
                (fpu, 0.0)
            } else {
                let c = &self.nodes[edge.child as usize];
                let seen = f64::from(c.visits + c.in_flight);
                let q = match c.proof {
                    Proof::Decided {
                        winner: Some(w), ..
                    } if w == s => 1e9,
                    Proof::Decided {
                        winner: Some(_),
                        plies,
                    } => -1e9 + f64::from(plies),
                    Proof::Decided { winner: None, .. } => 0.0,
                    Proof::Open if seen > 0.0 => {
                        (sign * c.white_sum - f64::from(c.in_flight)) / seen
                    }
                    Proof::Open => fpu,
                };
                (q, seen)
            };
            let score = q + explore * f64::from(edge.prior) / (1.0 + seen);
            if score > best_score {
                best_score = score;
                best = Some(e);
            }
        }
        best
    }

    /// Takes back the virtual losses of an abandoned descent.
    fn undo(&mut self, path: &[u32]) {
        for &n in path {
            self.nodes[n as usize].in_flight -= 1;
        }
        // The leaf that was being created is still the other thread's.
    }

    /// Fills in the leaf of a `Leaf::New` path and backs up its value.
    pub(super) fn expand(&mut self, path: &[u32], x: Expansion) {
        let leaf = *path.last().expect("a path has a leaf") as usize;
        let node = &mut self.nodes[leaf];
        node.stm = x.stm;
        node.proof = x.proof;
        node.state = State::Evaluated;
        if let Some(moves) = x.moves {
            self.install(leaf, moves, x.complete);
        }
        let node = &self.nodes[leaf];
        let v = match node.proof {
            Proof::Open => x.white_value.clamp(-1.0, 1.0),
            p => p.white_value(),
        };
        self.backup(path, v);
    }

    /// Gives node `n` its moves (a node without any is a draw: it cannot happen in a game
    /// that is not over).
    fn install(&mut self, n: usize, moves: Vec<(Move, f32)>, complete: bool) {
        let first = self.edges.len() as u32;
        let total: f32 = (moves.iter().map(|m| m.1).sum::<f32>()).max(f32::MIN_POSITIVE);
        self.edges.extend(moves.iter().map(|&(mv, p)| Edge {
            mv,
            prior: p / total,
            child: NONE,
        }));
        let node = &mut self.nodes[n];
        node.first_edge = first;
        node.edges = moves.len() as u32;
        node.complete = complete;
        node.state = State::Expanded;
        if moves.is_empty() && node.proof == Proof::Open {
            node.proof = Proof::Decided {
                winner: None,
                plies: 0,
            };
        }
    }

    /// Fills in the moves of a `Leaf::Grow` path's node (or its proof, when listing them
    /// decided it) and ends the descent without a visit.
    pub(super) fn grow(&mut self, path: &[u32], x: Expansion) {
        let leaf = *path.last().expect("a path has a leaf") as usize;
        if x.proof != Proof::Open {
            self.nodes[leaf].proof = x.proof;
        }
        self.install(leaf, x.moves.unwrap_or_default(), x.complete);
        self.undo(path);
        if self.nodes[leaf].proof != Proof::Open {
            for &n in path.iter().rev().skip(1) {
                if !self.prove(n as usize) {
                    break;
                }
            }
        }
    }

    /// Adds one visit of value `v` (White's terms) along `path`, ends its virtual losses, and
    /// carries proofs upwards.
    fn backup(&mut self, path: &[u32], v: f64) {
        let ply = (path.len() - 1) as u32;
        self.depth_sum += u64::from(ply);
        self.max_depth = self.max_depth.max(ply);
        for &n in path {
            let node = &mut self.nodes[n as usize];
            node.in_flight -= 1;
            node.visits += 1;
            node.white_sum += v;
        }
        for &n in path.iter().rev().skip(1) {
            if !self.prove(n as usize) {
                break;
            }
        }
    }

    /// Decides node `n` from its children if they allow it; true when it was decided.
    fn prove(&mut self, n: usize) -> bool {
        let node = &self.nodes[n];
        if node.proof != Proof::Open || node.state != State::Expanded {
            return false;
        }
        let s = node.stm;
        let mut win: Option<u16> = None;
        let mut all_decided = node.complete;
        let mut draw: Option<u16> = None;
        let mut loss: u16 = 0;
        for e in &self.edges[node.first_edge as usize..(node.first_edge + node.edges) as usize] {
            let proof = match e.child {
                NONE => Proof::Open,
                c => self.nodes[c as usize].proof,
            };
            match proof {
                Proof::Decided {
                    winner: Some(w),
                    plies,
                } if w == s => {
                    win = Some(win.map_or(plies, |p| p.min(plies)));
                }
                Proof::Decided {
                    winner: Some(_),
                    plies,
                } => loss = loss.max(plies),
                Proof::Decided {
                    winner: None,
                    plies,
                } => {
                    draw = Some(draw.map_or(plies, |p| p.max(plies)));
                }
                Proof::Open => all_decided = false,
            }
        }
        let proof = match (win, all_decided, draw) {
            (Some(p), _, _) => Proof::Decided {
                winner: Some(s),
                plies: p + 1,
            },
            (None, true, Some(p)) => Proof::Decided {
                winner: None,
                plies: p + 1,
            },
            (None, true, None) => Proof::Decided {
                winner: Some(!s),
                plies: loss + 1,
            },
            _ => return false,
        };
        self.nodes[n].proof = proof;
        true
    }

    /// The root's moves, best first: a proven win (the fastest), then by visits, proven
    /// losses last (the slowest first); with each its visits, value for the side to move at
    /// the root (-1..1) and proof.
    pub(super) fn root_moves(&self) -> Vec<RootStat> {
        self.ranked(0)
    }

    fn ranked(&self, n: usize) -> Vec<RootStat> {
        let node = &self.nodes[n];
        let s = node.stm;
        let sign = if s == Colour::White { 1.0 } else { -1.0 };
        let mut v: Vec<RootStat> = self.edges
            [node.first_edge as usize..(node.first_edge + node.edges) as usize]
            .iter()
            .map(|e| {
                let (visits, q, proof) = match e.child {
                    NONE => (0, f64::NAN, Proof::Open),
                    c => {
                        let c = &self.nodes[c as usize];
                        let q = if c.visits > 0 {
                            sign * c.white_sum / f64::from(c.visits)
                        } else {
                            f64::NAN
                        };
                        (c.visits, q, c.proof)
                    }
                };
                let rank = match proof {
                    Proof::Decided {
                        winner: Some(w),
                        plies,
                    } if w == s => (2, -i64::from(plies), 0),
                    Proof::Decided {
                        winner: Some(_),
                        plies,
                    } => (0, i64::from(plies), 0),
                    _ => (1, i64::from(visits), e.prior.to_bits() as i64),
                };
                RootStat {
                    mv: e.mv,
                    visits,
                    prior: e.prior,
                    q,
                    proof,
                    rank,
                }
            })
            .collect();
        v.sort_by_key(|s| std::cmp::Reverse(s.rank));
        v
    }

    /// The principal variation from the root through `first` (or the best move): at each node
    /// the best child by the same ranking, while it has been visited.
    pub(super) fn pv(&self, first: Option<Move>) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut n = 0usize;
        loop {
            let node = &self.nodes[n];
            if node.state != State::Expanded || node.edges == 0 {
                break;
            }
            let range = node.first_edge as usize..(node.first_edge + node.edges) as usize;
            let pick = match (pv.is_empty(), first) {
                (true, Some(mv)) => self.edges[range].iter().find(|e| e.mv == mv).copied(),
                _ => {
                    let best = self.ranked(n).into_iter().next();
                    best.and_then(|b| self.edges[range].iter().find(|e| e.mv == b.mv).copied())
                }
            };
            let Some(edge) = pick else { break };
            if edge.child == NONE || self.nodes[edge.child as usize].visits == 0 {
                break;
            }
            pv.push(edge.mv);
            n = edge.child as usize;
        }
        pv
    }
}

impl Node {
    fn new() -> Node {
        Node {
            stm: Colour::White,
            first_edge: 0,
            edges: 0,
            visits: 0,
            in_flight: 0,
            white_sum: 0.0,
            proof: Proof::Open,
            state: State::Pending,
            complete: false,
        }
    }
}

/// One root move's statistics.
#[derive(Clone, Debug)]
pub(super) struct RootStat {
    pub(super) mv: Move,
    pub(super) visits: u32,
    pub(super) prior: f32,
    /// Mean value for the side to move at the root (NaN: not visited).
    pub(super) q: f64,
    pub(super) proof: Proof,
    rank: (u8, i64, i64),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::{Position, Variant};

    const RULE: Rule = Rule { c: 1.8, fpu: 0.3 };

    fn moves(n: usize) -> Vec<Move> {
        Position::new(Variant::Standard).legal_moves()[..n].to_vec()
    }

    fn open(stm: Colour, moves: &[Move], priors: &[f32], value: f64) -> Expansion {
        Expansion {
            stm,
            moves: Some(moves.iter().copied().zip(priors.iter().copied()).collect()),
            complete: true,
            proof: Proof::Open,
            white_value: value,
        }
    }

    fn rooted(priors: &[f32]) -> (Tree, Vec<Move>) {
        let m = moves(priors.len());
        let mut t = Tree::new();
        t.expand_root(open(Colour::White, &m, priors, 0.0));
        (t, m)
    }

    fn new_leaf(t: &mut Tree) -> (Vec<u32>, Vec<Move>) {
        match t.select(RULE) {
            Leaf::New { path, moves } => (path, moves),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_first_visits_follow_the_priors_and_values_steer_the_rest() {
        let (mut t, m) = rooted(&[0.1, 0.7, 0.2]);
        let (path, first) = new_leaf(&mut t);
        assert_eq!(first, vec![m[1]], "the highest prior first");
        // Black to move after it; White's value is good: the move keeps its lead.
        t.expand(&path, open(Colour::Black, &m, &[1.0, 1.0, 1.0], 0.9));
        for _ in 0..200 {
            let (path, line) = new_leaf(&mut t);
            let depth = path.len() - 1;
            // Everything through the highest prior is good for White, all else bad.
            let v = if line[0] == m[1] { 0.8 } else { -0.8 };
            let stm = if depth % 2 == 1 {
                Colour::Black
            } else {
                Colour::White
            };
            t.expand(&path, open(stm, &m, &[1.0, 1.0, 1.0], v));
        }
        let ranked = t.root_moves();
        assert_eq!(ranked[0].mv, m[1]);
        assert!(ranked[0].visits > 150, "{ranked:?}");
        assert_eq!(t.visits(), 202);
        assert!(ranked[0].q > 0.5 && ranked[1].q < -0.5, "{ranked:?}");
        assert_eq!(t.pv(None)[0], m[1]);
    }

    #[test]
    fn virtual_loss_sends_a_second_descent_elsewhere_and_a_busy_leaf_is_undone() {
        let (mut t, m) = rooted(&[0.5, 0.5]);
        let (p1, a) = new_leaf(&mut t);
        let (p2, b) = new_leaf(&mut t);
        assert_ne!(a, b, "the pending leaf repels the second descent");
        // The other move turned out lost for White: the pending one is the better again.
        t.expand(&p2, open(Colour::Black, &m, &[1.0, 1.0], -1.0));
        for _ in 0..5 {
            assert_eq!(t.select(Rule { c: 0.0, fpu: 0.0 }), Leaf::Busy);
            // Only the pending descent is still counted.
            assert_eq!(t.nodes[0].in_flight, 1);
            assert_eq!(t.visits(), 2);
        }
        t.expand(&p1, open(Colour::Black, &m, &[1.0, 1.0], 0.0));
        assert!(
            t.nodes.iter().all(|n| n.in_flight == 0),
            "every descent ended"
        );
    }

    #[test]
    fn a_win_below_proves_the_parent_and_losses_everywhere_prove_the_other_way() {
        // White to move at the root, two moves.
        let (mut t, m) = rooted(&[0.5, 0.5]);
        // Move A: Black to move and Black has a win in one: A loses for White.
        let (pa, a) = new_leaf(&mut t);
        let black_wins = Proof::Decided {
            winner: Some(Colour::Black),
            plies: 1,
        };
        t.expand(
            &pa,
            Expansion {
                proof: black_wins,
                ..open(Colour::Black, &[], &[], 0.0)
            },
        );
        assert_eq!(t.root_proof(), Proof::Open, "the other move may hold");
        let (pb, b) = new_leaf(&mut t);
        assert_ne!(a, b, "a proven loss is not chosen again");
        t.expand(
            &pb,
            Expansion {
                proof: black_wins,
                ..open(Colour::Black, &[], &[], 0.0)
            },
        );
        assert_eq!(
            t.root_proof(),
            Proof::Decided {
                winner: Some(Colour::Black),
                plies: 2
            }
        );
        assert_eq!(t.select(RULE), Leaf::Known);
        let _ = m;

        // One proven win is enough, whatever the other moves.
        let (mut t, m) = rooted(&[0.2, 0.3, 0.5]);
        let (path, line) = new_leaf(&mut t);
        assert_eq!(line, vec![m[2]]);
        t.expand(&path, open(Colour::Black, &m, &[1.0], -0.9));
        let (path, line) = new_leaf(&mut t);
        assert_eq!(line, vec![m[1]]);
        let white_wins = Proof::Decided {
            winner: Some(Colour::White),
            plies: 1,
        };
        t.expand(
            &path,
            Expansion {
                proof: white_wins,
                ..open(Colour::Black, &[], &[], 0.0)
            },
        );
        assert_eq!(
            t.root_proof(),
            Proof::Decided {
                winner: Some(Colour::White),
                plies: 2
            }
        );
        assert_eq!(t.root_moves()[0].mv, m[1], "the proven win first");
        assert_eq!(t.pv(None), vec![m[1]]);
    }

    #[test]
    fn a_leaf_lists_its_moves_only_when_a_descent_comes_back() {
        let (mut t, m) = rooted(&[1.0]);
        let (path, _) = new_leaf(&mut t);
        // Evaluated only: no moves yet.
        t.expand(
            &path,
            Expansion {
                moves: None,
                ..open(Colour::Black, &[], &[], 0.3)
            },
        );
        assert_eq!(t.visits(), 2);
        let Leaf::Grow { path, moves } = t.select(RULE) else {
            panic!("the evaluated leaf grows")
        };
        assert_eq!(moves, vec![m[0]]);
        // Meanwhile another descent finds it busy, and counts nothing.
        assert_eq!(t.select(RULE), Leaf::Busy);
        t.grow(
            &path,
            Expansion {
                moves: Some(vec![(m[0], 1.0)]),
                ..open(Colour::Black, &[], &[], 0.0)
            },
        );
        assert_eq!(t.visits(), 2, "growing is not a visit");
        assert!(t.nodes.iter().all(|n| n.in_flight == 0));
        let (path, moves) = new_leaf(&mut t);
        assert_eq!((path.len(), moves), (3, vec![m[0], m[0]]));
        // Listing the moves may decide the position: the proof goes up.
        let (mut t, _) = rooted(&[1.0]);
        let (path, _) = new_leaf(&mut t);
        let evaluated = Expansion {
            moves: None,
            ..open(Colour::Black, &[], &[], 0.0)
        };
        t.expand(&path, evaluated.clone());
        let Leaf::Grow { path, .. } = t.select(RULE) else {
            panic!("grows")
        };
        let lost = Proof::Decided {
            winner: Some(Colour::White),
            plies: 2,
        };
        t.grow(
            &path,
            Expansion {
                moves: Some(Vec::new()),
                proof: lost,
                ..evaluated
            },
        );
        assert_eq!(
            t.root_proof(),
            Proof::Decided {
                winner: Some(Colour::White),
                plies: 3
            }
        );
    }

    #[test]
    fn an_incomplete_list_of_losses_is_not_a_proof() {
        let m = moves(2);
        let mut t = Tree::new();
        let mut x = open(Colour::White, &m, &[0.5, 0.5], 0.0);
        x.complete = false;
        t.expand_root(x);
        for _ in 0..2 {
            let (path, _) = new_leaf(&mut t);
            let lost = Proof::Decided {
                winner: Some(Colour::Black),
                plies: 1,
            };
            t.expand(
                &path,
                Expansion {
                    proof: lost,
                    ..open(Colour::Black, &[], &[], 0.0)
                },
            );
        }
        assert_eq!(t.root_proof(), Proof::Open);
        assert!(t.root_moves()[0].q < -0.99);
    }
}
