//! Linear equalities modulo `2^w`: the normal form the encoder shares literals through, and
//! the lemmas it derives between them.
//!
//! An integer equality `a == b` whose sides are sums of constant multiples of terms is kept as
//! `Σ c·atom == target (mod 2^w)`, with
//! - the atoms in canonical order and no zero coefficient,
//! - the coefficients divided by the odd part of their greatest common divisor (multiplying
//!   by an odd number is a bijection modulo `2^w`, so `3*i == 3*n` is `i == n`),
//! - the first coefficient positive.
//!
//! Products of two polynomials are distributed when the result stays small, so the atoms are
//! monomials (`y*y`, `n*n*n`, `x*z`) with their factors in canonical order: polynomial
//! invariants and their weakest preconditions (`(y+1)*(y+1) - 2*(x+y+1) + (y+1) == 0` is
//! `y*y - 2*x + y == 0`) meet as the same literal.
//!
//! Two equalities `E₁`, `E₂` that share an atom with coefficient ±1 in one of them combine
//! into `E₁ + k·E₂` without that atom, which holds whenever both do (ring arithmetic modulo
//! `2^w`). When the result is short, the encoder adds the clause `E₁ ∧ E₂ ⇒ E₁ + k·E₂`: from
//! `3*i == a + b` and `a + b == 3*n` the SAT solver then reads `i == n` off one clause instead
//! of rediscovering it through two multiplier circuits, which can take it millions of
//! conflicts.

use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp};
use std::collections::BTreeMap;

/// `-c mod 2^w`.
pub(crate) fn negated(c: u128, w: u32) -> u128 {
    0u128.wrapping_sub(c) & crate::blast_mask(w)
}

/// Whether `c` reads as negative at width `w` (its top bit is set).
pub(crate) fn is_negative(c: u128, w: u32) -> bool {
    w > 0 && (c >> (w - 1)) & 1 == 1
}

/// `c` read as a signed number at width `w`.
fn signed_value(c: u128, w: u32) -> i128 {
    if is_negative(c, w) {
        -(negated(c, w) as i128)
    } else {
        c as i128
    }
}

/// The inverse of the odd number `d` modulo `2^w` (Newton's iteration doubles the correct
/// low bits each step: 1, 2, 4, ... 128).
pub(crate) fn inverse(d: u128, w: u32) -> u128 {
    let mut x: u128 = 1;
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(d.wrapping_mul(x)));
    }
    x & crate::blast_mask(w)
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A linear combination `Σ c·atom + constant` modulo `2^w`; the atoms are sorted.
#[derive(Default)]
pub(crate) struct Linear {
    pub atoms: BTreeMap<Expr, u128>,
    pub constant: u128,
}

/// Adds `coefficient · e` to `linear`, descending through `+`, `-`, unary `-` and
/// multiplication by a constant as long as the node has type `ty` (so its arithmetic is
/// exactly modulo `2^w`); anything else is an atom.
pub(crate) fn linearize(e: &Expr, ty: &Type, w: u32, coefficient: u128, linear: &mut Linear) {
    let mask = crate::blast_mask(w);
    if coefficient & mask == 0 {
        return;
    }
    if e.ty == *ty {
        match &e.kind {
            ExprKind::Const(v) => {
                linear.constant = linear.constant.wrapping_add(coefficient.wrapping_mul(*v as u128)) & mask;
                return;
            }
            ExprKind::Binary(BinaryOp::Add, a, b) => {
                linearize(a, ty, w, coefficient, linear);
                linearize(b, ty, w, coefficient, linear);
                return;
            }
            ExprKind::Binary(BinaryOp::Sub, a, b) => {
                linearize(a, ty, w, coefficient, linear);
                linearize(b, ty, w, negated(coefficient, w), linear);
                return;
            }
            ExprKind::Unary(UnaryOp::Neg, a) => {
                linearize(a, ty, w, negated(coefficient, w), linear);
                return;
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) => {
                if let Some(c) = b.as_const().filter(|_| b.ty == *ty) {
                    linearize(a, ty, w, coefficient.wrapping_mul(c as u128) & mask, linear);
                    return;
                }
                if let Some(c) = a.as_const().filter(|_| a.ty == *ty) {
                    linearize(b, ty, w, coefficient.wrapping_mul(c as u128) & mask, linear);
                    return;
                }
                if let Some(product) = polynomial_product(a, b, ty, w) {
                    for (monomial, c) in &product.atoms {
                        add_atom(&mut linear.atoms, monomial, coefficient.wrapping_mul(*c), w);
                    }
                    linear.constant = linear.constant.wrapping_add(coefficient.wrapping_mul(product.constant)) & mask;
                    return;
                }
            }
            _ => {}
        }
    }
    add_atom(&mut linear.atoms, e, coefficient, w);
}

