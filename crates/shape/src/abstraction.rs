//! The iterated-WP predicate abstraction of Dams–Namjoshi §2 (Fig 3).
//!
//! Pairs `(predicate, location)` are processed breadth first, one round per iteration: a pair
//! matched by a hint gets `b_p ≡ if c then false else ⊤` at its location and adds the pairs of
//! `c`; otherwise, for every action `s_{m,n}` entering its location, the simplified WP over the
//! action's update gives the abstract assignment `b_p := f̄` on that edge and adds the pairs of
//! `f` at `m`. A pair the hint's pattern does not match, but which its condition `c` reduces at
//! the hint's location ([`crate::assume`], §5's "in terms of dshared[n](t,x) as well"), gets
//! `b_p ≡ if c then r else ⊤` with the reduced formula `r`. At the bound, pairs still unmarked
//! are over-approximated by `*`.

use crate::flowchart::{EdgeId, Flowchart, LocId};
use crate::parse::Hint;
use crate::terms::{Formula, Names, Pred, Term};
use crate::wp::{self, WpResult};
use crate::{assume, simplify};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct PredId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct PairId(pub u32);

/// The status of a pair (the UI's table column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Status {
    Unmarked,
    Marked,
    /// Replaced by its approximation hint.
    Hinted,
    /// Left unmarked at the bound: its boolean is `*` at this location.
    OverApproximated,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub id: PairId,
    pub pred: PredId,
    pub loc: LocId,
    /// The round that added it (0: the property and the guards).
    pub round: u32,
    pub status: Status,
    /// The pair whose WP over this edge produced it (`None` for initial pairs; the edge is
    /// `None` for pairs added by a hint).
    pub parent: Option<(PairId, Option<EdgeId>)>,
    /// Index of the hint applied to it.
    pub hint: Option<usize>,
    /// For a hinted pair, its value where the hint's condition `C` holds: `b_p ≡ if C then
    /// residual else ⊤` (`false` for the pattern's own family; else the predicate reduced
    /// under `C`, [`crate::assume`]).
    pub residual: Formula,
    /// The rules of [`crate::assume`] that gave the residual (empty for a pattern match).
    pub residual_rules: Vec<&'static str>,
}

/// The WP of one pair over one edge: one [`WpResult`] per update and atom, last update first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derivation {
    pub pair: PairId,
    pub edge: EdgeId,
    pub steps: Vec<WpResult>,
    pub result: Formula,
}

/// `b_p := f̄` on an edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub edge: EdgeId,
    pub pred: PredId,
    pub formula: Formula,
    pub derivation: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub index: u32,
    pub processed: Vec<PairId>,
    pub added: Vec<PairId>,
}

/// The result of Fig 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abstraction {
    pub preds: Vec<Pred>,
    pub pairs: Vec<Pair>,
    pub rounds: Vec<Round>,
    pub derivations: Vec<Derivation>,
    pub assignments: Vec<Assignment>,
    pub hints: Vec<Hint>,
    /// No pair was left unmarked ("no predicates remain to be examined").
    pub converged: bool,
}

impl Abstraction {
    pub fn pred_id(&self, p: &Pred) -> Option<PredId> {
        self.preds.iter().position(|q| q == p).map(|i| PredId(i as u32))
    }
    pub fn pred(&self, id: PredId) -> &Pred {
        &self.preds[id.0 as usize]
    }
    pub fn pair_at(&self, p: PredId, n: LocId) -> Option<&Pair> {
        self.pairs.iter().find(|x| x.pred == p && x.loc == n)
    }
    /// Iterations actually run.
    pub fn iterations(&self) -> u32 {
        self.rounds.len() as u32
    }
}

/// Whether `hint` applies to `p` at `n`: same location (or any), and `p` equals the pattern up
/// to the number of repeated field steps ([`skeleton`]).
pub fn hint_matches(hint: &Hint, p: &Pred, n: LocId) -> bool {
    hint.loc.is_none_or(|l| l == n) && skeleton(p) == skeleton(&hint.pattern)
}

/// A predicate with every chain `t->a->a->…` (one or more steps of the same field) collapsed
/// to one step: members of a growing family share their skeleton.
pub fn skeleton(p: &Pred) -> Pred {
    p.map_terms(&mut |t| collapse(t))
}

fn collapse(t: &Term) -> Term {
    t.map(&mut |s| {
        let chain_base = |base: &Term, f| match base {
            Term::Load(inner) => match inner.as_ref() {
                Term::FieldAddr(x, g) if *g == f => Some((**x).clone()),
                _ => None,
            },
            _ => None,
        };
        match &s {
            // x->f->f  ~>  x->f
            Term::Load(a) => match a.as_ref() {
                Term::FieldAddr(base, f) if chain_base(base, *f).is_some() => (**base).clone(),
                _ => s,
            },
            // &(x->f->f)  ~>  &(x->f)
            Term::FieldAddr(base, f) => match chain_base(base, *f) {
                Some(x) => Term::field_addr(x, *f),
                None => s,
            },
            _ => s,
        }
    })
}

struct State<'a> {
    names: Names<'a>,
    fc: &'a Flowchart,
    out: Abstraction,
}

