//! Shape predicates as typed terms (Dams–Namjoshi §3.1–3.2, Fig 4 and Fig 5).
//!
//! A [`Term`] is an expression of the paper's memory model: `α(x)` is [`Term::VarAddr`],
//! `â(t)` (the address of field `a` of the struct at `t`) is [`Term::FieldAddr`], `M[t]` is
//! [`Term::Load`]. Program syntax maps onto it one way only, so `(*x).n` and `x->n` are the same
//! term `M[n̂(M[α(x)])]` and equal predicates get one boolean. A [`Pred`] is one of the four
//! shape predicates or a pointer equality, in canonical form (avoid set sorted and without
//! duplicates, symmetric arguments sorted). A [`Formula`] is a propositional combination of
//! predicates with the three-valued constant `⊤` ([`Formula::Star`]).

use c_ir::{Program, StructId, Type, VarId};

/// A field of a struct: `(struct, index)`; field names are resolved at parse time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldRef {
    pub strukt: StructId,
    pub index: u32,
}

/// A rigid logical variable (`forall k:`), never assigned by the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RigidId(pub u32);

/// A term of the memory model.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Null,
    Rigid(RigidId),
    /// `α(x)`: the address of program variable `x` (`&x`).
    VarAddr(VarId),
    /// `â(t)`: the address of field `a` of the struct at address `t` (`&(t->a)`).
    FieldAddr(Box<Term>, FieldRef),
    /// `M[t]`: the memory contents at address `t` (`x` is `M[α(x)]`, `t->a` is `M[â(t)]`).
    Load(Box<Term>),
    /// The address returned by the `malloc` whose WP is being computed.
    Fresh(StructId),
    /// An integer value (never an address: states are well typed).
    Scalar,
    /// An unconstrained value (`havoc`, the contents of a freshly allocated slot).
    Unknown,
}

impl Term {
    pub fn var(v: VarId) -> Term {
        Term::Load(Box::new(Term::VarAddr(v)))
    }
    pub fn field_addr(base: Term, f: FieldRef) -> Term {
        Term::FieldAddr(Box::new(base), f)
    }
    pub fn field(base: Term, f: FieldRef) -> Term {
        Term::Load(Box::new(Term::field_addr(base, f)))
    }
    pub fn load(addr: Term) -> Term {
        Term::Load(Box::new(addr))
    }
    /// Whether `sub` occurs in `self`.
    pub fn contains(&self, pred: &dyn Fn(&Term) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        match self {
            Term::FieldAddr(t, _) | Term::Load(t) => t.contains(pred),
            _ => false,
        }
    }
    pub fn mentions_fresh(&self) -> bool {
        self.contains(&|t| matches!(t, Term::Fresh(_)))
    }
    pub fn mentions_unknown(&self) -> bool {
        self.contains(&|t| matches!(t, Term::Unknown))
    }
    /// Bottom-up rewrite of every subterm.
    pub fn map(&self, f: &mut dyn FnMut(Term) -> Term) -> Term {
        let inner = match self {
            Term::FieldAddr(t, a) => Term::FieldAddr(Box::new(t.map(f)), *a),
            Term::Load(t) => Term::Load(Box::new(t.map(f))),
            other => other.clone(),
        };
        f(inner)
    }
}

/// The kind of a shape predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum PredKind {
    /// `reach[A;F](x,b)`: b reachable from x in ≥ 0 dereference steps.
    Reach,
    /// `reachp[A;F](x,b)`: ≥ 1 step.
    Reachp,
    /// `dshared[A;F](x,y)`: some non-null node reachable from both.
    Dshared,
    /// `cyclic[A;F](x)`: x reaches a node on a cycle.
    Cyclic,
    /// `x == y` (addresses or pointer values).
    Eq,
}

/// A predicate in canonical form (build it with the constructors).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pred {
    pub kind: PredKind,
    /// The avoid set A (sorted, no duplicates; empty for `Eq`).
    pub avoid: Vec<Term>,
    /// The field set F (sorted; empty for `Eq`).
    pub fields: Vec<FieldRef>,
    pub args: Vec<Term>,
}

