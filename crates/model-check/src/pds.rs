//! Boolean programs as pushdown systems (BOOP ch. 6, after Esparza–Schwoon's Moped), and a
//! symbolic post* saturation model checker over them.
//!
//! **Translation** ([`translate`], BOOP §6.2, Fig 6.1). Control locations `P` are the
//! valuations `g` of the global variables, extended by return-value slots `r0, r1, …` (BOOP:
//! "the return value is simulated by a global variable"). Stack symbols are pairs `(n, l)`:
//! a program point `n` of a procedure's flow graph and a valuation `l` of that procedure's
//! formals and locals. Every flow-graph edge becomes a family of rules, written with one
//! relation over the unprimed (before) and primed (after) variables:
//! - a statement (assignment, `assume`, branch, `goto`, `skip`):
//!   `⟨g, (n₁, l)⟩ ↪ ⟨g', (n₂, l')⟩`; variables the relation does not mention keep their value;
//!   `x := choose(e, f)` is the relation `(e ∧ x') ∨ (¬e ∧ f ∧ ¬x') ∨ (¬e ∧ ¬f)` (BOOP's
//!   footnote to Fig 6.1), and `*` leaves `x'` free;
//! - a call `ȳ := R(ā)` at `n₁`: the push `⟨g, (n₁, l)⟩ ↪ ⟨g, (R₀, l_R)(n₁ʳ, l)⟩`, where `R₀`
//!   is `R`'s entry point, `l_R` binds `R`'s formals to the arguments (its locals are free), and
//!   `n₁ʳ` is the call's return location;
//! - a `return ē` (or the end of a body): the pop `⟨g, (n, l)⟩ ↪ ⟨(g, r̄'), ε⟩` with `r̄' = ē`;
//! - the return location: `⟨(g, r̄), (n₁ʳ, l)⟩ ↪ ⟨g, (n₂, l')⟩` with `ȳ' = r̄`.
//!
//! A procedure's `enforce` invariant constrains the primed state of every rule of that procedure
//! except a return location's (C2BP §4.5.3: the caller's predicates are stale until the update
//! after the call), as in the BEBOP engine. Error configurations are `⟨g, (n, l)⟩` where `n` is
//! an `assert e` and `e` can be false, or `n` carries an error label.
//!
//! **Model checking** ([`check`], Esparza–Hansel–Rossmanith–Schwoon's post*, symbolically as in
//! Schwoon's thesis §3.3/§6). The initial configurations `⟨g, (main₀, l)⟩` (any `g`, `l`
//! satisfying `main`'s `enforce`) are accepted by a P-automaton, which is saturated:
//! - a transition `g --(n, l)--> q_R(g₀, l₀)` of proc `R` with the state `q_R(g₀, l₀)` (created
//!   for the push to `(R₀, l₀)` in control `g₀`) is a BDD `T[R][n]` over
//!   (`g`, `l`, `g₀`, `l₀`); the initial automaton makes `main` such a state;
//! - a pop rule on it gives an ε-transition `(g', r̄) --ε--> q_R(g₀, l₀)`: `E[R]` over
//!   (`g'`, `r̄`, `g₀`, `l₀`);
//! - a push rule gives `T[R][R₀] ∋ (g₀, l₀, g₀, l₀)` and a *frame* transition
//!   `q_R(g₀, l₀) --(n₁ʳ, l)--> q_S(…)`: `F[R]` over (`g₀`, `l₀`, caller's `l`, caller's
//!   state parameters);
//! - an ε-transition followed by a frame gives a transition at the return location.
//!
//! Each transition is processed once (its BDD's new part is queued, as in post*'s worklist).
//! Only the formals of `l₀` are kept in the state parameters: a procedure's locals start
//! uninitialised, so the states `q_R(g₀, l₀)` that differ only in non-formal locals have the
//! same frames and are merged. A configuration `⟨g, (n, l) w⟩` is reachable iff some
//! `T[R][n]` holds for it; the error is reachable iff an error configuration's head is.
//!
//! `T[R][n]` are BEBOP's path edges and `E[R]` its summaries: BOOP ch. 6's point is that the two
//! views compute the same thing. The engine gives a verdict, not a counterexample or invariants.

use std::collections::VecDeque;
use budget::hash::HashMap;
use std::fmt::Write as _;

use biodivine_lib_bdd::{op_function, Bdd, BddVariable, BddVariableSet};
use boolprog::{print_expr_bebop, Expr, ProcId, Program, StmtId};
use diagnostics::Span;
use web_time::Instant;

use crate::cfg::{self, Action};
use crate::{Config, Outcome, Statistics, Verdict};

// ───────────────────────────── the pushdown system ─────────────────────────────

/// Index of a stack symbol's program point in [`Pds::points`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PointId(pub u32);

/// What a program point is in its procedure's flow graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointKind {
    /// Before a statement.
    Stmt(StmtId),
    /// The implicit return at the end of the body.
    End,
    /// The return location of the call statement: the callee has returned, the results are not
    /// yet assigned.
    ReturnLocation(StmtId),
}

/// A program point (the first component of stack symbols `(n, l)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub proc: ProcId,
    pub kind: PointKind,
    /// `main_3`, `main_end`, `main_3r`.
    pub name: String,
    /// Span of the statement (default for the end of a body).
    pub span: Span,
}

/// Where an updated value goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A variable in scope of the rule's procedure (global or local).
    Var(String),
    /// The `i`-th formal of the called procedure (push rules).
    Formal(usize),
    /// The `i`-th return-value slot of the control location (pop rules).
    Returned(usize),
}

