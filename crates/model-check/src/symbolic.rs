//! The BDD engine (BEBOP, C2BP §2.2: interprocedural dataflow in the style of Sharir–Pnueli
//! and Reps–Horwitz–Sagiv over sets of bit vectors): path edges, summaries, an ordered worklist
//! (callees first, nodes in reverse postorder), invariants, and counterexample reconstruction
//! by time stamps.

use std::collections::BTreeSet;
use budget::hash::HashMap;

use biodivine_lib_bdd::{op_function, Bdd, BddPartialValuation, BddValuation, BddVariable, BddVariableSet};
use boolprog::{statements_in_order, Expr, Origin, ProcId, Program, StmtId};
use diagnostics::{Diagnostic, Span};
use web_time::Instant;

use crate::cfg::{self, Action, ProcCfg};
use crate::{Config, Invariant, Literal, Outcome, Statistics, StepKind, Trace, TraceSearch, TraceStep, Verdict};

/// Reachable-state sets up to this many BDD nodes are printed as a minimised DNF.
const INVARIANT_MINIMISE_NODES: usize = 24;
/// Invariants with more DNF cubes than this are also tried in CNF.
const CNF_WHEN_CUBES_EXCEED: usize = 8;

const ENTRY: usize = 0;
const CUR: usize = 1;
const NEXT: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarRef {
    Global(usize),
    Local(usize),
}

/// BDD variables: every global and every local slot has an entry, a current and a next copy
/// (adjacent in the order); `ret` holds returned values.
struct Encoding {
    set: BddVariableSet,
    global: Vec<[BddVariable; 3]>,
    local: Vec<[BddVariable; 3]>,
    ret: Vec<BddVariable>,
}

struct ProcInfo {
    resolve: HashMap<String, VarRef>,
    slots: usize,
    formals: usize,
    enforce: Bdd,
    /// Names in scope with what they denote (unshadowed globals, then locals).
    scope: Vec<(String, VarRef)>,
    /// Entry equalities of a fresh activation: globals and formals equal their entry copies.
    initial: Bdd,
    origins: Vec<Option<Origin>>,
    return_nodes: Vec<usize>,
}

/// A conjunction of relations kept as clusters: parts are conjoined while the cluster stays
/// small, so relations whose monolithic BDD is exponential in the variable order (a parallel
/// copy between locals and return slots far apart in the order) are applied part by part to
/// the (usually much smaller) state sets instead.
struct Relation {
    clusters: Vec<Bdd>,
}

/// The largest cluster built by conjoining parts of a [`Relation`].
const CLUSTER_NODES: usize = 2048;

impl Relation {
    fn new(set: &BddVariableSet, parts: impl IntoIterator<Item = Bdd>) -> Relation {
        let mut clusters = Vec::new();
        let mut current = set.mk_true();
        for part in parts {
            let joined = current.and(&part);
            if joined.size() > CLUSTER_NODES && !current.is_true() {
                clusters.push(std::mem::replace(&mut current, part));
            } else {
                current = joined;
            }
        }
        clusters.push(current);
        Relation { clusters }
    }

    /// `states ∧ relation`.
    fn and(&self, states: &Bdd) -> Bdd {
        self.clusters.iter().fold(states.clone(), |acc, c| acc.and(c))
    }

    /// `∃vars. states ∧ relation` (the quantification fused with the last conjunction).
    fn image(&self, states: &Bdd, vars: &[BddVariable]) -> Bdd {
        let (last, rest) = self.clusters.split_last().expect("a relation has a cluster");
        let acc = rest.iter().fold(states.clone(), |acc, c| acc.and(c));
        rel_prod(&acc, last, vars)
    }
}

enum CompiledEdge {
    Identity,
    Filter(Bdd),
    Assign { relation: Relation, lhs: Vec<VarRef>, possible: Vec<(Bdd, Bdd)> },
    Call { bind: Relation, callee: usize, lhs: Vec<VarRef>, result: Relation, lhs_locals_cur: Vec<BddVariable> },
    Return { relation: Relation, possible: Vec<(Bdd, Bdd)> },
}

struct ErrorFound {
    proc: usize,
    node: usize,
    state: BddValuation,
    kind: StepKind,
}

struct Engine {
    cfgs: Vec<ProcCfg>,
    enc: Encoding,
    info: Vec<ProcInfo>,
    edges: Vec<Vec<Vec<CompiledEdge>>>,
    /// Assert conditions' can-be-false sets per node.
    assert_fail: Vec<Vec<Option<Bdd>>>,
    error_label: Vec<Vec<bool>>,
    path_edges: Vec<Vec<Bdd>>,
    history: Vec<Vec<Vec<(u32, Bdd)>>>,
    pending: Vec<Vec<Bdd>>,
    queued: Vec<Vec<bool>>,
    /// The worklist: `(rank, proc, node)`, lowest rank first ([`Order`]).
    queue: BTreeSet<(usize, usize, usize)>,
    order: Order,
    /// Nodes queued so far (the rank of [`Order::FirstCome`]).
    arrivals: usize,
    /// The largest number of nodes of a procedure (ranks are `proc_rank * max_nodes + node_rank`).
    max_nodes: usize,
    summary: Vec<Bdd>,
    /// Per procedure, what each step that grew the summary added: `(step, new part)`.
    summary_history: Vec<Vec<(u32, Bdd)>>,
    /// The trace search's summaries as they were after `summary_history[q][i]` (`(q, i)`),
    /// computed on demand from the nearest one below.
    summary_prefixes: std::cell::RefCell<HashMap<(usize, usize), Bdd>>,
    callers: Vec<Vec<(usize, usize)>>,
    step: u32,
    peak: usize,
    /// BDD nodes of new path edges and summaries not yet charged to the meter.
    charged_nodes: u64,
    /// Rank of each procedure in the worklist order: callees first.
    proc_rank: Vec<usize>,
    /// Rank of each node in its procedure: reverse postorder from the entry.
    node_rank: Vec<Vec<usize>>,
    /// Nodes of every BDD the engine keeps: path edges, their history (for the trace search),
    /// pending deltas, summaries and their history (each counted on its own: an overestimate of
    /// shared nodes). Only path edges were counted before: a blown-up program then grew to four
    /// times the memory limit (`tests/it/memory.rs`).
    kept_nodes: usize,
    all_entry: Vec<BddVariable>,
    all_local_cur: Vec<BddVariable>,
    global_cur: Vec<BddVariable>,
    global_next: Vec<BddVariable>,
    global_entry: Vec<BddVariable>,
    /// Current copies of the locals dead before each node (`[proc][node]`), quantified out of
    /// the states added there.
    dead: Vec<Vec<Vec<BddVariable>>>,
}

