//! `-shard I/N`: run only part of a schedule, so that a job runner (GNU parallel, a Slurm array,
//! a Kubernetes Indexed Job) can spread one run over many machines. Shard `I` of `N` (0-based)
//! plays the game pairs whose number `p` has `(p - 1) % N == I`: the shards are disjoint, cover
//! every game, keep both games of a pair together (pentanomial statistics) and number games and
//! openings exactly as the whole run would, so `-merge` of their logs gives the run's figures.

use crate::referee::game::GameSpec;
use crate::referee::settings::Shard;

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
        use crate::referee::cli::{parse_args, run_config, toml_to_args, Command};
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
        let bad = crate::referee::cli::split_words(
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