/// A value assigned by a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A (possibly nondeterministic) expression over the unprimed variables.
    Expr(Expr),
    /// The `i`-th return-value slot of the control location (return-location rules).
    Returned(usize),
}

/// The relation of a rule: `guard ∧ ⋀ target' ∈ value ∧ enforce'`, other variables unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    /// Over the unprimed variables; `true` for most statements.
    pub guard: Expr,
    pub updates: Vec<(Target, Value)>,
    /// The procedure whose `enforce` constrains the primed state (`None`: no constraint).
    pub enforce: Option<ProcId>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `⟨g, (from, l)⟩ ↪ ⟨g', (to, l')⟩`.
    Step { to: PointId },
    /// `⟨g, (from, l)⟩ ↪ ⟨g, (callee₀, l_R)(return_to, l)⟩`.
    Push {
        callee: ProcId,
        entry: PointId,
        return_to: PointId,
    },
    /// `⟨g, (from, l)⟩ ↪ ⟨(g, r̄'), ε⟩`.
    Pop,
}

/// One family of rules (one per flow-graph edge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub from: PointId,
    pub kind: RuleKind,
    pub relation: Relation,
}

/// Why an error configuration is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `assert e`: the configurations where `e` can be false.
    Assert(Expr),
    /// A statement with an error label: every configuration.
    Label(String),
}

/// A boolean program as a pushdown system (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pds {
    pub globals: Vec<String>,
    /// Number of return-value slots in the control locations.
    pub returns: usize,
    /// Per procedure: its name, formals and locals (the components of `l`), `enforce`.
    pub procs: Vec<PdsProc>,
    pub points: Vec<Point>,
    pub rules: Vec<Rule>,
    pub errors: Vec<(PointId, ErrorKind)>,
    /// The entry point of the entry procedure.
    pub start: PointId,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdsProc {
    pub name: String,
    pub formals: Vec<String>,
    pub locals: Vec<String>,
    pub enforce: Option<Expr>,
    /// Entry point (`name_0`, or `name_end` for an empty body).
    pub entry: PointId,
}

/// Translates a valid boolean program (see [`boolprog::validate`]) to a pushdown system.
/// `entry` names the entry procedure (default `main`, else the first); `None` when the program
/// has no procedure or the named one does not exist.
pub fn translate(program: &Program, entry: Option<&str>, error_labels: &[String]) -> Option<Pds> {
    let entry = match entry {
        Some(name) => program.proc_by_name(name)?.0,
        None => program.entry_proc()?,
    };
    let cfgs = cfg::build(program);
    let mut points = Vec::new();
    // Per procedure: point id of every CFG node, then of every call node's return location.
    let mut node_point: Vec<Vec<PointId>> = Vec::new();
    for (p, (proc, g)) in program.procs.iter().zip(&cfgs).enumerate() {
        let stmts = boolprog::statements_in_order(&proc.body);
        let mut ids = Vec::new();
        for node in &g.nodes {
            let (kind, name, span) = match node.stmt {
                Some(s) => (
                    PointKind::Stmt(s),
                    format!("{}_{}", proc.name, s.0),
                    stmts[s.0 as usize].span,
                ),
                None => (
                    PointKind::End,
                    format!("{}_end", proc.name),
                    Span::default(),
                ),
            };
            ids.push(PointId(points.len() as u32));
            points.push(Point {
                proc: ProcId(p as u32),
                kind,
                name,
                span,
            });
        }
        node_point.push(ids);
    }
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for (p, g) in cfgs.iter().enumerate() {
        let pid = ProcId(p as u32);
        let proc = &program.procs[p];
        let stmts = boolprog::statements_in_order(&proc.body);
        for (n, node) in g.nodes.iter().enumerate() {
            let from = node_point[p][n];
            if let Some(e) = &node.assert {
                errors.push((from, ErrorKind::Assert(e.clone())));
            }
            if let Some(l) = node.label.as_ref().filter(|l| error_labels.contains(l)) {
                errors.push((from, ErrorKind::Label(l.clone())));
            }
            for edge in &node.edges {
                let to = edge.target.map(|t| node_point[p][t]);
                let plain = |guard: Expr, updates| Relation {
                    guard,
                    updates,
                    enforce: Some(pid),
                };
                match (&edge.action, to) {
                    (Action::Identity, Some(to)) => rules.push(Rule {
                        from,
                        kind: RuleKind::Step { to },
                        relation: plain(Expr::tt(), Vec::new()),
                    }),
                    (Action::Filter(e, positive), Some(to)) => {
                        let (t, f) = possible(e);
                        let guard = if *positive { t } else { f };
                        rules.push(Rule {
                            from,
                            kind: RuleKind::Step { to },
                            relation: plain(guard, Vec::new()),
                        })
                    }
                    (Action::Assign(lhs, rhs), Some(to)) => {
                        let updates = lhs
                            .iter()
                            .zip(rhs)
                            .map(|(x, e)| (Target::Var(x.clone()), Value::Expr(e.clone())))
                            .collect();
                        rules.push(Rule {
                            from,
                            kind: RuleKind::Step { to },
                            relation: plain(Expr::tt(), updates),
                        })
                    }
                    (Action::Call { lhs, callee, args }, Some(to)) => {
                        let stmt = node.stmt.unwrap_or(StmtId(0));
                        let return_to = PointId(points.len() as u32);
                        points.push(Point {
                            proc: pid,
                            kind: PointKind::ReturnLocation(stmt),
                            name: format!("{}_{}r", proc.name, stmt.0),
                            span: stmts
                                .get(stmt.0 as usize)
                                .map(|s| s.span)
                                .unwrap_or_default(),
                        });
                        let q = callee.0 as usize;
                        let bind = args
                            .iter()
                            .enumerate()
                            .map(|(i, a)| (Target::Formal(i), Value::Expr(a.clone())))
                            .collect();
                        rules.push(Rule {
                            from,
                            kind: RuleKind::Push {
                                callee: *callee,
                                entry: node_point[q][cfgs[q].entry],
                                return_to,
                            },
                            relation: Relation {
                                guard: Expr::tt(),
                                updates: bind,
                                enforce: Some(*callee),
                            },
                        });
                        let results = lhs
                            .iter()
                            .enumerate()
                            .map(|(j, x)| (Target::Var(x.clone()), Value::Returned(j)))
                            .collect();
                        rules.push(Rule {
                            from: return_to,
                            kind: RuleKind::Step { to },
                            relation: Relation {
                                guard: Expr::tt(),
                                updates: results,
                                enforce: None,
                            },
                        });
                    }
                    (Action::Return(values), _) => {
                        let updates = values
                            .iter()
                            .enumerate()
                            .map(|(j, e)| (Target::Returned(j), Value::Expr(e.clone())))
                            .collect();
                        rules.push(Rule {
                            from,
                            kind: RuleKind::Pop,
                            relation: Relation {
                                guard: Expr::tt(),
                                updates,
                                enforce: None,
                            },
                        })
                    }
                    (_, None) => {}
                }
            }
        }
    }
    let procs = program
        .procs
        .iter()
        .enumerate()
        .map(|(p, proc)| PdsProc {
            name: proc.name.clone(),
            formals: proc.formals.clone(),
            locals: proc.locals.clone(),
            enforce: proc.enforce.clone(),
            entry: node_point[p][cfgs[p].entry],
        })
        .collect();
    Some(Pds {
        globals: program.globals.iter().map(|g| g.name.clone()).collect(),
        returns: program.procs.iter().map(|p| p.returns).max().unwrap_or(0),
        procs,
        start: node_point[entry.0 as usize][cfgs[entry.0 as usize].entry],
        points,
        rules,
        errors,
    })
}

