//! A learned move-ordering model: each move is described by a few categorical features (its
//! shape, drop or shift, how many of its dots fall on each player's near-shortest paths and
//! how short those are, contact with own and opposing dots, distance to the last two moves,
//! the centre, landing height and bridges, dots covered and uncovered, threats stopped, hand
//! size, distance from the middle) and scored by the sum of one weight per feature value: a
//! conditional-logit (Bradley-Terry) model over the legal moves of a position, fitted by
//! `punct-tune order-fit` (`tune::order_fit`) to predict a deeper search's best move.
//!
//! The weights are a small versioned text file (`order_model.txt`, embedded; the first line
//! `punct-order-model VERSION GROUPS`, then one weight per line in centinats). The picker adds
//! `OrderModel * logit / 100` to its sort keys when the option is on (see `movepick`).

use std::sync::{LazyLock, OnceLock};

use crate::engine::search::evaluate::centre_phase;
use crate::engine::search::params::Params;
use crate::engine::search::paths::near_paths;
use crate::engine::search::threats::threat;
use crate::rules::cellset::CellSet;
use crate::rules::geometry::{board_cells, central_cells, Cell, GRID_LEN};
use crate::rules::moves::Move;
use crate::rules::piece::{Colour, Kind, Placement};
use crate::rules::position::{Position, Variant};

/// The feature file's version: it changes whenever the features change.
pub const MODEL_VERSION: u32 = 1;

/// The feature groups: every move takes exactly one value of each (one-hot).
pub const GROUP_SIZES: [usize; GROUPS] = [
    72, // shape: (kind * 6 + orientation) * 2 + shift
    20, // dots on own near paths (0..3) x own distance bucket (5)
    20, // dots on the opponent's near paths (0..3) x its distance bucket (5)
    16, // dots next to own top dots (0..3) x next to the opponent's (0..3)
    7,  // distance to the opponent's last move: 0..4, farther, none
    7,  // distance to the own move before: 0..4, farther, none
    12, // central dots (0..3) x centre phase bucket (3)
    8,  // landing level (0..3) x bridge
    16, // opponent's top dots covered (0..3) x own dots covered (0..3)
    6,  // a drop, or a shift lifting 0..3 own near-path dots, or a shift uncovering a foe
    5,  // threat: none; a non-decisive one touched / not; a decisive one touched / not
    8,  // own pieces in hand bucket (4) x shift
    6,  // distance of the PÜNCT from the middle: 0-1, 2-3, 4-5, 6-7, 8+, basic game
];
pub const GROUPS: usize = 13;

/// Group offsets into the weight vector.
pub const fn offsets() -> [usize; GROUPS + 1] {
    let mut out = [0; GROUPS + 1];
    let mut i = 0;
    while i < GROUPS {
        out[i + 1] = out[i] + GROUP_SIZES[i];
        i += 1;
    }
    out
}
pub const OFFSETS: [usize; GROUPS + 1] = offsets();
pub const NUM_WEIGHTS: usize = OFFSETS[GROUPS];

/// The value of each group for one move (a one-hot description).
pub type Features = [u8; GROUPS];

/// Paths longer than this are not followed (as the picker's).
const ZONE_CAP: u32 = 24;
const ZONE_SLACK: u32 = 1;
/// Rings around the last moves.
const RINGS: usize = 5;

/// What every move of one position is described against.
pub struct Context {
    us: Colour,
    own: CellSet,
    opp: CellSet,
    own_zone: CellSet,
    opp_zone: CellSet,
    own_bucket: u8,
    opp_bucket: u8,
    own_near: CellSet,
    opp_near: CellSet,
    centre: CellSet,
    phase_bucket: u8,
    /// Rings 0..RINGS around the opponent's last move and the own move before.
    last: Option<[CellSet; RINGS]>,
    prev: Option<[CellSet; RINGS]>,
    threat: Option<(CellSet, bool)>,
    hand_bucket: u8,
    standard: bool,
    /// Per cell, the sets above as 2-bit fields (see `FIELD_*`): the fields of a move's three
    /// cells add up without carries into the counts the features need.
    packed: [u32; GRID_LEN],
    /// The cells with a field set in `packed` (every other cell's is 0).
    marked: CellSet,
    /// Per cell, its ring around the last move and around the own move before.
    ring_last: [u8; GRID_LEN],
    ring_prev: [u8; GRID_LEN],
}

