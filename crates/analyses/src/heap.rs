//! An allocation-site value analysis of the whole program ("heap values"): small sets or
//! intervals of values for integer variables and for the fields of heap cells, and sets of
//! cells for pointers, at every statement, with calls analysed in the caller's context.
//!
//! It proves what predicate abstraction over a finite set of predicates cannot express: facts
//! about *every* cell of an unbounded list, such as "every node built by this loop has
//! `h == 1`" (the lazy-shape-analysis list programs). Used as a **proof** only: when no
//! `Error` statement is reachable in the abstract states, the program is SAFE, and the values
//! at procedure entries and loop heads are its invariants (as C formulas over variables and
//! `p->f` reads). The result is only used after a check that it is a post-fixpoint of the
//! transfer functions, as for the difference-bound analysis (`zones`).
//!
//! The heap is abstracted by *recency* (Balakrishnan and Reps, 2006) with two recent cells:
//! per allocation site, the newest cell, the one allocated before it (both concrete, so
//! writes to them are strong updates), and a summary of all older cells (weak updates). A
//! list built forwards writes the fields of the previous node after allocating the next one,
//! which the second recent cell keeps precise. Fields are keyed by their access path (field
//! indices) under the pointee type a cell is accessed with; a cell accessed under two
//! different types, a write through an unknown pointer, `&`, arrays, recursion and the like
//! make the analysis give up (it answers nothing, never something unsound).
//!
//! Values: a sorted set of at most [`MAX_SET`] integers, else an interval; both stay within
//! the variable's type, and an operation that may wrap yields the type's whole range. Reads of
//! memory never written give the type's whole range (C leaves it indeterminate).
//!
//! The iteration is the shared engine's ([`crate::fixpoint`]): widening at loop heads after
//! three joins, no descending rounds, the post-fixpoint check, calls memoised per entry state.

use c_ir::points::{invariant_points, ProgramPointInvariant};
use c_ir::{display_expr, BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, UnaryOp, VarId, VarKind};
use crate::fixpoint::{Config, Domain, Engine, Fail, Strategy};
use std::collections::{BTreeMap, BTreeSet};
use budget::hash::HashMap;

/// Integer value sets larger than this become intervals.
const MAX_SET: usize = 8;
/// Ascending rounds over a procedure before giving up.
const MAX_ROUNDS: usize = 60;
/// Joins at a loop head before widening.
const WIDENING_DELAY: u32 = 3;
/// The values of a type without a range of its own.
const WHOLE: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);
/// Calling contexts analysed in all before giving up.
const MAX_CONTEXTS: usize = 2_000;
/// Cells tracked in one state (three per allocation site).
const MAX_CELLS: usize = 300;

/// What the analysis found.
#[derive(Clone, Debug)]
pub struct HeapResult {
    /// No `Error` statement is reachable in the abstract states.
    pub safe: bool,
    /// The values at procedure entries and loop heads (joined over calling contexts), as C formulas.
    pub invariants: Vec<ProgramPointInvariant>,
}

/// Runs the analysis from `main`; `None` for a program that never allocates, and when it
/// gives up (unsupported constructs, recursion, no fixpoint within the round limit, or `stop`).
pub fn analyze(program: &Program, stop: &dyn Fn() -> bool) -> Option<HeapResult> {
    let entry = program.entry?;
    let allocates = program.procs.iter().any(|p| p.body.iter().any(|s| matches!(s.kind, StmtKind::Malloc { .. })));
    // without allocation it is a value-set analysis, which the zones mostly subsume
    if !allocates || !supported(program) {
        return None;
    }
    let heap = Heap { program, points: HashMap::default() };
    let mut engine = Engine::new(program, heap, CONFIG, stop);
    let result = engine.call(entry, State::default()).ok()?;
    let analyzer = engine.domain;
    let mut invariants = Vec::new();
    for (at, point) in invariant_points(program) {
        let formula = match analyzer.points.get(&at) {
            None | Some(None) => Expr::bool(false),
            Some(Some(state)) => logic::conjunction(&facts(program, at.proc, state)),
        };
        let text = display_expr(program, &formula);
        invariants.push(ProgramPointInvariant { at, point, span: program.stmt(at).span, line: 0, formula, text });
    }
    Some(HeapResult { safe: !result.error, invariants })
}

/// Whether every expression is of the forms the analysis handles: no `&`, arrays, string
/// literals, uninterpreted symbols, unions, struct-valued variables or whole-struct copies.
fn supported(program: &Program) -> bool {
    if program.vars.iter().any(|v| v.address_taken || !(v.ty.is_scalar() || v.ty == Type::Void)) {
        return false;
    }
    let mut ok = true;
    let mut check = |e: &Expr| {
        e.visit(&mut |sub| match &sub.kind {
            ExprKind::AddrOf(_) | ExprKind::Index(..) | ExprKind::Str(_) | ExprKind::App(..) => ok = false,
            ExprKind::Field(base, _) => {
                // a field path must end in a dereference of a pointer to a struct (no union)
                let mut b = base.as_ref();
                while let ExprKind::Field(inner, _) = &b.kind {
                    b = inner;
                }
                let unions = |ty: &Type| matches!(ty, Type::Struct(s) if program.struct_def(*s).is_union);
                if !matches!(b.kind, ExprKind::Deref(_)) || unions(&base.ty) {
                    ok = false;
                }
            }
            ExprKind::Deref(_) if !(sub.ty.is_scalar() || matches!(sub.ty, Type::Struct(_))) => ok = false,
            _ if matches!(sub.ty, Type::Opaque(_) | Type::Function | Type::Array(..)) => ok = false,
            _ => {}
        })
    };
    for proc in &program.procs {
        for stmt in &proc.body {
            match &stmt.kind {
                StmtKind::Assign { lhs, rhs } => {
                    if !lhs.ty.is_scalar() {
                        return false;
                    }
                    check(lhs);
                    check(rhs);
                }
                StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => {
                    if !lhs.ty.is_scalar() {
                        return false;
                    }
                    check(lhs);
                }
                StmtKind::Free { ptr } => check(ptr),
                StmtKind::Assume { cond } => check(cond),
                StmtKind::Call { lhs, args, .. } => {
                    if lhs.as_ref().is_some_and(|l| !l.ty.is_scalar()) {
                        return false;
                    }
                    lhs.iter().chain(args).for_each(&mut check);
                }
                StmtKind::Return { value } => value.iter().for_each(&mut check),
                StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Error => {}
            }
        }
    }
    ok
}

// ---------------------------------------------------------------------------------------------
// Values

