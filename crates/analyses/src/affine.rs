//! Affine equalities at loop heads (Karr's analysis, 1976), as candidate predicates.
//!
//! Path-based refinement sees one unrolling of a loop at a time and tends to find `i == 1`,
//! `i == 2`, ... where the proof needs a relation such as `k + j == i`. This forward analysis
//! computes, for every statement of one procedure, an affine subspace containing all states
//! over the procedure's integer variables (those whose address is never taken), ignoring the
//! wrap-around of machine integers and every branch condition. The equalities that hold at a
//! statement inside a loop and relate two or more variables become candidate predicates: a predicate is
//! only a name for a formula, the abstraction decides its truth soundly, so an imprecise or
//! even wrong candidate costs time, never soundness.
//!
//! The subspace is kept in generator form — one point and independent directions over the
//! rationals — so that join (affine hull), assignment of an affine expression (an affine map)
//! and havoc (one more direction) are all simple; every state change raises the dimension, so
//! the fixpoint needs at most `n + 1` changes per statement. Rationals are `i128` fractions;
//! an overflow abandons the procedure (no candidates).
//!
//! The iteration is the shared engine's ([`crate::fixpoint`]) with [`Strategy::Worklist`]:
//! the subspaces are a domain (`Karr`) whose join is the affine hull and that needs no
//! widening (the lattice has height `n + 1`), and a statement is re-evaluated (one Gaussian
//! elimination) only when its state changed. The same domain runs the polynomial equalities
//! ([`polynomial_loop_equalities`], over monomials); the procedure summaries
//! ([`call_relations`]) run the engine once per procedure and round of their bottom-up
//! iteration, with their own domain (two subspaces per statement).

use crate::fixpoint::{Config, Domain, Engine, Fail, Strategy};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, UnaryOp, VarId};
use budget::hash::HashMap;

mod polynomial;
mod summaries;
pub use polynomial::polynomial_loop_equalities;
pub use summaries::call_relations;

/// Procedures with more tracked variables or statements than this are not analysed.
const MAX_VARIABLES: usize = 64;
const MAX_STATEMENTS: usize = 4000;
/// Statements per entry into a loop whose equalities [`loop_equalities`] also reports.
const ENTRY_BLOCK_STATEMENTS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rat {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    gcd_unsigned(a.unsigned_abs(), b.unsigned_abs()) as i128
}

fn gcd_unsigned(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Rat {
    const ZERO: Rat = Rat { num: 0, den: 1 };
    const ONE: Rat = Rat { num: 1, den: 1 };

    fn int(n: i128) -> Rat {
        Rat { num: n, den: 1 }
    }
    fn new(num: i128, den: i128) -> Option<Rat> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let (mut num, mut den) = (num / g, den / g);
        if den < 0 {
            num = num.checked_neg()?;
            den = den.checked_neg()?;
        }
        Some(Rat { num, den })
    }
    fn is_zero(self) -> bool {
        self.num == 0
    }
    fn add(self, o: Rat) -> Option<Rat> {
        Rat::new(self.num.checked_mul(o.den)?.checked_add(o.num.checked_mul(self.den)?)?, self.den.checked_mul(o.den)?)
    }
    fn neg(self) -> Option<Rat> {
        Some(Rat { num: self.num.checked_neg()?, den: self.den })
    }
    fn sub(self, o: Rat) -> Option<Rat> {
        self.add(o.neg()?)
    }
    fn mul(self, o: Rat) -> Option<Rat> {
        Rat::new(self.num.checked_mul(o.num)?, self.den.checked_mul(o.den)?)
    }
    fn div(self, o: Rat) -> Option<Rat> {
        Rat::new(self.num.checked_mul(o.den)?, self.den.checked_mul(o.num)?)
    }
}

/// An affine expression over the tracked variables: coefficients and a constant.
#[derive(Clone, Debug)]
struct Linear {
    coeffs: Vec<Rat>,
    constant: Rat,
}

impl Linear {
    fn constant(n: usize, c: Rat) -> Linear {
        Linear { coeffs: vec![Rat::ZERO; n], constant: c }
    }
    fn combine(&self, other: &Linear, sign: Rat) -> Option<Linear> {
        let coeffs = self.coeffs.iter().zip(&other.coeffs).map(|(a, b)| a.add(b.mul(sign)?)).collect::<Option<Vec<_>>>()?;
        Some(Linear { coeffs, constant: self.constant.add(other.constant.mul(sign)?)? })
    }
    fn scale(&self, k: Rat) -> Option<Linear> {
        let coeffs = self.coeffs.iter().map(|a| a.mul(k)).collect::<Option<Vec<_>>>()?;
        Some(Linear { coeffs, constant: self.constant.mul(k)? })
    }
    fn as_constant(&self) -> Option<Rat> {
        self.coeffs.iter().all(|c| c.is_zero()).then_some(self.constant)
    }
}

/// An affine subspace: `point + span(directions)`, the directions in reduced row echelon form.
#[derive(Clone, Debug, PartialEq)]
struct Affine {
    point: Vec<Rat>,
    directions: Vec<Vec<Rat>>,
}

