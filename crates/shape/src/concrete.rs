//! Concrete heaps of the paper's memory model (Dams–Namjoshi §3.1, Fig 4) and an evaluator
//! of shape predicates on them (walks with a visited set). This is the oracle of the tests:
//! every WP and every rewrite rule is checked against "evaluate after executing the statement".
//!
//! Addresses are typed values: a variable's address `Var(x)`, a struct cell `Cell(c)`, a field
//! slot `Slot(c, a)` (so `â` is injective and slots of different fields differ, and a cell's
//! base address is not its first field's slot), plus the results of invalid operations
//! (`FieldOf(NULL, a)`, `LoadOf(..)`), which are never allocated. Reading a cell's base address
//! gives NULL (well-typed programs never do it).

use crate::terms::{FieldRef, Formula, Pred, PredKind, Term};
use crate::wp::Update;
use c_ir::{StructId, VarId};
use std::collections::{BTreeMap, BTreeSet};

/// A concrete value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    Null,
    Int,
    Var(VarId),
    Cell(u32),
    Slot(u32, FieldRef),
    FieldOf(Box<Val>, FieldRef),
    LoadOf(Box<Val>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub strukt: StructId,
    pub alloc: bool,
}

/// Memory `M`, the allocated cells, and the values of rigid variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    pub cells: Vec<Cell>,
    /// Contents of variable and slot addresses (absent: NULL).
    pub mem: BTreeMap<Val, Val>,
    pub rigids: Vec<Val>,
    /// The cell the malloc under test allocated ([`Term::Fresh`]).
    pub fresh: Option<u32>,
}

impl Heap {
    pub fn alloc(&self, v: &Val) -> bool {
        match v {
            Val::Var(_) => true,
            Val::Cell(c) | Val::Slot(c, _) => self.cells.get(*c as usize).is_some_and(|x| x.alloc),
            _ => false,
        }
    }
    /// `M[v]`.
    pub fn read(&self, v: &Val) -> Val {
        match v {
            Val::Var(_) => self.mem.get(v).cloned().unwrap_or(Val::Null),
            Val::Slot(..) if self.alloc(v) => self.mem.get(v).cloned().unwrap_or(Val::Null),
            Val::Cell(_) => Val::Null,
            other => Val::LoadOf(Box::new(other.clone())),
        }
    }
    pub fn field_addr(&self, v: &Val, f: FieldRef) -> Val {
        match v {
            Val::Cell(c) if self.cells.get(*c as usize).is_some_and(|x| x.strukt == f.strukt) => Val::Slot(*c, f),
            other => Val::FieldOf(Box::new(other.clone()), f),
        }
    }
    /// The value of a term; `None` for [`Term::Unknown`].
    pub fn eval(&self, t: &Term) -> Option<Val> {
        Some(match t {
            Term::Null => Val::Null,
            Term::Scalar => Val::Int,
            Term::Unknown => return None,
            Term::Rigid(r) => self.rigids.get(r.0 as usize).cloned().unwrap_or(Val::Null),
            Term::VarAddr(v) => Val::Var(*v),
            Term::FieldAddr(b, f) => self.field_addr(&self.eval(b)?, *f),
            Term::Load(a) => self.read(&self.eval(a)?),
            Term::Fresh(_) => Val::Cell(self.fresh?),
        })
    }

