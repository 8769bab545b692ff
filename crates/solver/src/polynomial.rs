//! Polynomial lemmas between equalities modulo `2^w`: when a new equality `Q` is a polynomial
//! combination `Q = Σ mᵢ·Dᵢ` of earlier ones, the encoder adds the clause `D₁ ∧ … ∧ Dₖ ⇒ Q`.
//!
//! Equalities in the normal form of [`crate::linear`] are polynomials over their atoms
//! (monomials like `x*z*z` are products of factors). `Q` is reduced by the others as in the
//! division step of Gröbner bases: the largest term of `Q` that the leading monomial of some
//! `D` divides is cancelled by subtracting a multiple of `D`. The leading coefficient of `D`
//! must be odd (then it is invertible modulo `2^w`). When `Q` reduces to the constant 0,
//! the used `D`s imply `Q`; when it reduces to another constant, they imply `¬Q`. The
//! identity `Q - Σ mᵢ·Dᵢ = c` holds in the ring of integers modulo `2^w`, so each lemma is a
//! tautology of bit-vector arithmetic, whatever the order or the divisors chosen.
//!
//! This is what proves `x*z - x - y + 1 == 0` inductive over `x = x*z + 1; y = y*z`: its
//! weakest precondition is `z` times itself. The SAT solver alone would have to relate the
//! multiplier circuits of `x*z*z`, `x*z` and `y*z` at 64 bits, which it cannot in any
//! reasonable time.
//!
//! Monomial orders tried: lexicographic with the largest atom first (eliminates the variables
//! declared last in terms of earlier ones, as in `x == n*n*n`, `y == 3*n*n + 3*n + 1`), and
//! degree-lexicographic.

use crate::linear::{add_atom, factors, inverse, Equality};
use c_ir::Expr;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A monomial: its factors, largest first (the empty monomial is the constant 1).
pub(crate) type Monomial = Vec<Expr>;

/// `Σ c·m` modulo `2^w` (no zero coefficients).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Polynomial {
    pub w: u32,
    pub terms: BTreeMap<Monomial, u128>,
}

/// Reduction steps per attempt.
const MAX_STEPS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Lex,
    DegLex,
}

pub(crate) const ORDERS: [Order; 2] = [Order::Lex, Order::DegLex];

impl Order {
    fn cmp(self, a: &Monomial, b: &Monomial) -> Ordering {
        match self {
            // factors are sorted largest first, so comparing the vectors compares the
            // exponent vectors lexicographically (a proper prefix is smaller)
            Order::Lex => a.cmp(b),
            Order::DegLex => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        }
    }
}

impl Polynomial {
    /// `Σ c·atom - target` for an equality `Σ c·atom == target`.
    pub(crate) fn of_equality(e: &Equality) -> Polynomial {
        let mask = crate::blast_mask(e.w);
        let mut p = Polynomial { w: e.w, terms: BTreeMap::new() };
        for (atom, c) in &e.atoms {
            let mut m = factors(atom);
            m.sort_by(|a, b| b.cmp(a));
            p.add(m, *c);
        }
        p.add(Vec::new(), 0u128.wrapping_sub(e.target) & mask);
        p
    }

    fn add(&mut self, m: Monomial, c: u128) {
        add_atom(&mut self.terms, &m, c, self.w);
    }

    /// Whether some monomial has two or more factors.
    pub(crate) fn is_nonlinear(&self) -> bool {
        self.terms.keys().any(|m| m.len() >= 2)
    }

    /// The factors of all monomials.
    pub(crate) fn factors(&self) -> impl Iterator<Item = &Expr> {
        self.terms.keys().flatten()
    }

    /// The largest monomial and its coefficient in `order` (`None` for the zero polynomial).
    pub(crate) fn leading(&self, order: Order) -> Option<(&Monomial, u128)> {
        self.terms.iter().max_by(|a, b| order.cmp(a.0, b.0)).map(|(m, c)| (m, *c))
    }