const FIELD_OWN_PATH: u32 = 0;
const FIELD_OPP_PATH: u32 = 2;
const FIELD_OWN_NEAR: u32 = 4;
const FIELD_OPP_NEAR: u32 = 6;
const FIELD_CENTRE: u32 = 8;
const FIELD_OPP: u32 = 10;
const FIELD_OWN: u32 = 12;
const FIELD_THREAT: u32 = 14;
const FIELD_OWN_ON_PATH: u32 = 16;
/// Within `RINGS - 1` of the last move or of the own move before (only `cold_drop_logit`
/// reads it: the ring features come from `ring_last` and `ring_prev`).
const FIELD_RECENT: u32 = 18;

#[inline]
fn field(packed: u32, f: u32) -> u8 {
    ((packed >> f) & 3) as u8
}

fn ring_table(rings: &Option<[CellSet; RINGS]>) -> [u8; GRID_LEN] {
    let mut out = [RINGS as u8 + 1; GRID_LEN];
    if let Some(rings) = rings {
        out.iter_mut().for_each(|r| *r = RINGS as u8);
        for (k, r) in rings.iter().enumerate().rev() {
            for c in *r {
                out[c.index()] = k as u8;
            }
        }
    }
    out
}

fn recent_rings(rings: &Option<[CellSet; RINGS]>) -> CellSet {
    rings.map_or(CellSet::EMPTY, |r| r[RINGS - 1])
}

fn distance_bucket(d: Option<u32>) -> u8 {
    match d {
        Some(0..=3) => 0,
        Some(4..=6) => 1,
        Some(7..=10) => 2,
        Some(_) => 3,
        None => 4,
    }
}

fn rings(mv: Option<&Move>) -> Option<[CellSet; RINGS]> {
    let mut set = CellSet::EMPTY;
    match mv? {
        Move::Drop(pl) => pl.cells().iter().for_each(|&c| set.insert(c)),
        Move::Shift { from, to } => {
            set.insert(*from);
            to.cells().iter().for_each(|&c| set.insert(c));
        }
        Move::Pass => return None,
    }
    let mut out = [CellSet::EMPTY; RINGS];
    for r in out.iter_mut() {
        *r = set;
        set = set.expand();
    }
    Some(out)
}

fn ring_of(rings: &Option<[CellSet; RINGS]>, cells: &[Cell; 3]) -> u8 {
    let Some(rings) = rings else {
        return RINGS as u8 + 1;
    };
    for (k, r) in rings.iter().enumerate() {
        if cells.iter().any(|&c| r.contains(c)) {
            return k as u8;
        }
    }
    RINGS as u8
}

/// Whether lifting the top piece on `cells` shows a dot of the opponent of `us` below it.
fn uncovers_foe(pos: &Position, cells: &[Cell; 3], us: Colour) -> bool {
    let id = pos.top_piece(cells[0]);
    cells.iter().any(|&c| {
        let stack = pos.stack(c);
        stack.len() >= 2
            && Some(stack[stack.len() - 1] as usize) == id
            && pos.piece(stack[stack.len() - 2] as usize).colour != us
    })
}

fn count(set: CellSet, cells: &[Cell; 3]) -> u8 {
    cells.iter().filter(|&&c| set.contains(c)).count() as u8
}

