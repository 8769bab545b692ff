//! Explicit-state simulation and search of boolean programs (tiny, for tests): replays traces and decides reachability by breadth-first search.

use std::collections::VecDeque;
use budget::hash::{HashMap, HashSet};

use boolprog::{Expr, ProcId, Program, StmtId};

use crate::cfg::{self, Action, ProcCfg};
use crate::{StepKind, Trace};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Frame {
    proc: usize,
    node: usize,
    locals: Vec<bool>,
}

/// One configuration: global values and the call stack (last = running).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    globals: Vec<bool>,
    stack: Vec<Frame>,
}

struct Machine<'a> {
    program: &'a Program,
    cfgs: Vec<ProcCfg>,
    /// Per procedure: name -> (is_local, index).
    resolve: Vec<HashMap<String, (bool, usize)>>,
}

/// What an explicit search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchResult {
    ErrorReachable,
    Safe,
    /// The bound on configurations or stack depth was hit before a verdict.
    Unknown,
}

fn all_valuations(n: usize) -> Vec<Vec<bool>> {
    (0..1u64 << n).map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect()).collect()
}

/// All combinations of values that the expressions can take (three-valued `*`/`choose`).
fn combos(exprs: &[Expr], lookup: &impl Fn(&str) -> bool) -> Vec<Vec<bool>> {
    let mut out = vec![Vec::new()];
    for e in exprs {
        let (t, f) = e.possible_values(lookup);
        let mut next = Vec::new();
        for prefix in &out {
            for (ok, v) in [(f, false), (t, true)] {
                if ok {
                    let mut p = prefix.clone();
                    p.push(v);
                    next.push(p);
                }
            }
        }
        out = next;
    }
    out
}