pub fn run(program: &Program, config: &Config, cancelled: &dyn Fn() -> bool) -> Outcome {
    let start = Instant::now();
    let diagnostics = boolprog::validate(program);
    let mut statistics = Statistics::default();
    let unknown = |reason: String, diagnostics, statistics| Outcome {
        verdict: Verdict::Unknown(reason),
        invariants: Vec::new(),
        trace: None,
        trace_error: None,
        statistics,
        diagnostics,
    };
    if diagnostics::has_errors(&diagnostics) {
        return unknown("the boolean program has errors".to_string(), diagnostics, statistics);
    }
    let entry = match &config.entry {
        Some(name) => program.proc_by_name(name).map(|(i, _)| i),
        None => program.entry_proc(),
    };
    let Some(entry) = entry else {
        return unknown("no entry procedure".to_string(), diagnostics, statistics);
    };
    let total_vars = 3 * (program.globals.len() + program.procs.iter().map(|p| p.formals.len() + p.locals.len()).max().unwrap_or(0))
        + program.procs.iter().map(|p| p.returns).max().unwrap_or(0);
    if total_vars > 60_000 {
        return unknown("too many variables for the BDD encoding".to_string(), diagnostics, statistics);
    }
    // the reachable states do not depend on the order of the worklist, a counterexample does:
    // first the fast order; when it reaches an error, first come, first served again for the
    // shortest counterexample (BOOP's and the lab notes' traces), unless that costs more than
    // a few times the first search (then the first search's counterexample)
    let entry = entry.0 as usize;
    let before = config.meter.spent();
    let mut explored = explore(program, config, entry, &config.meter, Order::Ranked, &start, cancelled);
    let mut steps = explored.engine.step as u64;
    if explored.found.is_some() && config.compute_trace && explored.stop_reason.is_none() {
        let cost = config.meter.spent().saturating_sub(before);
        let limit = cost.saturating_mul(config.shortest_trace.factor).max(config.shortest_trace.floor);
        let shortest = explore(program, config, entry, &config.meter.sub(Some(limit)), Order::FirstCome, &start, cancelled);
        steps += shortest.engine.step as u64;
        if shortest.found.is_some() {
            explored = shortest;
        }
    }
    let Explored { engine, found, stop_reason } = explored;
    statistics.bdd_variables = engine.enc.set.num_vars() as usize;
    statistics.iterations = steps;
    statistics.peak_bdd_nodes = engine.peak;
    let outcome = if let Some(error) = found {
        let mut diagnostics = diagnostics;
        let mut trace_error = None;
        let trace = if config.compute_trace {
            let out_of_budget = || {
                config.meter.charge(budget::cost::MODEL_CHECK_STEP);
                if cancelled() {
                    Some("cancelled".to_string())
                } else if let Some(stop) = config.meter.stopped() {
                    Some(stop.to_string())
                } else {
                    config.time_budget_ms.filter(|&ms| start.elapsed().as_millis() as u64 >= ms).map(|ms| format!("time budget of {ms} ms exhausted"))
                }
            };
            match engine.trace(entry, error, &out_of_budget) {
                Ok(t) => Some(t),
                Err(e) => {
                    let message = format!("no counterexample: {e}");
                    diagnostics.push(Diagnostic::warning(Span::default(), message.clone()));
                    trace_error = Some(message);
                    None
                }
            }
        } else {
            None
        };
        Outcome { verdict: Verdict::ErrorReachable, invariants: Vec::new(), trace, trace_error, statistics: statistics.clone(), diagnostics }
    } else if let Some(reason) = stop_reason {
        unknown(reason, diagnostics, statistics.clone())
    } else {
        let invariants = if config.compute_invariants { engine.invariants(config.invariant_origins.as_deref()) } else { Vec::new() };
        Outcome { verdict: Verdict::Safe, invariants, trace: None, trace_error: None, statistics: statistics.clone(), diagnostics }
    };
    let mut outcome = outcome;
    outcome.statistics.time_ms = start.elapsed().as_secs_f64() * 1000.0;
    outcome
}

/// The worklist's order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Callees before callers, then a procedure's nodes in reverse postorder: a node is
    /// processed once with what all its predecessors added instead of once per arrival
    /// (first come, first served took 10× more steps on systemc's `toy.cil`).
    Ranked,
    /// First come, first served: breadth-first, the shortest counterexamples.
    FirstCome,
}

/// What one run of the worklist ended with.
struct Explored {
    engine: Engine,
    /// The error reached, if any.
    found: Option<ErrorFound>,
    /// Why the run stopped before the fixpoint (budget, cancel, node limit), if it did.
    stop_reason: Option<String>,
}

/// Runs the worklist from `entry`'s initial states until the fixpoint, an error, or a stop.
fn explore(
    program: &Program,
    config: &Config,
    entry: usize,
    meter: &budget::Meter,
    order: Order,
    start: &Instant,
    cancelled: &dyn Fn() -> bool,
) -> Explored {
    let mut engine = Engine::new(program, config, order, entry);
    let init = engine.info[entry].initial.clone();
    engine.add(entry, engine.cfgs[entry].entry, &init, 0);
    let mut found = None;
    let mut stop_reason = None;
    while let Some((_, p, n)) = engine.queue.pop_first() {
        engine.queued[p][n] = false;
        engine.step += 1;
        if cancelled() {
            stop_reason = Some("cancelled".to_string());
            break;
        }
        if let Some(ms) = config.time_budget_ms {
            if start.elapsed().as_millis() as u64 >= ms {
                stop_reason = Some(format!("time budget of {ms} ms exhausted"));
                break;
            }
        }
        meter.charge(budget::cost::MODEL_CHECK_STEP + engine.charged_nodes / budget::cost::BDD_NODES_PER_UNIT);
        engine.charged_nodes %= budget::cost::BDD_NODES_PER_UNIT;
        meter.note_memory(engine.kept_nodes as u64 * KEPT_NODE_BYTES);
        if let Some(stop) = meter.stopped() {
            stop_reason = Some(stop.to_string());
            break;
        }
        if engine.peak > config.max_bdd_nodes {
            stop_reason = Some(format!("BDD node budget of {} exhausted", config.max_bdd_nodes));
            break;
        }
        if let Some(e) = engine.process(p, n) {
            found = Some(e);
            break;
        }
    }
    if stop_reason.is_none() && found.is_none() && engine.peak > config.max_bdd_nodes {
        stop_reason = Some(format!("BDD node budget of {} exhausted", config.max_bdd_nodes));
    }
    Explored { engine, found, stop_reason }
}

/// Bytes per kept BDD node in the memory estimate: biodivine-lib-bdd's node is 12 bytes (a
/// 16-bit variable and two 32-bit links), its vectors grow by doubling, and the allocator keeps
/// the blocks of replaced path edges. Measured: at 16 bytes a blown-up run grew by 1.26 times
/// its estimate (`tests/it/memory.rs`), hence 24.
const KEPT_NODE_BYTES: u64 = 24;

/// Why to stop a long computation now (budget exhausted, cancelled), if so.
type Stop<'a> = dyn Fn() -> Option<String> + 'a;

fn rel_prod(a: &Bdd, b: &Bdd, vars: &[BddVariable]) -> Bdd {
    Bdd::binary_op_with_exists(a, b, op_function::and, vars)
}