/// For a group valued `a * 4 + b` (`a`, `b`: how many of a move's three cells are in each of
/// two sets), a gain per cell by its pair of bits (`[neither, b only, a only, both]`) such that
/// the gains of any three cells add up to at least the weight's gain over `w(0)`. Starts from
/// one gain per dot for both sets (a bound), then lowers each pair's gain in turn as far as
/// every three cells allow (one gain per dot is loose: a first contact may be worth much
/// more than a third).
fn pair_gains(w: impl Fn(usize) -> i32) -> [i32; 4] {
    // Every three cells: how many have a only, b only, both; and the gain to cover.
    let mut cases = [([0i32; 3], 0i32); 20];
    let mut count = 0;
    for only_a in 0..=3 {
        for only_b in 0..=3 - only_a {
            for both in 0..=3 - only_a - only_b {
                let (a, b) = ((only_a + both) as usize, (only_b + both) as usize);
                cases[count] = ([only_a, only_b, both], w(a * 4 + b) - w(0));
                count += 1;
            }
        }
    }
    let cases = &cases[..count];
    let ceil_div = |x: i32, k: i32| (x + k - 1).div_euclid(k);
    let per = (cases.iter())
        .map(|(n, gain)| (n[0] + n[1] + 2 * n[2], gain))
        .filter(|&(k, _)| k > 0)
        .map(|(k, gain)| ceil_div(*gain, k))
        .max()
        .unwrap_or(0);
    let mut g = [per, per, 2 * per]; // a only, b only, both
    for _ in 0..3 {
        for v in [2, 0, 1] {
            let tight = (cases.iter().filter(|(n, _)| n[v] > 0)).map(|(n, gain)| {
                let others: i32 = (0..3).filter(|&u| u != v).map(|u| n[u] * g[u]).sum();
                ceil_div(gain - others, n[v])
            });
            g[v] = tight.max().unwrap_or(g[v]);
        }
    }
    [0, g[1], g[0], g[2]]
}

/// Distance of each cell from the middle space i9.
static MIDDLE_DISTANCE: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let middle = Cell::new(8, 8).expect("i9 is on the board");
    let mut out = vec![0u8; GRID_LEN];
    for &c in Cell::all() {
        out[c.index()] = c.distance(middle) as u8;
    }
    out
});

/// The board's spaces by the standard game's middle-distance feature (0..=4).
static MIDDLE_BUCKETS: LazyLock<[CellSet; 5]> = LazyLock::new(|| {
    let mut out = [CellSet::EMPTY; 5];
    for c in board_cells() {
        out[(MIDDLE_DISTANCE[c.index()] / 2).min(4) as usize].insert(c);
    }
    out
});

impl Context {
    /// The context of `pos`; `recent` holds the moves that led to it, last first (the
    /// position's own history is used when it has one).
    pub fn new(pos: &Position, recent: &[Move], params: &Params) -> Context {
        let us = pos.side_to_move();
        let (own, opp) = (pos.top_view(us), pos.top_view(!us));
        let empty = pos.empty_cells();
        let paths = |a: CellSet, b: CellSet| {
            near_paths(a, empty, b, params.opp_cover_cost, ZONE_CAP, ZONE_SLACK)
        };
        let threat = threat(pos).map(|t| (t.zone, t.decisive));
        Context::from_parts(pos, recent, [paths(own, opp), paths(opp, own)], threat)
    }

