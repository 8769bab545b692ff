//! The Fig 5 weakest preconditions and every rewrite rule, checked against the concrete
//! evaluator on small heaps (every `n` field and every pointer variable ranges
//! over NULL and the cells, the rigid `k` over the cells): the predicate after executing the
//! statement must agree with its WP (raw and simplified) before it, wherever the WP is not ⊤;
//! each recorded rewrite must preserve the value on every heap where its facts hold.
//! (Every heap of up to 3 cells up to isomorphism and unreachable cells, [`crate::small_heaps`];
//! `SHAPE_CELLS=N` goes further.)
//! Random heaps of up to 6 cells (proptest) cover larger shapes.

use proptest::prelude::*;
use shape::concrete::{Heap, HeapSpace, Val};
use shape::simplify::Rewrite;
use shape::terms::{FieldRef, Formula, Names, Pred, PredKind, Rigid, RigidId, Term};
use shape::wp::{self, Update};

pub struct Fixture {
    pub program: c_ir::Program,
    pub rigids: Vec<Rigid>,
    pub x: Term,
    pub y: Term,
    pub t: Term,
    pub n: FieldRef,
    pub data: FieldRef,
    pub vars: Vec<c_ir::VarId>,
    pub strukt: c_ir::StructId,
}

pub fn fixture() -> Fixture {
    let src = "#include <stdlib.h>\ntypedef struct node {struct node *n; int data;} Node;\nvoid f(Node *x, Node *y, Node *t, int a) { x = y; }\n";
    let (program, _) = c_front::lower(src, "fixture.c", &c_front::LowerOptions { entry: "f".into(), ..Default::default() });
    let program = program.expect("fixture lowers");
    let proc = program.proc_by_name("f").expect("f");
    let var = |name: &str| program.lookup_var(Some(proc), name).expect("var");
    let strukt = c_ir::StructId(0);
    let (x, y, t) = (var("x"), var("y"), var("t"));
    let rigids = vec![Rigid { name: "k".into(), ty: c_ir::Type::pointer_to(c_ir::Type::Struct(strukt)) }];
    Fixture {
        x: Term::var(x),
        y: Term::var(y),
        t: Term::var(t),
        n: FieldRef { strukt, index: 0 },
        data: FieldRef { strukt, index: 1 },
        vars: vec![x, y, t],
        strukt,
        rigids,
        program,
    }
}

