//! Polynomial equalities in loops: Karr's analysis over monomials, as candidate predicates.
//!
//! Non-linear loops keep polynomial invariants: `s == (a + 1) * (a + 1)` over
//! `a = a + 1; t = t + 2; s = s + t;`, `x * z - x - y + 1 == 0` over `x = x * z + 1; y = y * z;`.
//! Refinement along one path finds the asserted one at the loop head, but the abstraction
//! looks at one statement at a time and needs its form between the statements of the body
//! too (`s == a * a` after `a = a + 1`), which refinement only finds unrolling by unrolling.
//!
//! The analysis is the affine one of the parent module (on the shared engine, as there) with
//! one dimension per monomial of degree at most `D` over the procedure's arithmetic variables
//! (the linearisation of Rodríguez-Carbonell and Kapur): an assignment `x := p` with a
//! polynomial `p` maps each monomial containing `x` to a polynomial in the old values, an
//! affine expression over the monomials while its degree stays within `D`; a monomial whose
//! new value has a higher degree, or any monomial of a variable assigned something else, is
//! forgotten. Treating monomials as independent dimensions loses how they are tied to each
//! other (`x * x` is the square of `x`), which only costs precision. Like the affine
//! equalities, this ignores wrap-around (each equality over the integers holds modulo `2^w`
//! too, as long as no cast narrows a value) and branch conditions; a candidate is only a name
//! for a formula the abstraction decides.
//!
//! Reported: the equalities at the statements of loops that have a monomial of degree 2 or more,
//! at most [`MAX_TERMS`] terms, and do not follow from the affine equalities at the same
//! statement (`t * a == 2 * a * a + a` from `t == 2 * a + 1`).

use super::{echelon, fixpoint, loop_statements, polynomial_equality_expr, positions, target, tracked_variables, Affine, Linear, Rat, MAX_STATEMENTS};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, UnaryOp, VarId};
use std::collections::BTreeMap;
use budget::hash::HashMap;

/// At most this many monomials (dimensions): degree 3 over up to 5 variables, degree 2 over
/// up to 9.
const MAX_DIMENSIONS: usize = 55;
/// The highest degree tried.
const MAX_DEGREE: usize = 3;
/// Reported equalities have at most this many terms (a dense one is a combination of sparse
/// ones nobody would state, and costs the abstraction more).
const MAX_TERMS: usize = 6;

/// The positions of a monomial's variables, sorted, a variable repeated for its power; the
/// empty monomial is the constant 1.
type Monomial = Vec<usize>;

/// A polynomial over the variables' positions.
type Poly = BTreeMap<Monomial, Rat>;

/// The dimensions of the analysis: every monomial of degree 1 to `degree` over `vars`.
struct Space {
    vars: Vec<VarId>,
    index: HashMap<VarId, usize>,
    degree: usize,
    monomials: Vec<Monomial>,
    dimension: HashMap<Monomial, usize>,
}

impl Space {
    fn new(vars: Vec<VarId>, degree: usize) -> Space {
        let mut monomials: Vec<Monomial> = Vec::new();
        let mut layer: Vec<Monomial> = vec![Vec::new()];
        for _ in 0..degree {
            let mut next = Vec::new();
            for m in &layer {
                let from = m.last().copied().unwrap_or(0);
                for v in from..vars.len() {
                    let mut longer = m.clone();
                    longer.push(v);
                    next.push(longer);
                }
            }
            monomials.extend(next.iter().cloned());
            layer = next;
        }
        let dimension = monomials.iter().enumerate().map(|(i, m)| (m.clone(), i)).collect();
        Space { index: positions(&vars), vars, degree, monomials, dimension }
    }

    fn len(&self) -> usize {
        self.monomials.len()
    }

    /// `p` as an affine expression over the monomials, if its degree is at most the space's.
    fn linear(&self, p: &Poly) -> Option<Linear> {
        let mut l = Linear::constant(self.len(), Rat::ZERO);
        for (m, c) in p {
            if m.is_empty() {
                l.constant = *c;
            } else {
                l.coeffs[*self.dimension.get(m)?] = *c;
            }
        }
        Some(l)
    }