/// How recently a cell was allocated at its site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Age {
    Newest,
    Previous,
    /// All older cells of the site.
    Summary,
}

/// An abstract memory location a pointer may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Loc {
    Null,
    Cell(StmtRef, Age),
}

impl Loc {
    /// A location standing for one concrete cell (strong updates).
    fn is_single(self) -> bool {
        matches!(self, Loc::Cell(_, Age::Newest | Age::Previous))
    }
}

/// An integer value set: sorted distinct values, or an inclusive interval.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Num {
    Set(Vec<i128>),
    Range(i128, i128),
}

impl Num {
    fn point(v: i128) -> Num {
        Num::Set(vec![v])
    }
    fn of_values(mut values: Vec<i128>) -> Option<Num> {
        values.sort_unstable();
        values.dedup();
        match (values.first(), values.last()) {
            (Some(&lo), Some(&hi)) if values.len() > MAX_SET => Some(Num::Range(lo, hi)),
            (Some(_), Some(_)) => Some(Num::Set(values)),
            _ => None,
        }
    }
    fn bounds(&self) -> (i128, i128) {
        match self {
            Num::Set(v) => (v[0], v[v.len() - 1]),
            Num::Range(lo, hi) => (*lo, *hi),
        }
    }
    fn contains(&self, x: i128) -> bool {
        match self {
            Num::Set(v) => v.binary_search(&x).is_ok(),
            Num::Range(lo, hi) => *lo <= x && x <= *hi,
        }
    }
    fn as_point(&self) -> Option<i128> {
        match self {
            Num::Set(v) if v.len() == 1 => Some(v[0]),
            Num::Range(lo, hi) if lo == hi => Some(*lo),
            _ => None,
        }
    }
    /// The values, when there are few.
    fn values(&self) -> Option<Vec<i128>> {
        match self {
            Num::Set(v) => Some(v.clone()),
            Num::Range(lo, hi) if hi.saturating_sub(*lo) < MAX_SET as i128 => Some((*lo..=*hi).collect()),
            Num::Range(..) => None,
        }
    }
    fn join(&self, other: &Num) -> Num {
        match (self.values(), other.values()) {
            (Some(mut a), Some(b)) => {
                a.extend(b);
                Num::of_values(a).expect("non-empty")
            }
            _ => {
                let (a, b) = (self.bounds(), other.bounds());
                Num::Range(a.0.min(b.0), a.1.max(b.1))
            }
        }
    }
    fn leq(&self, other: &Num) -> bool {
        match self.values() {
            Some(v) => v.iter().all(|&x| other.contains(x)),
            None => {
                let ((lo, hi), (olo, ohi)) = (self.bounds(), other.bounds());
                matches!(other, Num::Range(..)) && olo <= lo && hi <= ohi
            }
        }
    }
    /// Widening: a set that grew past its bound, or an interval end that moved, goes to the
    /// type's range.
    fn widen(&self, next: &Num, range: (i128, i128)) -> Num {
        let joined = self.join(next);
        if joined.leq(self) {
            return self.clone();
        }
        match joined {
            Num::Set(v) if v.len() <= MAX_SET => Num::Set(v),
            other => {
                let ((lo, hi), (olo, ohi)) = (self.bounds(), other.bounds());
                Num::Range(if olo < lo { range.0 } else { lo }, if ohi > hi { range.1 } else { hi })
            }
        }
    }
    /// The values satisfying `x op c`.
    fn restrict(&self, op: BinaryOp, c: i128) -> Option<Num> {
        let keep = |x: i128| relation(op, x, c).unwrap_or(true);
        match self.values() {
            Some(v) => Num::of_values(v.into_iter().filter(|&x| keep(x)).collect()),
            None => {
                let (lo, hi) = self.bounds();
                let (lo, hi) = match op {
                    BinaryOp::Eq => (lo.max(c), hi.min(c)),
                    BinaryOp::Lt => (lo, hi.min(c - 1)),
                    BinaryOp::Le => (lo, hi.min(c)),
                    BinaryOp::Gt => (lo.max(c + 1), hi),
                    BinaryOp::Ge => (lo.max(c), hi),
                    BinaryOp::Ne if c == lo => (lo + 1, hi),
                    BinaryOp::Ne if c == hi => (lo, hi - 1),
                    _ => (lo, hi),
                };
                (lo <= hi).then(|| if hi.saturating_sub(lo) < MAX_SET as i128 { Num::Set((lo..=hi).collect()) } else { Num::Range(lo, hi) })
            }
        }
    }
}

fn relation(op: BinaryOp, a: i128, b: i128) -> Option<bool> {
    Some(match op {
        BinaryOp::Eq => a == b,
        BinaryOp::Ne => a != b,
        BinaryOp::Lt => a < b,
        BinaryOp::Le => a <= b,
        BinaryOp::Gt => a > b,
        BinaryOp::Ge => a >= b,
        _ => return None,
    })
}

/// The pointers a pointer value may be: locations, or also anything (`top`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Ptrs {
    locs: BTreeSet<Loc>,
    top: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Val {
    Num(Num),
    Ptr(Ptrs),
}

impl Val {
    fn top(ty: &Type) -> Val {
        match ty {
            Type::Pointer(_) => Val::Ptr(Ptrs { locs: BTreeSet::new(), top: true }),
            _ => {
                let (lo, hi) = ty.value_range().unwrap_or(WHOLE);
                Val::Num(Num::Range(lo, hi))
            }
        }
    }
    fn is_top(&self, ty: &Type) -> bool {
        *self == Val::top(ty)
    }
    fn bool(b: bool) -> Val {
        Val::Num(Num::point(b as i128))
    }
    fn either() -> Val {
        Val::Num(Num::Set(vec![0, 1]))
    }
    fn join(&self, other: &Val) -> Result<Val, GiveUp> {
        Ok(match (self, other) {
            (Val::Num(a), Val::Num(b)) => Val::Num(a.join(b)),
            (Val::Ptr(a), Val::Ptr(b)) => Val::Ptr(Ptrs { locs: a.locs.union(&b.locs).copied().collect(), top: a.top || b.top }),
            _ => return Err(GiveUp),
        })
    }
    fn leq(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Num(a), Val::Num(b)) => a.leq(b),
            (Val::Ptr(a), Val::Ptr(b)) => (b.top || !a.top) && a.locs.is_subset(&b.locs),
            _ => false,
        }
    }
    fn widen(&self, next: &Val, ty: &Type) -> Result<Val, GiveUp> {
        match (self, next) {
            (Val::Num(a), Val::Num(b)) => Ok(Val::Num(a.widen(b, ty.value_range().unwrap_or(WHOLE)))),
            _ => self.join(next),
        }
    }
    fn num(&self) -> Option<&Num> {
        match self {
            Val::Num(n) => Some(n),
            Val::Ptr(_) => None,
        }
    }
    /// Whether the value is certainly zero / certainly non-zero.
    fn truth(&self) -> Option<bool> {
        match self {
            Val::Num(n) => match n.values() {
                Some(v) if v.iter().all(|&x| x != 0) => Some(true),
                Some(v) if v.iter().all(|&x| x == 0) => Some(false),
                _ if !n.contains(0) => Some(true),
                _ => None,
            },
            Val::Ptr(p) if p.top => None,
            Val::Ptr(p) if p.locs.iter().all(|&l| l == Loc::Null) => Some(false),
            Val::Ptr(p) if !p.locs.contains(&Loc::Null) => Some(true),
            Val::Ptr(_) => None,
        }
    }
    fn rename(&mut self, map: &dyn Fn(Loc) -> Loc) {
        if let Val::Ptr(p) = self {
            p.locs = p.locs.iter().map(|&l| map(l)).collect();
        }
    }
}

