//! SPRT parameters at their edges, written for the mutants that the unit tests of
//! `src/referee/sprt.rs` let through (docs/testing.md).

use punct::referee::stats::elo::{Pentanomial, Wdl};
use punct::referee::stats::sprt::{Sprt, SprtModel};

fn sprt(alpha: f64, beta: f64) -> Sprt {
    Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha,
        beta,
        model: SprtModel::Normalized,
    }
}

#[test]
fn models_read_and_write_their_names() {
    for text in ["normalized", "normalised", "Normalized", "NORMALISED"] {
        assert_eq!(
            text.parse::<SprtModel>(),
            Ok(SprtModel::Normalized),
            "{text}"
        );
    }
    assert_eq!("logistic".parse::<SprtModel>(), Ok(SprtModel::Logistic));
    let err = "bayes".parse::<SprtModel>().unwrap_err();
    assert!(
        err.contains("'bayes'") && err.contains("normalized or logistic"),
        "{err}"
    );
    // What is written reads back (the TOML configuration and the JSON log use these names).
    assert_eq!(SprtModel::Normalized.to_string(), "normalized");
    assert_eq!(SprtModel::Logistic.to_string(), "logistic");
}

#[test]
fn error_rates_must_be_positive_and_sum_below_one() {
    assert!(sprt(0.05, 0.05).validate().is_ok());
    assert!(sprt(0.49, 0.5).validate().is_ok());
    for (alpha, beta) in [(0.05, 0.0), (0.0, 0.05), (0.5, 0.5), (0.05, -0.1)] {
        let err = sprt(alpha, beta).validate().unwrap_err();
        assert!(err.contains("alpha + beta < 1"), "{alpha} {beta}: {err}");
    }
    let equal = Sprt {
        elo1: 0.0,
        ..sprt(0.05, 0.05)
    };
    assert!(equal
        .validate()
        .unwrap_err()
        .contains("elo0 must be below elo1"));
}

/// Hypotheses far beyond any real Elo difference put both expected scores at the edge of the
/// possible results: they are kept just inside it, so both hypotheses are the same
/// distribution and the log-likelihood ratio is 0, never NaN or infinite.
#[test]
fn hypotheses_beyond_the_results_give_a_zero_llr() {
    let results = [
        Wdl {
            wins: 50,
            losses: 0,
            draws: 0,
        },
        Wdl {
            wins: 0,
            losses: 50,
            draws: 0,
        },
        Wdl {
            wins: 12,
            losses: 9,
            draws: 30,
        },
    ];
    for model in [SprtModel::Logistic, SprtModel::Normalized] {
        for (elo0, elo1) in [(-1e6, -1e5), (1e5, 1e6)] {
            let s = Sprt {
                elo0,
                elo1,
                model,
                ..sprt(0.05, 0.05)
            };
            for w in &results {
                let llr = s.llr_trinomial(w);
                assert!(llr.abs() < 1e-9, "{model} {elo0} {elo1} {w:?}: {llr}");
            }
            let pairs = Pentanomial([3, 5, 20, 7, 1]);
            let llr = s.llr_pentanomial(&pairs);
            assert!(llr.abs() < 1e-9, "{model} {elo0} {elo1} {pairs:?}: {llr}");
        }
    }
}