    /// The polynomial value of `e` over the variables, when it is one of degree at most the
    /// space's.
    fn poly(&self, e: &Expr) -> Option<Poly> {
        match &e.kind {
            ExprKind::Const(c) if e.ty.is_integer() => Some(constant(Rat::int(*c))),
            ExprKind::Var(v) => Some(Poly::from([(vec![*self.index.get(v)?], Rat::ONE)])),
            ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => self.poly(inner),
            ExprKind::Unary(UnaryOp::Neg, inner) => scale(&self.poly(inner)?, Rat::int(-1)),
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) if e.ty.is_integer() => {
                let sign = if *op == BinaryOp::Add { Rat::ONE } else { Rat::int(-1) };
                add(&self.poly(a)?, &scale(&self.poly(b)?, sign)?)
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) if e.ty.is_integer() => self.product(&self.poly(a)?, &self.poly(b)?),
            _ => None,
        }
    }

    /// `a * b`, if its degree is at most the space's.
    fn product(&self, a: &Poly, b: &Poly) -> Option<Poly> {
        let mut out = Poly::new();
        for (ma, ca) in a {
            for (mb, cb) in b {
                if ma.len() + mb.len() > self.degree {
                    return None;
                }
                let mut m: Monomial = ma.iter().chain(mb).copied().collect();
                m.sort_unstable();
                accumulate(&mut out, &m, ca.mul(*cb)?)?;
            }
        }
        Some(out)
    }

    /// The new values of the monomials containing variable `x` after `x := value` (`None`:
    /// unknown, also for each monomial whose new value has too high a degree).
    fn assignment(&self, x: usize, value: Option<&Poly>) -> Vec<(usize, Option<Linear>)> {
        let mut changes = Vec::new();
        for (j, m) in self.monomials.iter().enumerate() {
            let power = m.iter().filter(|&&v| v == x).count();
            if power == 0 {
                continue;
            }
            let new = value.and_then(|p| {
                let rest: Monomial = m.iter().copied().filter(|&v| v != x).collect();
                let mut out = Poly::from([(rest, Rat::ONE)]);
                for _ in 0..power {
                    out = self.product(&out, p)?;
                }
                self.linear(&out)
            });
            changes.push((j, new));
        }
        changes
    }
}

fn constant(c: Rat) -> Poly {
    if c.is_zero() {
        Poly::new()
    } else {
        Poly::from([(Vec::new(), c)])
    }
}

fn scale(p: &Poly, k: Rat) -> Option<Poly> {
    p.iter().map(|(m, c)| Some((m.clone(), c.mul(k)?))).filter(|t| t.as_ref().is_none_or(|(_, c)| !c.is_zero())).collect()
}

fn add(a: &Poly, b: &Poly) -> Option<Poly> {
    let mut out = a.clone();
    for (m, c) in b {
        accumulate(&mut out, m, *c)?;
    }
    Some(out)
}

/// Adds `c·m` to `p`, dropping the term when its coefficient becomes zero (`None`: overflow).
fn accumulate(p: &mut Poly, m: &Monomial, c: Rat) -> Option<()> {
    let sum = p.get(m).copied().unwrap_or(Rat::ZERO).add(c)?;
    if sum.is_zero() {
        p.remove(m);
    } else {
        p.insert(m.clone(), sum);
    }
    Some(())
}

/// Polynomial equalities (of degree 2 or more) that hold at statements of the loops of `proc`,
/// as C predicates with the index of their statement; see the module documentation. Empty
/// when the procedure has no loop, is too large or has too many arithmetic variables, or the
/// rationals overflow.
pub fn polynomial_loop_equalities(program: &Program, proc: ProcId) -> Vec<(u32, Expr)> {
    analyse(program, proc).unwrap_or_default()
}

fn analyse(program: &Program, proc: ProcId) -> Option<Vec<(u32, Expr)>> {
    let p = program.proc(proc);
    if p.body.len() > MAX_STATEMENTS {
        return Some(Vec::new());
    }
    let vars = arithmetic_variables(program, proc);
    let count = |degree: usize| (1..=degree).fold((1usize, 0usize), |(layer, total), d| {
        let layer = layer * (vars.len() + d - 1) / d;
        (layer, total + layer)
    }).1;
    let Some(degree) = (2..=MAX_DEGREE).rev().find(|&d| count(d) <= MAX_DIMENSIONS) else { return Some(Vec::new()) };
    if vars.len() < 2 {
        return Some(Vec::new());
    }
    let space = Space::new(vars, degree);
    let n = space.len();
    let globals: Vec<usize> = program.globals.iter().filter_map(|g| space.index.get(g).copied()).collect();
    let forget = |s: Affine, written: &[usize]| -> Option<Affine> {
        let changes: Vec<(usize, Option<Linear>)> = written.iter().flat_map(|&x| space.assignment(x, None)).collect();
        s.update(&changes)
    };
    let state = fixpoint(program, proc, Affine::full(n), |kind, before| match kind {
        StmtKind::Assign { lhs, rhs } => match target(lhs, &space.index) {
            Some(x) => before.update(&space.assignment(x, space.poly(rhs).as_ref())),
            None => Some(before),
        },
        StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => match target(lhs, &space.index) {
            Some(x) => forget(before, &[x]),
            None => Some(before),
        },
        StmtKind::Call { lhs, .. } => {
            // the callee may change any global; the result is unknown
            let mut written = globals.clone();
            written.extend(lhs.as_ref().and_then(|l| target(l, &space.index)));
            forget(before, &written)
        }
        _ => Some(before),
    })?;
    let (_, in_loop) = loop_statements(p, &state);
    let mut out: Vec<(u32, Expr)> = Vec::new();
    let mut seen: Vec<(Vec<i128>, i128)> = Vec::new();
    for (i, s) in state.iter().enumerate() {
        let (true, Some(s)) = (in_loop[i], s) else { continue };
        for (coeffs, constant) in new_equalities(&space, &s.equalities()?)? {
            if seen.contains(&(coeffs.clone(), constant)) {
                continue;
            }
            let terms: Vec<(Vec<VarId>, i128)> = space.monomials.iter().zip(&coeffs).map(|(m, c)| (m.iter().map(|&v| space.vars[v]).collect(), *c)).collect();
            out.push((i as u32, polynomial_equality_expr(program, &terms, constant)));
            seen.push((coeffs, constant));
        }
    }
    Some(out)
}