    /// `F*(x, ·, A)`: x and, unless x is avoided, its F-slots.
    fn field_closure(&self, x: &Val, avoid: &[Val], fields: &[FieldRef]) -> Vec<Val> {
        let mut out = vec![x.clone()];
        if !avoid.contains(x) {
            if let Val::Cell(_) = x {
                for f in fields {
                    let s = self.field_addr(x, *f);
                    if self.alloc(&s) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// Every address reachable from `from` in ≥ 0 steps (the `k`s of the definition of reach).
    pub fn reach_set(&self, from: &Val, avoid: &[Val], fields: &[FieldRef]) -> BTreeSet<Val> {
        let mut out = BTreeSet::new();
        if !self.alloc(from) {
            return out;
        }
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(x) = stack.pop() {
            if !seen.insert(x.clone()) {
                continue;
            }
            for k in self.field_closure(&x, avoid, fields) {
                out.insert(k.clone());
                if !avoid.contains(&k) {
                    let next = self.read(&k);
                    if self.alloc(&next) {
                        stack.push(next);
                    }
                }
            }
        }
        out
    }

    fn reachp(&self, from: &Val, to: &Val, avoid: &[Val], fields: &[FieldRef]) -> bool {
        self.alloc(from)
            && self
                .field_closure(from, avoid, fields)
                .iter()
                .any(|k| !avoid.contains(k) && self.reach_set(&self.read(k), avoid, fields).contains(to))
    }

    /// The truth value of a predicate; `None` when a term is unknown.
    pub fn eval_pred(&self, p: &Pred) -> Option<bool> {
        let avoid: Vec<Val> = p.avoid.iter().map(|a| self.eval(a)).collect::<Option<_>>()?;
        let args: Vec<Val> = p.args.iter().map(|a| self.eval(a)).collect::<Option<_>>()?;
        let f = &p.fields;
        Some(match p.kind {
            PredKind::Eq => args[0] == args[1],
            PredKind::Reach => self.reach_set(&args[0], &avoid, f).contains(&args[1]),
            PredKind::Reachp => self.reachp(&args[0], &args[1], &avoid, f),
            PredKind::Dshared => {
                let a = self.reach_set(&args[0], &avoid, f);
                let b = self.reach_set(&args[1], &avoid, f);
                a.intersection(&b).any(|v| *v != Val::Null)
            }
            PredKind::Cyclic => self.reach_set(&args[0], &avoid, f).iter().any(|v| self.reachp(v, v, &avoid, f)),
        })
    }

    /// Kleene evaluation: `None` is ⊤ (either value).
    pub fn eval_formula(&self, f: &Formula) -> Option<bool> {
        match f {
            Formula::Const(b) => Some(*b),
            Formula::Star => None,
            Formula::Atom(p) => self.eval_pred(p),
            Formula::Not(a) => self.eval_formula(a).map(|b| !b),
            Formula::And(xs) => {
                let vals: Vec<Option<bool>> = xs.iter().map(|x| self.eval_formula(x)).collect();
                if vals.contains(&Some(false)) {
                    Some(false)
                } else if vals.iter().all(|v| *v == Some(true)) {
                    Some(true)
                } else {
                    None
                }
            }
            Formula::Or(xs) => {
                let vals: Vec<Option<bool>> = xs.iter().map(|x| self.eval_formula(x)).collect();
                if vals.contains(&Some(true)) {
                    Some(true)
                } else if vals.iter().all(|v| *v == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            }
        }
    }

    /// Executes an update; `None` when it would fail (bad dereference). A malloc allocates a
    /// new cell whose pointer slots hold `fresh_contents` (one per field, NULL when missing).
    pub fn execute(&self, update: &Update, fresh_contents: &[(FieldRef, Val)]) -> Option<Heap> {
        for d in update.dereferenced() {
            match self.eval(&d)? {
                Val::Cell(c) if self.alloc(&Val::Cell(c)) => {}
                _ => return None,
            }
        }
        let mut next = self.clone();
        match update {
            Update::Store { addr, value } => {
                let i = self.eval(addr)?;
                let c = self.eval(value)?;
                if !matches!(i, Val::Var(_) | Val::Slot(..)) || !self.alloc(&i) {
                    return None;
                }
                next.mem.insert(i, c);
            }
            Update::Malloc { addr, strukt } => {
                let i = self.eval(addr)?;
                if !matches!(i, Val::Var(_) | Val::Slot(..)) || !self.alloc(&i) {
                    return None;
                }
                let id = next.cells.len() as u32;
                next.cells.push(Cell { strukt: *strukt, alloc: true });
                for (f, v) in fresh_contents {
                    next.mem.insert(Val::Slot(id, *f), v.clone());
                }
                next.mem.insert(i, Val::Cell(id));
                next.fresh = Some(id);
            }
            Update::Free { ptr } => match self.eval(ptr)? {
                Val::Cell(c) if self.alloc(&Val::Cell(c)) => next.cells[c as usize].alloc = false,
                _ => return None,
            },
        }
        Some(next)
    }
}

/// The shape of the heaps to enumerate: one struct with its pointer fields, the pointer
/// variables, the integer variables, the number of rigid variables.
#[derive(Clone, Debug)]
pub struct HeapSpace {
    pub strukt: StructId,
    pub pointer_fields: Vec<FieldRef>,
    pub int_fields: Vec<FieldRef>,
    pub pointer_vars: Vec<VarId>,
    pub int_vars: Vec<VarId>,
    pub rigids: usize,
}

impl HeapSpace {
    /// Every heap with exactly `cells` cells (pointer fields and variables range over NULL
    /// and the cells, rigid variables over the cells), in a fixed order.
    pub fn heaps(&self, cells: u32) -> Vec<Heap> {
        let targets: Vec<Val> = std::iter::once(Val::Null).chain((0..cells).map(Val::Cell)).collect();
        let mut slots: Vec<(Val, Vec<Val>)> = Vec::new();
        for c in 0..cells {
            for f in &self.pointer_fields {
                slots.push((Val::Slot(c, *f), targets.clone()));
            }
        }
        for v in &self.pointer_vars {
            slots.push((Val::Var(*v), targets.clone()));
        }
        let rigid_choices: Vec<Val> = (0..cells).map(Val::Cell).collect();
        for _ in 0..self.rigids {
            slots.push((Val::Null, rigid_choices.clone()));
        }
        if slots.iter().any(|(_, choices)| choices.is_empty()) {
            return Vec::new();
        }
        let base = self.base_heap(cells);
        let mut out = Vec::new();
        let mut idx = vec![0usize; slots.len()];
        loop {
            let mut h = base.clone();
            let mut rigid = 0;
            for (k, (addr, choices)) in slots.iter().enumerate() {
                if *addr == Val::Null && k >= slots.len() - self.rigids {
                    h.rigids.push(choices[idx[k]].clone());
                    rigid += 1;
                } else {
                    h.mem.insert(addr.clone(), choices[idx[k]].clone());
                }
            }
            debug_assert_eq!(rigid, self.rigids);
            out.push(h);
            let mut k = 0;
            loop {
                if k == slots.len() {
                    return out;
                }
                idx[k] += 1;
                if idx[k] < slots[k].1.len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
        }
    }
}

impl HeapSpace {
    /// The heap of `cells` allocated cells with every integer slot and variable set and every
    /// pointer NULL.
    pub fn base_heap(&self, cells: u32) -> Heap {
        let mut base = Heap { cells: (0..cells).map(|_| Cell { strukt: self.strukt, alloc: true }).collect(), ..Heap::default() };
        for c in 0..cells {
            for f in &self.int_fields {
                base.mem.insert(Val::Slot(c, *f), Val::Int);
            }
        }
        for v in &self.int_vars {
            base.mem.insert(Val::Var(*v), Val::Int);
        }
        base
    }

    /// Every heap of exactly `cells` cells in which each cell is reachable from a *root* (a
    /// pointer variable or a rigid variable), one heap per isomorphism class, in a fixed order.
    ///
    /// The predicates and statements only reach cells through the roots, so a cell no root
    /// reaches never changes a value, and renaming cells changes none either: the heaps of
    /// [`HeapSpace::heaps`] of up to `N` cells are, up to their unreachable cells and the
    /// names of the others, exactly the heaps this gives for `0..=N` cells. Cells are named
    /// in breadth-first order from the roots (the variables in order, then the rigids, then
    /// each discovered cell's pointer fields in order): each pointer picks NULL (not a rigid),
    /// a cell already named, or the next new cell; a cell whose fields are due before it was
    /// discovered cuts the branch. Each sequence of picks is the canonical naming of exactly
    /// one class, so no class is visited twice.
    pub fn each_reachable(&self, cells: u32, visit: &mut dyn FnMut(&Heap)) {
        let total = self.pointer_vars.len() + self.rigids + cells as usize * self.pointer_fields.len();
        let mut picks = vec![None; total];
        let base = self.base_heap(cells);
        self.extend_picks(&base, cells, 0, 0, &mut picks, visit);
    }

    /// [`HeapSpace::each_reachable`] collected.
    pub fn reachable_heaps(&self, cells: u32) -> Vec<Heap> {
        let mut out = Vec::new();
        self.each_reachable(cells, &mut |h| out.push(h.clone()));
        out
    }

    /// The heap of [`HeapSpace::each_reachable`] isomorphic to the part of `h` (a heap of
    /// this space) that the roots reach.
    pub fn canonical(&self, h: &Heap) -> Heap {
        let mut order: Vec<u32> = Vec::new();
        let name = |v: &Val, order: &mut Vec<u32>| match v {
            Val::Cell(c) => Some(match order.iter().position(|x| x == c) {
                Some(i) => i as u32,
                None => {
                    order.push(*c);
                    order.len() as u32 - 1
                }
            }),
            _ => None,
        };
        let mut picks = Vec::new();
        for v in &self.pointer_vars {
            picks.push(name(&h.read(&Val::Var(*v)), &mut order));
        }
        for r in h.rigids.iter().take(self.rigids) {
            picks.push(name(r, &mut order));
        }
        let mut k = 0;
        while k < order.len() {
            let c = order[k];
            for f in &self.pointer_fields {
                picks.push(name(&h.read(&Val::Slot(c, *f)), &mut order));
            }
            k += 1;
        }
        self.assemble(&self.base_heap(order.len() as u32), &picks)
    }

    fn extend_picks(&self, base: &Heap, cells: u32, k: usize, discovered: u32, picks: &mut Vec<Option<u32>>, visit: &mut dyn FnMut(&Heap)) {
        let roots = self.pointer_vars.len() + self.rigids;
        if k == picks.len() {
            if discovered == cells {
                visit(&self.assemble(base, picks));
            }
            return;
        }
        if k >= roots && ((k - roots) / self.pointer_fields.len()) as u32 >= discovered {
            return; // the fields of a cell no root reaches
        }
        let rigid = (self.pointer_vars.len()..roots).contains(&k);
        if !rigid {
            picks[k] = None;
            self.extend_picks(base, cells, k + 1, discovered, picks, visit);
        }
        for c in 0..discovered {
            picks[k] = Some(c);
            self.extend_picks(base, cells, k + 1, discovered, picks, visit);
        }
        if discovered < cells {
            picks[k] = Some(discovered);
            self.extend_picks(base, cells, k + 1, discovered + 1, picks, visit);
        }
    }

    fn assemble(&self, base: &Heap, picks: &[Option<u32>]) -> Heap {
        let val = |p: Option<u32>| p.map_or(Val::Null, Val::Cell);
        let mut h = base.clone();
        let (vars, rest) = picks.split_at(self.pointer_vars.len());
        let (rigids, slots) = rest.split_at(self.rigids);
        for (v, p) in self.pointer_vars.iter().zip(vars) {
            h.mem.insert(Val::Var(*v), val(*p));
        }
        h.rigids = rigids.iter().map(|p| val(*p)).collect();
        for (k, p) in slots.iter().enumerate() {
            let (c, f) = (k / self.pointer_fields.len(), k % self.pointer_fields.len());
            h.mem.insert(Val::Slot(c as u32, self.pointer_fields[f]), val(*p));
        }
        h
    }
}
