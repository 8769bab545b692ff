//! Solver answers against brute-force enumeration of all valuations (4-bit and 8-bit).

use crate::builder::Builder;
use crate::generate::{Rng, Vocabulary};
use c_ir::{Expr, ExprKind, Type};
use proptest::prelude::*;
use solver::{evaluate, Answer, Solver, SolverConfig};

const UCHAR: Type = Type::Int { bits: 8, signed: false };

/// Enumerates all valuations of `vars` (each `width` bits, normalised into its type).
fn all_valuations(vars: &[Expr], config: &SolverConfig) -> Vec<Vec<i128>> {
    let widths: Vec<u32> = vars.iter().map(|v| solver::type_width(config, &v.ty).unwrap_or(1)).collect();
    let total: u32 = widths.iter().sum();
    (0u64..(1u64 << total))
        .map(|code| {
            let mut shift = 0;
            vars.iter()
                .zip(widths.iter())
                .map(|(v, &w)| {
                    let bits = ((code >> shift) as u128) & logic::eval::mask(w);
                    shift += w;
                    logic::eval::from_bits(bits, w, v.ty.is_signed())
                })
                .collect()
        })
        .collect()
}

fn value_under(vars: &[Expr], valuation: &[i128]) -> impl Fn(&Expr) -> Option<i128> {
    let owned: Vec<(c_ir::VarId, i128)> = vars.iter().map(Builder::id).zip(valuation.iter().copied()).collect();
    move |e: &Expr| match e.kind {
        ExprKind::Var(v) => owned.iter().find(|(id, _)| *id == v).map(|(_, x)| *x),
        _ => None,
    }
}

fn check_against_brute_force(b: &Builder, vars: &[Expr], formula: &Expr, config: &SolverConfig) -> Result<(), TestCaseError> {
    let valuations = all_valuations(vars, config);
    let mut satisfying = 0usize;
    for val in &valuations {
        let leaf = value_under(vars, val);
        let v = evaluate(formula, config, &leaf).expect("evaluable");
        if v != 0 {
            satisfying += 1;
        }
    }
    let shown = b.show(formula);
    let mut solver = Solver::new(&b.program, config);
    let sat = solver.is_satisfiable(formula);
    prop_assert_eq!(sat.clone(), if satisfying > 0 { Answer::Yes } else { Answer::No }, "satisfiable? {}", shown);
    if sat == Answer::Yes {
        // the model satisfies the formula
        let model = solver.last_model().cloned().unwrap_or_default();
        let leaf = |e: &Expr| match e.kind {
            ExprKind::Var(v) => Some(model.iter().find(|(id, _)| *id == v).map(|(_, x)| *x).unwrap_or(0)),
            _ => None,
        };
        prop_assert_eq!(evaluate(formula, config, &leaf), Some(1), "model {:?} of {}", model, shown);
    }
    let valid = solver.is_valid(formula);
    prop_assert_eq!(valid, if satisfying == valuations.len() { Answer::Yes } else { Answer::No }, "valid? {}", shown);
    Ok(())
}

fn four_bit_setup() -> (Builder, Vec<Expr>, SolverConfig) {
    let mut b = Builder::new();
    let x = b.var("x", Type::INT);
    let y = b.var("y", Type::UINT);
    let z = b.var("z", Type::INT);
    (b, vec![x, y, z], SolverConfig::with_int_width(4))
}

fn eight_bit_setup() -> (Builder, Vec<Expr>, SolverConfig) {
    let mut b = Builder::new();
    let x = b.var("x", Type::CHAR);
    let y = b.var("y", UCHAR);
    (b, vec![x, y], SolverConfig::c_semantics())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn four_bit_formulas_agree_with_brute_force(seed in any::<u64>()) {
        let (b, vars, config) = four_bit_setup();
        let voc = Vocabulary { vars: vars.clone(), types: vec![Type::INT, Type::UINT], extra_leaves: vec![], width: 4 };
        let mut rng = Rng::new(seed);
        let f = voc.formula(&mut rng, 4);
        check_against_brute_force(&b, &vars, &f, &config)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, failure_persistence: None, .. ProptestConfig::default() })]
    #[test]
    fn eight_bit_formulas_agree_with_brute_force(seed in any::<u64>()) {
        let (b, vars, config) = eight_bit_setup();
        // C widths: char and unsigned char variables, int and short intermediates
        let voc = Vocabulary {
            vars: vars.clone(),
            types: vec![Type::CHAR, UCHAR, Type::INT, Type::Int { bits: 16, signed: false }],
            extra_leaves: vec![],
            width: 32,
        };
        let mut rng = Rng::new(seed);
        let f = voc.formula(&mut rng, 3);
        check_against_brute_force(&b, &vars, &f, &config)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, .. ProptestConfig::default() })]
    /// A random term at 4 or 8 bits takes exactly the reference value at a random point.
    #[test]
    fn terms_take_their_reference_values(seed in any::<u64>(), wide in any::<bool>()) {
        let (b, vars, config) = if wide { eight_bit_setup() } else { four_bit_setup() };
        let types = if wide { vec![Type::CHAR, UCHAR, Type::INT] } else { vec![Type::INT, Type::UINT] };
        let voc = Vocabulary { vars: vars.clone(), types: types.clone(), extra_leaves: vec![], width: if wide { 32 } else { 4 } };
        let mut rng = Rng::new(seed);
        let ty = types[rng.below(types.len() as u64) as usize].clone();
        let t = voc.term(&mut rng, &ty, 4);
        let point: Vec<i128> = vars.iter().map(|v| voc.constant(&mut rng, &v.ty).as_const().unwrap_or(0)).collect();
        let expected = evaluate(&t, &config, &value_under(&vars, &point)).expect("evaluable");
        let mut pins: Vec<Expr> = vars.iter().zip(point.iter()).map(|(v, &x)| Expr::eq(v.clone(), Expr::int(x, v.ty.clone()))).collect();
        pins.push(Expr::binary(c_ir::BinaryOp::Ne, t.clone(), Expr::int(expected, ty.clone())));
        let mut solver = Solver::new(&b.program, &config);
        prop_assert_eq!(solver.is_satisfiable(&solver::and_all(&pins)), Answer::No, "{} at {:?} should be {}", b.show(&t), point, expected);
        pins.pop();
        let eq = Expr::eq(t.clone(), Expr::int(expected, ty));
        prop_assert_eq!(solver.implies(&pins, &eq), Answer::Yes);
    }
}