/// Reduced row echelon form of `rows` (zero rows dropped).
fn echelon(mut rows: Vec<Vec<Rat>>, n: usize) -> Option<Vec<Vec<Rat>>> {
    let mut pivot_row = 0;
    for col in 0..n {
        let Some(r) = (pivot_row..rows.len()).find(|&r| !rows[r][col].is_zero()) else { continue };
        rows.swap(pivot_row, r);
        let p = rows[pivot_row][col];
        let normalised = rows[pivot_row].iter().map(|x| x.div(p)).collect::<Option<Vec<_>>>()?;
        rows[pivot_row] = normalised;
        for r in 0..rows.len() {
            if r != pivot_row && !rows[r][col].is_zero() {
                let f = rows[r][col];
                let updated = rows[r].iter().zip(&rows[pivot_row]).map(|(a, b)| a.sub(b.mul(f)?)).collect::<Option<Vec<_>>>()?;
                rows[r] = updated;
            }
        }
        pivot_row += 1;
    }
    rows.truncate(pivot_row);
    Some(rows)
}

impl Affine {
    fn full(n: usize) -> Affine {
        let directions = (0..n).map(|i| (0..n).map(|j| if i == j { Rat::ONE } else { Rat::ZERO }).collect()).collect();
        Affine { point: vec![Rat::ZERO; n], directions }
    }

    /// The affine hull of both.
    fn join(&self, other: &Affine) -> Option<Affine> {
        let n = self.point.len();
        let mut rows = self.directions.clone();
        rows.extend(other.directions.iter().cloned());
        rows.push(other.point.iter().zip(&self.point).map(|(a, b)| a.sub(*b)).collect::<Option<Vec<_>>>()?);
        Some(Affine { point: self.point.clone(), directions: echelon(rows, n)? })
    }

    /// Whether `other` lies in this subspace: its point's offset and its directions reduce to
    /// zero by the directions here (in reduced row echelon form, each pivot 1). `false` when
    /// the rationals overflow.
    fn contains(&self, other: &Affine) -> bool {
        if self == other {
            return true;
        }
        let pivots: Vec<Option<usize>> = self.directions.iter().map(|row| row.iter().position(|x| !x.is_zero())).collect();
        let in_span = |mut v: Vec<Rat>| -> Option<bool> {
            for (row, p) in self.directions.iter().zip(&pivots) {
                let f = p.and_then(|p| v.get(p).copied()).unwrap_or(Rat::ZERO);
                if !f.is_zero() {
                    for (x, r) in v.iter_mut().zip(row) {
                        *x = x.sub(r.mul(f)?)?;
                    }
                }
            }
            Some(v.iter().all(|x| x.is_zero()))
        };
        let offset = other.point.iter().zip(&self.point).map(|(a, b)| a.sub(*b)).collect::<Option<Vec<_>>>();
        offset.and_then(in_span) == Some(true) && other.directions.iter().all(|d| in_span(d.clone()) == Some(true))
    }

    /// `x := e`.
    fn assign(&self, x: usize, e: &Linear) -> Option<Affine> {
        self.update(&[(x, Some(e.clone()))])
    }

    /// `x := *`.
    fn havoc(&self, x: usize) -> Option<Affine> {
        self.update(&[(x, None)])
    }

    /// The simultaneous update of several dimensions, each to an affine expression over the
    /// old values or (`None`) to anything.
    fn update(&self, changes: &[(usize, Option<Linear>)]) -> Option<Affine> {
        let n = self.point.len();
        let dot = |v: &[Rat], e: &Linear| -> Option<Rat> { v.iter().zip(&e.coeffs).try_fold(Rat::ZERO, |acc, (a, c)| acc.add(a.mul(*c)?)) };
        let mut point = self.point.clone();
        let mut rows = Vec::new();
        for (x, e) in changes {
            if let Some(e) = e {
                point[*x] = dot(&self.point, e)?.add(e.constant)?;
            }
        }
        for d in &self.directions {
            let mut d2 = d.clone();
            for (x, e) in changes {
                d2[*x] = match e {
                    Some(e) => dot(d, e)?,
                    None => Rat::ZERO,
                };
            }
            rows.push(d2);
        }
        for (x, e) in changes {
            if e.is_none() {
                rows.push((0..n).map(|j| if j == *x { Rat::ONE } else { Rat::ZERO }).collect());
            }
        }
        Some(Affine { point, directions: echelon(rows, n)? })
    }

