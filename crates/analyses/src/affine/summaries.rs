//! Affine procedure summaries (Karr's analysis across calls, recursion included), as candidate
//! predicates relating a call's result to its arguments.
//!
//! Refinement along one path at a time unrolls recursion the way it unrolls loops: for
//! `long add(long m, long n) { if (n == 0) return m; return add(m + 1, n - 1); ... }` it finds
//! `n == 0`, `n - 1 == 0`, `n - 2 == 0`, ... where the proof needs the summary
//! `add_return == 'm + 'n` and, at the call sites, `r == m + n`.
//!
//! A summary is the affine hull of the (entry values of the formals, result) pairs of the
//! returns of a procedure: the formals' symbolic constants `'f` hold the entry values. The
//! summaries start empty (no return seen yet) and grow, procedure by procedure, until none
//! changes: at a call the caller's state meets the callee's summary with the arguments for
//! `'f` and the result for the returned value, so a recursive call contributes only once the
//! base case has been seen. Unlike the loop analysis this one uses the equality guards
//! (`assume(n == 0)`), without which a base case tells nothing, and ignores the paths on which
//! the returned value is never assigned (falling off the end of a function whose value is
//! used is undefined behaviour in C).
//!
//! Each procedure of a round is analysed on the shared engine ([`crate::fixpoint`], by its
//! worklist and without widening, as the loop equalities): the domain (`Returns`) keeps two
//! subspaces per statement, and its transfer applies the callees' summaries as they stand
//! (not [`crate::fixpoint::Engine::call`], which would decline the recursion).

use super::{equality_expr, hull, included, integral, karr_config, linearize, positions, target, tracked_variables, Affine, Linear, Overflow, Rat, MAX_STATEMENTS, MAX_VARIABLES};
use crate::fixpoint::{Domain, Engine, Fail};
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, UnaryOp, VarId};
use budget::hash::HashMap;

/// Rounds over all procedures before the summaries are taken as they are.
const MAX_ROUNDS: usize = 32;
/// Work before the analysis gives up on the whole program (no candidates rather than a long
/// wait): a statement visit over `n` dimensions counts `n³` (its eliminations); about a
/// quarter of a second natively.
const MAX_WORK: usize = 150_000_000;

#[derive(Clone, Debug, PartialEq)]
enum Summary {
    /// No return reached (yet).
    Empty,
    /// Over the formals' entry values (in order), then the result.
    Hull(Affine),
    /// Not analysed, or the rationals overflowed: anything.
    Any,
}

/// What the analysis of one procedure needs to know about its variables.
struct Layout {
    vars: Vec<VarId>,
    index: HashMap<VarId, usize>,
    /// Per formal, the dimension of its symbolic constant (if it has one and it is tracked).
    entry_values: Vec<Option<usize>>,
    /// Per formal, its own dimension (if tracked).
    formals: Vec<Option<usize>>,
    /// The returned variable's dimension.
    result: Option<usize>,
    /// One more dimension after the variables: the value returned by a call.
    scratch: usize,
}

fn layout(program: &Program, proc: ProcId) -> Layout {
    let p = program.proc(proc);
    let vars = tracked_variables(program, proc);
    let index = positions(&vars);
    let entry_values = p.formals.iter().map(|&f| program.symbolic_const_of(f).and_then(|c| index.get(&c).copied())).collect();
    let formals = p.formals.iter().map(|f| index.get(f).copied()).collect();
    let result = p.ret_var.and_then(|r| index.get(&r).copied());
    Layout { scratch: vars.len(), vars, index, entry_values, formals, result }
}

/// Procedures whose result some call uses and that return an integer.
fn summarised(program: &Program) -> Vec<ProcId> {
    let mut out: Vec<ProcId> = Vec::new();
    for q in program.proc_ids() {
        for stmt in &program.proc(q).body {
            if let StmtKind::Call { lhs: Some(_), callee, .. } = &stmt.kind {
                let c = program.proc(*callee);
                let returns_integer = c.ret_var.is_some_and(|r| matches!(program.var(r).ty, Type::Int { .. }));
                if !c.body.is_empty() && returns_integer && !out.contains(callee) {
                    out.push(*callee);
                }
            }
        }
    }
    out
}

