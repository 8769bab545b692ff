//! Points-to sets over abC variables (seed 003 §2: rules 2a/2b *are* a demand-driven pointer
//! analysis; this module makes the sets explicit for `why` explanations and for tests).
//!
//! Andersen-style inclusion constraints from the store sites, field- and index-insensitive
//! (a struct or array variable is one location, like abC's hiding granularity), computed to
//! a fixpoint over the whole program when first asked.

use crate::model::*;
use crate::sites::{Site, Target, Value};
use lang_c::ast::UnaryOperator as U;
use std::collections::BTreeSet;

pub struct PointsTo {
    sets: Vec<BTreeSet<VarId>>,
}

impl PointsTo {
    pub fn compute(program: &Program, sites: &[Site]) -> PointsTo {
        let mut pt = PointsTo { sets: vec![BTreeSet::new(); program.vars.len()] };
        let bound = program.vars.len() * program.vars.len() + 2;
        for _ in 0..bound {
            let mut changed = false;
            for site in sites {
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