    /// [`Context::new`] from what the caller found already: per player (the side to move
    /// first) its near paths as `near_paths(top, empty, other top, OppCoverCost, 24, 1)`, and
    /// the opponent's threat (zone, decisive).
    pub fn from_parts(
        pos: &Position,
        recent: &[Move],
        paths: [Option<(u32, CellSet)>; 2],
        threat: Option<(CellSet, bool)>,
    ) -> Context {
        let us = pos.side_to_move();
        let own = pos.top_view(us);
        let opp = pos.top_view(!us);
        let [(own_d, own_zone), (opp_d, opp_zone)] =
            paths.map(|p| p.map_or((None, CellSet::EMPTY), |(d, z)| (Some(d), z)));
        let mut played = pos.moves_played().rev();
        let (last, prev) = match played.next() {
            Some(last) => (Some(last), played.next()),
            None => (recent.first().copied(), recent.get(1).copied()),
        };
        let standard = pos.variant() == Variant::Standard;
        let phase = centre_phase(pos);
        let hand = pos.hand_total(us);
        let mut ctx = Context {
            us,
            own,
            opp,
            own_zone,
            opp_zone,
            own_bucket: distance_bucket(own_d),
            opp_bucket: distance_bucket(opp_d),
            own_near: own.expand(),
            opp_near: opp.expand(),
            centre: if standard {
                central_cells()
            } else {
                CellSet::EMPTY
            },
            phase_bucket: if phase < 64 {
                0
            } else if phase < 160 {
                1
            } else {
                2
            },
            last: rings(last.as_ref()),
            prev: rings(prev.as_ref()),
            threat,
            hand_bucket: match hand {
                0..=2 => 0,
                3..=6 => 1,
                7..=12 => 2,
                _ => 3,
            },
            standard,
            packed: [0; GRID_LEN],
            marked: CellSet::EMPTY,
            ring_last: [0; GRID_LEN],
            ring_prev: [0; GRID_LEN],
        };
        ctx.ring_last = ring_table(&ctx.last);
        ctx.ring_prev = ring_table(&ctx.prev);
        let threat_zone = ctx.threat.map_or(CellSet::EMPTY, |(z, _)| z);
        for (set, f) in [
            (ctx.own_zone - ctx.own, FIELD_OWN_PATH),
            (ctx.opp_zone, FIELD_OPP_PATH),
            (ctx.own_near - ctx.own, FIELD_OWN_NEAR),
            (ctx.opp_near - ctx.opp, FIELD_OPP_NEAR),
            (ctx.centre, FIELD_CENTRE),
            (ctx.opp, FIELD_OPP),
            (ctx.own, FIELD_OWN),
            (threat_zone, FIELD_THREAT),
            (ctx.own_zone & ctx.own, FIELD_OWN_ON_PATH),
            (
                recent_rings(&ctx.last) | recent_rings(&ctx.prev),
                FIELD_RECENT,
            ),
        ] {
            for c in set {
                ctx.packed[c.index()] |= 1 << f;
            }
            ctx.marked |= set;
        }
        ctx
    }

    /// The features of a legal move of the position (`None` for a pass).
    #[inline]
    pub fn features(&self, pos: &Position, mv: Move) -> Option<Features> {
        let pl = mv.placement()?;
        let cells = pl.cells();
        let [a, b, c] = cells.map(|c| c.index());
        let p = self.packed[a] + self.packed[b] + self.packed[c];
        let shift = matches!(mv, Move::Shift { .. }) as u8;
        let lifted = match mv {
            Move::Shift { from, .. } => pos.top_piece(from).map(|id| pos.piece(id).placement),
            _ => None,
        };
        let shape = (pl.kind().index() * 6 + pl.orientation() as usize) * 2 + shift as usize;
        let level = pos.landing_level(pl);
        let bridge = match pl.middle() {
            Some(m) => pos.height(cells[m]) < level,
            None => false,
        } as u8;
        let (lift, lift_touches) = lifted.map_or((0, false), |old| self.lift_of(pos, old));
        let threat = match self.threat {
            None => 0,
            Some((_, decisive)) => {
                let touches = field(p, FIELD_THREAT) > 0 || lift_touches;
                1 + 2 * decisive as u8 + (!touches) as u8
            }
        };
        let middle = self.middle(a);
        let ring = |t: &[u8; GRID_LEN]| t[a].min(t[b]).min(t[c]);
        Some([
            shape as u8,
            field(p, FIELD_OWN_PATH) * 5 + self.own_bucket,
            field(p, FIELD_OPP_PATH) * 5 + self.opp_bucket,
            field(p, FIELD_OWN_NEAR) * 4 + field(p, FIELD_OPP_NEAR),
            ring(&self.ring_last),
            ring(&self.ring_prev),
            field(p, FIELD_CENTRE) * 3 + self.phase_bucket,
            level.min(3) * 2 + bridge,
            field(p, FIELD_OPP) * 4 + field(p, FIELD_OWN),
            lift,
            threat,
            self.hand_bucket * 2 + shift,
            middle,
        ])
    }

    /// The contact group's value of a move landing on `pl` (own near dots x 4 + the
    /// opponent's).
    #[inline]
    pub fn contact_value(&self, pl: Placement) -> usize {
        let [a, b, c] = pl.cells().map(|c| c.index());
        let p = self.packed[a] + self.packed[b] + self.packed[c];
        (field(p, FIELD_OWN_NEAR) * 4 + field(p, FIELD_OPP_NEAR)) as usize
    }