impl Engine {
    /// An engine for runs from procedure `entry`.
    fn new(program: &Program, config: &Config, order: Order, entry: usize) -> Engine {
        let cfgs = cfg::build(program);
        let slots = program.procs.iter().map(|p| p.formals.len() + p.locals.len()).max().unwrap_or(0);
        let rets = program.procs.iter().map(|p| p.returns).max().unwrap_or(0);
        let num = 3 * (program.globals.len() + slots) + rets;
        let set = BddVariableSet::new_anonymous(num as u16);
        let vars = set.variables();
        let mut k = 0;
        let mut take3 = || {
            let t = [vars[k], vars[k + 1], vars[k + 2]];
            k += 3;
            t
        };
        let global: Vec<[BddVariable; 3]> = (0..program.globals.len()).map(|_| take3()).collect();
        let local: Vec<[BddVariable; 3]> = (0..slots).map(|_| take3()).collect();
        let ret: Vec<BddVariable> = vars[3 * (program.globals.len() + slots)..].to_vec();
        let enc = Encoding { set, global, local, ret };
        let mut engine = Engine {

            enc,
            info: Vec::new(),
            edges: Vec::new(),
            assert_fail: Vec::new(),
            error_label: Vec::new(),
            path_edges: Vec::new(),
            history: Vec::new(),
            pending: Vec::new(),
            queued: Vec::new(),
            queue: Default::default(),
            order,
            arrivals: 0,
            max_nodes: 0,
            summary: Vec::new(),
            summary_history: Vec::new(),
            summary_prefixes: Default::default(),
            callers: vec![Vec::new(); program.procs.len()],
            step: 0,
            peak: 0,
            charged_nodes: 0,
            proc_rank: Vec::new(),
            node_rank: Vec::new(),
            kept_nodes: 0,
            all_entry: Vec::new(),
            all_local_cur: Vec::new(),
            global_cur: Vec::new(),
            global_next: Vec::new(),
            global_entry: Vec::new(),
            dead: Vec::new(),
            cfgs,
        };
        engine.all_entry = engine.enc.global.iter().chain(engine.enc.local.iter()).map(|v| v[ENTRY]).collect();
        engine.all_local_cur = engine.enc.local.iter().map(|v| v[CUR]).collect();
        engine.global_cur = engine.enc.global.iter().map(|v| v[CUR]).collect();
        engine.global_next = engine.enc.global.iter().map(|v| v[NEXT]).collect();
        engine.global_entry = engine.enc.global.iter().map(|v| v[ENTRY]).collect();
        for proc in &program.procs {
            let mut resolve = HashMap::default();
            for (i, g) in program.globals.iter().enumerate() {
                resolve.insert(g.name.clone(), VarRef::Global(i));
            }
            for (i, l) in proc.local_names().enumerate() {
                resolve.insert(l.clone(), VarRef::Local(i));
            }
            let mut scope: Vec<(String, VarRef)> = program
                .globals
                .iter()
                .enumerate()
                .filter(|(_, g)| !proc.local_names().any(|l| *l == g.name))
                .map(|(i, g)| (g.name.clone(), VarRef::Global(i)))
                .collect();
            scope.extend(proc.local_names().enumerate().map(|(i, l)| (l.clone(), VarRef::Local(i))));
            let mut initial = engine.enc.set.mk_true();
            for g in &engine.enc.global {
                initial = initial.and(&engine.eq(g[ENTRY], g[CUR]));
            }
            for l in engine.enc.local.iter().take(proc.formals.len()) {
                initial = initial.and(&engine.eq(l[ENTRY], l[CUR]));
            }
            let origins = statements_in_order(&proc.body).iter().map(|s| s.origin).collect();
            let mut info = ProcInfo {
                resolve,
                slots: proc.formals.len() + proc.locals.len(),
                formals: proc.formals.len(),
                enforce: engine.enc.set.mk_true(),
                scope,
                initial,
                origins,
                return_nodes: Vec::new(),
            };
            if let Some(e) = &proc.enforce {
                info.enforce = engine.compile(&info, e).0;
            }
            engine.info.push(info);
        }
        for (p, proc_cfg) in engine.cfgs.iter().enumerate() {
            let info = &engine.info[p];
            let mut proc_edges = Vec::new();
            let mut fails = Vec::new();
            let mut labels = Vec::new();
            let mut returns = Vec::new();
            for (n, node) in proc_cfg.nodes.iter().enumerate() {
                fails.push(node.assert.as_ref().map(|e| engine.compile(info, e).1));
                labels.push(node.label.as_ref().is_some_and(|l| config.error_labels.contains(l)));
                let mut compiled = Vec::new();
                for edge in &node.edges {
                    if matches!(edge.action, Action::Return(_)) {
                        returns.push(n);
                    }
                    if let Action::Call { callee, .. } = &edge.action {
                        engine.callers[callee.0 as usize].push((p, n));
                    }
                    compiled.push(engine.compile_edge(p, &edge.action));
                }
                proc_edges.push(compiled);
            }
            engine.edges.push(proc_edges);
            engine.assert_fail.push(fails);
            engine.error_label.push(labels);
            engine.info[p].return_nodes = returns;
        }
        for c in &mut engine.callers {
            c.dedup();
        }
        engine.node_rank = engine.cfgs.iter().map(reverse_postorder).collect();
        engine.proc_rank = callees_first(&engine.cfgs, entry);
        engine.max_nodes = engine.cfgs.iter().map(|c| c.nodes.len()).max().unwrap_or(0);
        for (p, proc) in program.procs.iter().enumerate() {
            let dead: Vec<Vec<BddVariable>> = if !config.eliminate_dead_variables {
                vec![Vec::new(); engine.cfgs[p].nodes.len()]
            } else {
                let info = &engine.info[p];
                cfg::dead_locals(proc, &engine.cfgs[p])
                    .iter()
                    .map(|names| names.iter().map(|x| engine.var(info.resolve[x], CUR)).collect())
                    .collect()
            };
            engine.dead.push(dead);
        }
        let f = engine.enc.set.mk_false();
        for proc_cfg in &engine.cfgs {
            let n = proc_cfg.nodes.len();
            engine.path_edges.push(vec![f.clone(); n]);
            engine.pending.push(vec![f.clone(); n]);
            engine.history.push(vec![Vec::new(); n]);
            engine.queued.push(vec![false; n]);
            engine.summary.push(f.clone());
            engine.summary_history.push(Vec::new());
        }
        engine
    }

    fn eq(&self, a: BddVariable, b: BddVariable) -> Bdd {
        self.enc.set.mk_var(a).iff(&self.enc.set.mk_var(b))
    }

    fn var(&self, r: VarRef, copy: usize) -> BddVariable {
        match r {
            VarRef::Global(i) => self.enc.global[i][copy],
            VarRef::Local(i) => self.enc.local[i][copy],
        }
    }