impl Fixture {
    pub fn names(&self) -> Names<'_> {
        Names { program: &self.program, rigids: &self.rigids }
    }
    pub fn space(&self) -> HeapSpace {
        HeapSpace { strukt: self.strukt, pointer_fields: vec![self.n], int_fields: vec![self.data], pointer_vars: self.vars.clone(), int_vars: vec![], rigids: 1 }
    }
    fn nx(&self, t: &Term) -> Term {
        Term::field(t.clone(), self.n)
    }
    fn slot(&self, t: &Term) -> Term {
        Term::field_addr(t.clone(), self.n)
    }
    /// The statements of both examples and a few more.
    pub fn updates(&self) -> Vec<Update> {
        let (x, y, t) = (&self.x, &self.y, &self.t);
        let addr = |v: &Term| match v {
            Term::Load(a) => (**a).clone(),
            _ => unreachable!(),
        };
        vec![
            Update::Store { addr: addr(x), value: t.clone() },
            Update::Store { addr: addr(y), value: Term::Null },
            Update::Store { addr: addr(x), value: self.nx(x) },
            Update::Store { addr: self.slot(y), value: Term::Null },
            Update::Store { addr: self.slot(y), value: t.clone() },
            Update::Store { addr: self.slot(t), value: x.clone() },
            Update::Store { addr: self.slot(x), value: x.clone() },
            Update::Store { addr: Term::field_addr(t.clone(), self.data), value: Term::Scalar },
            Update::Store { addr: self.slot(&self.nx(x)), value: y.clone() },
            Update::Malloc { addr: addr(t), strukt: self.strukt },
            Update::Malloc { addr: self.slot(x), strukt: self.strukt },
        ]
    }
    /// Predicates over the fixture's variables, of every kind.
    pub fn preds(&self) -> Vec<Pred> {
        let (x, y, t) = (&self.x, &self.y, &self.t);
        let k = Term::Rigid(RigidId(0));
        let n = vec![self.n];
        let mk = |kind, avoid: Vec<Term>, args: Vec<Term>| Pred::new(kind, avoid, n.clone(), args);
        vec![
            mk(PredKind::Reach, vec![], vec![x.clone(), k.clone()]),
            mk(PredKind::Reach, vec![self.slot(t)], vec![x.clone(), k.clone()]),
            mk(PredKind::Reach, vec![], vec![t.clone(), self.slot(y)]),
            mk(PredKind::Reach, vec![self.slot(x)], vec![y.clone(), self.nx(x)]),
            mk(PredKind::Reachp, vec![], vec![x.clone(), x.clone()]),
            mk(PredKind::Reachp, vec![self.slot(y)], vec![t.clone(), y.clone()]),
            mk(PredKind::Dshared, vec![], vec![x.clone(), y.clone()]),
            mk(PredKind::Dshared, vec![self.slot(t)], vec![t.clone(), self.nx(x)]),
            mk(PredKind::Cyclic, vec![], vec![x.clone()]),
            mk(PredKind::Cyclic, vec![], vec![y.clone()]),
            mk(PredKind::Cyclic, vec![self.slot(y)], vec![t.clone()]),
            Pred::eq(x.clone(), self.nx(x)),
            Pred::eq(t.clone(), k),
            Pred::eq(y.clone(), Term::Null),
        ]
    }
}

fn agrees(actual: Option<bool>, abstract_value: Option<bool>) -> bool {
    abstract_value.is_none() || actual == abstract_value
}

/// The heap before a malloc, extended with the fresh cell (allocated, contents set), and the
/// heap after it.
fn malloc_states(h: &Heap, update: &Update, contents: &[(FieldRef, Val)]) -> Option<(Heap, Heap)> {
    let post = h.execute(update, contents)?;
    let mut pre = post.clone();
    let Update::Malloc { addr, .. } = update else { return None };
    let i = h.eval(addr)?;
    match h.mem.get(&i) {
        Some(v) => pre.mem.insert(i, v.clone()),
        None => pre.mem.remove(&i),
    };
    Some((pre, post))
}

/// Every (pre, post) pair of the update on `h` (malloc: every content of the fresh `n` slot).
fn transitions(fx: &Fixture, h: &Heap, u: &Update) -> Vec<(Heap, Heap)> {
    match u {
        Update::Malloc { .. } => {
            let fresh = h.cells.len() as u32;
            let mut choices: Vec<Val> = vec![Val::Null];
            choices.extend((0..=fresh).map(Val::Cell));
            choices.into_iter().filter_map(|c| malloc_states(h, u, &[(fx.n, c), (fx.data, Val::Int)])).collect()
        }
        _ => h.execute(u, &[]).map(|post| (h.clone(), post)).into_iter().collect(),
    }
}

fn facts_hold(pre: &Heap, facts: &[Term]) -> bool {
    facts.iter().all(|t| matches!(pre.eval(t), Some(v @ Val::Cell(_)) if pre.alloc(&v)))
}

/// Checks WPs and rewrites of all fixture predicates over all updates on `heaps`; returns the
/// first failure.
pub fn check_heaps(fx: &Fixture, heaps: &[Heap]) -> Result<usize, String> {
    let names = fx.names();
    let mut checks = 0;
    for u in fx.updates() {
        for p in fx.preds() {
            let r = wp::wp_pred(names, &u, &p);
            for h in heaps {
                for (pre, post) in transitions(fx, h, &u) {
                    let after = post.eval_pred(&p);
                    for (what, f) in [("raw", &r.raw), ("simplified", &r.simplified)] {
                        checks += 1;
                        if !agrees(after, pre.eval_formula(f)) {
                            return Err(format!(
                                "{what} WP of {} over {u:?} is {} but the predicate after is {after:?}\npre: {pre:?}\npost: {post:?}",
                                names.pred(&p),
                                names.formula(f)
                            ));
                        }
                    }
                    if facts_hold(&pre, &r.nonnull) {
                        check_rewrites(&names, &r.rewrites, &pre)?;
                    }
                }
            }
        }
    }
    Ok(checks)
}

