//! Weakest preconditions of shape predicates (Dams–Namjoshi §3, Fig 5).
//!
//! A store `e1 := e2` is the memory update `M' = M[i ← c]` with `i = addr(e1)` and
//! `c = val(e2)`, both in the old memory. A predicate's arguments (and avoid-set members) are
//! evaluated in the *new* memory, so each `M'[a]` inside them is first split with Morris' alias
//! cases (`a = i` gives `c`, `a ≠ i` gives `M[a]`); each case is then transformed by the Fig 5
//! row of the predicate. Malloc is the store of a fresh address (`c = new`), whose slots hold
//! unconstrained values; `free` over-approximates shape predicates by ⊤ (equalities are
//! unchanged). Guards are not part of the update: the abstract edge assumes them.

use crate::simplify::{self, Context, Rewrite};
use crate::terms::{Formula, Names, Pred, PredKind, Term};

/// The deterministic update of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Update {
    /// `M[addr] := value`.
    Store { addr: Term, value: Term },
    /// `M[addr] := new` for a fresh cell of the struct.
    Malloc { addr: Term, strukt: c_ir::StructId },
    /// `alloc := alloc \ {ptr}`.
    Free { ptr: Term },
}

impl Update {
    /// The store as `M[i ← c]` (`None` for free).
    pub fn store(&self) -> Option<(Term, Term)> {
        match self {
            Update::Store { addr, value } => Some((addr.clone(), value.clone())),
            Update::Malloc { addr, strukt } => Some((addr.clone(), Term::Fresh(*strukt))),
            Update::Free { .. } => None,
        }
    }
    /// Pointer values the statement dereferences (non-null wherever it runs without error).
    pub fn dereferenced(&self) -> Vec<Term> {
        let mut out: Vec<Term> = Vec::new();
        fn walk(t: &Term, out: &mut Vec<Term>) {
            match t {
                Term::FieldAddr(base, _) => {
                    if !out.contains(base) {
                        out.push((**base).clone());
                    }
                    walk(base, out);
                }
                Term::Load(a) => walk(a, out),
                _ => {}
            }
        }
        let mut collect = |t: &Term| walk(t, &mut out);
        match self {
            Update::Store { addr, value } => {
                collect(addr);
                collect(value);
            }
            Update::Malloc { addr, .. } => collect(addr),
            Update::Free { ptr } => collect(ptr),
        }
        out
    }
}

/// One alias case of the argument evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasCase {
    /// Conjunction of address (dis)equalities selecting the case.
    pub condition: Vec<Formula>,
    /// The predicate with its terms evaluated in the old memory.
    pub pred: Pred,
    /// The Fig 5 row instantiated for this case.
    pub row: Formula,
}

/// The raw and simplified WP of one predicate over one update, with every step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WpResult {
    pub update: Update,
    pub cases: Vec<AliasCase>,
    pub raw: Formula,
    pub rewrites: Vec<Rewrite>,
    pub simplified: Formula,
    /// Facts the simplifier used (dereferenced pointers are non-null).
    pub nonnull: Vec<Term>,
}

fn quick_decide(a: &Term, b: &Term, ctx: &Context) -> Option<bool> {
    let (f, _) = simplify::simplify(&Formula::Atom(Pred::eq(a.clone(), b.clone())), ctx);
    match f {
        Formula::Const(v) => Some(v),
        _ => None,
    }
}

/// Alias cases of a term in `M[i ← c]`: (conditions, old-memory term).
pub fn term_cases(t: &Term, i: &Term, c: &Term, ctx: &Context) -> Vec<(Vec<Formula>, Term)> {
    match t {
        Term::FieldAddr(base, f) => term_cases(base, i, c, ctx).into_iter().map(|(cs, b)| (cs, Term::field_addr(b, *f))).collect(),
        Term::Load(addr) => {
            let mut out = Vec::new();
            for (cs, a) in term_cases(addr, i, c, ctx) {
                match quick_decide(&a, i, ctx) {
                    Some(true) => out.push((cs, c.clone())),
                    Some(false) => out.push((cs, Term::load(a))),
                    None => {
                        let eq = Formula::Atom(Pred::eq(a.clone(), i.clone()));
                        let mut yes = cs.clone();
                        yes.push(eq.clone());
                        out.push((yes, c.clone()));
                        let mut no = cs;
                        no.push(Formula::not(eq));
                        out.push((no, Term::load(a)));
                    }
                }
            }
            out
        }
        other => vec![(Vec::new(), other.clone())],
    }
}