    /// The intersection with the hyperplane `e == 0`: `Some(None)` when it is empty, `None`
    /// when the rationals overflow.
    fn meet_zero(&self, e: &Linear) -> Option<Option<Affine>> {
        let n = self.point.len();
        let dot = |v: &[Rat]| -> Option<Rat> { v.iter().zip(&e.coeffs).try_fold(Rat::ZERO, |acc, (a, c)| acc.add(a.mul(*c)?)) };
        // the value of `e` at the point, and its change along each direction
        let at_point = dot(&self.point)?.add(e.constant)?;
        let slopes = self.directions.iter().map(|d| dot(d)).collect::<Option<Vec<_>>>()?;
        let Some(pivot) = slopes.iter().position(|s| !s.is_zero()) else {
            // `e` is constant on the subspace
            return Some(at_point.is_zero().then(|| self.clone()));
        };
        // move the point along the pivot direction onto the hyperplane, and keep the
        // combinations of directions along which `e` does not change
        let t = at_point.neg()?.div(slopes[pivot])?;
        let pd = &self.directions[pivot];
        let point = self.point.iter().zip(pd).map(|(p, d)| p.add(d.mul(t)?)).collect::<Option<Vec<_>>>()?;
        let mut rows = Vec::new();
        for (j, (d, s)) in self.directions.iter().zip(&slopes).enumerate() {
            if j == pivot {
                continue;
            }
            let f = s.div(slopes[pivot])?;
            rows.push(d.iter().zip(pd).map(|(a, b)| a.sub(b.mul(f)?)).collect::<Option<Vec<_>>>()?);
        }
        Some(Some(Affine { point, directions: echelon(rows, n)? }))
    }

    /// The image under the projection onto `dims` (in that order; `None` entries are
    /// unconstrained dimensions).
    fn project(&self, dims: &[Option<usize>]) -> Option<Affine> {
        let m = dims.len();
        let pick = |v: &[Rat]| dims.iter().map(|d| d.map_or(Rat::ZERO, |i| v[i])).collect::<Vec<_>>();
        let mut rows: Vec<Vec<Rat>> = self.directions.iter().map(|d| pick(d)).collect();
        for (j, d) in dims.iter().enumerate() {
            if d.is_none() {
                rows.push((0..m).map(|i| if i == j { Rat::ONE } else { Rat::ZERO }).collect());
            }
        }
        Some(Affine { point: pick(&self.point), directions: echelon(rows, m)? })
    }

    /// A basis of the equalities `a·v = a·point` that hold on the subspace (the null space of
    /// the directions), each with integer coefficients: `(coefficients, constant)`.
    fn equalities(&self) -> Option<Vec<(Vec<i128>, i128)>> {
        let n = self.point.len();
        let pivots: Vec<usize> = self.directions.iter().map(|row| row.iter().position(|x| !x.is_zero()).unwrap_or(n)).collect();
        let mut out = Vec::new();
        for free in (0..n).filter(|c| !pivots.contains(c)) {
            // a[free] = 1, a[pivot_i] = -row_i[free]
            let mut a = vec![Rat::ZERO; n];
            a[free] = Rat::ONE;
            for (row, &p) in self.directions.iter().zip(&pivots) {
                a[p] = row[free].neg()?;
            }
            let constant = a.iter().zip(&self.point).try_fold(Rat::ZERO, |acc, (x, y)| acc.add(x.mul(*y)?))?;
            out.push(integral(&a, constant)?);
        }
        Some(out)
    }
}