    /// `(can be true, can be false)` over current copies.
    fn compile(&self, info: &ProcInfo, e: &Expr) -> (Bdd, Bdd) {
        let set = &self.enc.set;
        match e {
            Expr::Const(b) => {
                if *b {
                    (set.mk_true(), set.mk_false())
                } else {
                    (set.mk_false(), set.mk_true())
                }
            }
            Expr::Var(name) => {
                let v = self.var(info.resolve[name], CUR);
                (set.mk_var(v), set.mk_not_var(v))
            }
            Expr::Nondet => (set.mk_true(), set.mk_true()),
            Expr::Not(a) => {
                let (t, f) = self.compile(info, a);
                (f, t)
            }
            Expr::And(a, b) => {
                let (at, af) = self.compile(info, a);
                let (bt, bf) = self.compile(info, b);
                (at.and(&bt), af.or(&bf))
            }
            Expr::Or(a, b) => {
                let (at, af) = self.compile(info, a);
                let (bt, bf) = self.compile(info, b);
                (at.or(&bt), af.and(&bf))
            }
            Expr::Xor(a, b) => {
                let (at, af) = self.compile(info, a);
                let (bt, bf) = self.compile(info, b);
                (at.and(&bf).or(&af.and(&bt)), at.and(&bt).or(&af.and(&bf)))
            }
            Expr::Eq(a, b) => {
                let (at, af) = self.compile(info, a);
                let (bt, bf) = self.compile(info, b);
                (at.and(&bt).or(&af.and(&bf)), at.and(&bf).or(&af.and(&bt)))
            }
            Expr::Implies(a, b) => {
                let (at, af) = self.compile(info, a);
                let (bt, bf) = self.compile(info, b);
                (af.or(&bt), at.and(&bf))
            }
            Expr::Choose(pos, neg) => {
                let (pt, pf) = self.compile(info, pos);
                let (nt, nf) = self.compile(info, neg);
                (pt.or(&pf.and(&nf)), pf.and(&nt.or(&nf)))
            }
        }
    }

    /// `target` may take value true only where `can_true`, false only where `can_false`.
    fn choice(&self, target: BddVariable, possible: &(Bdd, Bdd)) -> Bdd {
        let t = self.enc.set.mk_var(target);
        t.imp(&possible.0).and(&t.not().imp(&possible.1))
    }

    fn compile_edge(&self, p: usize, action: &Action) -> CompiledEdge {
        let info = &self.info[p];
        match action {
            Action::Identity => CompiledEdge::Identity,
            Action::Filter(e, positive) => {
                let (t, f) = self.compile(info, e);
                CompiledEdge::Filter(if *positive { t } else { f })
            }
            Action::Assign(lhs, rhs) => {
                let lhs: Vec<VarRef> = lhs.iter().map(|n| info.resolve[n]).collect();
                let possible: Vec<(Bdd, Bdd)> = rhs.iter().map(|e| self.compile(info, e)).collect();
                let relation = Relation::new(&self.enc.set, lhs.iter().zip(&possible).map(|(x, pv)| self.choice(self.var(*x, NEXT), pv)));
                CompiledEdge::Assign { relation, lhs, possible }
            }
            Action::Call { lhs, callee, args } => {
                let q = callee.0 as usize;
                let bind = Relation::new(
                    &self.enc.set,
                    args.iter().enumerate().map(|(i, a)| self.choice(self.enc.local[i][NEXT], &self.compile(info, a))),
                );
                let lhs: Vec<VarRef> = lhs.iter().map(|n| info.resolve[n]).collect();
                let unchanged = self
                    .enc
                    .global
                    .iter()
                    .enumerate()
                    .filter(|(g, _)| !lhs.contains(&VarRef::Global(*g)))
                    .map(|(_, v)| self.eq(v[CUR], v[NEXT]));
                let assigned = lhs.iter().enumerate().map(|(j, x)| self.eq(self.var(*x, CUR), self.enc.ret[j]));
                let result = Relation::new(&self.enc.set, unchanged.chain(assigned));
                let lhs_locals_cur =
                    lhs.iter().filter_map(|x| if let VarRef::Local(i) = x { Some(self.enc.local[*i][CUR]) } else { None }).collect();
                CompiledEdge::Call { bind, callee: q, lhs, result, lhs_locals_cur }
            }
            Action::Return(values) => {
                let possible: Vec<(Bdd, Bdd)> = values.iter().map(|e| self.compile(info, e)).collect();
                let relation = Relation::new(&self.enc.set, possible.iter().enumerate().map(|(j, pv)| self.choice(self.enc.ret[j], pv)));
                CompiledEdge::Return { relation, possible }
            }
        }
    }

    /// `∃from. f ∧ (to ⇔ from)` for every pair: renames `from` to `to` (`to` must be free in `f`).
    fn rename(&self, f: &Bdd, pairs: &[(BddVariable, BddVariable)]) -> Bdd {
        if pairs.is_empty() {
            return f.clone();
        }
        let mut eqs = self.enc.set.mk_true();
        for (from, to) in pairs {
            eqs = eqs.and(&self.eq(*from, *to));
        }
        let froms: Vec<BddVariable> = pairs.iter().map(|(f, _)| *f).collect();
        rel_prod(f, &eqs, &froms)
    }

    /// Caller states after the call: `states` at the call node, bound to the callee's formals,
    /// joined with `summary` of `q`, results assigned.
    fn apply_summary(&self, states: &Bdd, bind: &Relation, q: usize, summary: &Bdd, result: &Relation, lhs_locals_cur: &[BddVariable]) -> Bdd {
        let kq = self.info[q].formals;
        let a = bind.and(states);
        let mut over: Vec<BddVariable> = self.global_cur.clone();
        over.extend((0..kq).map(|i| self.enc.local[i][NEXT]));
        let b = rel_prod(&a, summary, &over);
        let b1 = b.exists(lhs_locals_cur);
        let mut over2 = self.global_next.clone();
        over2.extend(self.enc.ret.iter().copied());
        result.image(&b1, &over2)
    }

    fn add(&mut self, p: usize, n: usize, states: &Bdd, tag: u32) {
        let s = states.and(&self.info[p].enforce);
        self.add_unenforced(p, n, &s, tag);
    }

    /// [`Engine::add`] without assuming `enforce`: for a call's return point, where the
    /// caller's predicates that the call changes are stale until the update right after the
    /// call (C2BP §4.5.3), so `enforce` may not hold yet.
    fn add_unenforced(&mut self, p: usize, n: usize, s: &Bdd, tag: u32) {
        let live = if self.dead[p][n].is_empty() { s.clone() } else { s.exists(&self.dead[p][n]) };
        let new = live.and_not(&self.path_edges[p][n]);
        if new.is_false() {
            return;
        }
        let before = self.path_edges[p][n].size() + self.pending[p][n].size();
        self.path_edges[p][n] = self.path_edges[p][n].or(&new);
        let size = self.path_edges[p][n].size();
        self.peak = self.peak.max(size);
        self.charged_nodes += size as u64;
        self.pending[p][n] = self.pending[p][n].or(&new);
        self.kept_nodes = (self.kept_nodes + size + self.pending[p][n].size() + new.size()).saturating_sub(before);
        self.history[p][n].push((tag, new));
        if !self.queued[p][n] {
            self.queued[p][n] = true;
            let rank = match self.order {
                Order::Ranked => self.proc_rank[p] * self.max_nodes + self.node_rank[p][n],
                Order::FirstCome => {
                    self.arrivals += 1;
                    self.arrivals
                }
            };
            self.queue.insert((rank, p, n));
        }
    }

