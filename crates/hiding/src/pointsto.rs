//! Points-to sets over abC variables (seed 003 §2: "abC integrates such an analysis into the
//! algorithm for inference of abstraction, in a demand-driven fashion: points-to information is
//! only computed when needed"). Rules 2a/2b *are* that analysis; this module makes the sets
//! explicit for `why` explanations, the UI and tests.
//!
//! Andersen-style inclusion constraints from the store sites, field- and index-insensitive
//! (a struct or array variable is one location, like abC's hiding granularity):
//! - [`OnDemand`] answers a query `pt(p)` by solving only the constraints `p` depends on: the
//!   stores into `p` (indexed by their target), the variables their values read, and — only
//!   for variables whose address is ever taken — the indirect stores (`*q = e`, `q->f = e`)
//!   whose base may point to them. Every solved set is memoised for later queries.
//! - [`PointsTo`] solves every constraint of the program (the reference the demand-driven
//!   answers are tested against).
//!
//! Both count their work in site evaluations ([`OnDemand::work`], [`PointsTo::work`]).

use crate::model::*;
use crate::sites::{Site, Target, Value};
use lang_c::ast::UnaryOperator as U;
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use budget::hash::HashMap;

pub struct PointsTo {
    sets: Vec<BTreeSet<VarId>>,
    work: usize,
}

impl PointsTo {
    pub fn compute(program: &Program, sites: &[Site]) -> PointsTo {
        let mut pt = PointsTo { sets: vec![BTreeSet::new(); program.vars.len()], work: 0 };
        let bound = program.vars.len() * program.vars.len() + 2;
        for _ in 0..bound {
            let mut changed = false;
            for site in sites {
                pt.work += 1;
                let locations = match &site.target {
                    Target::Var(v) => BTreeSet::from([*v]),
                    Target::Expr(e) => pt.locations(program, e),
                };
                let values = match &site.value {
                    Value::Expr(e) => pt.values(program, e),
                    Value::List(items) => items.iter().flat_map(|e| pt.values(program, e)).collect(),
                    Value::Compound(a, _) => pt.values(program, a),
                };
                for l in locations {
                    let set = &mut pt.sets[l.0 as usize];
                    for &v in &values {
                        changed |= set.insert(v);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        pt
    }

    /// Site evaluations done (every site, once per round until nothing changes).
    pub fn work(&self) -> usize {
        self.work
    }

    /// What variable `p` may point to.
    pub fn of(&self, p: VarId) -> Vec<VarId> {
        self.sets.get(p.0 as usize).map(|s| s.iter().copied().collect()).unwrap_or_default()
    }

    fn of_all(&self, vs: &BTreeSet<VarId>) -> BTreeSet<VarId> {
        vs.iter().flat_map(|v| self.of(*v)).collect()
    }

    /// The variables whose storage the location `e` may be.
    fn locations(&self, program: &Program, e: &Expr) -> BTreeSet<VarId> {
        match &e.kind {
            ExprKind::Var(v) => BTreeSet::from([*v]),
            ExprKind::Member { base, arrow: false, .. } => self.locations(program, base),
            ExprKind::Member { base, arrow: true, .. } | ExprKind::Unary(U::Indirection, base) => self.values(program, base),
            ExprKind::Index(a, _) if matches!(a.ty, Ty::Array(..)) => self.locations(program, a),
            ExprKind::Index(a, _) => self.values(program, a),
            _ => BTreeSet::new(),
        }
    }

    /// The variables the value of `e` may point to.
    fn values(&self, program: &Program, e: &Expr) -> BTreeSet<VarId> {
        match &e.kind {
            ExprKind::Var(v) if matches!(program.var(*v).ty, Ty::Array(..)) => BTreeSet::from([*v]),
            ExprKind::Unary(U::Address, x) => self.locations(program, x),
            ExprKind::Var(_) | ExprKind::Member { .. } | ExprKind::Index(..) | ExprKind::Unary(U::Indirection, _) => {
                if matches!(e.ty, Ty::Array(..)) {
                    return self.locations(program, e);
                }
                self.of_all(&self.locations(program, e))
            }
            ExprKind::Binary(_, a, b) => self.values(program, a).into_iter().chain(self.values(program, b)).collect(),
            ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) | ExprKind::Cast { e: x, .. } => self.values(program, x),
            ExprKind::Assign(_, _, b) => self.values(program, b),
            ExprKind::Cond(_, t, f) => self.values(program, t).into_iter().chain(self.values(program, f)).collect(),
            ExprKind::Comma(items) => items.last().map(|x| self.values(program, x)).unwrap_or_default(),
            ExprKind::Call { callee: Callee::Direct(f), .. } => program.function(f).map(|f| BTreeSet::from_iter(self.of(f.result))).unwrap_or_default(),
            _ => BTreeSet::new(),
        }
    }
}

/// Where a store site's target is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The variable itself (or a field or element of it).
    Static(VarId),
    /// Through a pointer's value (`*q`, `q->f`, `p[i]` with `p` a pointer).
    Dynamic,
    /// Not a location the analysis follows.
    Nothing,
}

fn place(e: &Expr) -> Place {
    match &e.kind {
        ExprKind::Var(v) => Place::Static(*v),
        ExprKind::Member { base, arrow: false, .. } => place(base),
        ExprKind::Index(a, _) if matches!(a.ty, Ty::Array(..)) => place(a),
        ExprKind::Member { arrow: true, .. } | ExprKind::Unary(U::Indirection, _) | ExprKind::Index(..) => Place::Dynamic,
        _ => Place::Nothing,
    }
}

/// Every variable occurring in `e`.
fn vars_in(e: &Expr, out: &mut BTreeSet<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => {
            out.insert(*v);
        }
        ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) | ExprKind::Cast { e: x, .. } | ExprKind::SizeofExpr(x) => vars_in(x, out),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            vars_in(a, out);
            vars_in(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            vars_in(a, out);
            vars_in(b, out);
            vars_in(c, out);
        }
        ExprKind::Comma(items) => items.iter().for_each(|x| vars_in(x, out)),
        ExprKind::Call { callee, args } => {
            if let Callee::Indirect(c) = callee {
                vars_in(c, out);
            }
            args.iter().for_each(|x| vars_in(x, out));
        }
        _ => {}
    }
}