impl<'a> Machine<'a> {
    fn new(program: &'a Program) -> Machine<'a> {
        let resolve = program
            .procs
            .iter()
            .map(|p| {
                let mut m = HashMap::default();
                for (i, g) in program.globals.iter().enumerate() {
                    m.insert(g.name.clone(), (false, i));
                }
                for (i, l) in p.local_names().enumerate() {
                    m.insert(l.clone(), (true, i));
                }
                m
            })
            .collect();
        Machine { program, cfgs: cfg::build(program), resolve }
    }

    fn value(&self, state: &State, name: &str) -> bool {
        let frame = state.stack.last().expect("running frame");
        match self.resolve[frame.proc][name] {
            (true, i) => frame.locals[i],
            (false, i) => state.globals[i],
        }
    }

    fn set(&self, state: &mut State, name: &str, v: bool) {
        let frame = state.stack.last_mut().expect("running frame");
        match self.resolve[frame.proc][name] {
            (true, i) => frame.locals[i] = v,
            (false, i) => state.globals[i] = v,
        }
    }

    fn holds_enforce(&self, state: &State) -> bool {
        let frame = state.stack.last().expect("running frame");
        match &self.program.procs[frame.proc].enforce {
            Some(e) => e.possible_values(&|n| self.value(state, n)).0,
            None => true,
        }
    }

    fn initial_states(&self, entry: usize) -> Vec<State> {
        let proc = &self.program.procs[entry];
        let nl = proc.formals.len() + proc.locals.len();
        let mut out = Vec::new();
        for g in all_valuations(self.program.globals.len()) {
            for l in all_valuations(nl) {
                let s = State { globals: g.clone(), stack: vec![Frame { proc: entry, node: self.cfgs[entry].entry, locals: l }] };
                if self.holds_enforce(&s) {
                    out.push(s);
                }
            }
        }
        out
    }

    /// The running statement's assert can fail here (or an error label is reached).
    fn is_error(&self, state: &State, error_labels: &[String]) -> bool {
        let Some(frame) = state.stack.last() else { return false };
        let node = &self.cfgs[frame.proc].nodes[frame.node];
        if node.label.as_ref().is_some_and(|l| error_labels.contains(l)) {
            return true;
        }
        match &node.assert {
            Some(e) => e.possible_values(&|n| self.value(state, n)).1,
            None => false,
        }
    }

    /// Every successor with the kind of step that produced it.
    fn successors(&self, state: &State) -> Vec<(StepKind, State)> {
        let mut out = Vec::new();
        let Some(frame) = state.stack.last() else { return out };
        let node = &self.cfgs[frame.proc].nodes[frame.node];
        let lookup = |n: &str| self.value(state, n);
        for edge in &node.edges {
            match &edge.action {
                Action::Identity => {
                    let mut s = state.clone();
                    s.stack.last_mut().expect("frame").node = edge.target.expect("target");
                    out.push((edge.kind, s));
                }
                Action::Filter(e, positive) => {
                    let (t, f) = e.possible_values(&lookup);
                    if (*positive && t) || (!*positive && f) {
                        let mut s = state.clone();
                        s.stack.last_mut().expect("frame").node = edge.target.expect("target");
                        out.push((edge.kind, s));
                    }
                }
                Action::Assign(lhs, rhs) => {
                    for values in combos(rhs, &lookup) {
                        let mut s = state.clone();
                        for (x, v) in lhs.iter().zip(values) {
                            self.set(&mut s, x, v);
                        }
                        s.stack.last_mut().expect("frame").node = edge.target.expect("target");
                        out.push((edge.kind, s));
                    }
                }
                Action::Call { callee, args, .. } => {
                    let q = callee.0 as usize;
                    let proc = &self.program.procs[q];
                    for values in combos(args, &lookup) {
                        for rest in all_valuations(proc.locals.len()) {
                            let mut locals = values.clone();
                            locals.extend(rest);
                            let mut s = state.clone();
                            s.stack.push(Frame { proc: q, node: self.cfgs[q].entry, locals });
                            out.push((edge.kind, s));
                        }
                    }
                }
                Action::Return(values) => {
                    for vals in combos(values, &lookup) {
                        let mut s = state.clone();
                        s.stack.pop();
                        let Some(caller) = s.stack.last() else {
                            continue; // the program ends
                        };
                        let (cp, cn) = (caller.proc, caller.node);
                        let call_edge = &self.cfgs[cp].nodes[cn].edges[0];
                        let Action::Call { lhs, .. } = &call_edge.action else { continue };
                        for (x, v) in lhs.iter().zip(&vals) {
                            self.set(&mut s, x, *v);
                        }
                        s.stack.last_mut().expect("frame").node = call_edge.target.expect("target");
                        let stmt = self.cfgs[cp].nodes[cn].stmt.unwrap_or(StmtId(0));
                        out.push((StepKind::Return { caller: ProcId(cp as u32), call_stmt: stmt }, s));
                    }
                }
            }
        }
        // `enforce` is not assumed at a call's return point: the caller's predicates that the
        // call changes are stale until the update right after the call (C2BP §4.5.3)
        out.retain(|(kind, s)| matches!(kind, StepKind::Return { .. }) || self.holds_enforce(s));
        out
    }

    fn visible(&self, state: &State) -> Vec<(String, bool)> {
        let frame = state.stack.last().expect("frame");
        let proc = &self.program.procs[frame.proc];
        let mut out: Vec<(String, bool)> = self
            .program
            .globals
            .iter()
            .enumerate()
            .filter(|(_, g)| !proc.local_names().any(|l| *l == g.name))
            .map(|(i, g)| (g.name.clone(), state.globals[i]))
            .collect();
        out.extend(proc.local_names().cloned().zip(frame.locals.iter().copied()));
        out
    }
}

/// Breadth-first search for a failing assert from `main` (or the first procedure), visiting at
/// most `max_states` configurations with call stacks of at most `max_stack` frames.
pub fn search(program: &Program, max_states: usize, max_stack: usize) -> SearchResult {
    search_with_error_labels(program, max_states, max_stack, &[])
}

/// [`search`], also treating statements labelled with one of `error_labels` as errors.
pub fn search_with_error_labels(program: &Program, max_states: usize, max_stack: usize, error_labels: &[String]) -> SearchResult {
    if diagnostics::has_errors(&boolprog::validate(program)) {
        return SearchResult::Unknown;
    }
    let Some(entry) = program.entry_proc() else { return SearchResult::Unknown };
    let machine = Machine::new(program);
    let mut seen: HashSet<State> = HashSet::default();
    let mut queue: VecDeque<State> = VecDeque::new();
    for s in machine.initial_states(entry.0 as usize) {
        if seen.insert(s.clone()) {
            queue.push_back(s);
        }
    }
    let mut truncated = false;
    while let Some(s) = queue.pop_front() {
        if machine.is_error(&s, error_labels) {
            return SearchResult::ErrorReachable;
        }
        for (_, next) in machine.successors(&s) {
            if next.stack.len() > max_stack {
                truncated = true;
                continue;
            }
            if seen.len() >= max_states {
                return SearchResult::Unknown;
            }
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    if truncated {
        SearchResult::Unknown
    } else {
        SearchResult::Safe
    }
}

/// Replays `trace` step by step: every step must be a legal transition (same statement, kind
/// and resulting valuation, on the variables the trace lists: dead ones are left out) and the
/// last one must reach the error. Returns why it is not.
pub fn replay(program: &Program, trace: &Trace) -> Result<(), String> {
    replay_with_error_labels(program, trace, &[])
}

/// [`replay`] where statements labelled with one of `error_labels` are errors too.
pub fn replay_with_error_labels(program: &Program, trace: &Trace, error_labels: &[String]) -> Result<(), String> {
    let machine = Machine::new(program);
    let entry = trace.entry.0 as usize;
    let mut current: Vec<State> =
        machine.initial_states(entry).into_iter().filter(|s| agrees(&machine.visible(s), &trace.initial)).collect();
    if current.is_empty() {
        return Err("the initial valuation is not an initial state".to_string());
    }
    for (i, step) in trace.steps.iter().enumerate() {
        // Every candidate state must be at the step's statement.
        current.retain(|s| {
            let f = s.stack.last().expect("frame");
            f.proc == step.proc.0 as usize && machine.cfgs[f.proc].nodes[f.node].stmt == step.stmt
        });
        if current.is_empty() {
            return Err(format!("step {i}: not at statement {:?} of procedure {:?}", step.stmt, step.proc));
        }
        if matches!(step.kind, StepKind::AssertFailed | StepKind::ErrorLabel) {
            if i + 1 != trace.steps.len() {
                return Err(format!("step {i}: error step before the end"));
            }
            return if current.iter().any(|s| machine.is_error(s, error_labels) && agrees(&machine.visible(s), &step.valuation)) {
                Ok(())
            } else {
                Err(format!("step {i}: the assertion cannot fail here"))
            };
        }
        let mut next = Vec::new();
        for s in &current {
            for (kind, succ) in machine.successors(s) {
                if kind == step.kind && agrees(&machine.visible(&succ), &step.valuation) && !next.contains(&succ) {
                    next.push(succ);
                }
            }
        }
        if next.is_empty() {
            return Err(format!("step {i}: no transition of kind {:?} gives valuation {:?}", step.kind, step.valuation));
        }
        current = next;
    }
    Err("the trace does not end in an error".to_string())
}

/// Whether the full valuation `visible` gives every listed variable its listed value.
fn agrees(visible: &[(String, bool)], listed: &[(String, bool)]) -> bool {
    listed.iter().all(|l| visible.contains(l))
}

/// Visible valuations reached before each statement.
pub type ReachableSets = HashMap<(ProcId, StmtId), HashSet<Vec<(String, bool)>>>;

/// The visible valuations (in the order of [`crate::TraceStep::valuation`]) reachable before
/// every statement, by exhaustive search; `None` when the bounds were hit or an assert can fail.
pub fn reachable_valuations(
    program: &Program,
    max_states: usize,
    max_stack: usize,
) -> Option<ReachableSets> {
    if diagnostics::has_errors(&boolprog::validate(program)) {
        return None;
    }
    let entry = program.entry_proc()?;
    let machine = Machine::new(program);
    let mut seen: HashSet<State> = HashSet::default();
    let mut queue: VecDeque<State> = VecDeque::new();
    for s in machine.initial_states(entry.0 as usize) {
        if seen.insert(s.clone()) {
            queue.push_back(s);
        }
    }
    let mut out: ReachableSets = HashMap::default();
    while let Some(s) = queue.pop_front() {
        if machine.is_error(&s, &[]) {
            return None;
        }
        let frame = s.stack.last().expect("frame");
        if let Some(stmt) = machine.cfgs[frame.proc].nodes[frame.node].stmt {
            out.entry((ProcId(frame.proc as u32), stmt)).or_default().insert(machine.visible(&s));
        }
        for (_, next) in machine.successors(&s) {
            if next.stack.len() > max_stack || seen.len() >= max_states {
                return None;
            }
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    Some(out)
}