/// Whether `a` and `b` are the same affine equality over operands of the same width, up to a
/// factor and the side each term is on (`r == 'x + 1` and `'x == r - 1`); casts between integer
/// types are ignored as in the analysis. Lets candidates skip relations already predicates.
pub fn same_equality(a: &Expr, b: &Expr) -> bool {
    fn sides(e: &Expr) -> Option<(&Expr, &Expr)> {
        match &e.kind {
            ExprKind::Binary(BinaryOp::Eq, l, r) if l.ty.is_integer() && r.ty.is_integer() => Some((l, r)),
            _ => None,
        }
    }
    let (Some((al, ar)), Some((bl, br))) = (sides(a), sides(b)) else { return false };
    if al.ty.bits() != bl.ty.bits() {
        return false;
    }
    let mut vars = a.vars();
    vars.extend(b.vars());
    vars.sort();
    vars.dedup();
    let index = positions(&vars);
    let n = vars.len();
    let normal = |l: &Expr, r: &Expr| -> Option<(Vec<i128>, i128)> {
        let e = linearize(l, &index, n)?.combine(&linearize(r, &index, n)?, Rat::int(-1))?;
        let (mut coeffs, mut constant) = integral(&e.coeffs, e.constant.neg()?)?;
        if coeffs.iter().find(|c| **c != 0).is_some_and(|c| *c < 0) {
            coeffs.iter_mut().for_each(|c| *c = -*c);
            constant = -constant;
        }
        Some((coeffs, constant))
    };
    match (normal(al, ar), normal(bl, br)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Each variable's position (dimension) in `vars`.
fn positions(vars: &[VarId]) -> HashMap<VarId, usize> {
    vars.iter().enumerate().map(|(i, &v)| (v, i)).collect()
}

/// `a·v == constant` scaled to coprime integer coefficients.
fn integral(a: &[Rat], constant: Rat) -> Option<(Vec<i128>, i128)> {
    let lcm = a.iter().chain(std::iter::once(&constant)).try_fold(1i128, |l, r| l.checked_mul(r.den / gcd(l, r.den).max(1)))?;
    let ints: Vec<i128> = a.iter().map(|r| r.num.checked_mul(lcm / r.den)).collect::<Option<Vec<_>>>()?;
    let c = constant.num.checked_mul(lcm / constant.den)?;
    let g = ints.iter().fold(c, |g, &x| gcd(g, x)).max(1);
    Some((ints.iter().map(|x| x / g).collect(), c / g))
}

/// The integer variables of `proc` the analysis tracks: globals, formals, locals, temporaries,
/// return variables and symbolic constants whose address is never taken.
fn tracked_variables(program: &Program, proc: ProcId) -> Vec<VarId> {
    let p = program.proc(proc);
    let mut vars: Vec<VarId> = program.globals.clone();
    vars.extend(p.formals.iter().copied());
    vars.extend(p.locals.iter().copied());
    vars.retain(|&v| {
        let var = program.var(v);
        matches!(var.ty, Type::Int { .. }) && !var.address_taken
    });
    vars.dedup();
    vars
}

fn linearize(e: &Expr, index: &HashMap<VarId, usize>, n: usize) -> Option<Linear> {
    match &e.kind {
        ExprKind::Const(c) if matches!(e.ty, Type::Int { .. } | Type::Bool) => Some(Linear::constant(n, Rat::int(*c))),
        ExprKind::Var(v) => {
            let i = *index.get(v)?;
            let mut l = Linear::constant(n, Rat::ZERO);
            l.coeffs[i] = Rat::ONE;
            Some(l)
        }
        ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => linearize(inner, index, n),
        ExprKind::Unary(UnaryOp::Neg, inner) => linearize(inner, index, n)?.scale(Rat::int(-1)),
        ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) if e.ty.is_integer() => {
            let sign = if *op == BinaryOp::Add { Rat::ONE } else { Rat::int(-1) };
            linearize(a, index, n)?.combine(&linearize(b, index, n)?, sign)
        }
        ExprKind::Binary(BinaryOp::Mul, a, b) if e.ty.is_integer() => {
            let (la, lb) = (linearize(a, index, n)?, linearize(b, index, n)?);
            match (la.as_constant(), lb.as_constant()) {
                (Some(k), _) => lb.scale(k),
                (_, Some(k)) => la.scale(k),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The constant `c` when `l` is `x + c` (variable number `x`).
fn step(l: &Linear, x: usize) -> Option<Rat> {
    l.coeffs.iter().enumerate().all(|(j, c)| if j == x { *c == Rat::ONE } else { c.is_zero() }).then_some(l.constant)
}

/// The tracked variable `lhs` writes, if it is one.
fn target(lhs: &Expr, index: &HashMap<VarId, usize>) -> Option<usize> {
    match lhs.kind {
        ExprKind::Var(v) => index.get(&v).copied(),
        _ => None,
    }
}

/// Affine equalities relating two or more variables, one of them a counter (`x = x + c` for
/// a constant `c != 0` somewhere in `proc`), that hold before the statements of the loops of
/// `proc` (from a statement entered by a jump from the same or a later statement to
/// the last such jump), as C predicates `a1*x1 + ... + ak*xk == c` with the index of their
/// statement; and the equalities between variables of those at loop heads that hold in the
/// straight-line code entering the loops (`x == i` before `y = j;` in
/// `x = i; y = j; while (x != 0) { x--; y--; }`). Empty when the procedure is too large or
/// the rationals overflow.
pub fn loop_equalities(program: &Program, proc: ProcId) -> Vec<(u32, Expr)> {
    analyse(program, proc).unwrap_or_default()
}

fn analyse(program: &Program, proc: ProcId) -> Option<Vec<(u32, Expr)>> {
    let p = program.proc(proc);
    let vars = tracked_variables(program, proc);
    let n = vars.len();
    if !(2..=MAX_VARIABLES).contains(&n) || p.body.len() > MAX_STATEMENTS {
        return Some(Vec::new());
    }
    if back_edges(p).is_empty() {
        return Some(Vec::new());
    }
    let index = positions(&vars);
    let globals: Vec<usize> = program.globals.iter().filter_map(|g| index.get(g).copied()).collect();
    // counters: variables with an assignment `x = x + c`, `c != 0`
    let mut counters = vec![false; n];
    for stmt in &p.body {
        if let StmtKind::Assign { lhs, rhs } = &stmt.kind {
            if let (Some(x), Some(l)) = (target(lhs, &index), linearize(rhs, &index, n)) {
                if step(&l, x).is_some_and(|c| !c.is_zero()) {
                    counters[x] = true;
                }
            }
        }
    }
    let state = fixpoint(program, proc, Affine::full(n), |kind, before| {
        Some(match kind {
            StmtKind::Assign { lhs, rhs } => match target(lhs, &index) {
                Some(x) => match linearize(rhs, &index, n) {
                    Some(e) => before.assign(x, &e)?,
                    None => before.havoc(x)?,
                },
                None => before,
            },
            StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => match target(lhs, &index) {
                Some(x) => before.havoc(x)?,
                None => before,
            },
            StmtKind::Call { lhs, .. } => {
                // the callee may change any global; the result is unknown
                let written = globals.iter().copied().chain(lhs.as_ref().and_then(|l| target(l, &index)));
                before.update(&written.map(|x| (x, None)).collect::<Vec<_>>())?
            }
            _ => before,
        })
    })?;
    let (heads, in_loop) = loop_statements(p, &state);
    let mut out: Vec<(u32, Expr)> = Vec::new();
    // variables of the equalities at loop heads
    let mut at_heads = vec![false; n];
    for (i, s) in state.iter().enumerate() {
        let (true, Some(s)) = (in_loop[i], s) else { continue };
        for (coeffs, constant) in s.equalities()? {
            // relations between copies (`d == t` after `d = t;`) are what refinement finds by
            // itself; the ones it misses involve a counter moved by a constant step
            let involves_counter = coeffs.iter().zip(&counters).any(|(c, &k)| *c != 0 && k);
            if involves_counter && coeffs.iter().filter(|c| **c != 0).count() >= 2 {
                if heads.contains(&i) {
                    coeffs.iter().zip(at_heads.iter_mut()).for_each(|(c, used)| *used |= *c != 0);
                }
                out.push((i as u32, equality_expr(program, &vars, &coeffs, constant)));
            }
        }
    }
    // The straight-line code that enters a loop sets its equalities up one assignment at a
    // time: in `x = i; y = j; while (x != 0) { x--; y--; }` the head's `i + y == j + x` holds
    // after `y = j` only because `x == i` held before it. Statement by statement, the
    // abstraction keeps such an equality only with those relations as predicates too.
    for i in entry_blocks(p, &heads, &in_loop) {
        let Some(s) = &state[i] else { continue };
        for (coeffs, constant) in s.equalities()? {
            let relates_head_variables = coeffs.iter().zip(&at_heads).any(|(c, &h)| *c != 0 && h);
            if relates_head_variables && coeffs.iter().filter(|c| **c != 0).count() >= 2 {
                out.push((i as u32, equality_expr(program, &vars, &coeffs, constant)));
            }
        }
    }
    Some(out)
}

/// The backward jumps `(head, source)` of `p`.
fn back_edges(p: &c_ir::Procedure) -> Vec<(usize, usize)> {
    (0..p.body.len()).flat_map(|i| p.successors(i as u32).into_iter().map(move |s| (s as usize, i))).filter(|&(s, i)| s <= i).collect()
}

/// The rationals overflowed: the analysis gives up.
#[derive(Debug)]
pub(crate) struct Overflow;

/// Karr's domain for the shared engine: the state before a statement is an affine subspace
/// of the dimensions (`None`: unreachable); `step` gives the state after a statement from the
/// one before it (`None`: the rationals overflowed). Collects the final states.
struct Karr<F> {
    entry: Affine,
    step: F,
    states: Vec<Option<Affine>>,
}

/// The hull of two states (`Overflow` when the rationals overflow).
fn hull(a: Option<Affine>, b: Option<Affine>) -> Result<Option<Affine>, Overflow> {
    match (a, b) {
        (None, x) | (x, None) => Ok(x),
        (Some(a), Some(b)) => a.join(&b).map(Some).ok_or(Overflow),
    }
}

/// Inclusion of states (`None`: empty).
fn included(a: &Option<Affine>, b: &Option<Affine>) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => b.contains(a),
    }
}

impl<F: FnMut(&StmtKind, Affine) -> Option<Affine>> Domain for Karr<F> {
    /// One context per procedure: the entry subspace is fixed.
    type Entry = ();
    type State = Option<Affine>;
    type Error = Overflow;

    fn bottom(&self) -> Option<Affine> {
        None
    }
    fn is_bottom(&self, state: &Option<Affine>) -> bool {
        state.is_none()
    }
    fn start(&mut self, _proc: ProcId, _entry: &()) -> Result<Option<Affine>, Overflow> {
        Ok(Some(self.entry.clone()))
    }
    fn join(&self, a: Option<Affine>, b: Option<Affine>) -> Result<Option<Affine>, Overflow> {
        hull(a, b)
    }
    /// No widening: every strictly increasing chain of subspaces has at most `n + 2` elements.
    fn widen(&self, _at: StmtRef, _old: &Option<Affine>, next: Option<Affine>) -> Result<Option<Affine>, Overflow> {
        Ok(next)
    }
    fn leq(&self, a: &Option<Affine>, b: &Option<Affine>) -> bool {
        included(a, b)
    }
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: Option<Affine>) -> Result<Option<Affine>, Fail<Overflow>> {
        let Some(pre) = pre else { return Ok(None) };
        let kind = &engine.program().stmt(at).kind;
        (engine.domain.step)(kind, pre).map(Some).ok_or(Fail::Domain(Overflow))
    }
    fn record(&mut self, at: StmtRef, _loop_head: bool, state: &Option<Affine>) -> Result<(), Overflow> {
        if let Some(slot) = self.states.get_mut(at.index as usize) {
            *slot = state.clone();
        }
        Ok(())
    }
}

/// The engine's parameters for a domain of `dimensions` dimensions and `slots` subspaces per
/// statement: the worklist, no widening, and room for every state to grow through all
/// dimensions (`dimensions + 1` changes per subspace, each one evaluation).
pub(crate) fn karr_config(dimensions: usize, slots: usize) -> Config {
    Config {
        strategy: Strategy::Worklist,
        widening_delay: u32::MAX,
        max_rounds: slots * (dimensions + 2),
        descending_rounds: 0,
        max_depth: 1,
        max_contexts: 1,
    }
}

/// The states before each statement of `proc` (`None`: unreachable), from `entry` before the
/// first, on the shared engine over `step` (the state after a statement from the one before
/// it) and affine hulls at joins. `None` when the rationals overflow.
fn fixpoint(program: &Program, proc: ProcId, entry: Affine, step: impl FnMut(&StmtKind, Affine) -> Option<Affine>) -> Option<Vec<Option<Affine>>> {
    let config = karr_config(entry.point.len(), 1);
    let states = vec![None; program.proc(proc).body.len()];
    let never = || false;
    let mut engine = Engine::new(program, Karr { entry, step, states }, config, &never);
    engine.call(proc, ()).ok()?;
    Some(engine.domain.states)
}

/// The heads of the loops of `p` that a reachable statement jumps back to, and which
/// statements belong to those loops: from a head to the last statement jumping back to it
/// (the equalities between the statements of a loop body are needed too: `j++; k--;` breaks
/// `k + j == i` in between).
fn loop_statements(p: &c_ir::Procedure, state: &[Option<Affine>]) -> (Vec<usize>, Vec<bool>) {
    let edges = back_edges(p);
    let heads: Vec<usize> = edges.iter().filter(|(_, i)| state[*i].is_some()).map(|(s, _)| *s).collect();
    let mut in_loop = vec![false; p.body.len()];
    for &(s, i) in edges.iter().filter(|(s, _)| heads.contains(s)) {
        in_loop[s..=i].iter_mut().for_each(|b| *b = true);
    }
    (heads, in_loop)
}

/// Statements outside loops in the straight-line blocks that lead into the loop `heads`:
/// from each entry into a head, backwards while the statement has exactly one predecessor
/// and one successor (at most [`ENTRY_BLOCK_STATEMENTS`] per entry).
fn entry_blocks(p: &c_ir::Procedure, heads: &[usize], in_loop: &[bool]) -> Vec<usize> {
    let len = p.body.len();
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); len];
    for i in 0..len {
        for s in p.successors(i as u32) {
            if (s as usize) < len {
                predecessors[s as usize].push(i);
            }
        }
    }
    let mut out = Vec::new();
    for &h in heads {
        for &entry in predecessors[h].iter().filter(|&&e| !in_loop[e]) {
            let mut at = entry;
            for _ in 0..ENTRY_BLOCK_STATEMENTS {
                if in_loop[at] || out.contains(&at) || p.successors(at as u32).len() != 1 {
                    break;
                }
                out.push(at);
                match predecessors[at].as_slice() {
                    [single] => at = *single,
                    _ => break,
                }
            }
        }
    }
    out
}

