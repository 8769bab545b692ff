//! A difference-bound ("zone") abstract interpretation of the whole program: bounds `x <= c`,
//! `x >= c` and `x - y <= c` over the integer variables whose address is never taken, at every
//! statement, with calls analysed in the caller's context.
//!
//! Two uses:
//! - **a proof**: when no `Error` statement is reachable in the abstract states, the program is
//!   SAFE, and the zones at procedure entries and loop heads are its invariants. The analysis is
//!   sound for machine integers: every bound is kept inside the variable's type, and an
//!   operation whose mathematical result may leave its type's range (wrap-around) yields the
//!   whole range. The result is only used after a check that it is a post-fixpoint of the
//!   transfer functions (every statement's state contains what its predecessors pass on);
//! - **candidate predicates** for the CEGAR loop: the relations at loop heads (`i >= l`,
//!   `p <= lim`) that path-based refinement finds one unrolling at a time (`i == l + 1`,
//!   `i == l + 2`, ...). A predicate is only a name for a formula: the abstraction decides it
//!   soundly.
//!
//! The domain is the difference-bound matrix of Miné (2001) over `x0 = 0` and the tracked
//! variables, kept closed (shortest paths) so that join is entrywise maximum, inclusion is
//! entrywise comparison and a new constraint closes in `O(n²)`. Loops are widened at their
//! heads after two joins (bounds that grow are dropped, then the type's range is put back),
//! followed by two descending rounds that recover bounds from loop conditions. Calls are
//! analysed per entry state (memoised); recursion gives up. The iteration is the shared
//! engine's ([`crate::fixpoint`]); this module gives it the domain.

use c_ir::points::{invariant_points, InvariantPoint, ProgramPointInvariant};
use c_ir::{display_expr, BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, UnaryOp, VarId, VarKind};
use crate::fixpoint::{Config, Domain, Engine, Fail, Strategy};
use budget::hash::HashMap;
use std::rc::Rc;

/// "No bound". Bounds at or beyond it (64-bit extremes) count as none; sums of three finite
/// entries stay below `i64::MAX`.
const INF: i64 = i64::MAX / 4;
/// Procedures with more tracked variables (globals included) are not analysed.
const MAX_VARIABLES: usize = 96;
/// ... nor those whose statements times matrix size exceed this.
const MAX_MATRIX_ENTRIES: usize = 8_000_000;
/// Ascending rounds over a procedure before giving up.
const MAX_ROUNDS: usize = 60;
/// Joins at a loop head before widening.
const WIDENING_DELAY: u32 = 2;
/// Relations `x - y <= c` with a larger `|c|` are left out: they only restate the types' ranges.
const MAX_RELATION_CONSTANT: i64 = 1 << 30;
/// Candidate predicates kept per procedure.
const MAX_CANDIDATES: usize = 24;

/// What the analysis found.
#[derive(Clone, Debug)]
pub struct ZoneResult {
    /// No `Error` statement is reachable in the abstract states.
    pub safe: bool,
    /// The zones at procedure entries and loop heads (joined over calling contexts), as C formulas.
    pub invariants: Vec<ProgramPointInvariant>,
    /// Per procedure: the relations at its loop heads that involve a counter (a variable moved by
    /// constant steps), as candidate predicates (small constants first).
    pub loop_facts: HashMap<ProcId, Vec<Expr>>,
}

/// Runs the analysis from `main`; `None` when it gives up (recursion, a procedure too large,
/// no fixpoint within the round limit, or `stop`).
pub fn analyze(program: &Program, stop: &dyn Fn() -> bool) -> Option<ZoneResult> {
    let entry = program.entry?;
    let mut zones = Zones::new(program);
    let layout = zones.layout(entry)?;
    let start = Dbm::top(&layout);
    let mut engine = Engine::new(program, zones, CONFIG, stop);
    let result = engine.call(entry, start).ok()?;
    let analyzer = engine.domain;
    let mut invariants = Vec::new();
    let mut loop_facts: HashMap<ProcId, Vec<Expr>> = HashMap::default();
    for (at, point) in invariant_points(program) {
        let Some(layout) = analyzer.layouts.get(&at.proc).cloned().flatten() else { continue };
        let state = analyzer.points.get(&at).cloned().flatten();
        let formula = match &state {
            None => Expr::bool(false),
            Some(d) => logic::conjunction(&constraints(program, &layout, d, false)),
        };
        if point == InvariantPoint::LoopHead {
            if let Some(d) = &state {
                let counters = counters(program, at.proc);
                let facts = loop_facts.entry(at.proc).or_default();
                for c in constraints(program, &layout, d, true) {
                    // a relation helps where refinement unrolls a loop: one side is a counter
                    if !c.vars().iter().any(|v| counters.contains(v)) {
                        continue;
                    }
                    if facts.len() < MAX_CANDIDATES && !facts.contains(&c) {
                        facts.push(c);
                    }
                }
            }
        }
        let text = display_expr(program, &formula);
        invariants.push(ProgramPointInvariant { at, point, span: program.stmt(at).span, line: 0, formula, text });
    }
    Some(ZoneResult { safe: !result.error, invariants, loop_facts })
}