/// The variables whose address an expression may produce: everything under `&`, and every
/// array-typed location used as a value (it decays to a pointer to its variable). Only these
/// can be in a points-to set, so only these can be reached by an indirect store.
fn address_taken(e: &Expr, out: &mut BTreeSet<VarId>) {
    match &e.kind {
        ExprKind::Unary(U::Address, x) => vars_in(x, out),
        _ if matches!(e.ty, Ty::Array(..)) && matches!(e.kind, ExprKind::Var(_) | ExprKind::Member { .. } | ExprKind::Index(..) | ExprKind::Unary(U::Indirection, _)) => vars_in(e, out),
        _ => {}
    }
    match &e.kind {
        ExprKind::Member { base: x, .. } | ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) | ExprKind::Cast { e: x, .. } | ExprKind::SizeofExpr(x) => address_taken(x, out),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) => {
            address_taken(a, out);
            address_taken(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            address_taken(a, out);
            address_taken(b, out);
            address_taken(c, out);
        }
        ExprKind::Comma(items) => items.iter().for_each(|x| address_taken(x, out)),
        ExprKind::Call { callee, args } => {
            if let Callee::Indirect(c) = callee {
                address_taken(c, out);
            }
            args.iter().for_each(|x| address_taken(x, out));
        }
        _ => {}
    }
}

fn value_exprs(value: &Value) -> Vec<&Expr> {
    match value {
        Value::Expr(e) => vec![e],
        Value::List(items) => items.iter().collect(),
        Value::Compound(a, _) => vec![a],
    }
}

/// Demand-driven, memoised points-to queries (same answers as [`PointsTo`]).
pub struct OnDemand<'p> {
    program: &'p Program,
    sites: &'p [Site],
    /// Sites that store into a variable's own storage, by variable.
    direct: HashMap<VarId, Vec<usize>>,
    /// Sites that store through a pointer.
    indirect: Vec<usize>,
    address_taken: BTreeSet<VarId>,
    solved: RefCell<HashMap<VarId, BTreeSet<VarId>>>,
    /// Once every indirect store's base is solved: the indirect stores by the variables they
    /// may store into (so later queries do not scan them all).
    indirect_into: RefCell<Option<HashMap<VarId, Vec<usize>>>>,
    work: Cell<usize>,
}

/// The sets of the variables a running query depends on (not yet final).
#[derive(Default)]
struct Open {
    sets: HashMap<VarId, BTreeSet<VarId>>,
    order: Vec<VarId>,
    /// Who read a set while being evaluated (re-evaluated when it grows).
    readers: HashMap<VarId, BTreeSet<VarId>>,
    /// The variable being evaluated (`None`: the indirect stores are being indexed).
    reading: Option<VarId>,
    /// The sets read while indexing the indirect stores.
    index_reads: BTreeSet<VarId>,
    queue: std::collections::VecDeque<VarId>,
    queued: BTreeSet<VarId>,
}