/// `a1*x1 + ... == c` in the widest type among the variables (their signedness breaks ties
/// towards signed), with the positive terms first and the negative ones moved to the right side
/// (`k + j == i` rather than `k + j - i == 0`).
fn equality_expr(program: &Program, vars: &[VarId], coeffs: &[i128], constant: i128) -> Expr {
    let terms: Vec<(Vec<VarId>, i128)> = vars.iter().zip(coeffs).map(|(v, c)| (vec![*v], *c)).collect();
    polynomial_equality_expr(program, &terms, constant)
}

/// `a1*m1 + ... == c` for monomials `mi` (products of variables), built as
/// [`equality_expr`] builds an affine one.
fn polynomial_equality_expr(program: &Program, terms: &[(Vec<VarId>, i128)], constant: i128) -> Expr {
    // the terms of the highest degree first
    let mut used: Vec<&(Vec<VarId>, i128)> = terms.iter().filter(|(m, c)| *c != 0 && !m.is_empty()).collect();
    used.sort_by_key(|(m, _)| std::cmp::Reverse(m.len()));
    let bits = used.iter().flat_map(|(m, _)| m).map(|v| program.var(*v).ty.bits()).max().unwrap_or(32).max(32);
    let signed = used.iter().flat_map(|(m, _)| m).any(|v| program.var(*v).ty.bits().max(32) == bits && program.var(*v).ty.is_signed());
    let ty = Type::Int { bits: bits as u8, signed };
    // make the first coefficient positive
    let flip = used.first().is_some_and(|(_, c)| *c < 0);
    let sign = |c: i128| if flip { -c } else { c };
    let term = |m: &[VarId], c: i128| -> Expr {
        let factor = |v: &VarId| Expr::cast(Expr::var(*v, program.var(*v).ty.clone()), ty.clone());
        let x = m.iter().map(factor).reduce(|a, b| Expr::binary(BinaryOp::Mul, a, b)).expect("a monomial has a variable");
        if c == 1 {
            x
        } else {
            Expr::binary(BinaryOp::Mul, Expr::int(c, ty.clone()), x)
        }
    };
    let sum = |terms: Vec<Expr>| -> Option<Expr> { terms.into_iter().reduce(|a, b| Expr::binary(BinaryOp::Add, a, b)) };
    let left: Vec<Expr> = used.iter().filter(|(_, c)| sign(*c) > 0).map(|(m, c)| term(m, sign(*c))).collect();
    let right: Vec<Expr> = used.iter().filter(|(_, c)| sign(*c) < 0).map(|(m, c)| term(m, -sign(*c))).collect();
    let k = sign(constant);
    let lhs = sum(left).unwrap_or_else(|| Expr::int(0, ty.clone()));
    let rhs = match (sum(right), k) {
        (None, k) => Expr::int(k, ty.clone()),
        (Some(r), 0) => r,
        (Some(r), k) if k > 0 => Expr::binary(BinaryOp::Add, r, Expr::int(k, ty.clone())),
        (Some(r), k) => Expr::binary(BinaryOp::Sub, r, Expr::int(-k, ty.clone())),
    };
    Expr::eq(lhs, rhs)
}

