//! `-shard I/N`: run only part of a schedule, so that a job runner (GNU parallel, a Slurm array,
//! a Kubernetes Indexed Job) can spread one run over many machines. Shard `I` of `N` (0-based)
//! plays the game pairs whose number `p` has `(p - 1) % N == I`: the shards are disjoint, cover
//! every game, keep both games of a pair together (pentanomial statistics) and number games and
//! openings exactly as the whole run would, so `-merge` of their logs gives the run's figures.

use crate::referee::game::GameSpec;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Reads `I/N` with `0 <= I < N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("-shard: '{text}' is not I/N with 0 <= I < N (0-based index)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game pair `pair` (1-based) belongs to this shard.
    pub fn owns_pair(&self, pair: u64) -> bool {
        (pair.saturating_sub(1)) % u64::from(self.count) == u64::from(self.index)
    }

    pub fn label(&self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// The games of `specs` that `shard` plays (all of them without a shard).
pub fn select(
    specs: impl Iterator<Item = GameSpec>,
    shard: Option<Shard>,
) -> impl Iterator<Item = GameSpec> {
    specs.filter(move |g| shard.is_none_or(|s| s.owns_pair(g.pair)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_reject() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flags_and_toml_give_shard_and_sample() {
        use crate::referee::config::{parse_args, run_config, toml_to_args, Command};
        let flags = "-engine cmd=a nodes=5 -engine cmd=b nodes=5 -shard 1/3 \
                     -sample file=s.txt freq=0.5 quiet=true";
        let c = run_config(flags);
        assert_eq!(c.shard, Some(Shard { index: 1, count: 3 }));
        let s = c.sample.as_ref().unwrap();
        assert_eq!((s.freq, s.quiet), (0.5, true));
        let toml = "shard = \"1/3\"\n[sample]\nfile = \"s.txt\"\nfreq = 0.5\nquiet = true\n\
                    [[engine]]\ncmd = \"a\"\nnodes = 5\n[[engine]]\ncmd = \"b\"\nnodes = 5\n";
        match parse_args(&toml_to_args(toml).unwrap()).unwrap() {
            Command::Run(t) => assert_eq!(*t, c),
            other => panic!("{other:?}"),
        }
        let bad = crate::referee::config::split_words(
            "-engine cmd=a nodes=5 -engine cmd=b nodes=5 -shard 3/3",
        );
        assert!(parse_args(&bad).is_err());
    }

    #[test]
    fn shards_partition_the_pairs() {
        for count in 1..6 {
            for pair in 1..40u64 {
                let owners = (0..count)
                    .filter(|&index| Shard { index, count }.owns_pair(pair))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }
}