/// Of the equalities `a·m == c` over the monomials, those of degree 2 or more with at most
/// [`MAX_TERMS`] terms that do not follow from the affine ones and the ones taken before them
/// (lower degrees and fewer terms first): an equality `p == c` of degree `k` gives
/// `p * m == c * m` for every monomial `m` of degree up to `D - k`.
fn new_equalities(space: &Space, equalities: &[(Vec<i128>, i128)]) -> Option<Vec<(Vec<i128>, i128)>> {
    let n = space.len();
    let degree = |coeffs: &[i128]| coeffs.iter().zip(&space.monomials).filter(|(c, _)| **c != 0).map(|(_, m)| m.len()).max().unwrap_or(0);
    let terms = |coeffs: &[i128]| coeffs.iter().filter(|c| **c != 0).count();
    // `p == c` and its multiples, as rows over the monomials then the constant
    let multiples = |coeffs: &[i128], constant: i128| -> Vec<Vec<Rat>> {
        let k = degree(coeffs);
        let mut rows = vec![coeffs.iter().chain(std::iter::once(&constant)).map(|&c| Rat::int(c)).collect::<Vec<_>>()];
        for (j, m) in space.monomials.iter().enumerate().filter(|(_, m)| m.len() + k <= space.degree) {
            let mut r = vec![Rat::ZERO; n + 1];
            for (c, v) in coeffs.iter().zip(&space.monomials).filter(|(c, _)| **c != 0) {
                let mut product: Monomial = m.iter().chain(v).copied().collect();
                product.sort_unstable();
                r[space.dimension[&product]] = Rat::int(*c);
            }
            r[j] = Rat::int(-constant);
            rows.push(r);
        }
        rows
    };
    let mut sorted: Vec<&(Vec<i128>, i128)> = equalities.iter().collect();
    sorted.sort_by_key(|(c, _)| (degree(c), terms(c)));
    let mut basis: Vec<Vec<Rat>> = Vec::new();
    let mut out = Vec::new();
    for (coeffs, constant) in sorted {
        let affine = degree(coeffs) <= 1;
        if !affine && terms(coeffs) > MAX_TERMS {
            continue;
        }
        let mut rows = basis.clone();
        rows.extend(multiples(coeffs, *constant));
        let reduced = echelon(rows, n + 1)?;
        if reduced.len() > basis.len() {
            basis = reduced;
            if !affine {
                out.push((coeffs.clone(), *constant));
            }
        }
    }
    Some(out)
}

/// The tracked variables the procedure's assignments compute with: those assigned or read by
/// an assignment to a tracked variable inside a loop, and those read by an assignment to one
/// of them before (`a = x;` brings `x`).
fn arithmetic_variables(program: &Program, proc: ProcId) -> Vec<VarId> {
    let p = program.proc(proc);
    let tracked = tracked_variables(program, proc);
    let index = positions(&tracked);
    let edges = super::back_edges(p);
    let in_loop = |i: usize| edges.iter().any(|&(head, source)| (head..=source).contains(&i));
    let mut used = vec![false; tracked.len()];
    let assignments: Vec<(usize, usize, &Expr)> = p
        .body
        .iter()
        .enumerate()
        .filter_map(|(i, stmt)| match &stmt.kind {
            StmtKind::Assign { lhs, rhs } => target(lhs, &index).map(|x| (i, x, rhs)),
            _ => None,
        })
        .collect();
    let mark = |used: &mut Vec<bool>, x: usize, rhs: &Expr| {
        used[x] = true;
        for v in rhs.vars() {
            if let Some(&y) = index.get(&v) {
                used[y] = true;
            }
        }
    };
    for &(i, x, rhs) in &assignments {
        if in_loop(i) {
            mark(&mut used, x, rhs);
        }
    }
    for &(i, x, rhs) in &assignments {
        if !in_loop(i) && used[x] {
            mark(&mut used, x, rhs);
        }
    }
    tracked.into_iter().zip(used).filter(|(_, u)| *u).map(|(v, _)| v).collect()
}
