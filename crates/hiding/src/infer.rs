//! Abstraction inference (seed 003 §2, "Abstraction inference phase"): keys, abstract values
//! and their occurrences, and the four rules applied at every store site `e1 ← e2`:
//!
//! | rule | condition                         | hides     |
//! |------|-----------------------------------|-----------|
//! | 1a   | the value of e2 is abstract       | keys(e1)  |
//! | 1b   | the value of e1 is abstract       | keys(e1)  |
//! | 2a   | e2 is a pointer and e1 abstract   | keys(e2)  |
//! | 2b   | e2 is a pointer and e2 abstract   | keys(e2)  |
//!
//! One *step* applies the rules at every site against the hidden set of the step's start
//! (the paper's one invocation); the *closure* repeats steps until one infers nothing.

use crate::model::*;
use crate::sites::{Site, SiteId, Target, Value};
use lang_c::ast::BinaryOperator as B;
use lang_c::ast::UnaryOperator as U;

/// A set of hidden variables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    bits: Vec<bool>,
}

impl Hidden {
    pub fn new(n: usize) -> Hidden {
        Hidden { bits: vec![false; n] }
    }
    pub fn contains(&self, v: VarId) -> bool {
        self.bits.get(v.0 as usize).copied().unwrap_or(false)
    }
    pub fn insert(&mut self, v: VarId) -> bool {
        let i = v.0 as usize;
        if i >= self.bits.len() {
            self.bits.resize(i + 1, false);
        }
        !std::mem::replace(&mut self.bits[i], true)
    }
    pub fn remove(&mut self, v: VarId) {
        if let Some(b) = self.bits.get_mut(v.0 as usize) {
            *b = false;
        }
    }
    pub fn iter(&self) -> impl Iterator<Item = VarId> + '_ {
        self.bits.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| VarId(i as u32))
    }
    pub fn len(&self) -> usize {
        self.bits.iter().filter(|b| **b).count()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Which rule fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    R1a,
    R1b,
    R2a,
    R2b,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::R1a => "1a",
            Rule::R1b => "1b",
            Rule::R2a => "2a",
            Rule::R2b => "2b",
        }
    }
    /// One line for a student.
    pub fn gloss(self) -> &'static str {
        match self {
            Rule::R1a => "an abstract value is stored: the location's key must be hidden",
            Rule::R1b => "the stored-to location is unknown (abstract): its key must be hidden",
            Rule::R2a => "a pointer is stored into an abstract location: what it points to must be hidden",
            Rule::R2b => "an abstract pointer value is stored: what it was computed from must be hidden",
        }
    }
}

/// One line of the log: `line N: SCOPE NAME <--- SCOPE NAME, ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inference {
    /// The step (1-based) in which it was inferred.
    pub step: u32,
    pub site: SiteId,
    pub line: u32,
    pub rule: Rule,
    pub var: VarId,
    /// The abstract occurrences that made the rule fire (source order, duplicates kept).
    pub from: Vec<VarId>,
}

/// Options of the inference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InferOptions {
    /// Footnote 4: `a[i] = v` with only `i` abstract keeps `a` concrete (rule 1b does not
    /// apply); the transformation writes `a[NONDET] = v`.
    pub array_nondet_index: bool,
}

/// keys(e): the variables that must be hidden if the location (or pointer value) e must be.
pub fn keys(program: &Program, e: &Expr) -> Vec<VarId> {
    let mut out = Vec::new();
    collect_keys(program, e, &mut out);
    out
}