/// `a == b` (or `!(a != b)`) as the affine expression `a - b` that the guard makes zero.
fn guard_equality(cond: &Expr, index: &HashMap<VarId, usize>, n: usize) -> Option<Linear> {
    match &cond.kind {
        ExprKind::Binary(BinaryOp::Eq, a, b) if a.ty.is_integer() && b.ty.is_integer() => {
            linearize(a, index, n)?.combine(&linearize(b, index, n)?, Rat::int(-1))
        }
        ExprKind::Unary(UnaryOp::Not, inner) => match &inner.kind {
            ExprKind::Binary(BinaryOp::Ne, a, b) if a.ty.is_integer() && b.ty.is_integer() => {
                linearize(a, index, n)?.combine(&linearize(b, index, n)?, Rat::int(-1))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The callee's summary equalities with the arguments for the entry values and `result` (a
/// dimension of the caller) for the returned value; equalities over an argument that is not
/// affine are left out.
fn instantiate(summary: &Affine, args: &[Expr], result: usize, index: &HashMap<VarId, usize>, n: usize) -> Option<Vec<Linear>> {
    let k = summary.point.len() - 1;
    let args: Vec<Option<Linear>> = args.iter().take(k).map(|a| linearize(a, index, n)).collect();
    let mut out = Vec::new();
    'equalities: for (coeffs, constant) in summary.equalities()? {
        let mut e = Linear::constant(n, Rat::int(constant).neg()?);
        for (i, &c) in coeffs.iter().enumerate().take(k) {
            if c == 0 {
                continue;
            }
            let Some(Some(arg)) = args.get(i) else { continue 'equalities };
            e = e.combine(arg, Rat::int(c))?;
        }
        e.coeffs[result] = e.coeffs[result].add(Rat::int(coeffs[k]))?;
        out.push(e);
    }
    Some(out)
}

/// Per statement, the states reached with the returned variable not assigned yet (`[0]`)
/// and assigned (`[1]`); `None`: not reached so.
type States = [Option<Affine>; 2];

/// Why the analysis of a procedure gives up.
#[derive(Debug)]
enum GiveUp {
    Overflow,
    /// The work budget of the whole program is spent.
    Budget,
}

impl From<Overflow> for GiveUp {
    fn from(_: Overflow) -> GiveUp {
        GiveUp::Overflow
    }
}

/// The domain of one procedure's analysis in a round: its layout, the callees' summaries of
/// the round so far, and the work spent on the whole program.
struct Returns<'a> {
    layout: &'a Layout,
    summaries: &'a HashMap<ProcId, Summary>,
    /// The tracked globals' dimensions (a call may change them).
    globals: Vec<usize>,
    /// The variables' dimensions and the scratch one.
    n: usize,
    spent: usize,
}

impl Domain for Returns<'_> {
    /// One context per procedure: the formals equal their entry values.
    type Entry = ();
    type State = States;
    type Error = GiveUp;

    fn bottom(&self) -> States {
        [None, None]
    }
    fn is_bottom(&self, state: &States) -> bool {
        state[0].is_none() && state[1].is_none()
    }
    fn start(&mut self, _proc: ProcId, _entry: &()) -> Result<States, GiveUp> {
        let mut entry = Affine::full(self.n);
        for (f, c) in self.layout.formals.iter().zip(&self.layout.entry_values) {
            if let (Some(f), Some(c)) = (f, c) {
                let mut e = Linear::constant(self.n, Rat::ZERO);
                e.coeffs[*f] = Rat::ONE;
                entry = entry.assign(*c, &e).ok_or(GiveUp::Overflow)?;
            }
        }
        Ok([Some(entry), None])
    }
    fn join(&self, [a0, a1]: States, [b0, b1]: States) -> Result<States, GiveUp> {
        Ok([hull(a0, b0)?, hull(a1, b1)?])
    }
    /// No widening: the lattice has finite height.
    fn widen(&self, _at: StmtRef, _old: &States, next: States) -> Result<States, GiveUp> {
        Ok(next)
    }
    fn leq(&self, a: &States, b: &States) -> bool {
        included(&a[0], &b[0]) && included(&a[1], &b[1])
    }
    /// Each reached state through the statement, into the slot of whether the returned
    /// variable is assigned after it; a statement visit over `n` dimensions costs `n³` of
    /// the budget (its eliminations).
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: States) -> Result<States, Fail<GiveUp>> {
        let program = engine.program();
        let d = &mut engine.domain;
        d.spent += d.n * d.n * d.n;
        if d.spent > MAX_WORK {
            return Err(Fail::Domain(GiveUp::Budget));
        }
        let kind = &program.stmt(at).kind;
        let mut after: States = [None, None];
        for (assigned, before) in pre.into_iter().enumerate() {
            let Some(before) = before else { continue };
            let overflow = Fail::Domain(GiveUp::Overflow);
            let Some((next, writes_result)) = transfer(program, kind, before, d.layout, &d.globals, d.summaries, d.n) else { return Err(overflow) };
            let slot = if assigned == 1 || writes_result { 1 } else { 0 };
            if let Some(next) = next {
                after[slot] = hull(after[slot].take(), Some(next)).map_err(|_| overflow)?;
            }
        }
        Ok(after)
    }
}

/// The state before the return statement of `proc`, given the summaries of the callees;
/// `None` when the rationals overflow or the budget is spent (`spent` tells which).
fn analyse(program: &Program, proc: ProcId, l: &Layout, summaries: &HashMap<ProcId, Summary>, spent: &mut usize) -> Option<States> {
    let globals: Vec<usize> = program.globals.iter().filter_map(|g| l.index.get(g).copied()).collect();
    let n = l.scratch + 1;
    let domain = Returns { layout: l, summaries, globals, n, spent: *spent };
    let never = || false;
    let mut engine = Engine::new(program, domain, karr_config(n, 2), &never);
    let result = engine.call(proc, ());
    *spent = engine.domain.spent;
    Some(result.ok()?.exit.clone())
}

/// One statement: the state after it (`None`: blocked), and whether it writes the returned variable.
fn transfer(
    program: &Program,
    kind: &StmtKind,
    before: Affine,
    l: &Layout,
    globals: &[usize],
    summaries: &HashMap<ProcId, Summary>,
    n: usize,
) -> Option<(Option<Affine>, bool)> {
    let writes = |lhs: &Expr| target(lhs, &l.index).is_some_and(|x| Some(x) == l.result);
    Some(match kind {
        StmtKind::Assign { lhs, rhs } => match target(lhs, &l.index) {
            Some(x) => match linearize(rhs, &l.index, n) {
                Some(e) => (Some(before.assign(x, &e)?), writes(lhs)),
                None => (Some(before.havoc(x)?), writes(lhs)),
            },
            None => (Some(before), false),
        },
        StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => match target(lhs, &l.index) {
            Some(x) => (Some(before.havoc(x)?), writes(lhs)),
            None => (Some(before), false),
        },
        StmtKind::Assume { cond } => match guard_equality(cond, &l.index, n) {
            Some(e) => (before.meet_zero(&e)?, false),
            None => (Some(before), false),
        },
        StmtKind::Call { lhs, callee, args } => {
            let mut s = before;
            for &g in globals {
                s = s.havoc(g)?;
            }
            let summary = if program.proc(*callee).body.is_empty() { &Summary::Any } else { summaries.get(callee).unwrap_or(&Summary::Any) };
            let x = lhs.as_ref().and_then(|lhs| target(lhs, &l.index));
            let written = lhs.as_ref().is_some_and(writes);
            match (summary, x) {
                (Summary::Empty, _) => (None, written),
                (Summary::Hull(h), Some(x)) => {
                    let r = l.scratch;
                    s = s.havoc(r)?;
                    let mut reached = Some(s);
                    for e in instantiate(h, args, r, &l.index, n)? {
                        reached = match reached {
                            Some(s) => s.meet_zero(&e)?,
                            None => None,
                        };
                    }
                    match reached {
                        Some(s) => {
                            let mut value = Linear::constant(n, Rat::ZERO);
                            value.coeffs[r] = Rat::ONE;
                            (Some(s.assign(x, &value)?.havoc(r)?), written)
                        }
                        None => (None, written),
                    }
                }
                (_, Some(x)) => (Some(s.havoc(x)?), written),
                (_, None) => (Some(s), false),
            }
        }
        _ => (Some(before), false),
    })
}

/// The summary of `proc` from its state at the return: the hull, over the entry values and
/// the returned variable, of the states where that variable was assigned.
fn summary_of(at_return: &States, l: &Layout) -> Option<Summary> {
    let Some(at_return) = at_return[1].as_ref() else { return Some(Summary::Empty) };
    let mut dims: Vec<Option<usize>> = l.entry_values.clone();
    dims.push(l.result);
    Some(Summary::Hull(at_return.project(&dims)?))
}

/// Candidate predicates per procedure from the affine summaries of the procedures whose
/// integer result is used: in the callee, the relation of its returned variable to the
/// formals' entry values (`add_return == 'm + 'n`) and of the formals to their entry values
/// at the return (`m == 'm`); in each caller, the relation at every call site of the result to
/// the arguments (`r == m + n` for `r = add(m, n)`). Each relates two or more variables.
pub fn call_relations(program: &Program) -> HashMap<ProcId, Vec<Expr>> {
    let mut out: HashMap<ProcId, Vec<Expr>> = HashMap::default();
    let procs = summarised(program);
    if procs.is_empty() {
        return out;
    }
    let layouts: HashMap<ProcId, Layout> = procs.iter().map(|&p| (p, layout(program, p))).collect();
    let analysable = |p: ProcId| {
        let l = &layouts[&p];
        l.vars.len() <= MAX_VARIABLES && program.proc(p).body.len() <= MAX_STATEMENTS && l.result.is_some()
    };
    let mut summaries: HashMap<ProcId, Summary> =
        procs.iter().map(|&p| (p, if analysable(p) { Summary::Empty } else { Summary::Any })).collect();
    let mut at_returns: HashMap<ProcId, States> = HashMap::default();
    let mut spent = 0;
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for &p in &procs {
            if summaries[&p] == Summary::Any {
                continue;
            }
            let l = &layouts[&p];
            let next = match analyse(program, p, l, &summaries, &mut spent) {
                Some(at_return) => {
                    let s = summary_of(&at_return, l).unwrap_or(Summary::Any);
                    at_returns.insert(p, at_return);
                    s
                }
                None => Summary::Any,
            };
            // the hull of the old and the new summary keeps the rounds monotone
            let joined = match (&summaries[&p], next) {
                (Summary::Hull(old), Summary::Hull(new)) => old.join(&new).map_or(Summary::Any, Summary::Hull),
                (Summary::Empty, s) | (_, s @ Summary::Any) => s,
                (old, _) => old.clone(),
            };
            if joined != summaries[&p] {
                summaries.insert(p, joined);
                changed = true;
            }
        }
        if spent > MAX_WORK {
            return out;
        }
        if !changed {
            break;
        }
    }
    for &p in &procs {
        let Summary::Hull(h) = &summaries[&p] else { continue };
        let l = &layouts[&p];
        let pr = program.proc(p);
        let mut found = Vec::new();
        // the returned variable against the entry values
        if let Some(r) = pr.ret_var {
            let mut vars: Vec<Option<VarId>> = pr.formals.iter().map(|&f| program.symbolic_const_of(f)).collect();
            vars.push(Some(r));
            found.extend(relations(program, h, &vars, |c| c[c.len() - 1] != 0));
        }
        // the formals against their entry values, at the return
        if let Some(at_return) = at_returns.get(&p).and_then(|s| s[1].as_ref()) {
            let mut dims: Vec<Option<usize>> = l.formals.clone();
            dims.extend(l.entry_values.iter().copied());
            let mut vars: Vec<Option<VarId>> = pr.formals.iter().map(|&f| Some(f)).collect();
            vars.extend(pr.formals.iter().map(|&f| program.symbolic_const_of(f)));
            if let Some(projected) = at_return.project(&dims) {
                found.extend(relations(program, &projected, &vars, |_| true));
            }
        }
        add_all(&mut out, p, found);
    }
    // the call sites
    for q in program.proc_ids() {
        let body = &program.proc(q).body;
        if body.is_empty() {
            continue;
        }
        let vars = tracked_variables(program, q);
        let index = positions(&vars);
        let n = vars.len();
        let mut found = Vec::new();
        for stmt in body {
            let StmtKind::Call { lhs: Some(lhs), callee, args } = &stmt.kind else { continue };
            let (Some(x), Some(Summary::Hull(h))) = (target(lhs, &index), summaries.get(callee)) else { continue };
            // `x = f(x)`: the relation would mix the value before the call with the one after
            if args.iter().any(|a| a.vars().contains(&vars[x])) {
                continue;
            }
            let Some(equalities) = instantiate(h, args, x, &index, n) else { continue };
            for e in equalities.into_iter().filter(|e| !e.coeffs[x].is_zero()) {
                let Some(constant) = e.constant.neg() else { continue };
                let Some((coeffs, constant)) = integral(&e.coeffs, constant) else { continue };
                if coeffs.iter().filter(|c| **c != 0).count() >= 2 {
                    found.push(equality_expr(program, &vars, &coeffs, constant));
                }
            }
        }
        add_all(&mut out, q, found);
    }
    out
}

/// The equalities of `h` (over `vars`, `None` for an unconstrained dimension) that `keep`
/// accepts and that relate two or more variables, as C predicates.
fn relations(program: &Program, h: &Affine, vars: &[Option<VarId>], keep: impl Fn(&[i128]) -> bool) -> Vec<Expr> {
    let Some(equalities) = h.equalities() else { return Vec::new() };
    let mut out = Vec::new();
    for (coeffs, constant) in equalities {
        let used: Vec<usize> = (0..coeffs.len()).filter(|&i| coeffs[i] != 0).collect();
        if used.len() < 2 || !keep(&coeffs) || used.iter().any(|&i| vars[i].is_none()) {
            continue;
        }
        let present: Vec<VarId> = used.iter().filter_map(|&i| vars[i]).collect();
        let picked: Vec<i128> = used.iter().map(|&i| coeffs[i]).collect();
        out.push(equality_expr(program, &present, &picked, constant));
    }
    out
}

fn add_all(out: &mut HashMap<ProcId, Vec<Expr>>, proc: ProcId, found: Vec<Expr>) {
    let list = out.entry(proc).or_default();
    for e in found {
        if !list.contains(&e) {
            list.push(e);
        }
    }
}