    fn process(&mut self, p: usize, n: usize) -> Option<ErrorFound> {
        let delta = std::mem::replace(&mut self.pending[p][n], self.enc.set.mk_false());
        self.kept_nodes = self.kept_nodes.saturating_sub(delta.size());
        if delta.is_false() {
            return None;
        }
        if let Some(fail) = &self.assert_fail[p][n] {
            let bad = delta.and(fail);
            if let Some(state) = bad.sat_witness() {
                return Some(ErrorFound { proc: p, node: n, state, kind: StepKind::AssertFailed });
            }
        }
        if self.error_label[p][n] {
            if let Some(state) = delta.sat_witness() {
                return Some(ErrorFound { proc: p, node: n, state, kind: StepKind::ErrorLabel });
            }
        }
        let tag = self.step;
        let edges = std::mem::take(&mut self.edges[p][n]);
        for (k, edge) in edges.iter().enumerate() {
            let target = self.cfgs[p].nodes[n].edges[k].target;
            let image = match edge {
                CompiledEdge::Identity => Some(delta.clone()),
                CompiledEdge::Filter(f) => Some(delta.and(f)),
                CompiledEdge::Assign { relation, lhs, .. } => {
                    let cur: Vec<BddVariable> = lhs.iter().map(|x| self.var(*x, CUR)).collect();
                    let x = relation.image(&delta, &cur);
                    let pairs: Vec<(BddVariable, BddVariable)> =
                        lhs.iter().map(|x| (self.var(*x, NEXT), self.var(*x, CUR))).collect();
                    Some(self.rename(&x, &pairs))
                }
                CompiledEdge::Call { bind, callee, result, lhs_locals_cur, .. } => {
                    let q = *callee;
                    let kq = self.info[q].formals;
                    // Entry states of the callee.
                    let mut quantified = self.all_entry.clone();
                    quantified.extend(self.all_local_cur.iter().copied());
                    let x = bind.image(&delta, &quantified);
                    let pairs: Vec<(BddVariable, BddVariable)> =
                        (0..kq).map(|i| (self.enc.local[i][NEXT], self.enc.local[i][CUR])).collect();
                    let entry_states = self.rename(&x, &pairs).and(&self.info[q].initial);
                    let entry_node = self.cfgs[q].entry;
                    self.add(q, entry_node, &entry_states, tag);
                    // Apply the summary.
                    let summary = self.summary[q].clone();
                    Some(self.apply_summary(&delta, bind, q, &summary, result, lhs_locals_cur))
                }
                CompiledEdge::Return { relation, .. } => {
                    let kp = self.info[p].formals;
                    let s0 = relation.and(&delta);
                    let mut quantified = self.all_local_cur.clone();
                    quantified.extend(self.enc.local.iter().skip(kp).map(|v| v[ENTRY]));
                    let s1 = s0.exists(&quantified);
                    let to_next: Vec<_> = self.enc.global.iter().map(|v| (v[CUR], v[NEXT])).collect();
                    let s2 = self.rename(&s1, &to_next);
                    let to_cur: Vec<_> = self.enc.global.iter().map(|v| (v[ENTRY], v[CUR])).collect();
                    let s3 = self.rename(&s2, &to_cur);
                    let formals: Vec<_> = self.enc.local.iter().take(kp).map(|v| (v[ENTRY], v[NEXT])).collect();
                    let s4 = self.rename(&s3, &formals);
                    let new = s4.and_not(&self.summary[p]);
                    if !new.is_false() {
                        let before = self.summary[p].size();
                        self.summary[p] = self.summary[p].or(&new);
                        self.kept_nodes = (self.kept_nodes + self.summary[p].size() + new.size()).saturating_sub(before);
                        self.peak = self.peak.max(self.summary[p].size());
                        self.charged_nodes += self.summary[p].size() as u64;
                        self.summary_history[p].push((tag, new.clone()));
                        // Apply only the new summary part at every call site of `p`.
                        // Snapshot first: states added now at one call site (tag `tag`) must not feed
                        // another call site in the same step; they are queued and processed later.
                        let sites: Vec<(usize, usize, Bdd)> =
                            self.callers[p].iter().map(|&(cp, cn)| (cp, cn, self.path_edges[cp][cn].clone())).collect();
                        for (cp, cn, full) in sites {
                            if full.is_false() {
                                continue;
                            }
                            for (k, e) in self.cfgs[cp].nodes[cn].edges.clone().iter().enumerate() {
                                let Some(target) = e.target else { continue };
                                let image = match &self.edges[cp][cn].get(k) {
                                    Some(CompiledEdge::Call { bind, callee, result, lhs_locals_cur, .. }) if *callee == p => {
                                        Some(self.apply_summary(&full, bind, p, &new, result, lhs_locals_cur))
                                    }
                                    // The call node is the one being processed (direct recursion on a
                                    // return node cannot happen: return nodes have no call edge).
                                    _ => None,
                                };
                                if let Some(img) = image {
                                    self.add_unenforced(cp, target, &img, tag);
                                }
                            }
                        }
                    }
                    None
                }
            };
            if let (Some(img), Some(t)) = (image, target) {
                if matches!(edge, CompiledEdge::Call { .. }) {
                    self.add_unenforced(p, t, &img, tag);
                } else {
                    self.add(p, t, &img, tag);
                }
            }
        }
        self.edges[p][n] = edges;
        None
    }

    // ----- invariants -----