fn collect_keys(program: &Program, e: &Expr, out: &mut Vec<VarId>) {
    let add = |v: VarId, out: &mut Vec<VarId>| {
        if !out.contains(&v) {
            out.push(v)
        }
    };
    match &e.kind {
        ExprKind::Var(v) => add(*v, out),
        ExprKind::Member { base, .. } => collect_keys(program, base, out),
        ExprKind::Index(a, i) => collect_keys(program, if a.ty.is_pointer() || !i.ty.is_pointer() { a } else { i }, out),
        ExprKind::Unary(U::Address | U::Indirection, x) => collect_keys(program, x, out),
        ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) if e.ty.is_pointer() => collect_keys(program, x, out),
        ExprKind::Binary(B::Plus | B::Minus, a, b) if e.ty.is_pointer() => collect_keys(program, if a.ty.is_pointer() { a } else { b }, out),
        ExprKind::Assign(op, a, b) if e.ty.is_pointer() => collect_keys(program, if op.is_some() { a } else { b }, out),
        ExprKind::Call { callee: Callee::Direct(f), .. } if !crate::sites::is_builtin(f) => {
            if let Some(func) = program.function(f) {
                add(func.result, out)
            }
        }
        ExprKind::Cond(_, t, f) => {
            collect_keys(program, t, out);
            collect_keys(program, f, out);
        }
        ExprKind::Comma(items) => {
            if let Some(last) = items.last() {
                collect_keys(program, last, out)
            }
        }
        ExprKind::Cast { e: x, .. } => collect_keys(program, x, out),
        _ => {}
    }
}

/// occ(e): the abstract occurrences of e under `h` (non-empty exactly when e is abstract).
pub fn occ(program: &Program, h: &Hidden, e: &Expr) -> Vec<VarId> {
    occ_spans(program, h, e).into_iter().map(|(v, _)| v).collect()
}

/// occ(e) with the span of each occurrence (for marking them in the source).
pub fn occ_spans(program: &Program, h: &Hidden, e: &Expr) -> Vec<(VarId, diagnostics::Span)> {
    let mut out = Vec::new();
    collect_occ(program, h, e, &mut out);
    out
}

type Occurrences = Vec<(VarId, diagnostics::Span)>;

fn collect_occ(program: &Program, h: &Hidden, e: &Expr, out: &mut Occurrences) {
    match &e.kind {
        ExprKind::Var(v) => {
            if h.contains(*v) {
                out.push((*v, e.span))
            }
        }
        ExprKind::Member { base, .. } => collect_occ(program, h, base, out),
        ExprKind::Index(a, i) => {
            collect_occ(program, h, a, out);
            collect_occ(program, h, i, out);
        }
        ExprKind::Unary(U::Address, x) => collect_addr(program, h, x, out),
        ExprKind::Unary(_, x) | ExprKind::IncDec(_, x) | ExprKind::Cast { e: x, .. } => collect_occ(program, h, x, out),
        ExprKind::Binary(_, a, b) => {
            collect_occ(program, h, a, out);
            collect_occ(program, h, b, out);
        }
        ExprKind::Assign(op, a, b) => {
            let before = out.len();
            if op.is_some() {
                collect_occ(program, h, a, out);
            }
            collect_occ(program, h, b, out);
            if out.len() == before {
                out.extend(keys(program, a).into_iter().filter(|k| h.contains(*k)).map(|k| (k, a.span)));
            }
        }
        ExprKind::Call { callee: Callee::Direct(f), .. } if !crate::sites::is_builtin(f) => {
            if let Some(func) = program.function(f) {
                if h.contains(func.result) {
                    out.push((func.result, e.span))
                }
            }
        }
        ExprKind::Cond(c, t, f) => {
            collect_occ(program, h, c, out);
            collect_occ(program, h, t, out);
            collect_occ(program, h, f, out);
        }
        ExprKind::Comma(items) => {
            if let Some(last) = items.last() {
                collect_occ(program, h, last, out)
            }
        }
        _ => {}
    }
}

/// The abstract occurrences of the *address* of the location `e` (`&e`).
fn collect_addr(program: &Program, h: &Hidden, e: &Expr, out: &mut Occurrences) {
    match &e.kind {
        ExprKind::Var(v) => {
            if h.contains(*v) {
                out.push((*v, e.span))
            }
        }
        ExprKind::Member { base, arrow: false, .. } => collect_addr(program, h, base, out),
        ExprKind::Member { base, arrow: true, .. } | ExprKind::Unary(U::Indirection, base) => collect_occ(program, h, base, out),
        ExprKind::Index(a, i) => {
            if matches!(a.ty, Ty::Array(..)) {
                collect_addr(program, h, a, out)
            } else {
                collect_occ(program, h, a, out)
            }
            collect_occ(program, h, i, out);
        }
        _ => collect_occ(program, h, e, out),
    }
}

