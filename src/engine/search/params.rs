//! Tunable evaluation weights and search constants, declared once in `params!` below: the
//! struct, its defaults, `specs()` (the spin options), `get` and `set` all come from that list.

/// One tunable: its option name, default and range.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Whether it is an evaluation weight (what a Texel tuner fits) or a search constant.
    pub group: Group,
}

/// What a tunable belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// A weight of the static evaluation.
    Eval,
    /// A search or move-ordering constant.
    Search,
}

macro_rules! params {
    ($($field:ident $name:literal $group:ident = $default:literal in $min:literal ..= $max:literal; #[doc = $doc:literal])*) => {
        const SPECS: &[ParamSpec] = &[
            $(ParamSpec { name: $name, default: $default, min: $min, max: $max, group: Group::$group },)*
        ];

        /// Current values of the tunables.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $(#[doc = $doc] pub $field: i32,)*
        }

        impl Default for Params {
            fn default() -> Params {
                Params { $($field: $default,)* }
            }
        }

        impl Params {
            fn value(&self, name: &str) -> Option<i32> {
                $(if name.eq_ignore_ascii_case($name) { return Some(self.$field); })*
                None
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                $(if name.eq_ignore_ascii_case($name) { return Some(&mut self.$field); })*
                None
            }
        }
    };
}

params! {
    path_weight "PathWeight" Eval = 47 in 0..=1000;
        #[doc = "Per empty space of connection distance, opponent's minus own."]
    path_near_weight "PathNearWeight" Eval = 1 in 0..=1000;
        #[doc = "Extra per space below 6 of own distance (a short path is worth more than linear)."]
    second_path_weight "SecondPathWeight" Eval = 0 in -1000..=1000;
        #[doc = "Per space of connection distance over the second-best axis, opponent's minus own (a block across the best path costs less). 0: not computed."]
    bridging_late "BridgingLate" Eval = 0 in -1000..=1000;
        #[doc = "Per bridging piece (any kind but the triangle) in hand of difference, when a last drop nears."]
    pieces_weight "PiecesWeight" Eval = 0 in -1000..=1000;
        #[doc = "Per piece needed to connect over the best axis (a third of its spaces, rounded up), opponent's minus own."]
    threat_own "ThreatOwn" Eval = 0 in -1000..=1000;
        #[doc = "Per axis (of the side to move's best two) within one piece of a connection. Non-zero: the second axis is computed."]
    threat_opp "ThreatOpp" Eval = 0 in -1000..=1000;
        #[doc = "Per axis (of the opponent's best two) within one piece of a connection. Non-zero: the second axis is computed."]
    cover_weight "CoverWeight" Eval = -18 in -1000..=1000;
        #[doc = "Per opponent's top dot next to an own top dot (one a stacking move could cover), minus the same for the opponent."]
    centre_cover_late "CentreCoverLate" Eval = 0 in -1000..=1000;
        #[doc = "The same within the central hexagon, when a last drop nears (covering central dots decides the count)."]
    centre_reach_late "CentreReachLate" Eval = 36 in -1000..=1000;
        #[doc = "Per unblocked piece outside the central hexagon on a straight line through it, when a last drop nears (pieces that can still change the count)."]
    opp_cover_cost "OppCoverCost" Eval = 2 in 1..=3;
        #[doc = "Distance cost of an opponent's dot (covering it needs a shift onto a stack)."]
    centre_early "CentreEarly" Eval = 6 in 0..=1000;
        #[doc = "Per central dot of difference at the start of the game."]
    centre_late "CentreLate" Eval = 143 in 0..=2000;
        #[doc = "Per central dot of difference when a player is about to drop the last piece."]
    hand_weight "HandWeight" Eval = -75 in -200..=200;
        #[doc = "Per piece in hand of difference (tempo in the centre race)."]
    tempo "Tempo" Eval = 134 in 0..=200;
        #[doc = "Bonus for the side to move."]
    mobility_early "MobilityEarly" Eval = 93 in -200..=200;
        #[doc = "Per movable (unblocked) piece on the board of difference, at the start."]
    mobility_late "MobilityLate" Eval = 80 in -200..=500;
        #[doc = "Per movable piece of difference when a last drop nears (the centre race is won by moving pieces)."]
    width_base "WidthBase" Search = 6 in 1..=500;
        #[doc = "Moves searched at an interior node of depth 1 (width cap)."]
    width_per_depth "WidthPerDepth" Search = 4 in 0..=500;
        #[doc = "Extra moves searched per ply of remaining depth."]
    root_width_first "RootWidthFirst" Search = 400 in 1..=100000;
        #[doc = "Root moves searched in the first iteration (static order, threat stoppers first)."]
    root_width "RootWidth" Search = 24 in 1..=10000;
        #[doc = "Root moves searched after the first iteration (best of the previous one first)."]
    block_cap "BlockCap" Search = 64 in 1..=10000;
        #[doc = "Most moves tried against an opponent's threat to connect in one."]
    threat_moves_ply "ThreatMovesPly" Search = 1 in 0..=16;
        #[doc = "Plies from the root (the root included) where every move that threatens a win next move is searched, beyond the width cap, at nodes of depth 2 or more (0: off)."]
    threat_extension "ThreatExtension" Search = 0 in 0..=32;
        #[doc = "Plies past the iteration's depth where a node facing a winning threat is searched one more ply (0: off)."]
    leaf_threat "LeafThreat" Search = 150 in 0..=5000;
        #[doc = "Subtracted from the evaluation of a leaf whose opponent threatens to win next move (found, not searched; 0: not looked for)."]
    null_move_r "NullMoveR" Search = 0 in 0..=6;
        #[doc = "Depth reduction of the null-move search (0: off); never in the centre race, where a tempo decides."]
    null_min_depth "NullMinDepth" Search = 3 in 1..=20;
        #[doc = "Least remaining depth for a null-move search."]
    rfp_margin "RfpMargin" Search = 300 in 0..=5000;
        #[doc = "Reverse futility pruning: a non-PV node whose static evaluation exceeds beta by this much per ply of depth, facing no winning threat, returns at once (0: off)."]
    rfp_depth "RfpDepth" Search = 2 in 1..=20;
        #[doc = "Most remaining depth where reverse futility pruning applies."]
    lmr_min_move "LmrMinMove" Search = 3 in 1..=100;
        #[doc = "Moves searched before late-move reductions start."]
    lmr_min_depth "LmrMinDepth" Search = 2 in 1..=20;
        #[doc = "Least remaining depth for late-move reductions."]
    aspiration "Aspiration" Search = 60 in 5..=5000;
        #[doc = "Half width of the first aspiration window."]
    order_own_path "OrderOwnPath" Search = 4 in 0..=100;
        #[doc = "Move ordering: per dot on a space of the own shortest paths."]
    order_opp_path "OrderOppPath" Search = 3 in 0..=100;
        #[doc = "Move ordering: per dot on a space of the opponent's shortest paths."]
    order_contact "OrderContact" Search = 3 in 0..=100;
        #[doc = "Move ordering: per dot next to an own top-visible dot."]
    order_centre "OrderCentre" Search = 6 in 0..=100;
        #[doc = "Move ordering: per dot in the centre, scaled by how close the last drop is."]
    order_model "OrderModel" Search = 256 in 0..=1000;
        #[doc = "Move ordering: weight of the learned model's logit (order_model.rs), in sort-key units per nat (16 = one OrderOwnPath step); 0 leaves it off. 256 since docs/log.md step 27."]
    order_model_depth "OrderModelDepth" Search = 1 in 1..=64;
        #[doc = "Least remaining depth of a node whose moves the learned model orders (shallower nodes use the per-space weights alone, which skip most drops unscored)."]
    history_div "HistoryDiv" Search = 64 in 1..=100000;
        #[doc = "Divisor of the history score added to the ordering score."]
    history_grain "HistoryGrain" Search = 0 in 0..=2;
        #[doc = "What a history entry rewards: 0 the placement (kind, PÜNCT cell, orientation), 1 the kind on that cell in every orientation, 2 the cell for every kind and orientation."]
    puct_c "PuctC" Search = 180 in 1..=2000;
        #[doc = "SearchMode puct: the exploration constant c of the PUCT rule, in hundredths."]
    puct_width "PuctWidth" Search = 24 in 1..=500;
        #[doc = "SearchMode puct: moves a node expands (the ordering's best, and every possible stopper of a winning threat)."]
    puct_root_width "PuctRootWidth" Search = 48 in 1..=100000;
        #[doc = "SearchMode puct: moves the root expands (the ordering's best; all stoppers against a winning threat)."]
    puct_fpu "PuctFpu" Search = 30 in 0..=200;
        #[doc = "SearchMode puct: a move not visited yet is valued at its parent's value less this, in hundredths of the value range -1..1."]
    puct_temp "PuctTemp" Search = 100 in 10..=1000;
        #[doc = "SearchMode puct: temperature of the priors (softmax of the learned model's logits), in hundredths."]
    puct_scale "PuctScale" Search = 800 in 50..=5000;
        #[doc = "SearchMode puct: the evaluation's centipawns per unit of the value's tanh (800: a win chance of sigmoid(cp / 400), as in training)."]
}