/// The variables `proc` moves by a constant step (`i = i + 1`, `k = k - 2`).
fn counters(program: &Program, proc: ProcId) -> Vec<VarId> {
    fn strip(e: &Expr) -> &Expr {
        match &e.kind {
            ExprKind::Cast(inner) => strip(inner),
            _ => e,
        }
    }
    let mut out = Vec::new();
    for stmt in &program.proc(proc).body {
        let StmtKind::Assign { lhs: Expr { kind: ExprKind::Var(x), .. }, rhs } = &stmt.kind else { continue };
        if let ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b) = &strip(rhs).kind {
            let (a, b) = (strip(a), strip(b));
            let steps = matches!((&a.kind, &b.kind), (ExprKind::Var(v), ExprKind::Const(c)) | (ExprKind::Const(c), ExprKind::Var(v)) if v == x && *c != 0);
            if steps && !out.contains(x) {
                out.push(*x);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Layouts and matrices

/// The variables of one matrix: index 0 is the constant `0`, then `vars[i - 1]`.
#[derive(Debug)]
struct Layout {
    vars: Vec<VarId>,
    index: HashMap<VarId, usize>,
    /// Type ranges per index (index 0: `[0, 0]`), clipped to `±INF`.
    lo: Vec<i64>,
    hi: Vec<i64>,
}

impl Layout {
    fn new(program: &Program, vars: Vec<VarId>) -> Layout {
        let mut lo = vec![0];
        let mut hi = vec![0];
        let mut index = HashMap::default();
        for (i, &v) in vars.iter().enumerate() {
            index.insert(v, i + 1);
            let (l, h) = type_range(&program.var(v).ty).unwrap_or((-INF, INF));
            lo.push(l);
            hi.push(h);
        }
        Layout { vars, index, lo, hi }
    }
    fn size(&self) -> usize {
        self.vars.len() + 1
    }
}

/// Whether the analysis tracks `v`: an integer or boolean whose address is never taken.
fn tracked(program: &Program, v: VarId) -> bool {
    let var = program.var(v);
    matches!(var.ty, Type::Int { .. } | Type::Bool) && !var.address_taken
}

/// The values of an integer type, clipped to `±INF`.
fn type_range(ty: &Type) -> Option<(i64, i64)> {
    ty.value_range().map(|(lo, hi)| (clip(lo), clip(hi)))
}

fn clip(v: i128) -> i64 {
    v.clamp(-(INF as i128), INF as i128) as i64
}

fn add(a: i64, b: i64) -> i64 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF)
    }
}

/// A closed difference-bound matrix: `m[i * n + j]` bounds `x_j - x_i` from above.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Dbm {
    n: usize,
    m: Vec<i64>,
}

impl Dbm {
    /// Every variable anywhere in its type's range.
    fn top(layout: &Layout) -> Dbm {
        let n = layout.size();
        let mut m = vec![INF; n * n];
        for i in 0..n {
            for j in 0..n {
                m[i * n + j] = if i == j { 0 } else { add(layout.hi[j], neg(layout.lo[i])) };
            }
        }
        Dbm { n, m }
    }
    fn get(&self, i: usize, j: usize) -> i64 {
        self.m[i * self.n + j]
    }
    /// `[lo, hi]` of variable `x`.
    fn interval(&self, x: usize) -> Itv {
        Itv { lo: neg(self.get(x, 0)), hi: self.get(0, x) }
    }
    /// Adds `x_j - x_i <= c` and closes incrementally; `None` when the result is empty.
    fn constrain(mut self, i: usize, j: usize, c: i64) -> Option<Dbm> {
        if c >= INF || c >= self.get(i, j) {
            return Some(self);
        }
        if add(c, self.get(j, i)) < 0 {
            return None;
        }
        let n = self.n;
        let col_i: Vec<i64> = (0..n).map(|a| self.get(a, i)).collect();
        let row_j: Vec<i64> = (0..n).map(|b| self.get(j, b)).collect();
        for a in 0..n {
            let ai = col_i[a];
            if ai >= INF {
                continue;
            }
            let via = ai + c;
            for b in 0..n {
                let jb = row_j[b];
                if jb >= INF {
                    continue;
                }
                let cand = (via + jb).min(INF);
                if cand < self.m[a * n + b] {
                    self.m[a * n + b] = cand;
                }
            }
        }
        if (0..n).any(|k| self.get(k, k) < 0) {
            return None;
        }
        Some(self)
    }
    /// `x` takes any value of its type (the matrix stays closed).
    fn forget(&mut self, layout: &Layout, x: usize) {
        let n = self.n;
        let (lo, hi) = (layout.lo[x], layout.hi[x]);
        self.m[x * n + x] = 0;
        for k in 0..n {
            if k == x {
                continue;
            }
            // x - x_k <= hi - lo_k, x_k - x <= hi_k - lo: through x0's bounds
            self.m[k * n + x] = add(self.get(k, 0), hi);
            self.m[x * n + k] = add(neg(lo), self.get(0, k));
        }
        self.m[x] = hi;
        self.m[x * n] = neg(lo);
    }
    /// `x := x + c` (the caller checked that the result stays in range).
    fn shift(&mut self, x: usize, c: i64) {
        let n = self.n;
        for k in 0..n {
            if k == x {
                continue;
            }
            if self.m[k * n + x] < INF {
                self.m[k * n + x] = clip(self.m[k * n + x] as i128 + c as i128);
            }
            if self.m[x * n + k] < INF {
                self.m[x * n + k] = clip(self.m[x * n + k] as i128 - c as i128);
            }
        }
    }
    fn join(&self, other: &Dbm) -> Dbm {
        Dbm { n: self.n, m: self.m.iter().zip(&other.m).map(|(a, b)| *a.max(b)).collect() }
    }
    /// Bounds of `self` that `next` does not keep are dropped, then the types' ranges come back.
    /// The result is not closed (closing could bring dropped bounds back and stall the
    /// ascent); the successors' transfer closes a copy.
    fn widen(&self, next: &Dbm, layout: &Layout) -> Dbm {
        let mut m: Vec<i64> = self.m.iter().zip(&next.m).map(|(a, b)| if b <= a { *a } else { INF }).collect();
        let n = self.n;
        for x in 1..n {
            m[x] = m[x].min(layout.hi[x]);
            m[x * n] = m[x * n].min(neg(layout.lo[x]));
        }
        Dbm { n, m }
    }
    /// Floyd–Warshall; `None` when a negative cycle shows the matrix empty.
    fn closed(mut self) -> Option<Dbm> {
        let n = self.n;
        for k in 0..n {
            for i in 0..n {
                let ik = self.m[i * n + k];
                if ik >= INF {
                    continue;
                }
                for j in 0..n {
                    let kj = self.m[k * n + j];
                    if kj >= INF {
                        continue;
                    }
                    let cand = (ik + kj).min(INF);
                    if cand < self.m[i * n + j] {
                        self.m[i * n + j] = cand;
                    }
                }
            }
        }
        if (0..n).any(|k| self.m[k * n + k] < 0) {
            return None;
        }
        Some(self)
    }
    fn leq(&self, other: &Dbm) -> bool {
        self.m.iter().zip(&other.m).all(|(a, b)| a <= b)
    }
    /// The matrix over layout `to`, from `self` over `from`: shared variables keep their
    /// relations, the others range over their types.
    fn reshape(&self, from: &Layout, to: &Layout) -> Dbm {
        let mut out = Dbm::top(to);
        let map: Vec<Option<usize>> = (0..to.size()).map(|i| if i == 0 { Some(0) } else { from.index.get(&to.vars[i - 1]).copied() }).collect();
        let n = to.size();
        // the unary bounds first, so that unshared variables relate through them
        for i in 0..n {
            if let Some(fi) = map[i] {
                out.m[i] = self.get(0, fi);
                out.m[i * n] = self.get(fi, 0);
            }
        }
        for i in 0..n {
            for j in 0..n {
                out.m[i * n + j] = match (map[i], map[j]) {
                    (Some(fi), Some(fj)) => self.get(fi, fj),
                    _ if i == j => 0,
                    _ => add(out.m[i * n], out.m[j]),
                };
            }
        }
        out
    }
}