    fn invariants(&self, only: Option<&[Origin]>) -> Vec<Invariant> {
        let mut out = Vec::new();
        for (p, proc_cfg) in self.cfgs.iter().enumerate() {
            let info = &self.info[p];
            let mut names: HashMap<BddVariable, String> = HashMap::default();
            for (name, r) in &info.scope {
                names.insert(self.var(*r, CUR), name.clone());
            }
            let mut hidden: Vec<BddVariable> = self.all_entry.clone();
            for g in 0..self.enc.global.len() {
                if !info.scope.iter().any(|(_, r)| *r == VarRef::Global(g)) {
                    hidden.push(self.enc.global[g][CUR]);
                }
            }
            // consecutive statements often have the same reachable states: print each set once
            type Forms = (Vec<Vec<Literal>>, Option<Vec<Vec<Literal>>>);
            let mut seen: HashMap<Bdd, Forms> = HashMap::default();
            let literals = |clause: &BddPartialValuation, flip: bool| -> Vec<Literal> {
                let mut lits: Vec<(usize, Literal)> = clause
                    .to_values()
                    .into_iter()
                    .map(|(v, b)| {
                        let order = info.scope.iter().position(|(nm, _)| Some(nm) == names.get(&v)).unwrap_or(0);
                        (order, Literal { var: names.get(&v).cloned().unwrap_or_default(), value: b != flip })
                    })
                    .collect();
                lits.sort_by_key(|(o, _)| *o);
                lits.into_iter().map(|(_, l)| l).collect()
            };
            for (n, node) in proc_cfg.nodes.iter().enumerate() {
                let Some(stmt) = node.stmt else { continue };
                if let Some(only) = only {
                    if !info.origins[stmt.0 as usize].is_some_and(|o| only.contains(&o)) {
                        continue;
                    }
                }
                let projected = self.path_edges[p][n].exists(&hidden);
                let (cubes, clauses): Forms = if projected.is_false() {
                    (Vec::new(), None)
                } else if let Some(forms) = seen.get(&projected) {
                    forms.clone()
                } else {
                    // the minimised DNF reads best but costs far more on big state sets
                    let dnf = if projected.size() <= INVARIANT_MINIMISE_NODES { projected.to_optimized_dnf() } else { projected.to_dnf() };
                    let cubes: Vec<Vec<Literal>> = dnf.iter().map(|c| literals(c, false)).collect();
                    // independent constraints multiply DNF cubes (2^n for n two-literal
                    // clauses): offer the CNF (the negated DNF of the complement) when shorter
                    let clauses = if cubes.len() > CNF_WHEN_CUBES_EXCEED {
                        let complement = projected.not();
                        if complement.sat_clauses().take(cubes.len()).count() < cubes.len() {
                            let dnf = if complement.size() <= INVARIANT_MINIMISE_NODES { complement.to_optimized_dnf() } else { complement.to_dnf() };
                            let mut clauses: Vec<Vec<Literal>> = dnf.iter().map(|c| literals(c, true)).collect();
                            let order = |l: &Literal| info.scope.iter().position(|(nm, _)| *nm == l.var).unwrap_or(0);
                            clauses.sort_by_key(|c| c.iter().map(order).collect::<Vec<_>>());
                            Some(clauses)
                        } else {
                            None
                        }
                    } else {
                        None
                    };
                    seen.insert(projected, (cubes.clone(), clauses.clone()));
                    (cubes, clauses)
                };
                let text = match &clauses {
                    Some(clauses) => format_clauses(clauses),
                    None => format_cubes(&cubes),
                };
                out.push(Invariant {
                    proc: ProcId(p as u32),
                    stmt,
                    label: node.label.clone(),
                    origin: info.origins[stmt.0 as usize],
                    cubes,
                    clauses,
                    text,
                });
            }
        }
        out
    }

    // ----- counterexamples -----

    /// The values in `s` of `p`'s variables in scope, except those dead at node `at`.
    fn valuation(&self, p: usize, at: usize, s: &BddValuation) -> Vec<(String, bool)> {
        self.info[p]
            .scope
            .iter()
            .map(|(name, r)| (name, self.var(*r, CUR)))
            .filter(|(_, v)| !self.dead[p][at].contains(v))
            .map(|(name, v)| (name.clone(), s.value(v)))
            .collect()
    }

    /// Literals fixing the entry and current copies of `p`'s variables to `s`, except `skip_cur`.
    fn state_cube(&self, p: usize, s: &BddValuation, skip_cur: &[BddVariable], with_global_cur: bool) -> Bdd {
        let mut values = Vec::new();
        for g in &self.enc.global {
            values.push((g[ENTRY], s.value(g[ENTRY])));
            if with_global_cur && !skip_cur.contains(&g[CUR]) {
                values.push((g[CUR], s.value(g[CUR])));
            }
        }
        for l in self.enc.local.iter().take(self.info[p].slots) {
            values.push((l[ENTRY], s.value(l[ENTRY])));
            if !skip_cur.contains(&l[CUR]) {
                values.push((l[CUR], s.value(l[CUR])));
            }
        }
        self.enc.set.mk_conjunctive_clause(&BddPartialValuation::from_values(&values))
    }

    /// Whether `s` at `p`'s entry node is an initial state (formals dead there are free).
    fn is_initial(&self, p: usize, s: &BddValuation) -> bool {
        let dead = &self.dead[p][self.cfgs[p].entry];
        self.enc.global.iter().all(|g| s.value(g[ENTRY]) == s.value(g[CUR]))
            && self.enc.local.iter().take(self.info[p].formals).all(|l| dead.contains(&l[CUR]) || s.value(l[ENTRY]) == s.value(l[CUR]))
    }

    /// The summary of `q` as it was at step `t` (`None` when empty then).
    fn summary_at(&self, q: usize, t: u32) -> Option<Bdd> {
        let history = &self.summary_history[q];
        let last = history.partition_point(|(tag, _)| *tag <= t).checked_sub(1)?;
        let mut prefixes = self.summary_prefixes.borrow_mut();
        if let Some(known) = prefixes.get(&(q, last)) {
            return Some(known.clone());
        }
        // Start from the nearest computed prefix below, if any.
        let (mut summary, from) = (0..last)
            .rev()
            .find_map(|i| prefixes.get(&(q, i)).map(|b| (b.clone(), i + 1)))
            .unwrap_or_else(|| (self.enc.set.mk_false(), 0));
        for (_, part) in &history[from..=last] {
            summary = summary.or(part);
        }
        prefixes.insert((q, last), summary.clone());
        Some(summary)
    }

    /// The earliest history entry of `(p, n)` older than `before` meeting `pre`.
    fn earliest(&self, p: usize, n: usize, before: u32, pre: &Bdd) -> Option<(u32, BddValuation)> {
        for (tag, states) in &self.history[p][n] {
            if *tag >= before {
                break;
            }
            if let Some(w) = states.and(pre).sat_witness() {
                return Some((*tag, w));
            }
        }
        None
    }

    fn tag_of(&self, p: usize, n: usize, s: &BddValuation) -> u32 {
        let cube = self.state_cube(p, s, &[], true);
        self.earliest(p, n, u32::MAX, &cube).map(|(t, _)| t).unwrap_or(0)
    }

    /// The step of `p` at node `n`, leading to state `s` at node `at` of `scope`.
    fn step_for(&self, p: usize, n: usize, kind: StepKind, (scope, at): (usize, usize), s: &BddValuation) -> TraceStep {
        let stmt = self.cfgs[p].nodes[n].stmt;
        TraceStep {
            proc: ProcId(p as u32),
            stmt,
            origin: stmt.and_then(|s| self.info[p].origins[s.0 as usize]),
            kind,
            scope: ProcId(scope as u32),
            valuation: self.valuation(scope, at, s),
        }
    }

    /// The abstract counterexample to `error`; `stop` says why to give up (budget, cancel).
    fn trace(&self, entry: usize, error: ErrorFound, stop: &Stop) -> Result<Trace, String> {
        let tag = self.tag_of(error.proc, error.node, &error.state);
        let last = self.step_for(error.proc, error.node, error.kind, (error.proc, error.node), &error.state);
        // Walk back to the activation of error.proc, then up through the callers is not
        // needed: the error's procedure activation was entered from a call whose context we
        // recover by continuing the search in the caller (see `back_to_root`).
        let (mut steps, initial) = self.back_to_root(entry, error.proc, error.node, error.state, tag, stop)?;
        steps.push(last);
        let search = match self.order {
            Order::Ranked => TraceSearch::Ranked,
            Order::FirstCome => TraceSearch::BreadthFirst,
        };
        Ok(Trace { search, entry: ProcId(entry as u32), initial: self.valuation(entry, self.cfgs[entry].entry, &initial), steps })
    }