/// `v` wrapped into the range of integer type `ty` (two's complement).
fn wrap(v: i128, ty: &Type) -> i128 {
    match *ty {
        Type::Bool => (v != 0) as i128,
        Type::Int { bits, signed } if bits < 128 => {
            let modulus = 1i128 << bits;
            let r = v.rem_euclid(modulus);
            if signed && r >= modulus / 2 {
                r - modulus
            } else {
                r
            }
        }
        _ => v,
    }
}

// ---------------------------------------------------------------------------------------------
// States

/// The fields of one heap cell, by access path; a path not present holds any value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Cell {
    /// The pointee type the cell is accessed with (`None` until the first access).
    view: Option<Type>,
    fields: BTreeMap<Vec<u32>, Val>,
}

/// The abstract state before a statement.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct State {
    /// Globals and the current procedure's variables; a variable not present holds any value.
    vars: BTreeMap<VarId, Val>,
    /// The callers' variables (innermost last), kept so that allocations rename their pointers.
    frames: Vec<BTreeMap<VarId, Val>>,
    cells: BTreeMap<Loc, Cell>,
}

impl State {
    fn var(&self, program: &Program, v: VarId) -> Val {
        self.vars.get(&v).cloned().unwrap_or_else(|| Val::top(&program.var(v).ty))
    }
    fn set_var(&mut self, program: &Program, v: VarId, val: Val) {
        if val.is_top(&program.var(v).ty) {
            self.vars.remove(&v);
        } else {
            self.vars.insert(v, val);
        }
    }
    fn rename(&mut self, map: &dyn Fn(Loc) -> Loc) {
        for val in self.vars.values_mut().chain(self.frames.iter_mut().flat_map(|f| f.values_mut())) {
            val.rename(map);
        }
        for cell in self.cells.values_mut() {
            for val in cell.fields.values_mut() {
                val.rename(map);
            }
        }
    }
    fn join(&self, other: &State) -> Result<State, GiveUp> {
        if self.frames.len() != other.frames.len() {
            return Err(GiveUp);
        }
        let frames = self.frames.iter().zip(&other.frames).map(|(a, b)| join_maps(a, b)).collect::<Result<_, _>>()?;
        let mut cells = self.cells.clone();
        for (loc, cell) in &other.cells {
            // a cell absent on one side is not allocated there: nothing points to it
            let joined = match cells.get(loc) {
                None => cell.clone(),
                Some(mine) => Cell { view: join_view(&mine.view, &cell.view)?, fields: join_maps(&mine.fields, &cell.fields)? },
            };
            cells.insert(*loc, joined);
        }
        Ok(State { vars: join_maps(&self.vars, &other.vars)?, frames, cells })
    }
    fn widen(&self, next: &State, program: &Program) -> Result<State, GiveUp> {
        let mut out = self.join(next)?;
        for (v, val) in out.vars.iter_mut() {
            if let Some(old) = self.vars.get(v) {
                *val = old.widen(val, &program.var(*v).ty)?;
            }
        }
        for (loc, cell) in out.cells.iter_mut() {
            let Some(old) = self.cells.get(loc) else { continue };
            for (path, val) in cell.fields.iter_mut() {
                if let (Some(o), Some(view)) = (old.fields.get(path), &cell.view) {
                    *val = o.widen(val, &path_type(program, view, path).ok_or(GiveUp)?)?;
                }
            }
        }
        Ok(out)
    }
    fn leq(&self, other: &State) -> bool {
        self.frames.len() == other.frames.len()
            && maps_leq(&self.vars, &other.vars)
            && self.frames.iter().zip(&other.frames).all(|(a, b)| maps_leq(a, b))
            && self.cells.iter().all(|(loc, cell)| {
                other.cells.get(loc).is_some_and(|o| (o.view.is_none() || o.view == cell.view) && maps_leq(&cell.fields, &o.fields))
            })
    }
}

/// Whether every value of `a` is within `b` (a missing key holds any value).
fn maps_leq<K: Ord>(a: &BTreeMap<K, Val>, b: &BTreeMap<K, Val>) -> bool {
    b.iter().all(|(k, bv)| a.get(k).is_some_and(|av| av.leq(bv)))
}

fn join_view(a: &Option<Type>, b: &Option<Type>) -> Result<Option<Type>, GiveUp> {
    match (a, b) {
        (Some(x), Some(y)) if x != y => Err(GiveUp),
        (Some(x), _) | (_, Some(x)) => Ok(Some(x.clone())),
        (None, None) => Ok(None),
    }
}

/// Keys present on both sides, with joined values (a missing key holds any value).
fn join_maps<K: Ord + Clone>(a: &BTreeMap<K, Val>, b: &BTreeMap<K, Val>) -> Result<BTreeMap<K, Val>, GiveUp> {
    let mut out = BTreeMap::new();
    for (k, av) in a {
        if let Some(bv) = b.get(k) {
            out.insert(k.clone(), av.join(bv)?);
        }
    }
    Ok(out)
}

fn join(a: Option<State>, b: Option<State>) -> Result<Option<State>, GiveUp> {
    Ok(match (a, b) {
        (Some(x), Some(y)) => Some(x.join(&y)?),
        (x, None) | (None, x) => x,
    })
}

/// The type at access path `path` inside a cell viewed as `view`.
fn path_type(program: &Program, view: &Type, path: &[u32]) -> Option<Type> {
    let mut ty = view.clone();
    for &i in path {
        ty = program.field(&ty, i)?.ty.clone();
    }
    Some(ty)
}