fn neg(v: i64) -> i64 {
    if v >= INF {
        -INF
    } else if v <= -INF {
        INF
    } else {
        -v
    }
}

fn join(a: Option<Dbm>, b: Option<Dbm>) -> Option<Dbm> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(a.join(&b)),
    }
}

fn leq(a: &Option<Dbm>, b: &Option<Dbm>) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a.leq(b),
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions

/// An interval; `lo <= -INF` / `hi >= INF` mean unbounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Itv {
    lo: i64,
    hi: i64,
}

impl Itv {
    const TOP: Itv = Itv { lo: -INF, hi: INF };
    fn point(v: i128) -> Itv {
        Itv { lo: clip(v), hi: clip(v) }
    }
    fn bounded(self) -> bool {
        self.lo > -INF && self.hi < INF
    }
    fn as_point(self) -> Option<i64> {
        (self.bounded() && self.lo == self.hi).then_some(self.lo)
    }
    fn of_type(ty: &Type) -> Itv {
        type_range(ty).map(|(lo, hi)| Itv { lo, hi }).unwrap_or(Itv::TOP)
    }
    fn join(self, o: Itv) -> Itv {
        Itv { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }
    fn from_i128(lo: i128, hi: i128) -> Itv {
        Itv { lo: if lo <= -(INF as i128) { -INF } else { clip(lo) }, hi: if hi >= INF as i128 { INF } else { clip(hi) } }
    }
}

/// `Σ coeff·x + k` with `k` in `[klo, khi]`: an expression's exact value when it did not wrap.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lin {
    terms: Vec<(usize, i64)>,
    k: Itv,
}

impl Lin {
    fn constant(k: Itv) -> Lin {
        Lin { terms: Vec::new(), k }
    }
    /// `c` times the form; an unknown value when the coefficients or the constant grow too large.
    fn scaled(&self, c: i64) -> Lin {
        let terms = self.terms.iter().map(|&(x, a)| a.checked_mul(c).filter(|v| v.abs() < 1 << 20).map(|v| (x, v))).collect::<Option<Vec<_>>>();
        match terms {
            Some(terms) if self.k.bounded() => {
                let (a, b) = (self.k.lo as i128 * c as i128, self.k.hi as i128 * c as i128);
                Lin { terms, k: Itv::from_i128(a.min(b), a.max(b)) }
            }
            _ => Lin::constant(Itv::TOP),
        }
    }
    fn plus(&self, o: &Lin) -> Lin {
        let mut terms = self.terms.clone();
        for &(x, a) in &o.terms {
            match terms.iter_mut().find(|(y, _)| *y == x) {
                Some(t) => t.1 += a,
                None => terms.push((x, a)),
            }
        }
        terms.retain(|t| t.1 != 0);
        let lo = if self.k.lo <= -INF || o.k.lo <= -INF { -INF } else { clip(self.k.lo as i128 + o.k.lo as i128) };
        let hi = if self.k.hi >= INF || o.k.hi >= INF { INF } else { clip(self.k.hi as i128 + o.k.hi as i128) };
        Lin { terms, k: Itv { lo, hi } }
    }
}

/// An expression's interval and linear form.
#[derive(Clone, Debug)]
struct Val {
    itv: Itv,
    lin: Lin,
}

impl Val {
    fn opaque(itv: Itv) -> Val {
        Val { itv, lin: Lin::constant(itv) }
    }
}

/// The evaluation context: the matrix's layout.
struct Ctx<'a> {
    layout: &'a Layout,
}