    /// The lift feature of a shift of the piece on `old` (1 + its dots on own near paths, or
    /// 5 when it uncovers a foe), and whether lifting it meets the threat zone.
    #[inline]
    pub fn lift_of(&self, pos: &Position, old: Placement) -> (u8, bool) {
        let old_cells = old.cells();
        let q: u32 = old_cells.iter().map(|c| self.packed[c.index()]).sum();
        let lift = if uncovers_foe(pos, &old_cells, self.us) {
            5
        } else {
            1 + field(q, FIELD_OWN_ON_PATH)
        };
        (lift, field(q, FIELD_THREAT) > 0)
    }

    /// Upper bounds of the logits of this position's moves that do not meet the threat zone
    /// (see [`LogitBound`]).
    pub fn logit_bound(&self, model: &Model) -> LogitBound {
        let w = |g: usize, v: usize| model.weights[OFFSETS[g] + v];
        // Per dot in a counted set: at least (w[count] - w[0]) / count for every count, so
        // that `count` dots add at least what the group's weight adds (negative allowed).
        let counted = |g: usize, bucket: u8, per: usize| {
            let b = bucket as usize;
            (1..=3)
                .map(|k| (w(g, k * per + b) - w(g, b) + k as i32 - 1).div_euclid(k as i32))
                .max()
                .unwrap_or(0)
        };
        // Per dot in each set: [own path, opp path, centre, occupied (level)].
        let level = (0..8).map(|v| w(7, v) - w(7, 0)).max().unwrap_or(0);
        let gains = [
            counted(1, self.own_bucket, 5),
            counted(2, self.opp_bucket, 5),
            counted(6, self.phase_bucket, 3),
            level,
        ];
        // The two-set groups (contact, covers) by each cell's pair of bits.
        let near = pair_gains(|v| w(3, v));
        let covers = pair_gains(|v| w(8, v));
        let far = |rings: &Option<[CellSet; RINGS]>| RINGS + rings.is_none() as usize;
        let (far_last, far_prev) = (far(&self.last), far(&self.prev));
        let threat = self.threat.map_or(0, |(_, d)| 2 + 2 * d as usize);
        let fixed = w(1, self.own_bucket as usize)
            + w(2, self.opp_bucket as usize)
            + w(3, 0)
            + w(4, far_last)
            + w(5, far_prev)
            + w(6, self.phase_bucket as usize)
            + w(7, 0)
            + w(8, 0)
            + w(10, threat);
        let hand = self.hand_bucket as usize * 2;
        let mut out = LogitBound {
            cell: [0; GRID_LEN],
            cell_but_contact: [0; GRID_LEN],
            contact: std::array::from_fn(|v| w(3, v) - w(3, 0)),
            punct: [0; GRID_LEN],
            shape: [0; 72],
            lift: [0; 6],
            base: [fixed + w(9, 0) + w(11, hand), fixed + w(11, hand + 1)],
            punct_min: 0,
        };
        for (v, s) in out.shape.iter_mut().enumerate() {
            *s = w(0, v);
        }
        for (v, l) in out.lift.iter_mut().enumerate() {
            *l = w(9, v);
        }
        for i in 0..GRID_LEN {
            out.punct[i] = w(12, self.middle(i) as usize);
        }
        out.punct_min = (board_cells().iter())
            .map(|c| out.punct[c.index()])
            .min()
            .unwrap_or(0);
        // A cell outside `marked` is in no set and no ring: every gain there is 0.
        for c in self.marked {
            let i = c.index();
            let p = self.packed[i];
            let f = |f: u32| field(p, f) as i32;
            let dots = [
                f(FIELD_OWN_PATH),
                f(FIELD_OPP_PATH),
                f(FIELD_CENTRE),
                f(FIELD_OWN) | f(FIELD_OPP),
            ];
            let sum = |per: &[i32; 4]| -> i32 { dots.iter().zip(per).map(|(d, g)| d * g).sum() };
            // Contact counts own near dots first; covers counts the opponent's dots first.
            let near_state = (f(FIELD_OWN_NEAR) * 2 + f(FIELD_OPP_NEAR)) as usize;
            let cover_state = (f(FIELD_OPP) * 2 + f(FIELD_OWN)) as usize;
            // The nearest ring of the three cells decides: the sum of each cell's own gain
            // over "far" bounds it.
            let rings = [
                w(4, self.ring_last[i] as usize) - w(4, far_last),
                w(5, self.ring_prev[i] as usize) - w(5, far_prev),
            ];
            out.cell_but_contact[i] =
                sum(&gains) + covers[cover_state] + rings.iter().map(|r| r.max(&0)).sum::<i32>();
            out.cell[i] = out.cell_but_contact[i] + near[near_state];
        }
        out
    }