// ---------------------------------------------------------------------------------------------
// Transfer functions

/// The analysis gives up (an unsupported construct or budget).
#[derive(Debug)]
struct GiveUp;

/// A heap access `*p.f1.f2`: the pointer expression and the field path.
fn access_path(e: &Expr) -> Option<(&Expr, Vec<u32>)> {
    let mut path = Vec::new();
    let mut cur = e;
    loop {
        match &cur.kind {
            ExprKind::Field(base, f) => {
                path.push(*f);
                cur = base;
            }
            ExprKind::Deref(p) => {
                path.reverse();
                return Some((p, path));
            }
            _ => return None,
        }
    }
}

struct Ctx<'p> {
    program: &'p Program,
}

impl Ctx<'_> {
    /// The cells `ptr` may point to (the null pointer left out: dereferencing it ends the run),
    /// each seen under the pointee type `view`, and whether it may also point anywhere else.
    fn targets(&self, st: &State, ptr: &Expr) -> Result<Option<(Vec<Loc>, bool)>, GiveUp> {
        let Some(Val::Ptr(p)) = self.eval(st, ptr)? else { return Ok(None) };
        let view = ptr.ty.pointee().ok_or(GiveUp)?;
        let cells: Vec<Loc> = p.locs.iter().copied().filter(|&l| l != Loc::Null).collect();
        for l in &cells {
            match st.cells.get(l).and_then(|c| c.view.as_ref()) {
                Some(v) if v != view => return Err(GiveUp),
                _ => {}
            }
        }
        Ok((!cells.is_empty() || p.top).then_some((cells, p.top)))
    }

    /// The value of `e` in `st`; `None` when evaluating it cannot succeed (a null dereference).
    fn eval(&self, st: &State, e: &Expr) -> Result<Option<Val>, GiveUp> {
        let ty = &e.ty;
        Ok(Some(match &e.kind {
            ExprKind::Const(v) => match ty {
                Type::Pointer(_) if *v == 0 => Val::Ptr(Ptrs { locs: [Loc::Null].into(), top: false }),
                Type::Pointer(_) => Val::top(ty),
                _ => Val::Num(Num::point(*v)),
            },
            ExprKind::Var(v) => st.var(self.program, *v),
            ExprKind::Deref(_) | ExprKind::Field(..) => {
                let (ptr, path) = access_path(e).ok_or(GiveUp)?;
                let Some((targets, anywhere)) = self.targets(st, ptr)? else { return Ok(None) };
                if anywhere {
                    return Ok(Some(Val::top(ty)));
                }
                let mut acc: Option<Val> = None;
                for l in targets {
                    let v = st.cells.get(&l).and_then(|c| c.fields.get(&path)).cloned().unwrap_or_else(|| Val::top(ty));
                    acc = Some(match acc {
                        None => v,
                        Some(a) => a.join(&v)?,
                    });
                }
                acc.unwrap_or_else(|| Val::top(ty))
            }
            ExprKind::Cast(inner) => {
                let Some(v) = self.eval(st, inner)? else { return Ok(None) };
                cast(v, ty)
            }
            ExprKind::Unary(op, a) => {
                let Some(v) = self.eval(st, a)? else { return Ok(None) };
                unary(*op, &v, ty)
            }
            ExprKind::Binary(op, a, b) => {
                let Some(x) = self.eval(st, a)? else { return Ok(None) };
                let Some(y) = self.eval(st, b)? else { return Ok(None) };
                binary(*op, &x, &y, &a.ty, ty)
            }
            ExprKind::Ite(c, a, b) => {
                let Some(cv) = self.eval(st, c)? else { return Ok(None) };
                match cv.truth() {
                    Some(true) => return self.eval(st, a),
                    Some(false) => return self.eval(st, b),
                    None => match (self.eval(st, a)?, self.eval(st, b)?) {
                        (Some(x), Some(y)) => x.join(&y)?,
                        (Some(x), None) | (None, Some(x)) => x,
                        (None, None) => return Ok(None),
                    },
                }
            }
            ExprKind::AddrOf(_) | ExprKind::Index(..) | ExprKind::Str(_) | ExprKind::App(..) => return Err(GiveUp),
        }))
    }

    /// `lhs := val`; `None` when the write cannot happen (through a null pointer).
    fn store(&self, mut st: State, lhs: &Expr, val: Val) -> Result<Option<State>, GiveUp> {
        if let ExprKind::Var(v) = lhs.kind {
            st.set_var(self.program, v, val);
            return Ok(Some(st));
        }
        let (ptr, path) = access_path(lhs).ok_or(GiveUp)?;
        let view = ptr.ty.pointee().ok_or(GiveUp)?.clone();
        let Some((targets, anywhere)) = self.targets(&st, ptr)? else { return Ok(None) };
        if anywhere {
            // a write through an unknown pointer could change any cell
            return Err(GiveUp);
        }
        let strong = targets.len() == 1 && targets[0].is_single();
        for l in targets {
            let cell = st.cells.get_mut(&l).ok_or(GiveUp)?;
            cell.view = Some(view.clone());
            let new = match (strong, cell.fields.get(&path)) {
                (true, _) => Some(val.clone()),
                (false, Some(old)) => Some(old.join(&val)?),
                (false, None) => None,
            };
            // a write to a field also writes the paths inside it (struct-valued fields are
            // not assigned as a whole: `supported` refuses that)
            match new {
                Some(v) if !v.is_top(&lhs.ty) => {
                    cell.fields.insert(path.clone(), v);
                }
                _ => {
                    cell.fields.remove(&path);
                }
            }
        }
        Ok(Some(st))
    }

    /// The states of `st` where `cond` may be `positive`.
    fn assume(&self, st: State, cond: &Expr, positive: bool) -> Result<Option<State>, GiveUp> {
        match &cond.kind {
            ExprKind::Unary(UnaryOp::Not, a) => return self.assume(st, a, !positive),
            ExprKind::Binary(op @ (BinaryOp::And | BinaryOp::Or), a, b) => {
                let conjunction = (*op == BinaryOp::And) == positive;
                if conjunction {
                    let Some(st) = self.assume(st, a, positive)? else { return Ok(None) };
                    return self.assume(st, b, positive);
                }
                let left = self.assume(st.clone(), a, positive)?;
                let right = self.assume(st, b, positive)?;
                return join(left, right);
            }
            _ => {}
        }
        let Some(v) = self.eval(&st, cond)? else { return Ok(None) };
        match v.truth() {
            Some(t) if t != positive => return Ok(None),
            Some(_) => return Ok(Some(st)),
            None => {}
        }
        // refine a variable or a field of a single cell compared with a constant
        let (op, target, other) = match &cond.kind {
            ExprKind::Binary(op, a, b) if op.is_relational() => {
                let op = if positive { *op } else { op.negated_relation().ok_or(GiveUp)? };
                let (a, b) = (without_value_casts(a), without_value_casts(b));
                if refinable(a) {
                    (op, a, b)
                } else if refinable(b) {
                    (logic::simplify::swap_relational(op), b, a)
                } else {
                    return Ok(Some(st));
                }
            }
            _ if refinable(cond) && cond.ty.is_scalar() => {
                (if positive { BinaryOp::Ne } else { BinaryOp::Eq }, cond, &Expr::int(0, cond.ty.clone()))
            }
            _ => return Ok(Some(st)),
        };
        let Some(c) = self.eval(&st, other)? else { return Ok(None) };
        let Some(current) = self.eval(&st, target)? else { return Ok(None) };
        let refined = match (&current, &c) {
            (Val::Num(n), Val::Num(k)) => match k.as_point() {
                Some(k) => match n.restrict(op, k) {
                    Some(r) => Val::Num(r),
                    None => return Ok(None),
                },
                None => return Ok(Some(st)),
            },
            (Val::Ptr(p), Val::Ptr(k)) if !k.top && k.locs.len() == 1 && k.locs.contains(&Loc::Null) => match op {
                BinaryOp::Eq if p.top || p.locs.contains(&Loc::Null) => Val::Ptr(Ptrs { locs: [Loc::Null].into(), top: false }),
                BinaryOp::Eq => return Ok(None),
                BinaryOp::Ne => {
                    let locs: BTreeSet<Loc> = p.locs.iter().copied().filter(|&l| l != Loc::Null).collect();
                    if locs.is_empty() && !p.top {
                        return Ok(None);
                    }
                    Val::Ptr(Ptrs { locs, top: p.top })
                }
                _ => return Ok(Some(st)),
            },
            _ => return Ok(Some(st)),
        };
        match &target.kind {
            ExprKind::Var(_) => self.store(st, target, refined),
            _ => {
                // only a field of one concrete cell is refined in place
                let (ptr, _) = access_path(target).ok_or(GiveUp)?;
                match self.targets(&st, ptr)? {
                    Some((t, false)) if t.len() == 1 && t[0].is_single() => self.store(st, target, refined),
                    _ => Ok(Some(st)),
                }
            }
        }
    }

    /// `lhs := malloc(..)` at `site`: the site's newest cell becomes its previous one, the
    /// previous one joins the summary, and `lhs` points to a fresh newest cell.
    fn allocate(&self, mut st: State, lhs: &Expr, site: StmtRef) -> Result<Option<State>, GiveUp> {
        let (newest, previous, summary) = (Loc::Cell(site, Age::Newest), Loc::Cell(site, Age::Previous), Loc::Cell(site, Age::Summary));
        if let Some(prev) = st.cells.remove(&previous) {
            let merged = match st.cells.remove(&summary) {
                None => prev,
                Some(sum) => Cell { view: join_view(&sum.view, &prev.view)?, fields: join_maps(&sum.fields, &prev.fields)? },
            };
            st.cells.insert(summary, merged);
        }
        if let Some(n) = st.cells.remove(&newest) {
            st.cells.insert(previous, n);
        }
        st.rename(&|l| match l {
            l if l == previous => summary,
            l if l == newest => previous,
            l => l,
        });
        st.cells.insert(newest, Cell::default());
        if st.cells.len() > MAX_CELLS {
            return Err(GiveUp);
        }
        self.store(st, lhs, Val::Ptr(Ptrs { locs: [newest].into(), top: false }))
    }
}