impl Ctx<'_> {
    /// The value of `e` in the states of `d`.
    fn eval(&self, d: &Dbm, e: &Expr) -> Val {
        let whole = Itv::of_type(&e.ty);
        let v = match &e.kind {
            ExprKind::Const(c) => Val::opaque(Itv::point(*c)),
            ExprKind::Var(v) => match self.layout.index.get(v) {
                Some(&x) => {
                    let itv = d.interval(x);
                    // a known constant is a constant: relations go to the other variables
                    match itv.as_point() {
                        Some(_) => Val::opaque(itv),
                        None => Val { itv, lin: Lin { terms: vec![(x, 1)], k: Itv::point(0) } },
                    }
                }
                None => Val::opaque(whole),
            },
            ExprKind::Cast(inner) if e.ty == Type::Bool => {
                let i = self.eval(d, inner).itv;
                Val::opaque(if i.lo > 0 || i.hi < 0 {
                    Itv::point(1)
                } else if i.lo == 0 && i.hi == 0 {
                    Itv::point(0)
                } else {
                    Itv { lo: 0, hi: 1 }
                })
            }
            ExprKind::Cast(inner) if e.ty.is_integer() && inner.ty.is_integer() => self.eval(d, inner),
            ExprKind::Unary(UnaryOp::Neg, a) => {
                let a = self.eval(d, a);
                if !a.itv.bounded() {
                    return Val::opaque(whole);
                }
                Val { itv: Itv { lo: -a.itv.hi, hi: -a.itv.lo }, lin: a.lin.scaled(-1) }
            }
            ExprKind::Unary(UnaryOp::BitNot, a) if e.ty.is_integer() => {
                let a = self.eval(d, a);
                if !a.itv.bounded() {
                    return Val::opaque(whole);
                }
                let minus = a.lin.scaled(-1);
                // signed: ~a == -a - 1; unsigned: ~a == max - a
                let k = if e.ty.is_signed() { -1 } else { whole.hi };
                Val { itv: Itv::from_i128(k as i128 - a.itv.hi as i128, k as i128 - a.itv.lo as i128), lin: minus.plus(&Lin::constant(Itv::point(k as i128))) }
            }
            ExprKind::Unary(UnaryOp::Not, _) | ExprKind::Binary(BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge | BinaryOp::And | BinaryOp::Or | BinaryOp::Implies, ..) => {
                Val::opaque(match self.truth(d, e) {
                    Some(b) => Itv::point(b as i128),
                    None => Itv { lo: 0, hi: 1 },
                })
            }
            ExprKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) if e.ty.is_integer() => {
                let (a, b) = (self.eval(d, a), self.eval(d, b));
                let (b_itv, b_lin) = if *op == BinaryOp::Sub {
                    if !b.itv.bounded() {
                        return Val::opaque(whole);
                    }
                    (Itv { lo: -b.itv.hi, hi: -b.itv.lo }, b.lin.scaled(-1))
                } else {
                    (b.itv, b.lin)
                };
                if !a.itv.bounded() || !b_itv.bounded() {
                    return Val::opaque(whole);
                }
                Val { itv: Itv::from_i128(a.itv.lo as i128 + b_itv.lo as i128, a.itv.hi as i128 + b_itv.hi as i128), lin: a.lin.plus(&b_lin) }
            }
            ExprKind::Binary(BinaryOp::Mul, a, b) if e.ty.is_integer() => {
                let (a, b) = (self.eval(d, a), self.eval(d, b));
                if !a.itv.bounded() || !b.itv.bounded() {
                    return Val::opaque(whole);
                }
                let corners = [a.itv.lo as i128 * b.itv.lo as i128, a.itv.lo as i128 * b.itv.hi as i128, a.itv.hi as i128 * b.itv.lo as i128, a.itv.hi as i128 * b.itv.hi as i128];
                let itv = Itv::from_i128(*corners.iter().min().expect("four"), *corners.iter().max().expect("four"));
                let lin = match (a.itv.as_point(), b.itv.as_point()) {
                    (_, Some(c)) => Some(a.lin.scaled(c)),
                    (Some(c), _) => Some(b.lin.scaled(c)),
                    _ => None,
                };
                Val { itv, lin: lin.unwrap_or(Lin::constant(itv)) }
            }
            ExprKind::Binary(op, a, b) if e.ty.is_integer() => Val::opaque(bit_op(*op, self.eval(d, a).itv, self.eval(d, b).itv, &e.ty)),
            ExprKind::Ite(c, a, b) => match self.truth(d, c) {
                Some(true) => self.eval(d, a),
                Some(false) => self.eval(d, b),
                None => Val::opaque(self.eval(d, a).itv.join(self.eval(d, b).itv)),
            },
            _ => Val::opaque(whole),
        };
        // wrap-around: a value that may leave its type's range may be any value of the type
        // (a variable's value is in range by definition)
        if matches!(e.kind, ExprKind::Var(_) | ExprKind::Const(_)) {
            return v;
        }
        match type_range(&e.ty) {
            Some((lo, hi)) if !(v.itv.bounded() && v.itv.lo >= lo && v.itv.hi <= hi) => Val::opaque(whole),
            _ => v,
        }
    }

    /// Whether `cond` holds in every state of `d` (`Some(true)`), in none (`Some(false)`).
    fn truth(&self, d: &Dbm, cond: &Expr) -> Option<bool> {
        if self.assume(d.clone(), cond, true).is_none() {
            Some(false)
        } else if self.assume(d.clone(), cond, false).is_none() {
            Some(true)
        } else {
            None
        }
    }

    /// The states of `d` where `cond` is `positive` (`None`: none).
    fn assume(&self, d: Dbm, cond: &Expr, positive: bool) -> Option<Dbm> {
        match &cond.kind {
            ExprKind::Const(c) => ((*c != 0) == positive).then_some(d),
            ExprKind::Unary(UnaryOp::Not, a) => self.assume(d, a, !positive),
            ExprKind::Binary(BinaryOp::And, a, b) if positive => self.assume(self.assume(d, a, true)?, b, true),
            ExprKind::Binary(BinaryOp::Or, a, b) if !positive => self.assume(self.assume(d, a, false)?, b, false),
            ExprKind::Binary(BinaryOp::Implies, a, b) if !positive => self.assume(self.assume(d, a, true)?, b, false),
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or | BinaryOp::Implies), a, b) => {
                // a disjunction: the join of both sides
                let (first, second) = match op {
                    BinaryOp::And => (self.assume(d.clone(), a, false), self.assume(d, b, false)),
                    BinaryOp::Or => (self.assume(d.clone(), a, true), self.assume(d, b, true)),
                    _ => (self.assume(d.clone(), a, false), self.assume(d, b, true)),
                };
                join(first, second)
            }
            ExprKind::Binary(op, a, b) if op.is_relational() && a.ty.is_integer() && b.ty.is_integer() => {
                let op = if positive { *op } else { op.negated_relation().expect("relational") };
                let (va, vb) = (self.eval(&d, a), self.eval(&d, b));
                // l = a - b, exact (neither side wrapped)
                let l = va.lin.plus(&vb.lin.scaled(-1));
                let one = Lin::constant(Itv::point(1));
                match op {
                    BinaryOp::Le => self.at_most_zero(d, &l),
                    BinaryOp::Lt => self.at_most_zero(d, &l.plus(&one)),
                    BinaryOp::Ge => self.at_most_zero(d, &l.scaled(-1)),
                    BinaryOp::Gt => self.at_most_zero(d, &l.scaled(-1).plus(&one)),
                    BinaryOp::Eq => {
                        let d = self.at_most_zero(d, &l)?;
                        self.at_most_zero(d, &l.scaled(-1))
                    }
                    _ => self.nonzero(d, &l),
                }
            }
            ExprKind::Var(v) if cond.ty == Type::Bool => match self.layout.index.get(v) {
                Some(&x) if positive => d.constrain(x, 0, -1),
                Some(&x) => d.constrain(0, x, 0),
                None => Some(d),
            },
            ExprKind::Cast(inner) if cond.ty == Type::Bool && inner.ty.is_integer() => {
                let zero = Expr::int(0, inner.ty.clone());
                let rel = Expr::binary(if positive { BinaryOp::Ne } else { BinaryOp::Eq }, (**inner).clone(), zero);
                self.assume(d, &rel, true)
            }
            _ => Some(d),
        }
    }

    /// The states of `d` where `l <= 0`.
    fn at_most_zero(&self, d: Dbm, l: &Lin) -> Option<Dbm> {
        if l.k.lo <= -INF {
            return Some(d);
        }
        // Σ c·x <= -klo
        let rhs = -l.k.lo;
        match l.terms.as_slice() {
            [] => (rhs >= 0).then_some(d),
            [(x, 1)] => d.constrain(0, *x, rhs),
            [(x, -1)] => d.constrain(*x, 0, rhs),
            [(x, 1), (y, -1)] | [(y, -1), (x, 1)] => d.constrain(*y, *x, rhs),
            terms => {
                // each term against the others' smallest values
                let mins: Vec<Option<i128>> = terms
                    .iter()
                    .map(|&(x, c)| {
                        let i = d.interval(x);
                        let (a, b) = (i.lo as i128 * c as i128, i.hi as i128 * c as i128);
                        i.bounded().then_some(a.min(b))
                    })
                    .collect();
                let unbounded = mins.iter().filter(|m| m.is_none()).count();
                let total: i128 = mins.iter().flatten().sum();
                if unbounded == 0 && total > rhs as i128 {
                    return None;
                }
                let mut d = d;
                for (t, &(x, c)) in terms.iter().enumerate() {
                    let others_unbounded = unbounded - mins[t].is_none() as usize;
                    if others_unbounded > 0 {
                        continue;
                    }
                    let room = rhs as i128 - (total - mins[t].unwrap_or(0));
                    if room.abs() >= INF as i128 {
                        continue;
                    }
                    d = if c > 0 { d.constrain(0, x, clip(room.div_euclid(c as i128)))? } else { d.constrain(x, 0, clip(room.div_euclid(-c as i128)))? };
                }
                Some(d)
            }
        }
    }

    /// The states of `d` where `l != 0`: only a bound that `l == 0` would touch is moved.
    fn nonzero(&self, d: Dbm, l: &Lin) -> Option<Dbm> {
        let Some(k) = l.k.as_point() else { return Some(d) };
        if l.terms.is_empty() {
            return (k != 0).then_some(d);
        }
        // t != -k for the variable part t
        let (itv, upper, lower): (Itv, (usize, usize), (usize, usize)) = match l.terms.as_slice() {
            [(x, 1)] => (d.interval(*x), (0, *x), (*x, 0)),
            [(x, -1)] => (Itv { lo: neg(d.get(0, *x)), hi: d.get(*x, 0) }, (*x, 0), (0, *x)),
            [(x, 1), (y, -1)] | [(y, -1), (x, 1)] => (Itv { lo: neg(d.get(*x, *y)), hi: d.get(*y, *x) }, (*y, *x), (*x, *y)),
            _ => return Some(d),
        };
        let target = -k;
        if itv.lo == target && itv.hi == target {
            None
        } else if itv.hi == target {
            d.constrain(upper.0, upper.1, target - 1)
        } else if itv.lo == target {
            d.constrain(lower.0, lower.1, -(target + 1))
        } else {
            Some(d)
        }
    }

    /// `x := rhs` for tracked `x`.
    fn assign(&self, mut d: Dbm, x: usize, rhs: &Expr) -> Option<Dbm> {
        let v = self.eval(&d, rhs);
        let (lo, hi) = (self.layout.lo[x], self.layout.hi[x]);
        let v = if v.itv.bounded() && v.itv.lo >= lo && v.itv.hi <= hi { v } else { Val::opaque(Itv { lo, hi }) };
        if let ([(y, 1)], Some(k)) = (v.lin.terms.as_slice(), v.lin.k.as_point()) {
            if *y == x {
                d.shift(x, k);
                return Some(d);
            }
        }
        d.forget(self.layout, x);
        let mut d = d;
        if let [(y, 1)] = v.lin.terms.as_slice() {
            if *y != x {
                d = d.constrain(*y, x, v.lin.k.hi)?;
                d = d.constrain(x, *y, neg(v.lin.k.lo))?;
            }
        }
        d = d.constrain(0, x, v.itv.hi)?;
        d.constrain(x, 0, neg(v.itv.lo))
    }
}