/// Bounds of counters: a local variable of `proc` that is only ever set to constants (or to
/// one variable written at most once) and moved by constant steps in one direction keeps to
/// one side of its smallest (largest) initial value once assigned — `j >= 0` for
/// `j = 0; ... j = j + 1;`, `j <= n` for `j = n; ... j = j - 1;` — ignoring wrap-around like
/// the equalities. Returned as predicates `x >= c` / `x <= c`.
pub fn counter_bounds(program: &Program, proc: ProcId) -> Vec<Expr> {
    let p = program.proc(proc);
    let vars: Vec<VarId> = tracked_variables(program, proc).into_iter().filter(|v| !program.globals.contains(v)).collect();
    let index = positions(&vars);
    let n = vars.len();
    // how often each variable (globals too) is written: an initial value may be a variable
    // written at most once (`j = n;` after `n = nondet();`)
    let mut writes: HashMap<VarId, usize> = HashMap::default();
    for stmt in &p.body {
        if let StmtKind::Assign { lhs, .. } | StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } | StmtKind::Call { lhs: Some(lhs), .. } = &stmt.kind {
            if let ExprKind::Var(v) = lhs.kind {
                *writes.entry(v).or_default() += 1;
            }
        }
    }
    // per variable: (initial values, saw an increase, saw a decrease, disqualified)
    let mut seen: Vec<(Vec<Init>, bool, bool, bool)> = vec![(Vec::new(), false, false, false); n];
    for stmt in &p.body {
        match &stmt.kind {
            StmtKind::Assign { lhs, rhs } => {
                let Some(x) = target(lhs, &index) else { continue };
                let entry = &mut seen[x];
                match linearize(rhs, &index, n) {
                    Some(l) if l.as_constant().is_some_and(|c| c.den == 1) => entry.0.push(Init::Const(l.constant.num)),
                    _ if matches!(&rhs.kind, ExprKind::Var(y) if *y != vars[x] && writes.get(y).copied().unwrap_or(0) <= 1 && rhs.ty == lhs.ty) => {
                        let ExprKind::Var(y) = rhs.kind else { unreachable!() };
                        entry.0.push(Init::Var(y));
                    }
                    Some(l) if step(&l, x).is_some_and(|c| c.den == 1) => {
                        if l.constant.num > 0 {
                            entry.1 = true;
                        } else if l.constant.num < 0 {
                            entry.2 = true;
                        }
                    }
                    _ => entry.3 = true,
                }
            }
            StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } | StmtKind::Call { lhs: Some(lhs), .. } => {
                if let Some(x) = target(lhs, &index) {
                    seen[x].3 = true;
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (x, (inits, up, down, bad)) in seen.into_iter().enumerate() {
        if bad || inits.is_empty() || up == down {
            continue;
        }
        let ty = program.var(vars[x]).ty.clone();
        let v = Expr::var(vars[x], ty.clone());
        let op = if up { BinaryOp::Ge } else { BinaryOp::Le };
        let constants: Vec<i128> = inits.iter().filter_map(|i| if let Init::Const(c) = i { Some(*c) } else { None }).collect();
        let bound = match inits.as_slice() {
            // one variable as the only initial value
            [Init::Var(y)] => Some(Expr::var(*y, ty.clone())),
            _ if constants.len() == inits.len() => {
                let c = if up { constants.iter().min() } else { constants.iter().max() };
                c.map(|&c| Expr::int(c, ty.clone()))
            }
            _ => None,
        };
        if let Some(b) = bound {
            out.push(Expr::binary(op, v, b));
        }
    }
    out
}

/// Congruences of strided variables: a local variable of `proc` that is only ever set to
/// constants and moved by multiples of constants (`x = x + 2`, `x = x - 4 * n`,
/// `x = x + (y << 3)`) stays in the residue class of its initial values modulo the greatest
/// common divisor `g` of the steps and of the initial values' differences: `x % g == r` for
/// `x = 0; ... x = x + 2;`. Like the other candidates this ignores wrap-around (which keeps the
/// residue when `g` is a power of two) and the sign of C's `%`; the abstraction decides what
/// actually holds. Only `g >= 2` is reported.
pub fn stride_congruences(program: &Program, proc: ProcId) -> Vec<Expr> {
    let p = program.proc(proc);
    let vars: Vec<VarId> = tracked_variables(program, proc).into_iter().filter(|v| !program.globals.contains(v)).collect();
    let index = positions(&vars);
    // per variable: (first initial value, gcd so far, disqualified, moved by a step). A step may add another
    // strided variable (`x = x + y` with `y` moving by 4 from 4): its values are multiples of
    // the gcd of its modulus and residue. That uses the previous round's result, starting
    // from "every variable is a multiple of everything" and weakening until nothing changes.
    let mut seen: Vec<(Option<i128>, u128, bool, bool)> = vec![(None, 0, false, false); vars.len()];
    for _round in 0..8 {
        let previous = seen.clone();
        let multiple_of = |v: VarId| match index.get(&v).map(|&i| previous[i]) {
            Some((Some(first), g, false, _)) => gcd_unsigned(g, first.unsigned_abs()),
            _ => 1,
        };
        seen = vec![(None, 0, false, false); vars.len()];
        for stmt in &p.body {
            match &stmt.kind {
                StmtKind::Assign { lhs, rhs } => {
                    let Some(x) = target(lhs, &index) else { continue };
                    let entry = &mut seen[x];
                    if let Some(c) = constant_value(rhs) {
                        match entry.0 {
                            None => entry.0 = Some(c),
                            Some(first) => entry.1 = gcd_unsigned(entry.1, first.abs_diff(c)),
                        }
                    } else if let Some(step) = increment(rhs, vars[x]) {
                        entry.1 = gcd_unsigned(entry.1, stride(step, &multiple_of));
                        entry.3 = true;
                    } else {
                        entry.2 = true;
                    }
                }
                StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } | StmtKind::Call { lhs: Some(lhs), .. } => {
                    if let Some(x) = target(lhs, &index) {
                        seen[x].2 = true;
                    }
                }
                _ => {}
            }
        }
        if seen == previous {
            break;
        }
    }
    let mut out = Vec::new();
    for (x, (first, g, bad, moved)) in seen.into_iter().enumerate() {
        let Some(first) = first else { continue };
        // a variable only ever set to constants (a status code) is no counter
        if bad || !moved || g < 2 || g > 1 << 30 {
            continue;
        }
        let ty = program.var(vars[x]).ty.clone();
        let g = g as i128;
        let rem = Expr::binary(BinaryOp::Rem, Expr::var(vars[x], ty.clone()), Expr::int(g, ty.clone()));
        out.push(Expr::eq(rem, Expr::int(first.rem_euclid(g), ty)));
    }
    out
}

/// The value of an integer constant, through casts.
fn constant_value(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Const(c) if e.ty.is_integer() => Some(*c),
        ExprKind::Cast(inner) if e.ty.is_integer() => constant_value(inner),
        ExprKind::Unary(UnaryOp::Neg, inner) => constant_value(inner).map(|c| -c),
        _ => None,
    }
}