/// The stored value's abstract occurrences and, per pointer-typed part, (keys, occurrences).
struct ValueFacts {
    occ: Vec<VarId>,
    pointers: Vec<(Vec<VarId>, Vec<VarId>)>,
}

fn value_facts(program: &Program, h: &Hidden, value: &Value) -> ValueFacts {
    match value {
        Value::Expr(e) => ValueFacts { occ: occ(program, h, e), pointers: pointer_part(program, h, e) },
        Value::List(items) => ValueFacts {
            occ: items.iter().flat_map(|e| occ(program, h, e)).collect(),
            pointers: items.iter().flat_map(|e| pointer_part(program, h, e)).collect(),
        },
        Value::Compound(a, b) => {
            let mut o = occ(program, h, a);
            if let Some(b) = b {
                o.extend(occ(program, h, b));
            }
            let pointers = if a.ty.is_pointer() { vec![(keys(program, a), o.clone())] } else { Vec::new() };
            ValueFacts { occ: o, pointers }
        }
    }
}

fn pointer_part(program: &Program, h: &Hidden, e: &Expr) -> Vec<(Vec<VarId>, Vec<VarId>)> {
    if e.ty.is_pointer() {
        vec![(keys(program, e), occ(program, h, e))]
    } else {
        Vec::new()
    }
}

/// The inferences of the four rules at one site against `h` (only variables not in `h`),
/// rule 1 before rule 2, one per inferred variable.
pub fn apply_rules(program: &Program, h: &Hidden, site: &Site, options: InferOptions) -> Vec<(Rule, VarId, Vec<VarId>)> {
    let (target_keys, target_occ) = match &site.target {
        Target::Var(v) => (vec![*v], if h.contains(*v) { vec![*v] } else { Vec::new() }),
        Target::Expr(e) => {
            let mut o = occ(program, h, e);
            if options.array_nondet_index {
                if let ExprKind::Index(base, _) = &e.kind {
                    if occ(program, h, base).is_empty() {
                        o.clear();
                    }
                }
            }
            (keys(program, e), o)
        }
    };
    let facts = value_facts(program, h, &site.value);
    let mut out: Vec<(Rule, VarId, Vec<VarId>)> = Vec::new();
    let add = |rule: Rule, ks: &[VarId], from: &[VarId], out: &mut Vec<(Rule, VarId, Vec<VarId>)>| {
        for &k in ks {
            if !h.contains(k) && !out.iter().any(|(_, v, _)| *v == k) {
                out.push((rule, k, from.to_vec()));
            }
        }
    };
    if !facts.occ.is_empty() {
        add(Rule::R1a, &target_keys, &facts.occ, &mut out);
    }
    if !target_occ.is_empty() {
        add(Rule::R1b, &target_keys, &target_occ, &mut out);
    }
    for (pkeys, pocc) in &facts.pointers {
        if !target_occ.is_empty() {
            add(Rule::R2a, pkeys, &target_occ, &mut out);
        }
        if !pocc.is_empty() {
            add(Rule::R2b, pkeys, pocc, &mut out);
        }
    }
    out
}

/// One step: all rules at all sites against the same hidden set; returns the new
/// inferences ordered by line, then by site (evaluation order), then rule.
pub fn infer_step(program: &Program, sites: &[Site], h: &Hidden, step: u32, options: InferOptions) -> Vec<Inference> {
    let mut order: Vec<&Site> = sites.iter().collect();
    order.sort_by_key(|s| (s.line, s.id));
    let mut out = Vec::new();
    for site in order {
        for (rule, var, from) in apply_rules(program, h, site, options) {
            out.push(Inference { step, site: site.id, line: site.line, rule, var, from });
        }
    }
    out
}