    /// Steps from the root activation to `(p, n, s)`; when `p`'s activation started from a call
    /// (not the root), continues in a caller whose call reaches that entry valuation.
    fn back_to_root(&self, root: usize, p: usize, n: usize, s: BddValuation, t: u32, stop: &Stop) -> Result<(Vec<TraceStep>, BddValuation), String> {
        let (steps, start, start_tag) = self.back_to_entry(p, n, s, t, stop)?;
        if p == root && start_tag == 0 {
            return Ok((steps, start));
        }
        // Find a call of `p` whose context produced this entry state before `start_tag`.
        let kp = self.info[p].formals;
        let mut best: Option<(u32, usize, usize, BddValuation)> = None;
        for &(cp, cn) in &self.callers[p] {
            for edge in &self.edges[cp][cn] {
                let CompiledEdge::Call { bind, callee, .. } = edge else { continue };
                if *callee != p {
                    continue;
                }
                let mut want = Vec::new();
                for g in &self.enc.global {
                    want.push((g[CUR], start.value(g[ENTRY])));
                }
                for i in 0..kp {
                    want.push((self.enc.local[i][NEXT], start.value(self.enc.local[i][ENTRY])));
                }
                let pre = bind.and(&self.enc.set.mk_conjunctive_clause(&BddPartialValuation::from_values(&want)));
                let limit = best.as_ref().map(|b| b.0).unwrap_or(u32::MAX).min(start_tag);
                if let Some((tag, w)) = self.earliest(cp, cn, limit, &pre) {
                    if best.as_ref().is_none_or(|b| tag < b.0) {
                        best = Some((tag, cp, cn, w));
                    }
                }
            }
        }
        let Some((tag, cp, cn, w)) = best else {
            return Err("no calling context found".to_string());
        };
        let (mut before, initial) = self.back_to_root(root, cp, cn, w, tag, stop)?;
        before.push(self.step_for(cp, cn, StepKind::Call { callee: ProcId(p as u32) }, (p, self.cfgs[p].entry), &start));
        before.extend(steps);
        Ok((before, initial))
    }

    /// Steps inside one activation of `p` from its entry to `(n, s)` (reached at time `t`),
    /// with the entry state and its time stamp.
    fn back_to_entry(&self, p: usize, n: usize, s: BddValuation, t: u32, stop: &Stop) -> Result<(Vec<TraceStep>, BddValuation, u32), String> {
        let mut rev: Vec<TraceStep> = Vec::new();
        let (mut n, mut s, mut t) = (n, s, t);
        let entry = self.cfgs[p].entry;
        loop {
            if let Some(reason) = stop() {
                return Err(reason);
            }
            if n == entry && self.is_initial(p, &s) {
                return Ok((rev.into_iter().rev().collect(), s, t));
            }
            // (tag, source node, edge index, predecessor state, call witness)
            let mut best: Option<(u32, usize, usize, BddValuation)> = None;
            for &(m, k) in &self.cfgs[p].preds[n] {
                let limit = best.as_ref().map(|b| b.0).unwrap_or(t).min(t);
                // The values of variables dead at `n` are arbitrary in `s`: no constraint but
                // `enforce` on the state after the step, whose unchanged variables are the
                // predecessor's (a dead one may be what `enforce` needs: `cfg::dead_locals`).
                let dead = &self.dead[p][n];
                let enforce = &self.info[p].enforce;
                let pre = match &self.edges[p][m][k] {
                    CompiledEdge::Identity => self.state_cube(p, &s, dead, true).and(enforce),
                    CompiledEdge::Filter(f) => self.state_cube(p, &s, dead, true).and(f).and(enforce),
                    CompiledEdge::Assign { lhs, possible, .. } if enforce.is_true() => {
                        let mut skip: Vec<BddVariable> = lhs.iter().map(|x| self.var(*x, CUR)).collect();
                        skip.extend(dead);
                        let mut pre = self.state_cube(p, &s, &skip, true);
                        for (x, pv) in lhs.iter().zip(possible) {
                            let v = self.var(*x, CUR);
                            if !dead.contains(&v) {
                                pre = pre.and(if s.value(v) { &pv.0 } else { &pv.1 });
                            }
                        }
                        pre
                    }
                    CompiledEdge::Assign { lhs, relation, .. } => {
                        // ∃ new values (the live ones `s`'s): relation ∧ enforce(new, unchanged)
                        let pairs: Vec<(BddVariable, BddVariable)> = lhs.iter().map(|x| (self.var(*x, CUR), self.var(*x, NEXT))).collect();
                        let mut skip: Vec<BddVariable> = pairs.iter().map(|(c, _)| *c).collect();
                        skip.extend(dead);
                        let new_values: Vec<(BddVariable, bool)> =
                            pairs.iter().filter(|(c, _)| !dead.contains(c)).map(|(c, n)| (*n, s.value(*c))).collect();
                        let after = self.rename(enforce, &pairs).and(&self.enc.set.mk_conjunctive_clause(&BddPartialValuation::from_values(&new_values)));
                        let next: Vec<BddVariable> = pairs.iter().map(|(_, n)| *n).collect();
                        relation.image(&self.state_cube(p, &s, &skip, true).and(&after), &next)
                    }
                    CompiledEdge::Call { bind, callee, lhs, .. } => {
                        let q = *callee;
                        let mut skip: Vec<BddVariable> =
                            lhs.iter().filter_map(|x| if let VarRef::Local(i) = x { Some(self.enc.local[*i][CUR]) } else { None }).collect();
                        skip.extend(dead);
                        let caller = self.state_cube(p, &s, &skip, false);
                        let mut result = Vec::new();
                        for (g, v) in self.enc.global.iter().enumerate() {
                            let value = s.value(v[CUR]);
                            match lhs.iter().position(|x| *x == VarRef::Global(g)) {
                                Some(j) => result.push((self.enc.ret[j], value)),
                                None => result.push((v[NEXT], value)),
                            }
                        }
                        for (j, x) in lhs.iter().enumerate() {
                            let v = self.var(*x, CUR);
                            if matches!(x, VarRef::Local(_)) && !dead.contains(&v) {
                                result.push((self.enc.ret[j], s.value(v)));
                            }
                        }
                        let result = self.enc.set.mk_conjunctive_clause(&BddPartialValuation::from_values(&result));
                        let Some(summary) = self.summary_at(q, t) else { continue };
                        // Arguments dead after the call are free in `caller`: conjoin the binding
                        // last, once the summary has fixed the callee's entry values.
                        bind.and(&caller.and(&result).and(&summary))
                    }
                    CompiledEdge::Return { .. } => continue,
                };
                if let Some((tag, w)) = self.earliest(p, m, limit, &pre) {
                    if best.as_ref().is_none_or(|b| tag < b.0) {
                        best = Some((tag, m, k, w));
                    }
                }
            }
            let Some((tag, m, k, w)) = best else {
                return Err(format!("no predecessor found in procedure {p} at node {n}"));
            };
            let edge_kind = self.cfgs[p].nodes[m].edges[k].kind;
            if let CompiledEdge::Call { callee, .. } = &self.edges[p][m][k] {
                let q = *callee;
                let (callee_steps, callee_start, ret_step) = self.callee_run((p, m, n), q, (&w, &s, t), stop)?;
                rev.push(ret_step);
                rev.extend(callee_steps.into_iter().rev());
                rev.push(self.step_for(p, m, StepKind::Call { callee: ProcId(q as u32) }, (q, self.cfgs[q].entry), &callee_start));
            } else {
                rev.push(self.step_for(p, m, edge_kind, (p, n), &s));
            }
            n = m;
            s = w;
            t = tag;
        }
    }