/// `e` without conversions that keep every value (between pointer types, or to an integer
/// type whose range contains the source type's): a comparison of the converted value with a
/// constant says the same of the original.
fn without_value_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => {
            let keeps = match (inner.ty.value_range(), e.ty.value_range()) {
                _ if inner.ty.is_pointer() && e.ty.is_pointer() => true,
                (Some((lo, hi)), Some((tlo, thi))) => inner.ty.is_integer() && e.ty.is_integer() && e.ty != Type::Bool && tlo <= lo && hi <= thi,
                _ => false,
            };
            if keeps {
                without_value_casts(inner)
            } else {
                e
            }
        }
        _ => e,
    }
}

/// A variable, or a field read through a pointer variable.
fn refinable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Field(..) | ExprKind::Deref(_) => access_path(e).is_some_and(|(p, _)| matches!(p.kind, ExprKind::Var(_))),
        _ => false,
    }
}

fn cast(v: Val, to: &Type) -> Val {
    match (v, to) {
        (Val::Ptr(p), Type::Pointer(_)) => Val::Ptr(p),
        (Val::Ptr(p), Type::Bool) => match (Val::Ptr(p)).truth() {
            Some(b) => Val::bool(b),
            None => Val::either(),
        },
        (Val::Ptr(p), _) if !p.top && p.locs.iter().all(|&l| l == Loc::Null) => Val::Num(Num::point(0)),
        (Val::Num(n), Type::Pointer(_)) if n.as_point() == Some(0) => Val::Ptr(Ptrs { locs: [Loc::Null].into(), top: false }),
        (Val::Num(n), _) if to.is_integer() => match n.values() {
            Some(vs) => Val::Num(Num::of_values(vs.into_iter().map(|x| wrap(x, to)).collect()).expect("non-empty")),
            None => {
                let (lo, hi) = n.bounds();
                match to.value_range() {
                    Some((tlo, thi)) if tlo <= lo && hi <= thi && *to != Type::Bool => Val::Num(n),
                    _ if *to == Type::Bool => Val::either(),
                    _ => Val::top(to),
                }
            }
        },
        _ => Val::top(to),
    }
}

fn unary(op: UnaryOp, v: &Val, ty: &Type) -> Val {
    let Some(n) = v.num() else {
        return match (op, v.truth()) {
            (UnaryOp::Not, Some(b)) => Val::bool(!b),
            (UnaryOp::Not, None) => Val::either(),
            _ => Val::top(ty),
        };
    };
    let f = |x: i128| -> i128 {
        match op {
            UnaryOp::Neg => wrap(-x, ty),
            UnaryOp::BitNot => wrap(!x, ty),
            UnaryOp::Not => (x == 0) as i128,
        }
    };
    match n.values() {
        Some(vs) => Val::Num(Num::of_values(vs.into_iter().map(f).collect()).expect("non-empty")),
        None if op == UnaryOp::Not => match v.truth() {
            Some(b) => Val::bool(!b),
            None => Val::either(),
        },
        None => {
            let (lo, hi) = n.bounds();
            let (a, b) = match op {
                UnaryOp::Neg => (-hi, -lo),
                _ => (!hi, !lo),
            };
            in_type(a, b, ty)
        }
    }
}