/// Intervals of division, remainder, shifts and bitwise operations (the type's range when unsure).
fn bit_op(op: BinaryOp, a: Itv, b: Itv, ty: &Type) -> Itv {
    let whole = Itv::of_type(ty);
    if !a.bounded() || !b.bounded() {
        return whole;
    }
    let (al, ah, bl, bh) = (a.lo as i128, a.hi as i128, b.lo as i128, b.hi as i128);
    match op {
        BinaryOp::Div if bl > 0 || bh < 0 => {
            let c = [al / bl, al / bh, ah / bl, ah / bh];
            Itv::from_i128(*c.iter().min().expect("four"), *c.iter().max().expect("four"))
        }
        BinaryOp::Rem if bl > 0 || bh < 0 => {
            let m = bl.abs().max(bh.abs()) - 1;
            if al >= 0 {
                Itv::from_i128(0, ah.min(m))
            } else if ah <= 0 {
                Itv::from_i128(al.max(-m), 0)
            } else {
                Itv::from_i128(-m, m)
            }
        }
        BinaryOp::BitAnd if al >= 0 || bl >= 0 => {
            let hi = match (al >= 0, bl >= 0) {
                (true, true) => ah.min(bh),
                (true, false) => ah,
                _ => bh,
            };
            Itv::from_i128(0, hi)
        }
        BinaryOp::BitOr | BinaryOp::BitXor if al >= 0 && bl >= 0 => {
            let top = ah.max(bh);
            let bits = 128 - top.leading_zeros();
            Itv::from_i128(if op == BinaryOp::BitOr { al.max(bl) } else { 0 }, (1i128 << bits) - 1)
        }
        BinaryOp::Shr if al >= 0 && bl == bh && (0..ty.bits() as i128).contains(&bl) => Itv::from_i128(al >> bl, ah >> bl),
        BinaryOp::Shl if al >= 0 && bl == bh && (0..ty.bits() as i128).contains(&bl) && ah < 1 << 62 => Itv::from_i128(al << bl, ah << bl),
        _ => whole,
    }
}