/// `(can be true, can be false)` of a three-valued expression, as deterministic expressions.
pub fn possible(e: &Expr) -> (Expr, Expr) {
    match e {
        Expr::Const(b) => (Expr::Const(*b), Expr::Const(!*b)),
        Expr::Var(_) => (e.clone(), Expr::not(e.clone())),
        Expr::Nondet => (Expr::tt(), Expr::tt()),
        Expr::Not(a) => {
            let (t, f) = possible(a);
            (f, t)
        }
        Expr::And(a, b) => {
            let ((at, af), (bt, bf)) = (possible(a), possible(b));
            (Expr::and(at, bt), Expr::or(af, bf))
        }
        Expr::Or(a, b) => {
            let ((at, af), (bt, bf)) = (possible(a), possible(b));
            (Expr::or(at, bt), Expr::and(af, bf))
        }
        Expr::Xor(..) | Expr::Eq(..) if !e.is_nondeterministic() => {
            (e.clone(), Expr::not(e.clone()))
        }
        Expr::Xor(a, b) => {
            let ((at, af), (bt, bf)) = (possible(a), possible(b));
            (
                Expr::or(
                    Expr::and(at.clone(), bf.clone()),
                    Expr::and(af.clone(), bt.clone()),
                ),
                Expr::or(Expr::and(at, bt), Expr::and(af, bf)),
            )
        }
        Expr::Eq(a, b) => {
            let ((at, af), (bt, bf)) = (possible(a), possible(b));
            (
                Expr::or(
                    Expr::and(at.clone(), bt.clone()),
                    Expr::and(af.clone(), bf.clone()),
                ),
                Expr::or(Expr::and(at, bf), Expr::and(af, bt)),
            )
        }
        Expr::Implies(a, b) => {
            let ((at, af), (bt, bf)) = (possible(a), possible(b));
            (Expr::or(af, bt), Expr::and(at, bf))
        }
        Expr::Choose(pos, neg) => {
            let ((pt, pf), (nt, nf)) = (possible(pos), possible(neg));
            (
                Expr::or(pt, Expr::and(pf.clone(), nf.clone())),
                Expr::and(pf, Expr::or(nt, nf)),
            )
        }
    }
}

// ───────────────────────────── printing ─────────────────────────────

fn primed(name: &str) -> String {
    format!("{name}'")
}

/// The relation `x' ∈ value` as a formula over `x'` and the unprimed variables (`None`: `x'`
/// is free, for `*`).
fn update_formula(target: &str, value: &Expr) -> Option<String> {
    let x = Expr::var(primed(target));
    let formula = match value {
        Expr::Nondet => return None,
        Expr::Choose(e, f) if !e.is_nondeterministic() && !f.is_nondeterministic() => {
            // BOOP Fig 6.1's footnote: (e ∧ x') ∨ (¬e ∧ f ∧ ¬x') ∨ (¬e ∧ ¬f)
            let (e, f) = (*e.clone(), *f.clone());
            Expr::or_all([
                Expr::and(e.clone(), x.clone()),
                Expr::and_all([Expr::not(e.clone()), f.clone(), Expr::not(x)]),
                Expr::and(Expr::not(e), Expr::not(f)),
            ])
        }
        e if !e.is_nondeterministic() => {
            return Some(format!(
                "{} = {}",
                print_expr_bebop(&x),
                print_expr_bebop(e)
            ))
        }
        e => {
            let (t, f) = possible(e);
            Expr::and(Expr::implies(x.clone(), t), Expr::implies(Expr::not(x), f))
        }
    };
    Some(print_expr_bebop(&formula))
}