/// The interval `[lo, hi]` when it fits in `ty`, else all of `ty` (the operation may wrap).
fn in_type(lo: i128, hi: i128, ty: &Type) -> Val {
    match ty.value_range() {
        Some((tlo, thi)) if tlo <= lo && hi <= thi => Val::Num(Num::Range(lo, hi)),
        _ => Val::top(ty),
    }
}

/// The C value of `x op y` for operands of type `operand` and result type `ty`; `None` when
/// it is undefined (division by zero, a shift out of range).
fn concrete(op: BinaryOp, x: i128, y: i128, operand: &Type, ty: &Type) -> Option<i128> {
    let bits = operand.bits() as i128;
    Some(match op {
        BinaryOp::Add => wrap(x.checked_add(y)?, ty),
        BinaryOp::Sub => wrap(x.checked_sub(y)?, ty),
        BinaryOp::Mul => wrap(x.checked_mul(y)?, ty),
        BinaryOp::Div if y != 0 => wrap(x.checked_div(y)?, ty),
        BinaryOp::Rem if y != 0 => wrap(x.checked_rem(y)?, ty),
        BinaryOp::Shl if (0..bits).contains(&y) => wrap(x.checked_shl(y as u32)?, ty),
        BinaryOp::Shr if (0..bits).contains(&y) => wrap(x >> y, ty),
        BinaryOp::BitAnd => wrap(x & y, ty),
        BinaryOp::BitOr => wrap(x | y, ty),
        BinaryOp::BitXor => wrap(x ^ y, ty),
        BinaryOp::And => ((x != 0) && (y != 0)) as i128,
        BinaryOp::Or => ((x != 0) || (y != 0)) as i128,
        BinaryOp::Implies => ((x == 0) || (y != 0)) as i128,
        op if op.is_relational() => relation(op, x, y)? as i128,
        _ => return None,
    })
}

fn binary(op: BinaryOp, x: &Val, y: &Val, operand: &Type, ty: &Type) -> Val {
    if op.is_logical() {
        return match (x.truth(), y.truth()) {
            (Some(a), Some(b)) => Val::Num(Num::point(concrete(op, a as i128, b as i128, &Type::Bool, &Type::Bool).unwrap_or(0))),
            // false && _, true || _, false ==> _
            (Some(false), None) if op == BinaryOp::And => Val::bool(false),
            (Some(true), None) if op == BinaryOp::Or => Val::bool(true),
            (Some(false), None) if op == BinaryOp::Implies => Val::bool(true),
            (None, Some(false)) if op == BinaryOp::And => Val::bool(false),
            (None, Some(true)) if matches!(op, BinaryOp::Or | BinaryOp::Implies) => Val::bool(true),
            _ => Val::either(),
        };
    }
    let (a, b) = match (x, y) {
        (Val::Num(a), Val::Num(b)) => (a, b),
        (Val::Ptr(p), Val::Ptr(q)) if matches!(op, BinaryOp::Eq | BinaryOp::Ne) => {
            return match pointers_equal(p, q) {
                Some(eq) => Val::bool(eq == (op == BinaryOp::Eq)),
                None => Val::either(),
            };
        }
        _ => return Val::top(ty),
    };
    if let (Some(xs), Some(ys)) = (a.values(), b.values()) {
        let mut out = Vec::new();
        for &x in &xs {
            for &y in &ys {
                // an undefined operation ends the run (the interpreter reports a runtime error)
                if let Some(r) = concrete(op, x, y, operand, ty) {
                    out.push(r);
                }
            }
        }
        return match Num::of_values(out) {
            Some(n) => Val::Num(n),
            None => Val::top(ty),
        };
    }
    let ((alo, ahi), (blo, bhi)) = (a.bounds(), b.bounds());
    let corners = |f: &dyn Fn(i128, i128) -> Option<i128>| -> Option<(i128, i128)> {
        let c = [f(alo, blo)?, f(alo, bhi)?, f(ahi, blo)?, f(ahi, bhi)?];
        Some((*c.iter().min()?, *c.iter().max()?))
    };
    let range = match op {
        BinaryOp::Add => corners(&|x, y| x.checked_add(y)),
        BinaryOp::Sub => corners(&|x, y| x.checked_sub(y)),
        BinaryOp::Mul => corners(&|x, y| x.checked_mul(y)),
        // truncating division by divisors of one sign is monotone in each argument
        BinaryOp::Div if blo > 0 || bhi < 0 => corners(&|x, y| x.checked_div(y)),
        BinaryOp::Rem if blo > 0 || bhi < 0 => {
            let m = blo.abs().max(bhi.abs()) - 1;
            Some((if alo >= 0 { 0 } else { -m }, if ahi <= 0 { 0 } else { m }))
        }
        BinaryOp::BitAnd if alo >= 0 || blo >= 0 => {
            let hi = if alo >= 0 && blo >= 0 { ahi.min(bhi) } else if alo >= 0 { ahi } else { bhi };
            Some((0, hi))
        }
        op if op.is_relational() => {
            let decided = match op {
                BinaryOp::Eq | BinaryOp::Ne => (ahi < blo || bhi < alo).then_some(op == BinaryOp::Ne),
                BinaryOp::Lt if ahi < blo => Some(true),
                BinaryOp::Lt if alo >= bhi => Some(false),
                BinaryOp::Le if ahi <= blo => Some(true),
                BinaryOp::Le if alo > bhi => Some(false),
                BinaryOp::Gt if alo > bhi => Some(true),
                BinaryOp::Gt if ahi <= blo => Some(false),
                BinaryOp::Ge if alo >= bhi => Some(true),
                BinaryOp::Ge if ahi < blo => Some(false),
                _ => None,
            };
            return match decided {
                Some(b) => Val::bool(b),
                None => Val::either(),
            };
        }
        _ => None,
    };
    match range {
        Some((lo, hi)) => in_type(lo, hi, ty),
        None => Val::top(ty),
    }
}

/// Whether two pointer values are certainly equal (`Some(true)`) or certainly different.
fn pointers_equal(p: &Ptrs, q: &Ptrs) -> Option<bool> {
    if p.top || q.top {
        return None;
    }
    if p.locs.len() == 1 && p.locs == q.locs {
        let l = *p.locs.iter().next()?;
        if l == Loc::Null || l.is_single() {
            return Some(true);
        }
    }
    p.locs.is_disjoint(&q.locs).then_some(false)
}