    /// The middle-distance feature of a move with its PÜNCT on cell index `a`.
    #[inline]
    fn middle(&self, a: usize) -> u8 {
        if self.standard {
            (MIDDLE_DISTANCE[a] / 2).min(4)
        } else {
            5
        }
    }

    /// The features of a *cold* drop (no cell in any of the context's sets, none near the
    /// last moves: on empty spaces, level 0): only the shape and the middle distance vary.
    fn cold_features(&self, shape: u8, middle: u8) -> Features {
        let far = |rings: &Option<[CellSet; RINGS]>| RINGS as u8 + rings.is_none() as u8;
        let threat = self
            .threat
            .map_or(0, |(_, decisive)| 2 + 2 * decisive as u8);
        [
            shape,
            self.own_bucket,
            self.opp_bucket,
            0,
            far(&self.last),
            far(&self.prev),
            self.phase_bucket,
            0,
            0,
            0,
            threat,
            self.hand_bucket * 2,
            middle,
        ]
    }

    /// What all cold drops' logits share (see [`Context::cold_drop_logit`]).
    pub fn cold_base(&self, model: &Model) -> i32 {
        model.score(&self.cold_features(0, 0))
            - model.weights[OFFSETS[0]]
            - model.weights[OFFSETS[12]]
    }

    /// The model's logit of drop `pl` when it is cold (two lookups instead of thirteen, and
    /// no look at the stacks); `None` when it is not. `base` is [`Context::cold_base`].
    #[inline]
    pub fn cold_drop_logit(&self, model: &Model, base: i32, pl: Placement) -> Option<i32> {
        let [a, b, c] = pl.cells().map(|c| c.index());
        if (self.packed[a] | self.packed[b] | self.packed[c]) != 0 {
            return None;
        }
        let shape = (pl.kind().index() * 6 + pl.orientation() as usize) * 2;
        Some(
            base + model.weights[OFFSETS[0] + shape]
                + model.weights[OFFSETS[12] + self.middle(a) as usize],
        )
    }

    /// [`Context::features`] from the cell sets, one at a time: slower, kept as the
    /// reference the packed version is tested against.
    pub fn features_by_sets(&self, pos: &Position, mv: Move) -> Option<Features> {
        let pl = mv.placement()?;
        let cells = pl.cells();
        let kind = pl.kind();
        let shift = matches!(mv, Move::Shift { .. }) as u8;
        let lifted = match mv {
            Move::Shift { from, .. } => pos.top_piece(from).map(|id| pos.piece(id).placement),
            _ => None,
        };
        let shape = (kind.index() * 6 + pl.orientation() as usize) * 2 + shift as usize;
        let own_path = count(self.own_zone - self.own, &cells);
        let opp_path = count(self.opp_zone, &cells);
        let level = pos.landing_level(pl);
        let bridge = match pl.middle() {
            Some(m) => pos.height(cells[m]) < level,
            None => false,
        } as u8;
        let covers_opp = count(self.opp, &cells);
        let covers_own = count(self.own, &cells);
        let lift = match lifted {
            None => 0,
            Some(old) => {
                let old_cells = old.cells();
                if uncovers_foe(pos, &old_cells, self.us) {
                    5
                } else {
                    1 + count(self.own_zone & self.own, &old_cells)
                }
            }
        };
        let threat = match self.threat {
            None => 0,
            Some((zone, decisive)) => {
                let touches = cells.iter().any(|&c| zone.contains(c))
                    || lifted.is_some_and(|old| old.cells().iter().any(|&c| zone.contains(c)));
                1 + 2 * decisive as u8 + (!touches) as u8
            }
        };
        let middle = if self.standard {
            (MIDDLE_DISTANCE[pl.punct().index()] / 2).min(4)
        } else {
            5
        };
        Some([
            shape as u8,
            own_path * 5 + self.own_bucket,
            opp_path * 5 + self.opp_bucket,
            count(self.own_near - self.own, &cells) * 4 + count(self.opp_near - self.opp, &cells),
            ring_of(&self.last, &cells),
            ring_of(&self.prev, &cells),
            count(self.centre, &cells) * 3 + self.phase_bucket,
            level.min(3) * 2 + bridge,
            covers_opp * 4 + covers_own,
            lift,
            threat,
            self.hand_bucket * 2 + shift,
            middle,
        ])
    }
}