impl Pds {
    fn slot_name(&self, target: &Target, callee: Option<ProcId>) -> String {
        match target {
            Target::Var(x) => x.clone(),
            Target::Formal(i) => callee
                .map(|c| self.procs[c.0 as usize].formals[*i].clone())
                .unwrap_or_default(),
            Target::Returned(j) => format!("r{j}"),
        }
    }

    fn relation_text(&self, relation: &Relation, callee: Option<ProcId>) -> String {
        let mut parts = Vec::new();
        if relation.guard != Expr::tt() {
            parts.push(print_expr_bebop(&relation.guard));
        }
        for (target, value) in &relation.updates {
            let name = self.slot_name(target, callee);
            match value {
                Value::Expr(e) => parts.extend(update_formula(&name, e)),
                Value::Returned(j) => parts.push(format!("{name}' = r{j}")),
            }
        }
        if let Some(e) = relation
            .enforce
            .and_then(|p| self.procs[p.0 as usize].enforce.as_ref())
        {
            parts.push(format!("enforce'({})", print_expr_bebop(e)));
        }
        if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join("  &  ")
        }
    }

    /// The rules as text, one a line (BOOP §6.2's notation in ASCII: `<g, (main_0, l)> -> …`).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let rets: Vec<String> = (0..self.returns).map(|j| format!("r{j}")).collect();
        let _ = writeln!(out, "control locations g = ({})", self.globals.join(", "));
        if !rets.is_empty() {
            let _ = writeln!(
                out,
                "  return values in (g, r) with r = ({})",
                rets.join(", ")
            );
        }
        let _ = writeln!(out, "stack symbols (n, l):");
        for (p, proc) in self.procs.iter().enumerate() {
            let names: Vec<&String> = proc.formals.iter().chain(&proc.locals).collect();
            let pts: Vec<&str> = self
                .points
                .iter()
                .filter(|pt| pt.proc.0 as usize == p)
                .map(|pt| pt.name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "  {}: l = ({}), n in {{{}}}",
                proc.name,
                names
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                pts.join(", ")
            );
            if let Some(e) = &proc.enforce {
                let _ = writeln!(out, "    enforce {}", print_expr_bebop(e));
            }
        }
        let _ = writeln!(
            out,
            "initial: <g, ({}, l)>",
            self.points[self.start.0 as usize].name
        );
        let _ = writeln!(out, "rules (unmentioned variables keep their values):");
        for rule in &self.rules {
            let from = &self.points[rule.from.0 as usize];
            let (lhs_ctrl, lhs) = if matches!(from.kind, PointKind::ReturnLocation(_)) {
                ("(g, r)", from.name.as_str())
            } else {
                ("g", from.name.as_str())
            };
            let (rhs, callee) = match &rule.kind {
                RuleKind::Step { to } => (
                    format!("<g', ({}, l')>", self.points[to.0 as usize].name),
                    None,
                ),
                RuleKind::Push {
                    callee,
                    entry,
                    return_to,
                } => (
                    format!(
                        "<g, ({}, l_{}) ({}, l)>",
                        self.points[entry.0 as usize].name,
                        self.procs[callee.0 as usize].name,
                        self.points[return_to.0 as usize].name
                    ),
                    Some(*callee),
                ),
                RuleKind::Pop => ("<(g, r'), eps>".to_string(), None),
            };
            let _ = writeln!(
                out,
                "  <{lhs_ctrl}, ({lhs}, l)> -> {rhs}   : {}",
                self.relation_text(&rule.relation, callee)
            );
        }
        let _ = writeln!(out, "error configurations:");
        for (pt, kind) in &self.errors {
            let name = &self.points[pt.0 as usize].name;
            match kind {
                ErrorKind::Assert(e) => {
                    let (_, f) = possible(e);
                    let _ = writeln!(out, "  <g, ({name}, l)> where {}", print_expr_bebop(&f));
                }
                ErrorKind::Label(l) => {
                    let _ = writeln!(out, "  <g, ({name}, l)> (label {l})");
                }
            }
        }
        out
    }
}

// ───────────────────────────── the symbolic post* ─────────────────────────────

/// Copies of every variable in the BDD order: current, next, the automaton state parameter
/// (the entry valuation), and the caller's current value inside a frame transition.
const CUR: usize = 0;
const NEXT: usize = 1;
const ENTRY: usize = 2;
const CALLER: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Global(usize),
    Local(usize),
}

struct Vars {
    set: BddVariableSet,
    global: Vec<[BddVariable; 4]>,
    local: Vec<[BddVariable; 4]>,
    ret: Vec<BddVariable>,
}