// ---------------------------------------------------------------------------------------------
// The fixpoint (on the shared engine)

/// The iteration: two joins at a loop head before widening, two descending rounds.
const CONFIG: Config = Config { strategy: Strategy::Rounds, widening_delay: WIDENING_DELAY, max_rounds: MAX_ROUNDS, descending_rounds: 2, max_depth: 32, max_contexts: usize::MAX };

/// Why the domain gives up: a procedure with too many variables.
#[derive(Debug)]
struct Unsupported;

/// The zone domain: closed matrices over each procedure's layout (`None`: unreachable), the
/// layouts, and the states at procedure entries and loop heads.
struct Zones<'p> {
    program: &'p Program,
    /// Per procedure: globals, formals and locals that are tracked (`None`: too many).
    layouts: HashMap<ProcId, Option<Rc<Layout>>>,
    /// Layouts of caller and callee variables together, for calls.
    call_layouts: HashMap<(ProcId, ProcId), Rc<Layout>>,
    /// Tracked globals each procedure may write (through its callees too).
    modifies: HashMap<ProcId, Vec<VarId>>,
    /// States at procedure entries and loop heads, joined over all analysed contexts.
    points: HashMap<StmtRef, Option<Dbm>>,
}

impl<'p> Zones<'p> {
    fn new(program: &'p Program) -> Zones<'p> {
        Zones { program, layouts: HashMap::default(), call_layouts: HashMap::default(), modifies: modified_globals(program), points: HashMap::default() }
    }

    fn proc_vars(&self, proc: ProcId) -> Vec<VarId> {
        let p = self.program.proc(proc);
        let mut vars: Vec<VarId> = self.program.globals.iter().chain(p.formals.iter()).chain(p.locals.iter()).copied().filter(|&v| tracked(self.program, v)).collect();
        vars.dedup();
        vars
    }

    fn layout(&mut self, proc: ProcId) -> Option<Rc<Layout>> {
        if let Some(l) = self.layouts.get(&proc) {
            return l.clone();
        }
        let vars = self.proc_vars(proc);
        let size = vars.len() + 1;
        let fits = vars.len() <= MAX_VARIABLES && size * size * self.program.proc(proc).body.len().max(1) <= MAX_MATRIX_ENTRIES;
        let layout = fits.then(|| Rc::new(Layout::new(self.program, vars)));
        self.layouts.insert(proc, layout.clone());
        layout
    }

    fn call_layout(&mut self, caller: ProcId, callee: ProcId) -> Rc<Layout> {
        if let Some(l) = self.call_layouts.get(&(caller, callee)) {
            return l.clone();
        }
        let mut vars = self.proc_vars(caller);
        for v in self.proc_vars(callee) {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        let layout = Rc::new(Layout::new(self.program, vars));
        self.call_layouts.insert((caller, callee), layout.clone());
        layout
    }
}

impl Domain for Zones<'_> {
    type Entry = Dbm;
    type State = Option<Dbm>;
    type Error = Unsupported;

    fn bottom(&self) -> Option<Dbm> {
        None
    }
    fn is_bottom(&self, state: &Option<Dbm>) -> bool {
        state.is_none()
    }
    fn start(&mut self, proc: ProcId, entry: &Dbm) -> Result<Option<Dbm>, Unsupported> {
        self.layout(proc).ok_or(Unsupported)?;
        Ok(Some(entry.clone()))
    }
    fn join(&self, a: Option<Dbm>, b: Option<Dbm>) -> Result<Option<Dbm>, Unsupported> {
        Ok(join(a, b))
    }
    /// Kept unclosed: [`Dbm::widen`].
    fn widen(&self, at: StmtRef, old: &Option<Dbm>, next: Option<Dbm>) -> Result<Option<Dbm>, Unsupported> {
        let layout = self.layouts.get(&at.proc).cloned().flatten().ok_or(Unsupported)?;
        Ok(match (old, next) {
            (Some(old), Some(next)) => Some(old.widen(&next, &layout)),
            (_, next) => next,
        })
    }
    fn leq(&self, a: &Option<Dbm>, b: &Option<Dbm>) -> bool {
        leq(a, b)
    }
    fn normalize(&self, state: Option<Dbm>) -> Option<Dbm> {
        state.and_then(Dbm::closed)
    }
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: Option<Dbm>) -> Result<Option<Dbm>, Fail<Unsupported>> {
        let layout = engine.domain.layout(at.proc).ok_or(Fail::Domain(Unsupported))?;
        match pre {
            Some(d) => post(engine, &layout, at, d),
            None => Ok(None),
        }
    }
    fn record(&mut self, at: StmtRef, loop_head: bool, state: &Option<Dbm>) -> Result<(), Unsupported> {
        if at.index == 0 || loop_head {
            let old = self.points.remove(&at).flatten();
            self.points.insert(at, join(old, self.normalize(state.clone())));
        }
        Ok(())
    }
}