impl Open {
    fn enqueue(&mut self, v: VarId) {
        if self.queued.insert(v) {
            self.queue.push_back(v);
        }
    }
}

impl<'p> OnDemand<'p> {
    /// Indexes the sites (one pass, no points-to set computed yet).
    pub fn new(program: &'p Program, sites: &'p [Site]) -> OnDemand<'p> {
        let mut direct: HashMap<VarId, Vec<usize>> = HashMap::default();
        let mut indirect = Vec::new();
        let mut taken = BTreeSet::new();
        for (k, site) in sites.iter().enumerate() {
            match &site.target {
                Target::Var(v) => direct.entry(*v).or_default().push(k),
                Target::Expr(e) => {
                    address_taken(e, &mut taken);
                    match place(e) {
                        Place::Static(v) => direct.entry(v).or_default().push(k),
                        Place::Dynamic => indirect.push(k),
                        Place::Nothing => {}
                    }
                }
            }
            for e in value_exprs(&site.value) {
                address_taken(e, &mut taken);
            }
        }
        OnDemand { program, sites, direct, indirect, address_taken: taken, solved: RefCell::new(HashMap::default()), indirect_into: RefCell::new(None), work: Cell::new(0) }
    }

    /// Site evaluations done so far by all queries.
    pub fn work(&self) -> usize {
        self.work.get()
    }

    /// How many variables have a solved (memoised) set.
    pub fn solved(&self) -> usize {
        self.solved.borrow().len()
    }

    /// What variable `p` may point to.
    pub fn of(&self, p: VarId) -> Vec<VarId> {
        if let Some(set) = self.solved.borrow().get(&p) {
            return set.iter().copied().collect();
        }
        let mut open = Open::default();
        open.sets.insert(p, BTreeSet::new());
        open.order.push(p);
        open.enqueue(p);
        // a worklist over the variables the query depends on (they join as they are read); a
        // variable is evaluated again when a set it read grows. Until the indirect stores are
        // indexed for good, they are indexed under the current sets when a variable whose
        // address is taken needs them, and again when a base they read has grown.
        let mut index: Option<HashMap<VarId, Vec<usize>>> = None;
        let mut stale = false;
        loop {
            while let Some(v) = open.queue.pop_front() {
                open.queued.remove(&v);
                if self.address_taken.contains(&v) && self.indirect_into.borrow().is_none() && (index.is_none() || stale) {
                    self.reindex(&mut open, &mut index);
                    stale = false;
                }
                open.reading = Some(v);
                let new = self.stores_into(v, &mut open, index.as_ref());
                open.reading = None;
                let set = open.sets.entry(v).or_default();
                let before = set.len();
                set.extend(new);
                if set.len() != before {
                    for r in open.readers.get(&v).cloned().unwrap_or_default() {
                        open.enqueue(r);
                    }
                    stale |= open.index_reads.contains(&v);
                }
            }
            if !(stale && index.is_some()) {
                break;
            }
            self.reindex(&mut open, &mut index);
            stale = false;
        }
        let answer = open.sets.get(&p).map(|s| s.iter().copied().collect()).unwrap_or_default();
        let indexed = open.order.iter().any(|v| self.address_taken.contains(v));
        self.solved.borrow_mut().extend(open.sets);
        if indexed && self.indirect_into.borrow().is_none() {
            self.index_indirect_stores();
        }
        answer
    }

    /// After a query that indexed the indirect stores, their bases are solved: index them for
    /// good.
    fn index_indirect_stores(&self) {
        let mut open = Open::default();
        let index = self.index_indirect(&mut open);
        // a base that was not solved after all: keep indexing per query
        if open.order.is_empty() {
            *self.indirect_into.borrow_mut() = Some(index);
        }
    }

    /// Indexes the indirect stores under the current sets; when that changes the index, the
    /// variables whose address is taken are evaluated again.
    fn reindex(&self, open: &mut Open, index: &mut Option<HashMap<VarId, Vec<usize>>>) {
        let new = self.index_indirect(open);
        if index.as_ref() != Some(&new) {
            let taken: Vec<VarId> = open.order.iter().copied().filter(|v| self.address_taken.contains(v)).collect();
            for v in taken {
                open.enqueue(v);
            }
        }
        *index = Some(new);
    }

    /// The indirect stores by the variables they may store into, under the current sets.
    fn index_indirect(&self, open: &mut Open) -> HashMap<VarId, Vec<usize>> {
        let mut index: HashMap<VarId, Vec<usize>> = HashMap::default();
        for &k in &self.indirect {
            self.work.set(self.work.get() + 1);
            let Target::Expr(target) = &self.sites[k].target else { continue };
            for v in self.locations(target, open) {
                index.entry(v).or_default().push(k);
            }
        }
        index
    }

    /// The current set of `x` (solved, open, or newly demanded and empty).
    fn set_of(&self, x: VarId, open: &mut Open) -> BTreeSet<VarId> {
        if let Some(set) = self.solved.borrow().get(&x) {
            return set.clone();
        }
        match open.reading {
            Some(r) => {
                open.readers.entry(x).or_default().insert(r);
            }
            None => {
                open.index_reads.insert(x);
            }
        }
        match open.sets.get(&x) {
            Some(set) => set.clone(),
            None => {
                open.sets.insert(x, BTreeSet::new());
                open.order.push(x);
                open.enqueue(x);
                BTreeSet::new()
            }
        }
    }

    /// The union of the values stored into `v` (directly, and through pointers when the
    /// address of `v` is taken: the indirect stores indexed for good, or for this round),
    /// under the current sets.
    fn stores_into(&self, v: VarId, open: &mut Open, round_index: Option<&HashMap<VarId, Vec<usize>>>) -> BTreeSet<VarId> {
        let mut sites: Vec<usize> = self.direct.get(&v).cloned().unwrap_or_default();
        if self.address_taken.contains(&v) {
            let indexed = self.indirect_into.borrow().as_ref().map(|index| index.get(&v).cloned().unwrap_or_default());
            // neither: `v` joined the query during this round, the next round indexes
            sites.extend(indexed.or_else(|| round_index.map(|index| index.get(&v).cloned().unwrap_or_default())).unwrap_or_default());
        }
        let mut out = BTreeSet::new();
        for k in sites {
            self.work.set(self.work.get() + 1);
            for e in value_exprs(&self.sites[k].value) {
                out.extend(self.values(e, open));
            }
        }
        out
    }

    fn of_all(&self, vs: &BTreeSet<VarId>, open: &mut Open) -> BTreeSet<VarId> {
        vs.iter().flat_map(|v| self.set_of(*v, open)).collect()
    }

    /// The variables whose storage the location `e` may be (as [`PointsTo`]).
    fn locations(&self, e: &Expr, open: &mut Open) -> BTreeSet<VarId> {
        match &e.kind {
            ExprKind::Var(v) => BTreeSet::from([*v]),
            ExprKind::Member { base, arrow: false, .. } => self.locations(base, open),
            ExprKind::Member { base, arrow: true, .. } | ExprKind::Unary(U::Indirection, base) => self.values(base, open),
            ExprKind::Index(a, _) if matches!(a.ty, Ty::Array(..)) => self.locations(a, open),
            ExprKind::Index(a, _) => self.values(a, open),
            _ => BTreeSet::new(),
        }
    }

    /// The variables the value of `e` may point to (as [`PointsTo`]).
    fn values(&self, e: &Expr, open: &mut Open) -> BTreeSet<VarId> {
        let program = self.program;
        match &e.kind {
            ExprKind::Var(v) if matches!(program.var(*v).ty, Ty::Array(..)) => BTreeSet::from([*v]),
            ExprKind::Unary(U::Address, x) => self.locations(x, open),
            ExprKind::Var(_) | ExprKind::Member { .. } | ExprKind::Index(..) | ExprKind::Unary(U::Indirection, _) => {
                if matches!(e.ty, Ty::Array(..)) {
                    return self.locations(e, open);
                }
                let places = self.locations(e, open);
                self.of_all(&places, open)
            }
            ExprKind::Binary(_, a, b) => {
                let mut out = self.values(a, open);
                out.extend(self.values(b, open));
                out
            }
            ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) | ExprKind::Cast { e: x, .. } => self.values(x, open),
            ExprKind::Assign(_, _, b) => self.values(b, open),
            ExprKind::Cond(_, t, f) => {
                let mut out = self.values(t, open);
                out.extend(self.values(f, open));
                out
            }
            ExprKind::Comma(items) => items.last().map(|x| self.values(x, open)).unwrap_or_default(),
            ExprKind::Call { callee: Callee::Direct(f), .. } => match program.function(f) {
                Some(f) => self.set_of(f.result, open),
                None => BTreeSet::new(),
            },
            _ => BTreeSet::new(),
        }
    }
}