/// At most this many monomials of degree two or more in a distributed product (each costs a
/// multiplier circuit; the undistributed product costs one).
const MAX_PRODUCT_MONOMIALS: usize = 6;
/// At most this many factors in one monomial.
const MAX_DEGREE: usize = 6;

/// `a * b` distributed into a sum of monomials (products of non-arithmetic atoms in canonical
/// order), when both are polynomials of type `ty` over such atoms and the result stays small.
/// Multiplication distributes over addition modulo `2^w`, so `(y + 1) * (y + 1) - 2*x` and
/// `y*y + 2*y + 1 - 2*x` get one normal form and share the multiplier of `y*y`: a polynomial
/// invariant and its weakest precondition then compare as sums of shared monomials instead of
/// through multiplier circuits, which SAT cannot relate at 64 bits.
fn polynomial_product(a: &Expr, b: &Expr, ty: &Type, w: u32) -> Option<Linear> {
    let (mut left, mut right) = (Linear::default(), Linear::default());
    linearize(a, ty, w, 1, &mut left);
    linearize(b, ty, w, 1, &mut right);
    let terms = |l: &Linear| -> Option<Vec<(Vec<Expr>, u128)>> {
        let mut out: Vec<(Vec<Expr>, u128)> = Vec::new();
        if l.constant != 0 {
            out.push((Vec::new(), l.constant));
        }
        for (atom, c) in &l.atoms {
            let mut factors = Vec::new();
            monomial_factors(atom, ty, &mut factors)?;
            out.push((factors, *c));
        }
        Some(out)
    };
    let (left, right) = (terms(&left)?, terms(&right)?);
    let mut product: BTreeMap<Vec<Expr>, u128> = BTreeMap::new();
    for (f, c) in &left {
        for (g, d) in &right {
            let mut factors: Vec<Expr> = f.iter().chain(g.iter()).cloned().collect();
            if factors.len() > MAX_DEGREE {
                return None;
            }
            factors.sort();
            add_atom(&mut product, &factors, c.wrapping_mul(*d), w);
        }
    }
    if product.keys().filter(|f| f.len() >= 2).count() > MAX_PRODUCT_MONOMIALS {
        return None;
    }
    let mut out = Linear::default();
    for (factors, c) in product {
        let mut factors = factors.into_iter();
        match factors.next() {
            None => out.constant = c,
            Some(first) => {
                let monomial = factors.fold(first, |m, f| Expr::binary(BinaryOp::Mul, m, f));
                add_atom(&mut out.atoms, &monomial, c, w);
            }
        }
    }
    Some(out)
}

/// The factors of an atom of a normal form: those of a monomial, else the atom itself.
pub(crate) fn factors(atom: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    match monomial_factors(atom, &atom.ty, &mut out) {
        Some(()) => out,
        None => vec![atom.clone()],
    }
}

/// The factors of a monomial: a product (of type `ty`) of atoms of type `ty` that are not
/// themselves sums, negations or constants. `None`: `e` is not such a monomial.
fn monomial_factors(e: &Expr, ty: &Type, factors: &mut Vec<Expr>) -> Option<()> {
    if e.ty != *ty {
        return None;
    }
    match &e.kind {
        ExprKind::Binary(BinaryOp::Mul, x, y) if x.as_const().is_none() && y.as_const().is_none() => {
            monomial_factors(x, ty, factors)?;
            monomial_factors(y, ty, factors)
        }
        ExprKind::Const(_) | ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, ..) | ExprKind::Unary(UnaryOp::Neg, _) => None,
        _ => {
            factors.push(e.clone());
            Some(())
        }
    }
}

/// Adds `coefficient · e` to a sum of terms modulo `2^w` (atoms, or monomials as factor lists),
/// dropping a term whose coefficient becomes 0.
pub(crate) fn add_atom<K: Ord + Clone>(atoms: &mut BTreeMap<K, u128>, e: &K, coefficient: u128, w: u32) {
    let entry = atoms.entry(e.clone()).or_insert(0);
    *entry = entry.wrapping_add(coefficient) & crate::blast_mask(w);
    if *entry == 0 {
        atoms.remove(e);
    }
}