fn check_rewrites(names: &Names, rewrites: &[Rewrite], pre: &Heap) -> Result<(), String> {
    for rw in rewrites {
        let (b, a) = (pre.eval_formula(&rw.before), pre.eval_formula(&rw.after));
        if b.is_some() && a.is_some() && a != b {
            return Err(format!("rule {:?} rewrote {} (= {b:?}) to {} (= {a:?})\nheap: {pre:?}", rw.rule, names.formula(&rw.before), names.formula(&rw.after)));
        }
    }
    Ok(())
}

#[test]
fn fig5_wps_and_rewrites_agree_with_the_concrete_evaluator_on_small_heaps() {
    let fx = fixture();
    let heaps = crate::small_heaps(&fx.space());
    assert!(heaps.len() > 1_000, "{} heaps", heaps.len());
    match check_heaps(&fx, &heaps) {
        Ok(checks) => assert!(checks > 100_000, "only {checks} checks"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn closure_wps_of_shape_predicates_are_shape_predicates_and_equalities() {
    let fx = fixture();
    for u in fx.updates() {
        for p in fx.preds() {
            let r = wp::wp_pred(fx.names(), &u, &p);
            for q in r.simplified.preds() {
                assert!(matches!(q.kind, PredKind::Reach | PredKind::Reachp | PredKind::Dshared | PredKind::Cyclic | PredKind::Eq));
                assert!(!q.terms().any(|t| t.mentions_fresh() || t.mentions_unknown()), "{}", fx.names().pred(&q));
            }
        }
    }
}

/// A random heap of `cells` cells from a seed vector.
fn random_heap(fx: &Fixture, cells: u32, picks: &[u32]) -> Heap {
    let mut h = Heap { cells: (0..cells).map(|_| shape::concrete::Cell { strukt: fx.strukt, alloc: true }).collect(), ..Heap::default() };
    let pick = |i: usize| {
        let v = picks[i % picks.len()] % (cells + 1);
        if v == 0 {
            Val::Null
        } else {
            Val::Cell(v - 1)
        }
    };
    for c in 0..cells {
        h.mem.insert(Val::Slot(c, fx.n), pick(c as usize));
        h.mem.insert(Val::Slot(c, fx.data), Val::Int);
    }
    for (k, v) in fx.vars.iter().enumerate() {
        h.mem.insert(Val::Var(*v), pick(cells as usize + k));
    }
    h.rigids = vec![Val::Cell(picks[0] % cells)];
    h
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn fig5_wps_agree_on_random_heaps_up_to_6_cells(cells in 1u32..=6, picks in proptest::collection::vec(0u32..64, 9)) {
        let fx = fixture();
        let h = random_heap(&fx, cells, &picks);
        prop_assert!(check_heaps(&fx, &[h]).is_ok(), "{:?}", check_heaps(&fx, &[random_heap(&fx, cells, &picks)]).err());
    }
}

#[test]
fn the_paper_worked_wp_reach_over_x_assign_t_is_reach_t_k() {
    let fx = fixture();
    let k = Term::Rigid(RigidId(0));
    let p = Pred::reach(vec![], vec![fx.n], fx.x.clone(), k);
    let Term::Load(ax) = &fx.x else { unreachable!() };
    let r = wp::wp_pred(fx.names(), &Update::Store { addr: (**ax).clone(), value: fx.t.clone() }, &p);
    assert_eq!(fx.names().formula(&r.simplified), "reach[;n](t,k)");
    assert_eq!(r.simplified, Formula::Atom(Pred::reach(vec![], vec![fx.n], fx.t.clone(), Term::Rigid(RigidId(0)))));
}
