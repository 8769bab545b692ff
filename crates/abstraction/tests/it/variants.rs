//! Precision and semantics variants of the abstraction on the seeds' examples, each a golden file
//! `tests/abstraction/NAME.VARIANT.bp` that differs visibly from the default `NAME.bp`:
//! - `--integers ideal` (signed overflow impossible, the papers' ℤ): polymorphic §4.3's
//!   `x = x + 1` under `{x<5}, {x==2}` gives the paper's `{x<5} := choose({x==2}, !{x<5})`;
//! - `enforce` off (C2BP §5.1): no data invariant between the statements;
//! - points-to off (type-based aliasing only, C2BP §4.2): more aliasing cases in the updates;
//! - `F` distributed over `∧`/`∨` (C2BP §5.2);
//! - the boolean abstraction of assignments beside the cartesian one (C2BP §4.6).

use crate::figures::load;
use abstraction::{abstract_program, AbstractionConfig, Precision, Strategy};
use solver::IntegerSemantics;

fn golden_path(name: &str) -> String {
    format!(
        "{}/../../tests/abstraction/{name}.bp",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Abstracts `name` with the default configuration changed by `change`; checks the result is a
/// valid boolean program that differs from the default golden file, and returns its text.
fn variant(name: &str, change: impl Fn(&mut AbstractionConfig)) -> String {
    let (program, predicates) = load(name);
    let mut config = AbstractionConfig::new(Strategy::Exact);
    change(&mut config);
    let (abstraction, diagnostics) = abstract_program(&program, &predicates, &config);
    assert!(!diagnostics::has_errors(&diagnostics), "{diagnostics:?}");
    assert!(!diagnostics::has_errors(&boolprog::validate(
        &abstraction.program
    )));
    let text = abstraction.print_bebop();
    let default = std::fs::read_to_string(golden_path(name)).expect("default golden file");
    assert_ne!(text, default, "the variant makes no difference on {name}");
    text
}

#[test]
fn ideal_integers_reproduce_polymorphic_4_3() {
    let text = variant("increment", |c| c.solver.integers = IntegerSemantics::Ideal);
    expect_test::expect_file![golden_path("increment.ideal")].assert_eq(&text);
    assert!(
        text.contains("{x < 5}, {x == 2} := choose({x == 2}, !{x < 5}), "),
        "{text}"
    );
    // with wrap-around (the default golden file) x = INT_MAX breaks the negative side
    let wrap = std::fs::read_to_string(golden_path("increment")).unwrap();
    assert!(
        wrap.contains("{x < 5}, {x == 2} := choose({x == 2}, 0), "),
        "{wrap}"
    );
}

#[test]
fn ideal_integers_with_the_lattice_strategy_agree() {
    let (program, predicates) = load("increment");
    let mut config = AbstractionConfig::new(Strategy::Lattice);
    config.solver.integers = IntegerSemantics::Ideal;
    let (abstraction, _) = abstract_program(&program, &predicates, &config);
    let expected = std::fs::read_to_string(golden_path("increment.ideal")).unwrap();
    assert_eq!(abstraction.print_bebop(), expected);
}

#[test]
fn without_enforce_partition_has_no_data_invariant() {
    let text = variant("partition", |c| c.enforce = false);
    expect_test::expect_file![golden_path("partition.no_enforce")].assert_eq(&text);
    assert!(!text.contains("enforce"), "{text}");
}

#[test]
fn type_based_aliasing_only_on_swap() {
    // polymorphic Figs 5/6: the points-to analysis knows `p` and `q` point to the distinct `x`
    // and `y`; by type alone `*p` and `*q` may alias, so each write through one also updates
    // the predicates on the other
    let text = variant("swap", |c| c.points_to = false);
    expect_test::expect_file![golden_path("swap.no_points_to")].assert_eq(&text);
}

#[test]
fn f_distributed_over_and_or_on_swap() {
    let text = variant("swap", |c| c.distribute_f = true);
    expect_test::expect_file![golden_path("swap.distribute_f")].assert_eq(&text);
}

#[test]
fn boolean_abstraction_of_increment_keeps_correlations() {
    // C2BP §4.6: the cartesian abstraction updates {x<5} and {x==2} each on its own; the
    // boolean one enumerates (old valuation, new values) together
    let text = variant("increment", |c| c.precision = Precision::Boolean);
    expect_test::expect_file![golden_path("increment.boolean")].assert_eq(&text);
    assert!(text.contains("if (*) then"), "{text}");
}

/// The boolean abstraction is at least as precise as the cartesian one: every seed example
/// the cartesian boolean program proves safe stays safe.
#[test]
fn boolean_abstraction_is_at_least_as_precise() {
    for name in [
        "increment",
        "swap",
        "inc_deref",
        "lock_pointer",
        "partition",
        "inc_poly",
        "inc_mono",
        "testdev",
    ] {
        let (program, predicates) = load(name);
        let verdict = |precision| {
            let mut config = AbstractionConfig::new(Strategy::Exact);
            config.precision = precision;
            let (abstraction, _) = abstract_program(&program, &predicates, &config);
            model_check::check(&abstraction.program, &model_check::Config::default()).verdict
        };
        let cartesian = verdict(Precision::Cartesian);
        if cartesian == model_check::Verdict::Safe {
            assert_eq!(
                verdict(Precision::Boolean),
                model_check::Verdict::Safe,
                "{name}"
            );
        }
    }
}