/// `t` when `e` is `v + t`, `t + v` or `v - t` (through integer casts).
fn increment(e: &Expr, v: VarId) -> Option<&Expr> {
    let is_v = |e: &Expr| matches!(strip_casts(e).kind, ExprKind::Var(w) if w == v);
    match &strip_casts(e).kind {
        ExprKind::Binary(BinaryOp::Add, a, b) if is_v(a) => Some(b),
        ExprKind::Binary(BinaryOp::Add, a, b) if is_v(b) => Some(a),
        ExprKind::Binary(BinaryOp::Sub, a, b) if is_v(a) => Some(b),
        _ => None,
    }
}

fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => strip_casts(inner),
        _ => e,
    }
}

/// A number every value of `e` is a multiple of (0 for the constant 0, 1 when nothing is
/// known); `multiple_of(v)` says it for a variable.
fn stride(e: &Expr, multiple_of: &dyn Fn(VarId) -> u128) -> u128 {
    match &strip_casts(e).kind {
        ExprKind::Const(c) => c.unsigned_abs(),
        ExprKind::Var(v) => multiple_of(*v),
        ExprKind::Unary(UnaryOp::Neg, inner) => stride(inner, multiple_of),
        ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b) => gcd_unsigned(stride(a, multiple_of), stride(b, multiple_of)),
        ExprKind::Binary(BinaryOp::Mul, a, b) => stride(a, multiple_of).saturating_mul(stride(b, multiple_of)),
        ExprKind::Binary(BinaryOp::Shl, a, b) => match constant_value(b) {
            Some(k @ 0..=62) => stride(a, multiple_of).saturating_mul(1 << k),
            _ => 1,
        },
        _ => 1,
    }
}

/// An initial value of a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Init {
    Const(i128),
    Var(VarId),
}