/// The state after statement `at`, from `d` before it.
fn post(engine: &mut Engine<'_, Zones<'_>>, layout: &Rc<Layout>, at: StmtRef, d: Dbm) -> Result<Option<Dbm>, Fail<Unsupported>> {
    let program = engine.program();
    let ctx = Ctx { layout };
    let target = |lhs: &Expr| match lhs.kind {
        ExprKind::Var(v) => layout.index.get(&v).copied(),
        _ => None,
    };
    Ok(match &program.stmt(at).kind {
        StmtKind::Assume { cond } => ctx.assume(d, cond, true),
        StmtKind::Assign { lhs, rhs } => match target(lhs) {
            Some(x) => ctx.assign(d, x, rhs),
            None => Some(d),
        },
        StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => {
            let mut d = d;
            if let Some(x) = target(lhs) {
                d.forget(layout, x);
            }
            Some(d)
        }
        StmtKind::Call { lhs, callee, args } => return call(engine, at.proc, layout, d, lhs.as_ref(), *callee, args),
        StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Free { .. } | StmtKind::Return { .. } | StmtKind::Error => Some(d),
    })
}

/// A call of `callee` from `caller` in state `d` (over the caller's `layout`): the callee is
/// analysed from the entry state the arguments give (memoised by the engine).
fn call(
    engine: &mut Engine<'_, Zones<'_>>,
    caller: ProcId,
    layout: &Rc<Layout>,
    d: Dbm,
    lhs: Option<&Expr>,
    callee: ProcId,
    args: &[Expr],
) -> Result<Option<Dbm>, Fail<Unsupported>> {
    let program = engine.program();
    let target = lhs.and_then(|l| match l.kind {
        ExprKind::Var(v) => layout.index.get(&v).copied(),
        _ => None,
    });
    let callee_proc = program.proc(callee);
    if callee_proc.body.is_empty() {
        // no body: the call may set any global and returns anything
        let mut d = d;
        for &g in &program.globals {
            if let Some(&x) = layout.index.get(&g) {
                d.forget(layout, x);
            }
        }
        if let Some(x) = target {
            d.forget(layout, x);
        }
        return Ok(Some(d));
    }
    let callee_layout = engine.domain.layout(callee).ok_or(Fail::Domain(Unsupported))?;
    let both = engine.domain.call_layout(caller, callee);
    let ctx = Ctx { layout: &both };
    // `targets[i] := args[i]` over caller and callee variables, from the caller's state
    let bind = |targets: &dyn Fn(VarId) -> Option<VarId>| -> Option<Dbm> {
        let mut combined = d.reshape(layout, &both);
        for (f, a) in callee_proc.formals.iter().zip(args) {
            if let Some(&x) = targets(*f).and_then(|t| both.index.get(&t)) {
                combined = ctx.assign(combined, x, a)?;
            }
        }
        Some(combined)
    };
    // entry: formals := actuals
    let Some(combined) = bind(&|f| Some(f)) else { return Ok(None) };
    let entry = combined.reshape(&both, &callee_layout);
    let result = engine.call(callee, entry)?;
    let Some(exit) = &result.exit else { return Ok(None) };
    // return: the globals the callee may write and the callee's variables come from its
    // exit state, the caller's other variables keep their relations
    // The symbolic constants `'f` keep the formals' entry values: they equal the actuals
    // as evaluated before the call, which relates the callee's results to the caller's
    // variables.
    let Some(mut combined) = bind(&|f| program.symbolic_const_of(f)) else { return Ok(None) };
    for g in engine.domain.modifies.get(&callee).map(Vec::as_slice).unwrap_or(&[]) {
        if let Some(&x) = both.index.get(g) {
            combined.forget(&both, x);
        }
    }
    let from_exit = exit.reshape(&callee_layout, &both);
    // meet: both describe the same state of the shared globals
    combined.m.iter_mut().zip(&from_exit.m).for_each(|(a, b)| *a = (*a).min(*b));
    let Some(mut combined) = combined.closed() else { return Ok(None) };
    if let Some(x) = target.and_then(|x| both.index.get(&layout.vars[x - 1]).copied()) {
        match callee_proc.body.last().map(|s| &s.kind) {
            Some(StmtKind::Return { value: Some(value) }) => match ctx.assign(combined, x, value) {
                Some(c) => combined = c,
                None => return Ok(None),
            },
            // a call whose value is stored but not returned: anything
            _ => combined.forget(&both, x),
        }
    }
    Ok(Some(combined.reshape(&both, layout)))
}