/// Upper bounds of the logits of the moves of one position that do not meet the opponent's
/// threat zone (the others are all searched anyway): the groups fixed for such a move (shape,
/// middle distance, lift, threat, hand) exactly, and every group counted over the move's
/// cells as a fixed part plus what each cell may add at most (`cell`). A count group adds at
/// most `count` times its largest weight gain per dot; a ring group at most the gain of each
/// cell's own ring over "far"; landing level and bridges come only with an occupied cell.
pub struct LogitBound {
    /// What a dot on each cell may add at most.
    pub cell: [i32; GRID_LEN],
    /// `cell` without the contact group, which [`LogitBound::of`] takes exactly.
    pub cell_but_contact: [i32; GRID_LEN],
    /// The contact group's weights over the fixed part's.
    contact: [i32; 16],
    /// The middle-distance weight of a PÜNCT on each cell.
    pub punct: [i32; GRID_LEN],
    shape: [i32; 72],
    lift: [i32; 6],
    /// The other fixed groups, for a drop and for a shift.
    base: [i32; 2],
    /// The least of `punct` over the board.
    punct_min: i32,
}

impl LogitBound {
    /// The part of the bound of a move landing on `pl` not made of `cell` values; `lift` is
    /// the shift's lift feature (`Context::lift_of`), `None` for a drop.
    #[inline]
    pub fn fixed(&self, pl: Placement, lift: Option<u8>) -> i32 {
        let shape = (pl.kind().index() * 6 + pl.orientation() as usize) * 2;
        self.punct[pl.punct().index()]
            + match lift {
                None => self.shape[shape] + self.base[0],
                Some(l) => self.shape[shape + 1] + self.base[1] + self.lift[l as usize],
            }
    }

    /// The `fixed` part of the drops of `kind` in orientation `o` with the least middle-distance
    /// weight ([`LogitBound::punct_excess`] gives each PÜNCT space's weight over it).
    #[inline]
    pub fn drop_fixed_base(&self, kind: Kind, o: u8) -> i32 {
        self.shape[(kind.index() * 6 + o as usize) * 2] + self.base[0] + self.punct_min
    }

    /// The `fixed` part of the shifts of `kind` in orientation `o` with lift feature `lift`
    /// and the least middle-distance weight.
    #[inline]
    pub fn shift_fixed_base(&self, kind: Kind, o: u8, lift: u8) -> i32 {
        self.shape[(kind.index() * 6 + o as usize) * 2 + 1]
            + self.base[1]
            + self.lift[lift as usize]
            + self.punct_min
    }

    /// The PÜNCT spaces whose middle-distance weight exceeds the least, by bucket, with the
    /// excess (`punct` = the least + the excess).
    pub fn punct_excess(&self) -> impl Iterator<Item = (CellSet, i32)> + '_ {
        (MIDDLE_BUCKETS.iter())
            .map(|&set| {
                let any = set.iter().next().expect("every bucket has spaces");
                (set, self.punct[any.index()] - self.punct_min)
            })
            .filter(|&(_, excess)| excess > 0)
    }

    /// The contact group's part of a move landing on `pl`, exactly, for `cell_but_contact`.
    #[inline]
    pub fn contact(&self, ctx: &Context, pl: Placement) -> i32 {
        self.contact[ctx.contact_value(pl)]
    }

    /// The bound of a move landing on `pl` (see [`LogitBound::fixed`]): with the contact
    /// group exact, tighter than the per-cell sum of `cell`.
    #[inline]
    pub fn of(&self, ctx: &Context, pl: Placement, lift: Option<u8>) -> i32 {
        let cells: i32 = (pl.cells().iter())
            .map(|c| self.cell_but_contact[c.index()])
            .sum();
        self.fixed(pl, lift) + self.contact(ctx, pl) + cells
    }

    /// [`LogitBound::of`] from the per-cell sum of `cell` alone (what the bit-sliced sums
    /// add).
    #[inline]
    pub fn of_cells(&self, pl: Placement, lift: Option<u8>) -> i32 {
        let cells: i32 = pl.cells().iter().map(|c| self.cell[c.index()]).sum();
        self.fixed(pl, lift) + cells
    }
}