/// A random term of `+`, `-`, unary `-`, multiplication by constants and casts: the shapes
/// the encoder's linear normal form rewrites; with `products`, also products of two terms
/// (which it distributes into monomials).
fn linear_term(voc: &Vocabulary, rng: &mut Rng, ty: &Type, depth: u32) -> Expr {
    term_with(voc, rng, ty, depth, false)
}

fn term_with(voc: &Vocabulary, rng: &mut Rng, ty: &Type, depth: u32, products: bool) -> Expr {
    use c_ir::{BinaryOp, UnaryOp};
    if depth == 0 || rng.chance(20) {
        let leaves: Vec<Expr> = voc.vars.iter().filter(|v| v.ty == *ty).cloned().collect();
        if !leaves.is_empty() && rng.chance(75) {
            return leaves[rng.below(leaves.len() as u64) as usize].clone();
        }
        return voc.constant(rng, ty);
    }
    let d = depth - 1;
    let binary = |op: BinaryOp, a: Expr, b: Expr| Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty.clone());
    let sub = |rng: &mut Rng, ty: &Type| term_with(voc, rng, ty, d, products);
    match rng.below(6) {
        0 | 1 => binary(BinaryOp::Add, sub(rng, ty), sub(rng, ty)),
        2 => binary(BinaryOp::Sub, sub(rng, ty), sub(rng, ty)),
        3 => Expr::new(ExprKind::Unary(UnaryOp::Neg, Box::new(sub(rng, ty))), ty.clone()),
        4 if products && rng.chance(60) => binary(BinaryOp::Mul, sub(rng, ty), sub(rng, ty)),
        4 => {
            let (a, c) = (sub(rng, ty), voc.constant(rng, ty));
            if rng.chance(50) {
                binary(BinaryOp::Mul, a, c)
            } else {
                binary(BinaryOp::Mul, c, a)
            }
        }
        _ => {
            let from = voc.types[rng.below(voc.types.len() as u64) as usize].clone();
            Expr::new(ExprKind::Cast(Box::new(term_with(voc, rng, &from, d, products))), ty.clone())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]
    /// Equalities and comparisons of linear terms (moved to one side and sign-normalised by
    /// the encoder) agree with brute force, at 4 bits and at C's char/short/int widths.
    #[test]
    fn linear_equalities_agree_with_brute_force(seed in any::<u64>(), wide in any::<bool>()) {
        let (b, vars, config) = if wide { eight_bit_setup() } else { four_bit_setup() };
        let types = if wide { vec![Type::CHAR, UCHAR, Type::INT, Type::Int { bits: 16, signed: false }] } else { vec![Type::INT, Type::UINT] };
        let voc = Vocabulary { vars: vars.clone(), types: types.clone(), extra_leaves: vec![], width: if wide { 32 } else { 4 } };
        let mut rng = Rng::new(seed);
        let mut atoms = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let ty = types[rng.below(types.len() as u64) as usize].clone();
            let op = [c_ir::BinaryOp::Eq, c_ir::BinaryOp::Ne, c_ir::BinaryOp::Lt, c_ir::BinaryOp::Ge][rng.below(4) as usize];
            atoms.push(Expr::binary(op, linear_term(&voc, &mut rng, &ty, 4), linear_term(&voc, &mut rng, &ty, 4)));
        }
        check_against_brute_force(&b, &vars, &solver::and_all(&atoms), &config)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, .. ProptestConfig::default() })]
    /// Conjunctions of (dis)equalities between polynomials (distributed into monomials, and
    /// related by the polynomial lemmas when they share factors) agree with brute force.
    #[test]
    fn polynomial_equalities_agree_with_brute_force(seed in any::<u64>(), wide in any::<bool>()) {
        let (b, vars, config) = if wide { eight_bit_setup() } else { four_bit_setup() };
        let types = if wide { vec![Type::CHAR, Type::INT] } else { vec![Type::INT, Type::UINT] };
        let voc = Vocabulary { vars: vars.clone(), types: types.clone(), extra_leaves: vec![], width: if wide { 32 } else { 4 } };
        let mut rng = Rng::new(seed);
        let mut atoms = Vec::new();
        for _ in 0..2 + rng.below(3) {
            let ty = types[rng.below(types.len() as u64) as usize].clone();
            let op = [c_ir::BinaryOp::Eq, c_ir::BinaryOp::Eq, c_ir::BinaryOp::Ne, c_ir::BinaryOp::Lt][rng.below(4) as usize];
            atoms.push(Expr::binary(op, term_with(&voc, &mut rng, &ty, 3, true), term_with(&voc, &mut rng, &ty, 3, true)));
        }
        check_against_brute_force(&b, &vars, &solver::and_all(&atoms), &config)?;
    }
}