/// For a factor that widens an arithmetic term to width `w` (`(long)(z - 1)`), the equality
/// between it and the same sum over widened atoms (`(long)(z - 1) == (long)z - 1`), which
/// holds unless the narrow arithmetic wraps. As an equality it is a divisor for
/// [`crate::polynomial`] lemmas: `x * (long)(z - 1)` then reduces to `x * (long)z - x` where
/// it holds.
pub(crate) fn widening_image(factor: &Expr, w: u32) -> Option<Equality> {
    let ExprKind::Cast(inner) = &factor.kind else { return None };
    let (Type::Int { bits: wide, .. }, Type::Int { bits: narrow, .. }) = (&factor.ty, &inner.ty) else { return None };
    let (wide, narrow) = (*wide as u32, *narrow as u32);
    if wide != w || narrow >= wide || !matches!(inner.kind, ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, ..) | ExprKind::Unary(UnaryOp::Neg, _)) {
        return None;
    }
    let mut linear = Linear::default();
    linearize(inner, &inner.ty, narrow, 1, &mut linear);
    let mask = crate::blast_mask(wide);
    let widened = |c: u128| (signed_value(c, narrow) as u128) & mask;
    // (wide)inner - Σ c·(wide)a == constant
    let mut atoms: BTreeMap<Expr, u128> = BTreeMap::new();
    add_atom(&mut atoms, factor, 1, wide);
    for (a, c) in &linear.atoms {
        if !matches!(a.ty, Type::Int { .. }) {
            return None;
        }
        add_atom(&mut atoms, &Expr::cast(a.clone(), factor.ty.clone()), negated(widened(*c), wide), wide);
    }
    (atoms.len() >= 2).then(|| Equality::normalized(atoms, widened(linear.constant), wide))
}

/// `Σ c·atom == target` modulo `2^w`, in the normal form of the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Equality {
    pub w: u32,
    pub atoms: Vec<(Expr, u128)>,
    pub target: u128,
}

impl Equality {
    /// `a == b` for two terms of the integer type `ty` of width `w`.
    pub(crate) fn from_sides(a: &Expr, b: &Expr, ty: &Type, w: u32) -> Equality {
        let mut linear = Linear::default();
        linearize(a, ty, w, 1, &mut linear);
        linearize(b, ty, w, crate::blast_mask(w), &mut linear);
        // Σ + constant == 0  ⇔  Σ == -constant
        Equality::normalized(linear.atoms, negated(linear.constant, w), w)
    }

    fn normalized(atoms: BTreeMap<Expr, u128>, target: u128, w: u32) -> Equality {
        let mut atoms: Vec<(Expr, u128)> = atoms.into_iter().filter(|(_, c)| *c != 0).collect();
        let mut target = target;
        let g = atoms.iter().fold(0u128, |g, (_, c)| gcd(g, signed_value(*c, w).unsigned_abs()));
        let odd = if g == 0 { 1 } else { g >> g.trailing_zeros() };
        if odd > 1 {
            let mask = crate::blast_mask(w);
            for (_, c) in atoms.iter_mut() {
                *c = ((signed_value(*c, w) / odd as i128) as u128) & mask;
            }
            target = target.wrapping_mul(inverse(odd, w)) & mask;
        }
        if atoms.first().is_some_and(|(_, c)| is_negative(*c, w)) {
            for (_, c) in atoms.iter_mut() {
                *c = negated(*c, w);
            }
            target = negated(target, w);
        }
        Equality { w, atoms, target }
    }

    fn coefficient(&self, atom: &Expr) -> Option<u128> {
        self.atoms.iter().find(|(a, _)| a == atom).map(|(_, c)| *c)
    }