// ---------------------------------------------------------------------------------------------
// The fixpoint

/// The states at a program point, partitioned by what the pointer variables point to (trace
/// partitioning): the first iteration of a list-building loop, where `p` points to the list's
/// head, stays apart from the later ones, where it points to the newest cell, so that writes
/// through `p` remain strong updates. More than [`MAX_PARTS`] partitions collapse into one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Disj {
    parts: BTreeMap<Vec<(VarId, Ptrs)>, State>,
    collapsed: bool,
}

/// Partitions kept at one program point.
const MAX_PARTS: usize = 8;

impl Disj {
    fn of(st: State, program: &Program) -> Result<Disj, GiveUp> {
        let mut d = Disj::default();
        d.add(st, program)?;
        Ok(d)
    }
    fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }
    /// The partition of `st`: the targets of its pointer variables other than temporaries
    /// (which lowering introduces for calls and `malloc`, and which are dead at loop heads).
    fn key(&self, st: &State, program: &Program) -> Vec<(VarId, Ptrs)> {
        if self.collapsed {
            return Vec::new();
        }
        st.vars
            .iter()
            .filter_map(|(v, val)| match val {
                Val::Ptr(p) if !matches!(program.var(*v).kind, VarKind::Temp(_)) => Some((*v, p.clone())),
                _ => None,
            })
            .collect()
    }
    fn add(&mut self, st: State, program: &Program) -> Result<(), GiveUp> {
        let key = self.key(&st, program);
        let joined = match self.parts.remove(&key) {
            Some(old) => old.join(&st)?,
            None => st,
        };
        self.parts.insert(key, joined);
        if self.parts.len() > MAX_PARTS {
            self.collapse()?;
        }
        Ok(())
    }
    fn collapse(&mut self) -> Result<(), GiveUp> {
        let mut all: Option<State> = None;
        for st in std::mem::take(&mut self.parts).into_values() {
            all = join(all, Some(st))?;
        }
        self.collapsed = true;
        if let Some(st) = all {
            self.parts.insert(Vec::new(), st);
        }
        Ok(())
    }
    fn join(&self, other: &Disj, program: &Program) -> Result<Disj, GiveUp> {
        let mut out = self.clone();
        if other.collapsed && !out.collapsed {
            out.collapse()?;
        }
        for st in other.parts.values() {
            out.add(st.clone(), program)?;
        }
        Ok(out)
    }
    /// Widening per partition (`self` is the old state, `next` contains it).
    fn widen(&self, next: Disj, program: &Program) -> Result<Disj, GiveUp> {
        let mut out = Disj { parts: BTreeMap::new(), collapsed: next.collapsed };
        let old = if next.collapsed && !self.collapsed {
            let mut c = self.clone();
            c.collapse()?;
            c
        } else {
            self.clone()
        };
        for (key, st) in next.parts {
            let widened = match old.parts.get(&key) {
                Some(o) => o.widen(&st, program)?,
                None => st,
            };
            out.parts.insert(key, widened);
        }
        Ok(out)
    }
    fn leq(&self, other: &Disj, program: &Program) -> bool {
        self.parts.values().all(|st| other.parts.get(&other.key(st, program)).is_some_and(|o| st.leq(o)))
    }
    /// All partitions joined.
    fn joined(&self) -> Result<Option<State>, GiveUp> {
        let mut all: Option<State> = None;
        for st in self.parts.values() {
            all = join(all, Some(st.clone()))?;
        }
        Ok(all)
    }
}

/// The iteration: three joins at a loop head before widening, no descending rounds.
const CONFIG: Config = Config { strategy: Strategy::Rounds, widening_delay: WIDENING_DELAY, max_rounds: MAX_ROUNDS, descending_rounds: 0, max_depth: 32, max_contexts: MAX_CONTEXTS };

impl From<GiveUp> for Fail<GiveUp> {
    fn from(e: GiveUp) -> Fail<GiveUp> {
        Fail::Domain(e)
    }
}

/// The heap-value domain: partitioned states per statement, and the states at procedure
/// entries and loop heads.
struct Heap<'p> {
    program: &'p Program,
    /// States at procedure entries and loop heads, joined over all analysed contexts.
    points: HashMap<StmtRef, Option<State>>,
}

impl Domain for Heap<'_> {
    type Entry = State;
    type State = Disj;
    type Error = GiveUp;

    fn bottom(&self) -> Disj {
        Disj::default()
    }
    fn is_bottom(&self, state: &Disj) -> bool {
        state.is_empty()
    }
    fn start(&mut self, _proc: ProcId, entry: &State) -> Result<Disj, GiveUp> {
        Disj::of(entry.clone(), self.program)
    }
    fn join(&self, a: Disj, b: Disj) -> Result<Disj, GiveUp> {
        a.join(&b, self.program)
    }
    fn widen(&self, _at: StmtRef, old: &Disj, next: Disj) -> Result<Disj, GiveUp> {
        old.widen(next, self.program)
    }
    fn leq(&self, a: &Disj, b: &Disj) -> bool {
        a.leq(b, self.program)
    }
    fn transfer(engine: &mut Engine<'_, Self>, at: StmtRef, pre: Disj) -> Result<Disj, Fail<GiveUp>> {
        let program = engine.program();
        let mut out = Disj::default();
        for st in pre.parts.into_values() {
            for post in post(engine, at, st)? {
                out.add(post, program)?;
            }
        }
        Ok(out)
    }
    fn record(&mut self, at: StmtRef, loop_head: bool, state: &Disj) -> Result<(), GiveUp> {
        if at.index == 0 || loop_head {
            // contexts differ in their callers' frames: the invariant is over this frame
            let frameless = |st: Option<State>| {
                st.map(|mut st| {
                    st.frames.clear();
                    st
                })
            };
            let old = frameless(self.points.remove(&at).flatten());
            let mine = frameless(state.joined()?);
            self.points.insert(at, join(old, mine)?);
        }
        Ok(())
    }
}

/// The states after statement `at`, from `st` before it.
fn post(engine: &mut Engine<'_, Heap<'_>>, at: StmtRef, st: State) -> Result<Vec<State>, Fail<GiveUp>> {
    let program = engine.program();
    let ctx = Ctx { program };
    let one = match &program.stmt(at).kind {
        StmtKind::Assume { cond } => ctx.assume(st, cond, true)?,
        StmtKind::Assign { lhs, rhs } => match ctx.eval(&st, rhs)? {
            Some(v) => ctx.store(st, lhs, v)?,
            None => None,
        },
        StmtKind::Havoc { lhs } => ctx.store(st, lhs, Val::top(&lhs.ty))?,
        StmtKind::Malloc { lhs, .. } => ctx.allocate(st, lhs, at)?,
        StmtKind::Free { ptr } => ctx.eval(&st, ptr)?.map(|_| st),
        StmtKind::Call { lhs, callee, args } => return call(engine, st, lhs.as_ref(), *callee, args),
        StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Return { .. } | StmtKind::Error => Some(st),
    };
    Ok(one.into_iter().collect())
}