impl Vars {
    fn new(globals: usize, locals: usize, rets: usize) -> Vars {
        let set = BddVariableSet::new_anonymous((4 * (globals + locals) + rets) as u16);
        let all = set.variables();
        let four = |k: usize| [all[4 * k], all[4 * k + 1], all[4 * k + 2], all[4 * k + 3]];
        let global = (0..globals).map(four).collect();
        let local = (globals..globals + locals).map(four).collect();
        let ret = all[4 * (globals + locals)..].to_vec();
        Vars {
            set,
            global,
            local,
            ret,
        }
    }
    fn var(&self, slot: Slot, copy: usize) -> BddVariable {
        match slot {
            Slot::Global(i) => self.global[i][copy],
            Slot::Local(i) => self.local[i][copy],
        }
    }
    fn eq(&self, a: BddVariable, b: BddVariable) -> Bdd {
        self.set.mk_var(a).iff(&self.set.mk_var(b))
    }
    /// `∃from. f ∧ ⋀(to ⇔ from)`: renames (every `to` must be free in `f`).
    fn rename(&self, f: &Bdd, pairs: &[(BddVariable, BddVariable)]) -> Bdd {
        if pairs.is_empty() {
            return f.clone();
        }
        let eqs = pairs.iter().fold(self.set.mk_true(), |acc, (from, to)| {
            acc.and(&self.eq(*from, *to))
        });
        let froms: Vec<BddVariable> = pairs.iter().map(|(f, _)| *f).collect();
        Bdd::binary_op_with_exists(f, &eqs, op_function::and, &froms)
    }
    /// `target` may be true only where `t`, false only where `f`.
    fn choice(&self, target: BddVariable, (t, f): &(Bdd, Bdd)) -> Bdd {
        let x = self.set.mk_var(target);
        x.imp(t).and(&x.not().imp(f))
    }
}

/// Names in scope of a procedure.
struct Scope {
    resolve: HashMap<String, Slot>,
    slots: usize,
    formals: usize,
}

impl Scope {
    fn new(pds: &Pds, proc: &PdsProc) -> Scope {
        let mut resolve: HashMap<String, Slot> = pds
            .globals
            .iter()
            .enumerate()
            .map(|(i, g)| (g.clone(), Slot::Global(i)))
            .collect();
        for (i, l) in proc.formals.iter().chain(&proc.locals).enumerate() {
            resolve.insert(l.clone(), Slot::Local(i));
        }
        Scope {
            resolve,
            slots: proc.formals.len() + proc.locals.len(),
            formals: proc.formals.len(),
        }
    }
}

/// A compiled rule.
enum Compiled {
    Step {
        to: usize,
        guard: Bdd,
        updates: Vec<(BddVariable, BddVariable, (Bdd, Bdd))>,
        post: Bdd,
    },
    Push {
        callee: usize,
        entry: usize,
        return_to: usize,
        bind: Bdd,
    },
    Pop {
        returns: Vec<(BddVariable, (Bdd, Bdd))>,
    },
}

struct Checker<'a> {
    pds: &'a Pds,
    v: Vars,
    scopes: Vec<Scope>,
    rules: Vec<Vec<Compiled>>,
    fails: Vec<Option<Bdd>>,
    /// Transitions `g --(n, l)--> q_R(g₀, l₀)` by point.
    trans: Vec<Bdd>,
    pending: Vec<Bdd>,
    queued: Vec<bool>,
    queue: VecDeque<usize>,
    /// ε-transitions per procedure (BEBOP's summaries).
    eps: Vec<Bdd>,
    /// Frame transitions per callee: `(return location, BDD)`.
    frames: Vec<Vec<(usize, Bdd)>>,
    peak: usize,
    steps: u64,
}

/// Model-checks `program` by translating it to a pushdown system and saturating (post*). The
/// verdict agrees with [`crate::check`]; no trace and no invariants are computed.
pub fn check(program: &Program, config: &Config) -> Outcome {
    check_with_cancel(program, config, &|| false)
}

/// [`check`], polling `cancelled` between steps.
pub fn check_with_cancel(
    program: &Program,
    config: &Config,
    cancelled: &dyn Fn() -> bool,
) -> Outcome {
    let start = Instant::now();
    let diagnostics = boolprog::validate(program);
    let mut statistics = Statistics::default();
    let outcome = |verdict, statistics: Statistics, diagnostics| Outcome {
        verdict,
        invariants: Vec::new(),
        trace: None,
        trace_error: None,
        statistics,
        diagnostics,
    };
    if diagnostics::has_errors(&diagnostics) {
        return outcome(
            Verdict::Unknown("the boolean program has errors".to_string()),
            statistics,
            diagnostics,
        );
    }
    let Some(pds) = translate(program, config.entry.as_deref(), &config.error_labels) else {
        return outcome(
            Verdict::Unknown("no entry procedure".to_string()),
            statistics,
            diagnostics,
        );
    };
    let slots = pds
        .procs
        .iter()
        .map(|p| p.formals.len() + p.locals.len())
        .max()
        .unwrap_or(0);
    if 4 * (pds.globals.len() + slots) + pds.returns > 60_000 {
        return outcome(
            Verdict::Unknown("too many variables for the BDD encoding".to_string()),
            statistics,
            diagnostics,
        );
    }
    let mut checker = Checker::new(&pds);
    statistics.bdd_variables = checker.v.set.num_vars() as usize;
    let verdict = checker.saturate(config, start, cancelled);
    statistics.iterations = checker.steps;
    statistics.peak_bdd_nodes = checker.peak;
    statistics.time_ms = start.elapsed().as_secs_f64() * 1000.0;
    outcome(verdict, statistics, diagnostics)
}