impl Pred {
    pub fn new(kind: PredKind, avoid: Vec<Term>, fields: Vec<FieldRef>, mut args: Vec<Term>) -> Pred {
        let mut avoid = avoid;
        avoid.sort();
        avoid.dedup();
        let mut fields = fields;
        fields.sort();
        fields.dedup();
        if matches!(kind, PredKind::Eq | PredKind::Dshared) {
            args.sort();
        }
        if kind == PredKind::Eq {
            avoid.clear();
            fields.clear();
        }
        Pred { kind, avoid, fields, args }
    }
    pub fn eq(a: Term, b: Term) -> Pred {
        Pred::new(PredKind::Eq, Vec::new(), Vec::new(), vec![a, b])
    }
    pub fn reach(avoid: Vec<Term>, fields: Vec<FieldRef>, from: Term, to: Term) -> Pred {
        Pred::new(PredKind::Reach, avoid, fields, vec![from, to])
    }
    pub fn with_avoid(&self, avoid: Vec<Term>) -> Pred {
        Pred::new(self.kind, avoid, self.fields.clone(), self.args.clone())
    }
    pub fn with_args(&self, args: Vec<Term>) -> Pred {
        Pred::new(self.kind, self.avoid.clone(), self.fields.clone(), args)
    }
    /// Every term of the predicate (avoid set, then arguments).
    pub fn terms(&self) -> impl Iterator<Item = &Term> {
        self.avoid.iter().chain(self.args.iter())
    }
    pub fn map_terms(&self, f: &mut dyn FnMut(&Term) -> Term) -> Pred {
        let avoid = self.avoid.iter().map(&mut *f).collect();
        let args = self.args.iter().map(f).collect();
        Pred::new(self.kind, avoid, self.fields.clone(), args)
    }
}

/// A propositional formula over predicates; `Star` is the paper's `⊤` (either value).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Formula {
    Const(bool),
    Star,
    Atom(Pred),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    pub fn atom(p: Pred) -> Formula {
        Formula::Atom(p)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Formula) -> Formula {
        match f {
            Formula::Const(b) => Formula::Const(!b),
            Formula::Not(inner) => *inner,
            other => Formula::Not(Box::new(other)),
        }
    }
    pub fn and(items: Vec<Formula>) -> Formula {
        match items.len() {
            0 => Formula::Const(true),
            1 => items.into_iter().next().unwrap_or(Formula::Const(true)),
            _ => Formula::And(items),
        }
    }
    pub fn or(items: Vec<Formula>) -> Formula {
        match items.len() {
            0 => Formula::Const(false),
            1 => items.into_iter().next().unwrap_or(Formula::Const(false)),
            _ => Formula::Or(items),
        }
    }
    /// The predicates of the formula, in order of first occurrence.
    pub fn preds(&self) -> Vec<Pred> {
        let mut out = Vec::new();
        self.visit_atoms(&mut |p| {
            if !out.contains(p) {
                out.push(p.clone())
            }
        });
        out
    }
    pub fn visit_atoms(&self, f: &mut dyn FnMut(&Pred)) {
        match self {
            Formula::Const(_) | Formula::Star => {}
            Formula::Atom(p) => f(p),
            Formula::Not(a) => a.visit_atoms(f),
            Formula::And(xs) | Formula::Or(xs) => xs.iter().for_each(|x| x.visit_atoms(f)),
        }
    }
    /// Replaces every atom by `f(atom)`.
    pub fn map_atoms(&self, f: &mut dyn FnMut(&Pred) -> Formula) -> Formula {
        match self {
            Formula::Const(_) | Formula::Star => self.clone(),
            Formula::Atom(p) => f(p),
            Formula::Not(a) => Formula::not(a.map_atoms(f)),
            Formula::And(xs) => Formula::and(xs.iter().map(|x| x.map_atoms(f)).collect()),
            Formula::Or(xs) => Formula::or(xs.iter().map(|x| x.map_atoms(f)).collect()),
        }
    }
}

/// Names for printing: the program, and the rigid variables of the property.
#[derive(Clone, Copy, Debug)]
pub struct Names<'a> {
    pub program: &'a Program,
    pub rigids: &'a [Rigid],
}