/// All alias cases of a predicate (cartesian product over its terms).
fn pred_cases(p: &Pred, i: &Term, c: &Term, ctx: &Context) -> Vec<(Vec<Formula>, Pred)> {
    let terms: Vec<&Term> = p.terms().collect();
    let mut combos: Vec<(Vec<Formula>, Vec<Term>)> = vec![(Vec::new(), Vec::new())];
    for t in terms {
        let cases = term_cases(t, i, c, ctx);
        let mut next = Vec::new();
        for (cs, ts) in &combos {
            for (cs2, t2) in &cases {
                let mut conds = cs.clone();
                conds.extend(cs2.iter().cloned());
                let mut terms = ts.clone();
                terms.push(t2.clone());
                next.push((conds, terms));
            }
        }
        combos = next;
        if combos.len() > 256 {
            break;
        }
    }
    let n_avoid = p.avoid.len();
    combos
        .into_iter()
        .filter(|(_, ts)| ts.len() == n_avoid + p.args.len())
        .map(|(cs, ts)| {
            let avoid = ts[..n_avoid].to_vec();
            let args = ts[n_avoid..].to_vec();
            (cs, Pred::new(p.kind, avoid, p.fields.clone(), args))
        })
        .collect()
}

/// The Fig 5 row for `p` (terms already in the old memory) and the update `M[i ← c]`.
pub fn fig5(p: &Pred, i: &Term, c: &Term) -> Formula {
    if p.kind == PredKind::Eq {
        return Formula::Atom(p.clone());
    }
    let mut ai = p.avoid.clone();
    ai.push(i.clone());
    let mk = |kind: PredKind, args: Vec<Term>| Formula::Atom(Pred::new(kind, ai.clone(), p.fields.clone(), args));
    let not_a_i = Formula::not(Formula::or(p.avoid.iter().map(|a| Formula::Atom(Pred::eq(a.clone(), i.clone()))).collect()));
    let reach = |x: &Term, y: &Term| mk(PredKind::Reach, vec![x.clone(), y.clone()]);
    let (x, a1) = (&p.args[0], p.args.get(1));
    match p.kind {
        PredKind::Reach | PredKind::Reachp => {
            let b = a1.cloned().unwrap_or(Term::Null);
            Formula::or(vec![
                mk(p.kind, vec![x.clone(), b.clone()]),
                Formula::and(vec![not_a_i, reach(x, i), reach(c, &b)]),
            ])
        }
        PredKind::Dshared => {
            let y = a1.cloned().unwrap_or(Term::Null);
            let ds = |u: &Term, v: &Term| mk(PredKind::Dshared, vec![u.clone(), v.clone()]);
            Formula::or(vec![
                ds(x, &y),
                Formula::and(vec![not_a_i.clone(), reach(x, i), ds(&y, c)]),
                Formula::and(vec![not_a_i.clone(), reach(&y, i), ds(x, c)]),
                Formula::and(vec![not_a_i, Formula::not(Formula::Atom(Pred::eq(c.clone(), Term::Null))), reach(x, i), reach(&y, i)]),
            ])
        }
        PredKind::Cyclic => Formula::or(vec![
            mk(PredKind::Cyclic, vec![x.clone()]),
            Formula::and(vec![not_a_i.clone(), reach(x, i), mk(PredKind::Cyclic, vec![c.clone()])]),
            Formula::and(vec![not_a_i, reach(x, i), reach(c, i)]),
        ]),
        PredKind::Eq => Formula::Atom(p.clone()),
    }
}

/// The contents of a fresh cell's slots are unconstrained.
fn forget_fresh_contents(f: &Formula) -> Formula {
    f.map_atoms(&mut |p| {
        Formula::Atom(p.map_terms(&mut |t| {
            t.map(&mut |s| match &s {
                Term::Load(a) if matches!(a.as_ref(), Term::FieldAddr(b, _) if matches!(b.as_ref(), Term::Fresh(_))) => Term::Unknown,
                _ => s,
            })
        }))
    })
}

/// WP of predicate `p` over `update`, raw and simplified.
pub fn wp_pred(names: Names, update: &Update, p: &Pred) -> WpResult {
    let nonnull = update.dereferenced();
    let ctx = Context { names, nonnull: nonnull.clone() };
    let Some((i, c)) = update.store() else {
        let raw = if p.kind == PredKind::Eq { Formula::Atom(p.clone()) } else { Formula::Star };
        return WpResult { update: update.clone(), cases: Vec::new(), raw: raw.clone(), rewrites: Vec::new(), simplified: raw, nonnull };
    };
    let mut cases = Vec::new();
    for (condition, pred) in pred_cases(p, &i, &c, &ctx) {
        let row = forget_fresh_contents(&fig5(&pred, &i, &c));
        cases.push(AliasCase { condition, pred, row });
    }
    let raw = Formula::or(
        cases
            .iter()
            .map(|case| {
                let mut parts = case.condition.clone();
                parts.push(case.row.clone());
                Formula::and(parts)
            })
            .collect(),
    );
    let (simplified, rewrites) = simplify::simplify(&raw, &ctx);
    WpResult { update: update.clone(), cases, raw, rewrites, simplified, nonnull }
}

/// WP of a formula over an update: every atom replaced by its simplified WP.
pub fn wp_formula(names: Names, update: &Update, f: &Formula) -> (Formula, Vec<WpResult>) {
    let mut results = Vec::new();
    let out = f.map_atoms(&mut |p| {
        let r = wp_pred(names, update, p);
        let s = r.simplified.clone();
        results.push(r);
        s
    });
    let ctx = Context { names, nonnull: update.dereferenced() };
    (simplify::propositional(&simplify::simplify(&out, &ctx).0), results)
}