/// A call of `callee` in state `st`: the callee is analysed from the entry state the
/// arguments give (memoised by the engine), the caller's variables waiting in a frame.
fn call(engine: &mut Engine<'_, Heap<'_>>, st: State, lhs: Option<&Expr>, callee: ProcId, args: &[Expr]) -> Result<Vec<State>, Fail<GiveUp>> {
    let program = engine.program();
    let ctx = Ctx { program };
    let callee_proc = program.proc(callee);
    let is_global = |v: &VarId| matches!(program.var(*v).kind, VarKind::Global);
    if callee_proc.body.is_empty() {
        // no body: it may write any global and any cell, and returns anything
        if args.iter().any(|a| a.ty.is_pointer()) {
            return Err(Fail::Domain(GiveUp));
        }
        let mut st = st;
        st.vars.retain(|v, _| !is_global(v));
        for cell in st.cells.values_mut() {
            cell.fields.clear();
        }
        return Ok(match lhs {
            Some(l) => ctx.store(st, l, Val::top(&l.ty))?,
            None => Some(st),
        }
        .into_iter()
        .collect());
    }
    // entry: the globals, the heap, and formals := actuals; the caller's variables wait in a frame
    let mut values = Vec::new();
    for a in args {
        let Some(v) = ctx.eval(&st, a)? else { return Ok(Vec::new()) };
        values.push(v);
    }
    let (globals, locals): (BTreeMap<VarId, Val>, BTreeMap<VarId, Val>) = st.vars.into_iter().partition(|(v, _)| is_global(v));
    let mut frames = st.frames;
    frames.push(locals);
    let mut entry = State { vars: globals, frames, cells: st.cells };
    for (f, v) in callee_proc.formals.iter().zip(values) {
        entry.set_var(program, *f, v);
    }
    let result = engine.call(callee, entry)?;
    let mut out = Vec::new();
    for exit in result.exit.parts.values() {
        let returned = match (lhs, callee_proc.body.last().map(|s| &s.kind)) {
            (Some(_), Some(StmtKind::Return { value: Some(value) })) => match ctx.eval(exit, value)? {
                Some(v) => Some(v),
                None => continue,
            },
            (Some(l), _) => Some(Val::top(&l.ty)),
            (None, _) => None,
        };
        let mut after = exit.clone();
        let locals = after.frames.pop().ok_or(GiveUp)?;
        after.vars.retain(|v, _| is_global(v));
        after.vars.extend(locals);
        let after = match (lhs, returned) {
            (Some(l), Some(v)) => ctx.store(after, l, v)?,
            _ => Some(after),
        };
        out.extend(after);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Invariants as C formulas

/// The facts of `st` over the variables of `proc` (and globals): value sets of integer
/// variables, null-ness of pointers, and the values of fields read through pointer variables.
fn facts(program: &Program, proc: ProcId, st: &State) -> Vec<Expr> {
    let mut out = Vec::new();
    for (&v, val) in &st.vars {
        let var = program.var(v);
        if var.kind.proc().is_some_and(|p| p != proc) {
            continue;
        }
        let e = Expr::var(v, var.ty.clone());
        match val {
            Val::Num(n) => out.extend(num_fact(&e, n)),
            Val::Ptr(p) if p.top => {}
            Val::Ptr(p) => {
                let cells: Vec<&Cell> = p.locs.iter().filter(|&&l| l != Loc::Null).filter_map(|l| st.cells.get(l)).collect();
                if !p.locs.contains(&Loc::Null) {
                    out.push(Expr::binary(BinaryOp::Ne, e.clone(), Expr::int(0, var.ty.clone())));
                } else if cells.is_empty() {
                    out.push(Expr::eq(e.clone(), Expr::int(0, var.ty.clone())));
                    continue;
                }
                // a field value every target cell agrees on (joined)
                let Some(view) = var.ty.pointee() else { continue };
                let Some(first) = cells.first() else { continue };
                for (path, v0) in &first.fields {
                    let Val::Num(mut n) = v0.clone() else { continue };
                    let mut all = true;
                    for c in &cells[1..] {
                        match c.fields.get(path) {
                            Some(Val::Num(m)) => n = n.join(m),
                            _ => all = false,
                        }
                    }
                    if !all || cells.iter().any(|c| c.view.as_ref() != Some(view)) {
                        continue;
                    }
                    let Some(read) = field_read(program, &e, path) else { continue };
                    if let Some(fact) = num_fact(&read, &n) {
                        out.push(if p.locs.contains(&Loc::Null) {
                            Expr::or(Expr::eq(e.clone(), Expr::int(0, var.ty.clone())), fact)
                        } else {
                            fact
                        });
                    }
                }
            }
        }
    }
    out
}

/// `p->f1.f2...` for pointer variable expression `p`.
fn field_read(program: &Program, p: &Expr, path: &[u32]) -> Option<Expr> {
    let mut e = Expr::deref(p.clone());
    for &i in path {
        let ty = program.field(&e.ty, i)?.ty.clone();
        e = Expr::new(ExprKind::Field(Box::new(e), i), ty);
    }
    e.ty.is_scalar().then_some(e)
}

/// `e` in the set `n`, unless `n` is all of `e`'s type.
fn num_fact(e: &Expr, n: &Num) -> Option<Expr> {
    if Val::Num(n.clone()).is_top(&e.ty) {
        return None;
    }
    let c = |v: i128| Expr::int(v, e.ty.clone());
    Some(match n {
        Num::Set(vs) => logic::disjunction(&vs.iter().map(|&v| Expr::eq(e.clone(), c(v))).collect::<Vec<_>>()),
        Num::Range(lo, hi) => {
            let mut parts = Vec::new();
            let (tlo, thi) = e.ty.value_range().unwrap_or(WHOLE);
            if *lo > tlo {
                parts.push(Expr::binary(BinaryOp::Ge, e.clone(), c(*lo)));
            }
            if *hi < thi {
                parts.push(Expr::binary(BinaryOp::Le, e.clone(), c(*hi)));
            }
            logic::conjunction(&parts)
        }
    })
}