    /// `self + k·other` (or `other + k·self`) without `atom`, when `atom` has coefficient ±1
    /// in one of the two: an equality that holds whenever both do.
    pub(crate) fn eliminate(&self, other: &Equality, atom: &Expr) -> Option<Equality> {
        let w = self.w;
        let unit = |c: u128| c == 1 || c == crate::blast_mask(w);
        let (mine, theirs) = (self.coefficient(atom)?, other.coefficient(atom)?);
        // k = -c_base · c_unit⁻¹, and a unit is its own inverse
        let (base, unit_side, k) = if unit(theirs) {
            (self, other, negated(mine.wrapping_mul(theirs), w))
        } else if unit(mine) {
            (other, self, negated(theirs.wrapping_mul(mine), w))
        } else {
            return None;
        };
        let mut atoms: BTreeMap<Expr, u128> = base.atoms.iter().cloned().collect();
        for (a, c) in &unit_side.atoms {
            add_atom(&mut atoms, a, c.wrapping_mul(k), w);
        }
        let target = base.target.wrapping_add(k.wrapping_mul(unit_side.target)) & crate::blast_mask(w);
        Some(Equality::normalized(atoms, target, w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use c_ir::VarId;
    use proptest::prelude::*;

    fn var(i: u32) -> Expr {
        Expr::var(VarId(i), Type::INT)
    }

    /// `Σ c·x == t` evaluated at `values` (atoms are variables `x0`, `x1`, ...).
    fn holds(e: &Equality, values: &[u128]) -> bool {
        let mask = crate::blast_mask(e.w);
        let sum = e.atoms.iter().fold(0u128, |s, (a, c)| {
            let ExprKind::Var(v) = a.kind else { unreachable!() };
            s.wrapping_add(c.wrapping_mul(values[v.0 as usize]))
        });
        sum & mask == e.target
    }

    fn equality(coefficients: &[i64], target: i64, w: u32) -> Equality {
        let mask = crate::blast_mask(w);
        let atoms = coefficients.iter().enumerate().map(|(i, &c)| (var(i as u32), (c as i128 as u128) & mask)).collect();
        Equality::normalized(atoms, (target as i128 as u128) & mask, w)
    }

    #[test]
    fn inverse_of_odd_numbers() {
        for w in [1, 8, 32, 64, 128] {
            for d in [1u128, 3, 5, 0xAAAA_AAAB, u64::MAX as u128] {
                assert_eq!(d.wrapping_mul(inverse(d, w)) & crate::blast_mask(w), 1 & crate::blast_mask(w), "d = {d}, w = {w}");
            }
        }
    }

    #[test]
    fn odd_factors_and_signs_are_normalised() {
        // 3i - 3n == -3  is  i - n == -1
        let e = equality(&[3, -3], -3, 32);
        assert_eq!(e, equality(&[1, -1], -1, 32));
        // -2i == 4 keeps its even factor: i == -2 and i == 2^31 - 2 both satisfy it
        let e = equality(&[-2], 4, 32);
        assert_eq!(e.atoms[0].1, 2);
        assert_eq!(e.target, (-4i128 as u128) & crate::blast_mask(32));
    }

    #[test]
    fn eliminating_a_shared_sum() {
        // a + b - 3n == 0 and a + b - 3i == 0 give i == n
        let w = 32;
        let first = equality(&[1, 1, -3, 0], 0, w);
        let second = equality(&[1, 1, 0, -3], 0, w);
        let derived = first.eliminate(&second, &var(0)).expect("a has coefficient 1");
        assert_eq!(derived, equality(&[0, 0, 1, -1], 0, w));
    }

    proptest! {
        /// Normalising keeps the set of solutions, and a derived equality holds in every
        /// solution of the two it comes from (8-bit words, brute force over one variable).
        #[test]
        fn normal_form_and_lemmas_are_sound(
            c1 in proptest::collection::vec(-6i64..7, 3),
            c2 in proptest::collection::vec(-6i64..7, 3),
            t1 in -20i64..20,
            t2 in -20i64..20,
            y in 0u128..256,
            z in 0u128..256,
        ) {
            let w = 8;
            let mask = crate::blast_mask(w);
            let raw1: BTreeMap<Expr, u128> = c1.iter().enumerate().map(|(i, &c)| (var(i as u32), (c as i128 as u128) & mask)).collect();
            let e1 = Equality::normalized(raw1.clone(), (t1 as i128 as u128) & mask, w);
            let e2 = equality(&c2, t2, w);
            for x in 0..256u128 {
                let values = [x, y, z];
                let raw_holds = raw1.iter().fold(0u128, |s, (a, c)| {
                    let ExprKind::Var(v) = a.kind else { unreachable!() };
                    s.wrapping_add(c.wrapping_mul(values[v.0 as usize]))
                }) & mask == (t1 as i128 as u128) & mask;
                prop_assert_eq!(holds(&e1, &values), raw_holds);
                for atom in 0..3 {
                    if let Some(d) = e1.eliminate(&e2, &var(atom)) {
                        prop_assert!(d.coefficient(&var(atom)).is_none());
                        if holds(&e1, &values) && holds(&e2, &values) {
                            prop_assert!(holds(&d, &values));
                        }
                    }
                }
            }
        }
    }
}
