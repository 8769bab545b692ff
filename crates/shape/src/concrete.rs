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
        let mut base = Heap { cells: (0..cells).map(|_| Cell { strukt: self.strukt, alloc: true }).collect(), ..Heap::default() };
        for c in 0..cells {
            for f in &self.int_fields {
                base.mem.insert(Val::Slot(c, *f), Val::Int);
            }
        }
        for v in &self.int_vars {
            base.mem.insert(Val::Var(*v), Val::Int);
        }
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