#[test]
fn division_and_shift_edge_cases() {
    let (b, vars, config) = four_bit_setup();
    let (x, y) = (&vars[0], &vars[1]);
    use c_ir::BinaryOp::*;
    let bin = |op, a: &Expr, c: &Expr| Expr::binary(op, a.clone(), c.clone());
    let cases = [
        bin(Eq, &bin(Div, x, &Expr::int(0, Type::INT)), &Expr::int(-1, Type::INT)),
        bin(Eq, &bin(Rem, x, &Expr::int(0, Type::INT)), x),
        bin(Eq, &bin(Div, &Expr::int(-8, Type::INT), &Expr::int(-1, Type::INT)), &Expr::int(-8, Type::INT)),
        bin(Eq, &bin(Shl, y, &Expr::int(200, Type::INT)), &Expr::int(0, Type::UINT)),
        bin(Eq, &bin(Shr, x, &Expr::int(-1, Type::INT)), x),
        bin(Lt, &bin(Add, x, &Expr::int(1, Type::INT)), x),
        // -1 / 4 is 0: the biased dividend -1 + 3 is non-negative
        bin(Implies, &bin(Eq, x, &Expr::int(-1, Type::INT)), &bin(Eq, &bin(Div, x, &Expr::int(4, Type::INT)), &Expr::int(0, Type::INT))),
        bin(Implies, &bin(Eq, x, &Expr::int(-3, Type::INT)), &bin(Eq, &bin(Rem, x, &Expr::int(2, Type::INT)), &Expr::int(-1, Type::INT))),
    ];
    for f in &cases {
        check_against_brute_force(&b, &vars, f, &config).unwrap_or_else(|e| panic!("{}: {e}", b.show(f)));
    }
    // overflow: x + 1 < x is satisfiable (x = 7 at 4 bits)
    let mut s = Solver::new(&b.program, &config);
    assert_eq!(s.is_satisfiable(&cases[5]), Answer::Yes);
    assert_eq!(s.last_model().cloned(), Some(vec![(crate::builder::Builder::id(x), 7)]));
}


/// Division and remainder by every nonzero constant (encoded as `a == q·c + r` with fresh `q`,
/// `r`, not with the divider circuit), signed and unsigned, agree with evaluation on every
/// 4-bit dividend.
#[test]
fn division_by_constants_matches_evaluation() {
    let (b, vars, config) = four_bit_setup();
    let mut checked = 0;
    for var in [&vars[0], &vars[1]] {
        let ty = var.ty.clone();
        for c in -8i128..16 {
            let divisor = Expr::int(c, ty.clone());
            if evaluate(&divisor, &config, &|_| None) == Some(0) {
                continue;
            }
            for op in [c_ir::BinaryOp::Div, c_ir::BinaryOp::Rem] {
                let term = Expr::binary(op, var.clone(), divisor.clone());
                for v in all_valuations(std::slice::from_ref(var), &config) {
                    let value = Expr::int(v[0], ty.clone());
                    let expected = evaluate(&term, &config, &|e: &Expr| matches!(e.kind, ExprKind::Var(_)).then_some(v[0])).expect("evaluable");
                    let claim = Expr::binary(
                        c_ir::BinaryOp::Implies,
                        Expr::binary(c_ir::BinaryOp::Eq, var.clone(), value),
                        Expr::binary(c_ir::BinaryOp::Eq, term.clone(), Expr::int(expected, ty.clone())),
                    );
                    let mut solver = Solver::new(&b.program, &config);
                    assert_eq!(solver.is_valid(&claim), Answer::Yes, "{} with {} = {}", b.show(&claim), b.show(var), v[0]);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 700, "{checked}");
}