/// A rigid variable: its name and (pointer) type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rigid {
    pub name: String,
    pub ty: Type,
}

impl Names<'_> {
    pub fn field_name(&self, f: FieldRef) -> String {
        self.program
            .structs
            .get(f.strukt.0 as usize)
            .and_then(|s| s.fields.get(f.index as usize))
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("f{}", f.index))
    }
    pub fn var_name(&self, v: VarId) -> String {
        self.program.vars.get(v.0 as usize).map(|x| x.source_name.clone()).unwrap_or_else(|| format!("v{}", v.0))
    }
    /// Program syntax: `x`, `x->n`, `&(x->n)`, `&x`, `NULL`, `k`, `new` (the fresh cell).
    pub fn term(&self, t: &Term) -> String {
        match t {
            Term::Null => "NULL".into(),
            Term::Rigid(r) => self.rigids.get(r.0 as usize).map(|x| x.name.clone()).unwrap_or_else(|| format!("k{}", r.0)),
            Term::VarAddr(v) => format!("&{}", self.var_name(*v)),
            Term::FieldAddr(base, f) => format!("&({}->{})", self.term(base), self.field_name(*f)),
            Term::Load(addr) => match addr.as_ref() {
                Term::VarAddr(v) => self.var_name(*v),
                Term::FieldAddr(base, f) => format!("{}->{}", self.term(base), self.field_name(*f)),
                other => format!("*({})", self.term(other)),
            },
            Term::Fresh(_) => "new".into(),
            Term::Scalar => "<int>".into(),
            Term::Unknown => "?".into(),
        }
    }
    fn fields(&self, fields: &[FieldRef]) -> String {
        fields.iter().map(|f| self.field_name(*f)).collect::<Vec<_>>().join(",")
    }
    /// The paper's syntax: `reach[{&(t->n)};n](x,k)`, `cyclic[n](y)`, `x == k`.
    pub fn pred(&self, p: &Pred) -> String {
        let args = p.args.iter().map(|a| self.term(a)).collect::<Vec<_>>().join(",");
        let name = match p.kind {
            PredKind::Eq if p.args[0] == Term::Null => return format!("{} == NULL", self.term(&p.args[1])),
            PredKind::Eq => return format!("{} == {}", self.term(&p.args[0]), self.term(&p.args[1])),
            PredKind::Reach => "reach",
            PredKind::Reachp => "reachp",
            PredKind::Dshared => "dshared",
            PredKind::Cyclic => "cyclic",
        };
        let avoid = p.avoid.iter().map(|a| self.term(a)).collect::<Vec<_>>().join(", ");
        let bracket = match (p.kind, avoid.is_empty()) {
            (PredKind::Reach | PredKind::Reachp, true) => format!(";{}", self.fields(&p.fields)),
            (_, true) => self.fields(&p.fields),
            (_, false) => format!("{{{avoid}}};{}", self.fields(&p.fields)),
        };
        format!("{name}[{bracket}]({args})")
    }
    pub fn formula(&self, f: &Formula) -> String {
        self.formula_prec(f, 0)
    }
    fn formula_prec(&self, f: &Formula, prec: u8) -> String {
        let (text, own) = match f {
            Formula::Const(true) => ("true".to_string(), 3),
            Formula::Const(false) => ("false".to_string(), 3),
            Formula::Star => ("T".to_string(), 3),
            Formula::Atom(p) if p.kind == PredKind::Eq => (self.pred(p), 2),
            Formula::Atom(p) => (self.pred(p), 3),
            Formula::Not(a) => match a.as_ref() {
                Formula::Atom(p) if p.kind == PredKind::Eq => (self.pred(p).replacen(" == ", " != ", 1), 2),
                other => (format!("!{}", self.formula_prec(other, 3)), 3),
            },
            Formula::And(xs) => (xs.iter().map(|x| self.formula_prec(x, 2)).collect::<Vec<_>>().join(" && "), 1),
            Formula::Or(xs) => (xs.iter().map(|x| self.formula_prec(x, 1)).collect::<Vec<_>>().join(" || "), 0),
        };
        if own < prec {
            format!("({text})")
        } else {
            text
        }
    }
}