    /// `self - k·m·other`.
    fn subtract_multiple(&mut self, k: u128, m: &Monomial, other: &Polynomial) {
        let mask = crate::blast_mask(self.w);
        for (n, c) in &other.terms {
            let product = multiply(m, n);
            self.add(product, 0u128.wrapping_sub(k.wrapping_mul(*c)) & mask);
        }
    }

    /// The constant, when the polynomial has no other term.
    pub(crate) fn as_constant(&self) -> Option<u128> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }
}

/// `a·b` (both largest factor first).
fn multiply(a: &Monomial, b: &Monomial) -> Monomial {
    let mut out: Monomial = a.iter().chain(b.iter()).cloned().collect();
    out.sort_by(|x, y| y.cmp(x));
    out
}

/// `t / d` when `d` divides `t` (as multisets of factors, both largest first).
fn quotient(t: &Monomial, d: &Monomial) -> Option<Monomial> {
    let mut rest = Vec::with_capacity(t.len());
    let mut j = 0;
    for f in t {
        if j < d.len() && d[j] == *f {
            j += 1;
        } else {
            rest.push(f.clone());
        }
    }
    (j == d.len()).then_some(rest)
}

/// Reduces `q` by `divisors` (each with its leading monomial and odd coefficient in `order`,
/// looked up by `candidates(factor)`): the indices of the divisors used and the constant `q`
/// reduces to, or `None` when a non-constant remainder is left.
pub(crate) fn reduce<'a>(
    q: &Polynomial,
    order: Order,
    candidates: &dyn Fn(&Expr) -> Vec<(usize, &'a Polynomial)>,
) -> Option<(Vec<usize>, u128)> {
    let mut p = q.clone();
    let mut used: Vec<usize> = Vec::new();
    for _ in 0..MAX_STEPS {
        if let Some(c) = p.as_constant() {
            return Some((used, c));
        }
        let mut terms: Vec<(Monomial, u128)> = p.terms.iter().filter(|(m, _)| !m.is_empty()).map(|(m, c)| (m.clone(), *c)).collect();
        terms.sort_by(|a, b| order.cmp(&b.0, &a.0));
        // the largest reducible term, by the divisor with the largest leading monomial (the
        // fewest new terms: `x*z` is better cancelled by `x*z - x - y + 1` than by `z - y`)
        let mut step: Option<(usize, &Polynomial, &Monomial, Monomial, u128)> = None;
        for (t, c) in &terms {
            for f in t {
                for (index, d) in candidates(f) {
                    let Some((lm, lc)) = d.leading(order) else { continue };
                    if lc & 1 == 0 || lm.is_empty() || step.as_ref().is_some_and(|s| order.cmp(lm, s.2) != Ordering::Greater) {
                        continue;
                    }
                    if let Some(m) = quotient(t, lm) {
                        step = Some((index, d, lm, m, c.wrapping_mul(inverse(lc, p.w))));
                    }
                }
            }
            if step.is_some() {
                break;
            }
        }
        let (index, d, _, m, k) = step?;
        p.subtract_multiple(k, &m, d);
        if !used.contains(&index) {
            used.push(index);
        }
    }
    p.as_constant().map(|c| (used, c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{linearize, Linear};
    use c_ir::{BinaryOp, Type, VarId};

    fn var(i: u32) -> Expr {
        Expr::var(VarId(i), Type::LONG)
    }
    fn c(v: i128) -> Expr {
        Expr::int(v, Type::LONG)
    }
    fn add(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Add, a, b)
    }
    fn sub(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Sub, a, b)
    }
    fn mul(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinaryOp::Mul, a, b)
    }
    fn poly(lhs: Expr, rhs: Expr) -> Polynomial {
        Polynomial::of_equality(&Equality::from_sides(&lhs, &rhs, &Type::LONG, 64))
    }

    fn reduce_by(q: &Polynomial, ds: &[Polynomial]) -> Option<(Vec<usize>, u128)> {
        let all: Vec<(usize, &Polynomial)> = ds.iter().enumerate().collect();
        ORDERS.iter().find_map(|&o| reduce(q, o, &|_| all.clone()).filter(|(_, c)| *c == 0))
    }

    #[test]
    fn geometric_series_invariant_is_inductive() {
        // P: x*z - x - y + 1 == 0; after x = x*z + 1, y = y*z: (x*z+1)*z - (x*z+1) - y*z + 1 == 0
        let (x, y, z) = (var(0), var(1), var(2));
        let p = poly(add(sub(sub(mul(x.clone(), z.clone()), x.clone()), y.clone()), c(1)), c(0));
        let x1 = add(mul(x.clone(), z.clone()), c(1));
        let y1 = mul(y.clone(), z.clone());
        let q = poly(add(sub(sub(mul(x1.clone(), z.clone()), x1), y1), c(1)), c(0));
        assert!(q.is_nonlinear());
        assert_eq!(reduce_by(&q, &[p]), Some((vec![0], 0)));
    }

    #[test]
    fn cubes_by_cohen_reduce_to_the_counter() {
        // x == n*n*n, y == 3*n*n + 3*n + 1, z == 6*n + 6 imply x + y == (n+1)*(n+1)*(n+1)
        // and y*z - 18*x - 12*y + 2*z - 6 == 0
        let (n, x, y, z) = (var(0), var(1), var(2), var(3));
        let nn = mul(n.clone(), n.clone());
        let px = poly(x.clone(), mul(nn.clone(), n.clone()));
        let py = poly(y.clone(), add(add(mul(c(3), nn.clone()), mul(c(3), n.clone())), c(1)));
        let pz = poly(z.clone(), add(mul(c(6), n.clone()), c(6)));
        let n1 = add(n.clone(), c(1));
        let q = poly(add(x.clone(), y.clone()), mul(mul(n1.clone(), n1.clone()), n1));
        let ds = [px, py, pz];
        let (used, k) = reduce_by(&q, &ds).expect("reduces");
        assert_eq!(k, 0);
        assert!(used.contains(&0) && used.contains(&1));
        let yz = sub(sub(add(sub(mul(y.clone(), z.clone()), mul(c(18), x.clone())), mul(c(2), z.clone())), mul(c(12), y.clone())), c(6));
        assert!(reduce_by(&poly(yz, c(0)), &ds).is_some());
        // but not x == n*n
        assert!(reduce_by(&poly(x, nn), &ds).is_none());
    }

    #[test]
    fn a_nonzero_remainder_refutes() {
        // x == n*n implies x + 1 != n*n: reduces to the constant 1
        let (n, x) = (var(0), var(1));
        let p = poly(x.clone(), mul(n.clone(), n.clone()));
        let q = poly(add(x, c(1)), mul(n.clone(), n));
        let all = [(0usize, &p)];
        let r = reduce(&q, Order::Lex, &|_| all.to_vec());
        assert_eq!(r.map(|(_, k)| k), Some(1));
    }

    #[test]
    fn even_leading_coefficients_are_not_divided() {
        // 2*x == n*n does not determine x modulo 2^64
        let (n, x) = (var(0), var(1));
        let p = poly(mul(c(2), x.clone()), mul(n.clone(), n.clone()));
        let q = poly(mul(x.clone(), n.clone()), c(7));
        let all = [(0usize, &p)];
        assert_eq!(reduce(&q, Order::Lex, &|_| all.to_vec()), None);
        let mut l = Linear::default();
        linearize(&mul(add(n.clone(), c(1)), add(n.clone(), c(1))), &Type::LONG, 64, 1, &mut l);
        assert_eq!(l.atoms.len(), 2, "(n+1)*(n+1) is n*n + 2*n + 1");
    }
}