    /// The run of callee `q` called at `(p, m)` from caller state `w` (which also carries the
    /// callee's entry values in its next copies, exit globals and returned values) that returns
    /// to caller state `after` at node `n`: the callee's steps, its entry state and the return step.
    fn callee_run(
        &self,
        (p, m, n): (usize, usize, usize),
        q: usize,
        (w, after, t): (&BddValuation, &BddValuation, u32),
        stop: &Stop,
    ) -> Result<(Vec<TraceStep>, BddValuation, TraceStep), String> {
        let kq = self.info[q].formals;
        let mut want = Vec::new();
        for g in &self.enc.global {
            want.push((g[ENTRY], w.value(g[CUR])));
            want.push((g[CUR], w.value(g[NEXT])));
        }
        for i in 0..kq {
            want.push((self.enc.local[i][ENTRY], w.value(self.enc.local[i][NEXT])));
        }
        let base = self.enc.set.mk_conjunctive_clause(&BddPartialValuation::from_values(&want));
        let mut best: Option<(u32, usize, BddValuation)> = None;
        for &r in &self.info[q].return_nodes {
            for edge in &self.edges[q][r] {
                let CompiledEdge::Return { possible, .. } = edge else { continue };
                let mut pre = base.clone();
                for (j, pv) in possible.iter().enumerate() {
                    pre = pre.and(if w.value(self.enc.ret[j]) { &pv.0 } else { &pv.1 });
                }
                let limit = best.as_ref().map(|b| b.0).unwrap_or(t).min(t);
                if let Some((tag, sr)) = self.earliest(q, r, limit, &pre) {
                    if best.as_ref().is_none_or(|b| tag < b.0) {
                        best = Some((tag, r, sr));
                    }
                }
            }
        }
        let Some((tag, r, sr)) = best else {
            return Err(format!("no return of procedure {q} found"));
        };
        let (steps, start, _) = self.back_to_entry(q, r, sr, tag, stop)?;
        let ret_step = self.step_for(
            q,
            r,
            StepKind::Return { caller: ProcId(p as u32), call_stmt: self.cfgs[p].nodes[m].stmt.unwrap_or(StmtId(0)) },
            (p, n),
            after,
        );
        Ok((steps, start, ret_step))
    }
}

/// `(a || !b) && c`: a conjunction of clauses (`true` when empty).
pub(crate) fn format_clauses(clauses: &[Vec<Literal>]) -> String {
    if clauses.is_empty() {
        return "true".to_string();
    }
    let lit = |l: &Literal| if l.value { l.var.clone() } else { format!("!{}", l.var) };
    clauses
        .iter()
        .map(|c| match c.len() {
            0 => "false".to_string(),
            1 => lit(&c[0]),
            _ if clauses.len() == 1 => c.iter().map(lit).collect::<Vec<_>>().join(" || "),
            _ => format!("({})", c.iter().map(lit).collect::<Vec<_>>().join(" || ")),
        })
        .collect::<Vec<_>>()
        .join(" && ")
}

/// `a && b && (c || (d && e))`: literals shared by every cube first, then the rest.
pub(crate) fn format_cubes(cubes: &[Vec<Literal>]) -> String {
    if cubes.is_empty() {
        return "false".to_string();
    }
    let lit = |l: &Literal| if l.value { l.var.clone() } else { format!("!{}", l.var) };
    let common: Vec<&Literal> = cubes[0].iter().filter(|l| cubes.iter().all(|c| c.contains(l))).collect();
    let rest: Vec<Vec<&Literal>> = cubes.iter().map(|c| c.iter().filter(|l| !common.contains(l)).collect()).collect();
    let mut parts: Vec<String> = common.iter().map(|l| lit(l)).collect();
    if rest.iter().all(|c| !c.is_empty()) {
        let alts: Vec<String> = rest
            .iter()
            .map(|c| {
                let s = c.iter().map(|l| lit(l)).collect::<Vec<_>>().join(" && ");
                if c.len() > 1 && rest.len() > 1 {
                    format!("({s})")
                } else {
                    s
                }
            })
            .collect();
        if alts.len() > 1 && !parts.is_empty() {
            parts.push(format!("({})", alts.join(" || ")));
        } else {
            parts.push(alts.join(" || "));
        }
    }
    if parts.is_empty() {
        "true".to_string()
    } else {
        parts.join(" && ")
    }
}

/// Reverse postorder rank of each node from the entry (unreachable nodes after all others).
fn reverse_postorder(cfg: &ProcCfg) -> Vec<usize> {
    let n = cfg.nodes.len();
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(cfg.entry, 0usize)];
    seen[cfg.entry] = true;
    while let Some((v, k)) = stack.pop() {
        if let Some(t) = cfg.nodes[v].edges.get(k) {
            stack.push((v, k + 1));
            if let Some(t) = t.target.filter(|&t| !seen[t]) {
                seen[t] = true;
                stack.push((t, 0));
            }
        } else {
            post.push(v);
        }
    }
    let mut rank = vec![usize::MAX; n];
    for (i, v) in post.iter().rev().enumerate() {
        rank[*v] = i;
    }
    let mut next = post.len();
    for r in rank.iter_mut().filter(|r| **r == usize::MAX) {
        *r = next;
        next += 1;
    }
    rank
}

/// Postorder rank of each procedure in the call graph from `entry` (callees before callers).
fn callees_first(cfgs: &[ProcCfg], entry: usize) -> Vec<usize> {
    let calls: Vec<Vec<usize>> = cfgs
        .iter()
        .map(|c| c.nodes.iter().flat_map(|n| n.edges.iter()).filter_map(|e| if let Action::Call { callee, .. } = &e.action { Some(callee.0 as usize) } else { None }).collect())
        .collect();
    let mut rank = vec![usize::MAX; cfgs.len()];
    let mut seen = vec![false; cfgs.len()];
    let mut next = 0;
    for root in std::iter::once(entry).chain(0..cfgs.len()) {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, k)) = stack.pop() {
            if let Some(&t) = calls[v].get(k) {
                stack.push((v, k + 1));
                if !seen[t] {
                    seen[t] = true;
                    stack.push((t, 0));
                }
            } else {
                rank[v] = next;
                next += 1;
            }
        }
    }
    rank
}