impl<'a> Checker<'a> {
    fn new(pds: &'a Pds) -> Checker<'a> {
        let slots = pds
            .procs
            .iter()
            .map(|p| p.formals.len() + p.locals.len())
            .max()
            .unwrap_or(0);
        let v = Vars::new(pds.globals.len(), slots, pds.returns);
        let scopes: Vec<Scope> = pds.procs.iter().map(|p| Scope::new(pds, p)).collect();
        let f = v.set.mk_false();
        let n = pds.points.len();
        let mut checker = Checker {
            pds,
            scopes,
            rules: (0..n).map(|_| Vec::new()).collect(),
            fails: vec![None; n],
            trans: vec![f.clone(); n],
            pending: vec![f.clone(); n],
            queued: vec![false; n],
            queue: VecDeque::new(),
            eps: vec![f.clone(); pds.procs.len()],
            frames: vec![Vec::new(); pds.procs.len()],
            peak: 0,
            steps: 0,
            v,
        };
        for rule in &pds.rules {
            let compiled = checker.compile_rule(rule);
            checker.rules[rule.from.0 as usize].push(compiled);
        }
        for (pt, kind) in &pds.errors {
            let p = pds.points[pt.0 as usize].proc.0 as usize;
            let bad = match kind {
                ErrorKind::Assert(e) => checker.compile(p, e, CUR).1,
                ErrorKind::Label(_) => checker.v.set.mk_true(),
            };
            let slot = &mut checker.fails[pt.0 as usize];
            *slot = Some(slot.take().map_or(bad.clone(), |b| b.or(&bad)));
        }
        checker
    }

    /// `(can be true, can be false)` of `e` in procedure `p`'s scope, over copy `copy`.
    fn compile(&self, p: usize, e: &Expr, copy: usize) -> (Bdd, Bdd) {
        let set = &self.v.set;
        let pair = |a: &Expr, b: &Expr| (self.compile(p, a, copy), self.compile(p, b, copy));
        match e {
            Expr::Const(b) => {
                let c = |v: bool| if v { set.mk_true() } else { set.mk_false() };
                (c(*b), c(!*b))
            }
            Expr::Var(name) => {
                let x = self.v.var(self.scopes[p].resolve[name], copy);
                (set.mk_var(x), set.mk_not_var(x))
            }
            Expr::Nondet => (set.mk_true(), set.mk_true()),
            Expr::Not(a) => {
                let (t, f) = self.compile(p, a, copy);
                (f, t)
            }
            Expr::And(a, b) => {
                let ((at, af), (bt, bf)) = pair(a, b);
                (at.and(&bt), af.or(&bf))
            }
            Expr::Or(a, b) => {
                let ((at, af), (bt, bf)) = pair(a, b);
                (at.or(&bt), af.and(&bf))
            }
            Expr::Xor(a, b) => {
                let ((at, af), (bt, bf)) = pair(a, b);
                (at.and(&bf).or(&af.and(&bt)), at.and(&bt).or(&af.and(&bf)))
            }
            Expr::Eq(a, b) => {
                let ((at, af), (bt, bf)) = pair(a, b);
                (at.and(&bt).or(&af.and(&bf)), at.and(&bf).or(&af.and(&bt)))
            }
            Expr::Implies(a, b) => {
                let ((at, af), (bt, bf)) = pair(a, b);
                (af.or(&bt), at.and(&bf))
            }
            Expr::Choose(pos, neg) => {
                let ((pt, pf), (nt, nf)) = pair(pos, neg);
                (pt.or(&pf.and(&nf)), pf.and(&nt.or(&nf)))
            }
        }
    }

    fn enforce(&self, p: usize, copy: usize) -> Bdd {
        match &self.pds.procs[p].enforce {
            Some(e) => self.compile(p, e, copy).0,
            None => self.v.set.mk_true(),
        }
    }

    fn compile_rule(&self, rule: &Rule) -> Compiled {
        let p = self.pds.points[rule.from.0 as usize].proc.0 as usize;
        let rel = &rule.relation;
        match &rule.kind {
            RuleKind::Step { to } => {
                let guard = self.compile(p, &rel.guard, CUR).0;
                let updates = rel
                    .updates
                    .iter()
                    .map(|(target, value)| {
                        let Target::Var(x) = target else {
                            unreachable!("step rules update variables in scope")
                        };
                        let slot = self.scopes[p].resolve[x];
                        let possible = match value {
                            Value::Expr(e) => self.compile(p, e, CUR),
                            Value::Returned(j) => (
                                self.v.set.mk_var(self.v.ret[*j]),
                                self.v.set.mk_not_var(self.v.ret[*j]),
                            ),
                        };
                        (self.v.var(slot, CUR), self.v.var(slot, NEXT), possible)
                    })
                    .collect();
                let post = rel
                    .enforce
                    .map_or(self.v.set.mk_true(), |q| self.enforce(q.0 as usize, CUR));
                Compiled::Step {
                    to: to.0 as usize,
                    guard,
                    updates,
                    post,
                }
            }
            RuleKind::Push {
                callee,
                entry,
                return_to,
            } => {
                let q = callee.0 as usize;
                // g_next = g, formals_next ∈ args, enforce of the callee over the next copies
                let mut bind = self.enforce(q, NEXT);
                for g in &self.v.global {
                    bind = bind.and(&self.v.eq(g[CUR], g[NEXT]));
                }
                for (target, value) in &rel.updates {
                    if let (Target::Formal(i), Value::Expr(e)) = (target, value) {
                        bind = bind.and(
                            &self
                                .v
                                .choice(self.v.local[*i][NEXT], &self.compile(p, e, CUR)),
                        );
                    }
                }
                Compiled::Push {
                    callee: q,
                    entry: entry.0 as usize,
                    return_to: return_to.0 as usize,
                    bind,
                }
            }
            RuleKind::Pop => Compiled::Pop {
                returns: rel
                    .updates
                    .iter()
                    .filter_map(|(t, v)| match (t, v) {
                        (Target::Returned(j), Value::Expr(e)) => {
                            Some((self.v.ret[*j], self.compile(p, e, CUR)))
                        }
                        _ => None,
                    })
                    .collect(),
            },
        }
    }

    fn proc_of(&self, point: usize) -> usize {
        self.pds.points[point].proc.0 as usize
    }

    /// Adds `s` to the transitions at `point`, queueing the new part.
    fn add(&mut self, point: usize, s: &Bdd) {
        let new = s.and_not(&self.trans[point]);
        if new.is_false() {
            return;
        }
        self.trans[point] = self.trans[point].or(&new);
        self.peak = self.peak.max(self.trans[point].size());
        self.pending[point] = self.pending[point].or(&new);
        if !self.queued[point] {
            self.queued[point] = true;
            self.queue.push_back(point);
        }
    }

    fn saturate(
        &mut self,
        config: &Config,
        start: Instant,
        cancelled: &dyn Fn() -> bool,
    ) -> Verdict {
        // the initial automaton: q_main(g, l) --> accepting, and g --(main_0, l)--> q_main(g, l)
        let start_point = self.pds.start.0 as usize;
        let p = self.proc_of(start_point);
        let init = self.entry_equalities(p).and(&self.enforce(p, CUR));
        self.add(start_point, &init);
        while let Some(point) = self.queue.pop_front() {
            self.queued[point] = false;
            self.steps += 1;
            if cancelled() {
                return Verdict::Unknown("cancelled".to_string());
            }
            if let Some(ms) = config.time_budget_ms {
                if start.elapsed().as_millis() as u64 >= ms {
                    return Verdict::Unknown(format!("time budget of {ms} ms exhausted"));
                }
            }
            if self.peak > config.max_bdd_nodes {
                return Verdict::Unknown(format!(
                    "BDD node budget of {} exhausted",
                    config.max_bdd_nodes
                ));
            }
            let delta = std::mem::replace(&mut self.pending[point], self.v.set.mk_false());
            if self.fails[point]
                .as_ref()
                .is_some_and(|bad| !delta.and(bad).is_false())
            {
                return Verdict::ErrorReachable;
            }
            let rules = std::mem::take(&mut self.rules[point]);
            for rule in &rules {
                self.fire(point, rule, &delta);
            }
            self.rules[point] = rules;
        }
        Verdict::Safe
    }

    /// `g₀ = g` and `formals₀ = formals` of procedure `p`: the transitions of a fresh state.
    fn entry_equalities(&self, p: usize) -> Bdd {
        let mut eqs = self.v.set.mk_true();
        for g in &self.v.global {
            eqs = eqs.and(&self.v.eq(g[ENTRY], g[CUR]));
        }
        for l in self.v.local.iter().take(self.scopes[p].formals) {
            eqs = eqs.and(&self.v.eq(l[ENTRY], l[CUR]));
        }
        eqs
    }

    fn fire(&mut self, point: usize, rule: &Compiled, delta: &Bdd) {
        match rule {
            Compiled::Step {
                to,
                guard,
                updates,
                post,
            } => {
                let mut s = delta.and(guard);
                for (_, next, possible) in updates {
                    s = s.and(&self.v.choice(*next, possible));
                }
                let mut gone: Vec<BddVariable> = updates.iter().map(|(cur, ..)| *cur).collect();
                gone.extend(self.v.ret.iter().copied());
                let s = s.exists(&gone);
                let pairs: Vec<_> = updates.iter().map(|(cur, next, _)| (*next, *cur)).collect();
                let s = self.v.rename(&s, &pairs).and(post);
                self.add(*to, &s);
            }
            Compiled::Push {
                callee,
                entry,
                return_to,
                bind,
            } => self.push(point, *callee, *entry, *return_to, bind, delta),
            Compiled::Pop { returns } => self.pop(point, returns, delta),
        }
    }

    /// Push: new frame transitions `q_callee(g₀, l₀) --(return_to, l)--> q_caller(…)`, the
    /// callee's new entry transitions, and the ε-transitions already known applied to the frames.
    fn push(
        &mut self,
        point: usize,
        q: usize,
        entry: usize,
        return_to: usize,
        bind: &Bdd,
        delta: &Bdd,
    ) {
        let p = self.proc_of(point);
        let g_cur: Vec<BddVariable> = self.v.global.iter().map(|g| g[CUR]).collect();
        // over (g_next, l_next), caller's l_cur, caller's (g_entry, l_entry)
        let frame = Bdd::binary_op_with_exists(delta, bind, op_function::and, &g_cur);
        let to_caller: Vec<_> = self
            .v
            .local
            .iter()
            .take(self.scopes[p].slots)
            .map(|l| (l[CUR], l[CALLER]))
            .collect();
        let mut frame = self.v.rename(&frame, &to_caller);
        // the callee's state parameters are its globals and formals at entry
        let nonformal: Vec<BddVariable> = self
            .v
            .local
            .iter()
            .skip(self.scopes[q].formals)
            .map(|l| l[NEXT])
            .collect();
        frame = frame.exists(&nonformal);
        let index = self.frames[q].iter().position(|(r, _)| *r == return_to);
        let old = index.map_or(self.v.set.mk_false(), |i| self.frames[q][i].1.clone());
        let new = frame.and_not(&old);
        if new.is_false() {
            return;
        }
        match index {
            Some(i) => self.frames[q][i].1 = old.or(&new),
            None => self.frames[q].push((return_to, new.clone())),
        }
        // entry transitions g --(q_0, l)--> q(g, formals)
        let mut hidden: Vec<BddVariable> = self.v.local.iter().map(|l| l[CALLER]).collect();
        hidden.extend(self.v.global.iter().map(|g| g[ENTRY]));
        hidden.extend(self.v.local.iter().map(|l| l[ENTRY]));
        let heads = new.exists(&hidden);
        let mut to_cur: Vec<_> = self.v.global.iter().map(|g| (g[NEXT], g[CUR])).collect();
        to_cur.extend(
            self.v
                .local
                .iter()
                .take(self.scopes[q].formals)
                .map(|l| (l[NEXT], l[CUR])),
        );
        let heads = self
            .v
            .rename(&heads, &to_cur)
            .and(&self.entry_equalities(q))
            .and(&self.enforce(q, CUR));
        self.add(entry, &heads);
        let eps = self.eps[q].clone();
        self.return_through(&eps, &new, p, return_to);
    }

    /// `∃ g₀ l₀. eps ∧ frame` renamed to the transitions at the return location.
    fn return_through(&mut self, eps: &Bdd, frame: &Bdd, caller: usize, return_to: usize) {
        if eps.is_false() || frame.is_false() {
            return;
        }
        let mut params: Vec<BddVariable> = self.v.global.iter().map(|g| g[NEXT]).collect();
        params.extend(self.v.local.iter().map(|l| l[NEXT]));
        let joined = Bdd::binary_op_with_exists(eps, frame, op_function::and, &params);
        let back: Vec<_> = self
            .v
            .local
            .iter()
            .take(self.scopes[caller].slots)
            .map(|l| (l[CALLER], l[CUR]))
            .collect();
        let s = self.v.rename(&joined, &back);
        self.add(return_to, &s);
    }

    /// Pop: new ε-transitions `(g, r̄) --ε--> q_R(g₀, l₀)`, applied to every frame of `R`.
    fn pop(&mut self, point: usize, returns: &[(BddVariable, (Bdd, Bdd))], delta: &Bdd) {
        let q = self.proc_of(point);
        let mut s = delta.exists(&self.v.ret);
        for (r, possible) in returns {
            s = s.and(&self.v.choice(*r, possible));
        }
        let locals: Vec<BddVariable> = self.v.local.iter().map(|l| l[CUR]).collect();
        let s = s.exists(&locals);
        let mut params: Vec<_> = self.v.global.iter().map(|g| (g[ENTRY], g[NEXT])).collect();
        params.extend(
            self.v
                .local
                .iter()
                .take(self.scopes[q].formals)
                .map(|l| (l[ENTRY], l[NEXT])),
        );
        let s = self.v.rename(&s, &params);
        let new = s.and_not(&self.eps[q]);
        if new.is_false() {
            return;
        }
        self.eps[q] = self.eps[q].or(&new);
        self.peak = self.peak.max(self.eps[q].size());
        let frames = self.frames[q].clone();
        for (return_to, frame) in frames {
            let caller = self.proc_of(return_to);
            self.return_through(&new, &frame, caller, return_to);
        }
    }
}

/// The saturated automaton's transitions in text, for small programs: per program point, the
/// reachable heads `⟨g, (n, l)⟩` (entry parameters projected away) as a DNF over the variables
/// in scope, and per procedure the ε-transitions (summaries) as the number of BDD nodes.
pub fn saturated_heads(program: &Program, config: &Config) -> Option<Vec<(String, String)>> {
    if diagnostics::has_errors(&boolprog::validate(program)) {
        return None;
    }
    let pds = translate(program, config.entry.as_deref(), &config.error_labels)?;
    let mut checker = Checker::new(&pds);
    let mut quiet = config.clone();
    quiet.time_budget_ms = quiet.time_budget_ms.or(Some(10_000));
    // run to saturation (ignoring errors: every reachable head is wanted)
    for f in &mut checker.fails {
        *f = None;
    }
    if let Verdict::Unknown(_) = checker.saturate(&quiet, Instant::now(), &|| false) {
        return None;
    }
    let mut out = Vec::new();
    for (pt, point) in pds.points.iter().enumerate() {
        let p = point.proc.0 as usize;
        let scope = &checker.scopes[p];
        let mut hidden: Vec<BddVariable> = checker.v.global.iter().map(|g| g[ENTRY]).collect();
        hidden.extend(checker.v.local.iter().map(|l| l[ENTRY]));
        if !matches!(point.kind, PointKind::ReturnLocation(_)) {
            hidden.extend(checker.v.ret.iter().copied());
        }
        let heads = checker.trans[pt].exists(&hidden);
        let mut names: HashMap<BddVariable, String> = HashMap::default();
        for (name, slot) in &scope.resolve {
            names.insert(checker.v.var(*slot, CUR), name.clone());
        }
        for (j, r) in checker.v.ret.iter().enumerate() {
            names.insert(*r, format!("r{j}"));
        }
        let text = if heads.is_false() {
            "false".to_string()
        } else if heads.is_true() {
            "true".to_string()
        } else {
            heads
                .to_optimized_dnf()
                .iter()
                .map(|cube| {
                    let mut lits: Vec<String> = cube
                        .to_values()
                        .into_iter()
                        .map(|(v, b)| {
                            format!(
                                "{}{}",
                                if b { "" } else { "!" },
                                names.get(&v).cloned().unwrap_or_else(|| "?".into())
                            )
                        })
                        .collect();
                    lits.sort();
                    lits.join(" & ")
                })
                .collect::<Vec<_>>()
                .join(" | ")
        };
        out.push((point.name.clone(), text));
    }
    Some(out)
}