/// The tunables of one group, in option order.
pub fn specs_of(group: Group) -> impl Iterator<Item = &'static ParamSpec> {
    SPECS.iter().filter(move |s| s.group == group)
}

/// Every tunable, in option order.
pub fn specs() -> &'static [ParamSpec] {
    SPECS
}

impl Params {
    /// The value of a tunable by (case-insensitive) name.
    pub fn get(&self, name: &str) -> Option<i32> {
        self.value(name)
    }

    /// Sets a tunable; an unknown name or a value out of range is an error and changes nothing.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let spec = specs()
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("no tunable named '{name}'"))?;
        if value < spec.min || value > spec.max {
            return Err(format!(
                "{} must be in {}..={}",
                spec.name, spec.min, spec.max
            ));
        }
        if let Some(slot) = self.slot(spec.name) {
            *slot = value;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_specs_and_ranges() {
        let p = Params::default();
        for s in specs() {
            assert_eq!(p.get(s.name), Some(s.default), "{}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
        }
    }

    #[test]
    fn every_spec_settable_within_range_only() {
        for s in specs() {
            let mut p = Params::default();
            for v in [s.min, s.max, (s.min + s.max) / 2] {
                p.set(s.name, v).unwrap();
                assert_eq!(p.get(&s.name.to_ascii_lowercase()), Some(v));
            }
            let before = p.clone();
            if s.max < i32::MAX {
                assert!(p.set(s.name, s.max + 1).is_err());
            }
            if s.min > i32::MIN {
                assert!(p.set(s.name, s.min - 1).is_err());
            }
            assert_eq!(p, before, "a rejected value changes nothing");
        }
        assert!(Params::default().set("NoSuchParam", 1).is_err());
        assert_eq!(Params::default().get("NoSuchParam"), None);
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in specs().iter().enumerate() {
            for b in &specs()[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name));
            }
        }
    }
}