/// Per procedure, the tracked globals it or its callees may assign (all globals through a call
/// of a procedure without body).
fn modified_globals(program: &Program) -> HashMap<ProcId, Vec<VarId>> {
    let globals: Vec<VarId> = program.globals.iter().copied().filter(|&g| tracked(program, g)).collect();
    let mut sets: HashMap<ProcId, Vec<VarId>> = HashMap::default();
    let mut calls: HashMap<ProcId, Vec<ProcId>> = HashMap::default();
    for proc in program.proc_ids() {
        let mut set = Vec::new();
        for stmt in &program.proc(proc).body {
            let lhs = match &stmt.kind {
                StmtKind::Assign { lhs, .. } | StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => Some(lhs),
                StmtKind::Call { lhs, callee, .. } => {
                    calls.entry(proc).or_default().push(*callee);
                    if program.proc(*callee).body.is_empty() {
                        set.extend(globals.iter().copied());
                    }
                    lhs.as_ref()
                }
                _ => None,
            };
            if let Some(Expr { kind: ExprKind::Var(v), .. }) = lhs {
                if globals.contains(v) {
                    set.push(*v);
                }
            }
        }
        set.sort();
        set.dedup();
        sets.insert(proc, set);
    }
    loop {
        let mut changed = false;
        for proc in program.proc_ids() {
            let mut set = sets[&proc].clone();
            for callee in calls.get(&proc).map(Vec::as_slice).unwrap_or(&[]) {
                for g in &sets[callee] {
                    if !set.contains(g) {
                        set.push(*g);
                        changed = true;
                    }
                }
            }
            sets.insert(proc, set);
        }
        if !changed {
            return sets;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading states back as C

/// The constraints of `d` as C formulas over the source variables: relations not implied by
/// the variables' bounds, then bounds tighter than the types; for `candidates`, the relations
/// only, over temporaries and symbolic constants too. Relations between variables of one type read `x <= y`,
/// `x < y`, `x == y`; others are compared as `long long` differences when both are at most 32
/// bits wide (no wrap-around) and left out otherwise.
fn constraints(program: &Program, layout: &Layout, d: &Dbm, candidates: bool) -> Vec<Expr> {
    let n = layout.size();
    let shown = |x: usize| {
        let var = program.var(layout.vars[x - 1]);
        match var.kind {
            VarKind::Global | VarKind::Local(_) | VarKind::Formal(..) => true,
            VarKind::SymbolicConst { .. } | VarKind::Temp(_) | VarKind::Return(_) => candidates,
        }
    };
    let var = |x: usize| {
        let v = layout.vars[x - 1];
        Expr::var(v, program.var(v).ty.clone())
    };
    let mut relations = Vec::new();
    let mut bounds = Vec::new();
    for x in 1..n {
        if !shown(x) {
            continue;
        }
        let itv = d.interval(x);
        let ty = program.var(layout.vars[x - 1]).ty.clone();
        if itv.as_point().is_some() {
            bounds.push(Expr::eq(var(x), Expr::int(itv.lo as i128, ty)));
            continue;
        }
        if itv.lo > layout.lo[x] && itv.lo > -INF {
            bounds.push(Expr::binary(BinaryOp::Ge, var(x), Expr::int(itv.lo as i128, ty.clone())));
        }
        if itv.hi < layout.hi[x] && itv.hi < INF {
            bounds.push(Expr::binary(BinaryOp::Le, var(x), Expr::int(itv.hi as i128, ty)));
        }
        for y in 1..n {
            if y == x || !shown(y) || d.interval(y).as_point().is_some() {
                continue;
            }
            // x - y <= c, unless the bounds imply it
            let c = d.get(y, x);
            if c >= INF || c >= add(d.get(0, x), d.get(y, 0)) || c.abs() > MAX_RELATION_CONSTANT {
                continue;
            }
            let back = d.get(x, y);
            let equal = back < INF && back == -c;
            if equal && y < x {
                // an equality is listed once, from the smaller index
                continue;
            }
            if let Some(e) = relation(program, layout, x, y, c, equal) {
                relations.push((c.abs(), e));
            }
        }
    }
    // relations with small constants first (`l <= i` before `i - k <= 999998`); candidates
    // are relations only (the refinement finds bounds itself, `refine::affine` those of counters)
    relations.sort_by_key(|(c, _)| *c);
    let relations = relations.into_iter().map(|(_, e)| e);
    if candidates {
        relations.collect()
    } else {
        relations.chain(bounds).collect()
    }
}

/// `x - y <= c` (or `x - y == c` when `equal`) as a C formula, when it can be written without wrap-around.
fn relation(program: &Program, layout: &Layout, x: usize, y: usize, c: i64, equal: bool) -> Option<Expr> {
    let (vx, vy) = (layout.vars[x - 1], layout.vars[y - 1]);
    let (tx, ty) = (program.var(vx).ty.clone(), program.var(vy).ty.clone());
    let (ex, ey) = (Expr::var(vx, tx.clone()), Expr::var(vy, ty.clone()));
    if tx == ty && (c == 0 || (c == -1 && !equal)) {
        return Some(match (c, equal) {
            (0, true) => Expr::eq(ex, ey),
            (0, false) => Expr::binary(BinaryOp::Le, ex, ey),
            _ => Expr::binary(BinaryOp::Lt, ex, ey),
        });
    }
    if tx.bits() > 32 || ty.bits() > 32 {
        return None;
    }
    let long = Type::LONG;
    let diff = Expr::binary(BinaryOp::Sub, Expr::cast(ex, long.clone()), Expr::cast(ey, long.clone()));
    Some(Expr::binary(if equal { BinaryOp::Eq } else { BinaryOp::Le }, diff, Expr::int(c as i128, long)))
}