/// The model's weights, in centinats, one per feature value.
pub struct Model {
    pub weights: Vec<i32>,
}

impl Model {
    pub fn zero() -> Model {
        Model {
            weights: vec![0; NUM_WEIGHTS],
        }
    }

    /// The logit of a move (centinats).
    #[inline]
    pub fn score(&self, f: &Features) -> i32 {
        let mut s = 0;
        for g in 0..GROUPS {
            s += self.weights[OFFSETS[g] + f[g] as usize];
        }
        s
    }

    /// Reads the text format (see the module's documentation).
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut lines = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty());
        let header = lines.next().ok_or("empty model file")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        if words.len() != 3 || words[0] != "punct-order-model" {
            return Err(format!("not an order model: '{header}'"));
        }
        if words[1] != MODEL_VERSION.to_string() || words[2] != NUM_WEIGHTS.to_string() {
            return Err(format!(
                "order model version {} with {} weights; this engine reads version {MODEL_VERSION} with {NUM_WEIGHTS}",
                words[1], words[2]
            ));
        }
        let weights: Vec<i32> = lines
            .map(|l| l.parse::<i32>().map_err(|_| format!("bad weight '{l}'")))
            .collect::<Result<_, _>>()?;
        if weights.len() != NUM_WEIGHTS {
            return Err(format!("{} weights, {NUM_WEIGHTS} expected", weights.len()));
        }
        Ok(Model { weights })
    }

    /// The text format, with each group named in a comment.
    pub fn to_text(&self) -> String {
        let mut out = format!("punct-order-model {MODEL_VERSION} {NUM_WEIGHTS}\n");
        for g in 0..GROUPS {
            out.push_str(&format!("# group {g}\n"));
            for w in &self.weights[OFFSETS[g]..OFFSETS[g + 1]] {
                out.push_str(&format!("{w}\n"));
            }
        }
        out
    }
}

/// The embedded default model.
pub static MODEL: LazyLock<Model> = LazyLock::new(|| {
    Model::parse(include_str!("order_model.txt")).expect("the embedded order model parses")
});

/// A model that replaces the embedded one for the whole process (tools that test a fresh
/// fit set it before any search).
static INSTALLED: OnceLock<Model> = OnceLock::new();

/// Puts `model` in place of the embedded one; false if one was installed already.
pub fn install(model: Model) -> bool {
    INSTALLED.set(model).is_ok()
}

/// The model in use.
pub fn model() -> &'static Model {
    INSTALLED.get().unwrap_or(&MODEL)
}

/// The model's logits of `moves` (centinats; a pass scores 0).
pub fn score_moves(pos: &Position, moves: &[Move], params: &Params, out: &mut Vec<i32>) {
    score_moves_in(&Context::new(pos, &[], params), pos, moves, out);
}

/// [`score_moves`] against a context the caller built.
pub fn score_moves_in(ctx: &Context, pos: &Position, moves: &[Move], out: &mut Vec<i32>) {
    let model = model();
    out.clear();
    out.extend(
        moves
            .iter()
            .map(|&m| ctx.features(pos, m).map_or(0, |f| model.score(&f))),
    );
}

/// The kinds of the shape feature, for reports.
pub fn shape_name(v: usize) -> String {
    let kind = Kind::ALL[v / 12];
    format!(
        "{kind:?}/{}{}",
        (v / 2) % 6,
        if v % 2 == 1 { " shift" } else { "" }
    )
}