impl State<'_> {
    fn intern(&mut self, p: &Pred) -> PredId {
        match self.out.pred_id(p) {
            Some(id) => id,
            None => {
                self.out.preds.push(p.clone());
                PredId(self.out.preds.len() as u32 - 1)
            }
        }
    }
    fn add_pair(&mut self, p: &Pred, n: LocId, round: u32, parent: Option<(PairId, Option<EdgeId>)>) -> Option<PairId> {
        let id = self.intern(p);
        if self.out.pair_at(id, n).is_some() {
            return None;
        }
        let pid = PairId(self.out.pairs.len() as u32);
        self.out.pairs.push(Pair { id: pid, pred: id, loc: n, round, status: Status::Unmarked, parent, hint: None, residual: Formula::Const(false), residual_rules: Vec::new() });
        Some(pid)
    }

    fn process(&mut self, pid: PairId, round: u32, added: &mut Vec<PairId>) {
        let pair = self.out.pairs[pid.0 as usize].clone();
        let p = self.out.pred(pair.pred).clone();
        let matched = self.out.hints.iter().position(|h| hint_matches(h, &p, pair.loc)).map(|h| (h, Formula::Const(false), Vec::new()));
        // otherwise a hint's condition at this location may reduce the predicate (§5's "in
        // terms of dshared[n](t,x) as well")
        let reduced = || {
            self.out.hints.iter().enumerate().filter(|(_, h)| h.loc.is_none_or(|l| l == pair.loc)).find_map(|(i, h)| {
                let (r, rules) = assume::reduce(&p, &assume::facts(&h.cond))?;
                let ctx = simplify::Context { names: self.names, nonnull: Vec::new() };
                Some((i, simplify::simplify(&r, &ctx).0, rules))
            })
        };
        if let Some((h, residual, rules)) = matched.or_else(reduced) {
            let new: Vec<Pred> = self.out.hints[h].cond.preds().into_iter().chain(residual.preds()).collect();
            let slot = &mut self.out.pairs[pid.0 as usize];
            slot.status = Status::Hinted;
            slot.hint = Some(h);
            slot.residual = residual;
            slot.residual_rules = rules;
            for q in new {
                added.extend(self.add_pair(&q, pair.loc, round, Some((pid, None))));
            }
            return;
        }
        self.out.pairs[pid.0 as usize].status = Status::Marked;
        let edges: Vec<_> = self.fc.edges_into(pair.loc).cloned().collect();
        for e in edges {
            let mut f = Formula::Atom(p.clone());
            let mut steps = Vec::new();
            for (u, _) in e.updates.iter().rev() {
                let (next, results) = wp::wp_formula(self.names, u, &f);
                steps.extend(results);
                f = next;
            }
            for q in f.preds() {
                added.extend(self.add_pair(&q, e.from, round, Some((pid, Some(e.id)))));
            }
            self.out.derivations.push(Derivation { pair: pid, edge: e.id, steps, result: f.clone() });
            let derivation = self.out.derivations.len() - 1;
            self.out.assignments.push(Assignment { edge: e.id, pred: pair.pred, formula: f, derivation });
        }
    }
}

/// Runs Fig 3 from the initial pairs (the property's and the guards') for at most `bound` rounds.
pub fn run(names: Names, fc: &Flowchart, initial: &[(Pred, LocId)], hints: &[Hint], bound: u32) -> Abstraction {
    run_online(names, fc, initial, hints, bound, &mut |_| Vec::new())
}

/// Like [`run`], but after every round `more_hints` may add hints (automatic approximation,
/// [`crate::autohint::Online`]): they apply to the pairs examined in later rounds, so a growing
/// family is cut as soon as it is recognised instead of after a whole run.
pub fn run_online(names: Names, fc: &Flowchart, initial: &[(Pred, LocId)], hints: &[Hint], bound: u32, more_hints: &mut dyn FnMut(&Abstraction) -> Vec<Hint>) -> Abstraction {
    let out = Abstraction {
        preds: Vec::new(),
        pairs: Vec::new(),
        rounds: Vec::new(),
        derivations: Vec::new(),
        assignments: Vec::new(),
        hints: hints.to_vec(),
        converged: false,
    };
    let mut st = State { names, fc, out };
    for (p, n) in initial {
        st.add_pair(p, *n, 0, None);
    }
    for e in &fc.edges {
        for q in e.guard.preds() {
            st.add_pair(&q, e.from, 0, None);
        }
    }
    let mut round = 0;
    while round < bound {
        let batch: Vec<PairId> = st.out.pairs.iter().filter(|p| p.status == Status::Unmarked).map(|p| p.id).collect();
        if batch.is_empty() {
            break;
        }
        round += 1;
        let mut added = Vec::new();
        for pid in &batch {
            st.process(*pid, round, &mut added);
        }
        st.out.rounds.push(Round { index: round, processed: batch, added });
        let new = more_hints(&st.out);
        st.out.hints.extend(new);
    }
    st.out.converged = st.out.pairs.iter().all(|p| p.status != Status::Unmarked);
    for p in st.out.pairs.iter_mut() {
        if p.status == Status::Unmarked {
            p.status = Status::OverApproximated;
        }
    }
    st.out
}
