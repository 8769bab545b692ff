//! Control-flow graphs of boolean procedures: one node per statement (numbered like `StmtId`) plus an implicit-return node.

use budget::hash::HashMap;

use boolprog::{statements_in_order, Expr, ProcId, Procedure, Program, Stmt, StmtId, StmtKind};

use crate::StepKind;

/// What an edge does to the state.
#[derive(Clone, Debug)]
pub enum Action {
    Identity,
    /// Keeps the states where the condition can be true (`true`) or can be false (`false`).
    Filter(Expr, bool),
    Assign(Vec<String>, Vec<Expr>),
    Call { lhs: Vec<String>, callee: ProcId, args: Vec<Expr> },
    /// Leaves the procedure with these values (an implicit return has `*` values).
    Return(Vec<Expr>),
}

#[derive(Clone, Debug)]
pub struct Edge {
    pub action: Action,
    /// `None` for returns.
    pub target: Option<usize>,
    pub kind: StepKind,
}

#[derive(Clone, Debug)]
pub struct Node {
    /// `None` for the implicit return at the end of the body.
    pub stmt: Option<StmtId>,
    pub edges: Vec<Edge>,
    /// The condition of an `assert` at this node.
    pub assert: Option<Expr>,
    pub label: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ProcCfg {
    pub nodes: Vec<Node>,
    pub entry: usize,
    /// Predecessor edges of every node: `(source node, edge index)`.
    pub preds: Vec<Vec<(usize, usize)>>,
}

/// One CFG per procedure, in program order. Expects a program without validation errors.
pub fn build(program: &Program) -> Vec<ProcCfg> {
    program.procs.iter().map(|p| build_proc(program, p)).collect()
}

fn size(stmt: &Stmt) -> usize {
    1 + match &stmt.kind {
        StmtKind::If { then_branch, else_branch, .. } => {
            then_branch.iter().map(size).sum::<usize>() + else_branch.iter().map(size).sum::<usize>()
        }
        StmtKind::While { body, .. } => body.iter().map(size).sum::<usize>(),
        _ => 0,
    }
}

fn build_proc(program: &Program, proc: &Procedure) -> ProcCfg {
    let stmts = statements_in_order(&proc.body);
    let n = stmts.len();
    let mut labels = HashMap::default();
    for (i, s) in stmts.iter().enumerate() {
        if let Some(l) = &s.label {
            labels.entry(l.clone()).or_insert(i);
        }
    }
    let mut nodes: Vec<Node> = stmts
        .iter()
        .enumerate()
        .map(|(i, s)| Node { stmt: Some(StmtId(i as u32)), edges: Vec::new(), assert: None, label: s.label.clone() })
        .collect();
    nodes.push(Node {
        stmt: None,
        edges: vec![Edge {
            action: Action::Return(vec![Expr::Nondet; proc.returns]),
            target: None,
            kind: StepKind::Return { caller: ProcId(0), call_stmt: StmtId(0) },
        }],
        assert: None,
        label: None,
    });
    let mut ctx = Builder { program, nodes, labels };
    ctx.block(&proc.body, 0, n);
    let mut preds = vec![Vec::new(); ctx.nodes.len()];
    for (m, node) in ctx.nodes.iter().enumerate() {
        for (k, e) in node.edges.iter().enumerate() {
            if let Some(t) = e.target {
                preds[t].push((m, k));
            }
        }
    }
    ProcCfg { nodes: ctx.nodes, entry: 0, preds }
}

struct Builder<'a> {
    program: &'a Program,
    nodes: Vec<Node>,
    labels: HashMap<String, usize>,
}

impl Builder<'_> {
    fn edge(&mut self, node: usize, action: Action, target: Option<usize>, kind: StepKind) {
        self.nodes[node].edges.push(Edge { action, target, kind });
    }

    fn block(&mut self, body: &[Stmt], start: usize, next: usize) {
        let mut id = start;
        for (k, stmt) in body.iter().enumerate() {
            let after = if k + 1 < body.len() { id + size(stmt) } else { next };
            match &stmt.kind {
                StmtKind::Skip => self.edge(id, Action::Identity, Some(after), StepKind::Normal),
                StmtKind::Assign { lhs, rhs } => {
                    self.edge(id, Action::Assign(lhs.clone(), rhs.clone()), Some(after), StepKind::Normal)
                }
                StmtKind::Assume(e) => self.edge(id, Action::Filter(e.clone(), true), Some(after), StepKind::Assume),
                StmtKind::Assert(e) => {
                    self.nodes[id].assert = Some(e.clone());
                    self.edge(id, Action::Filter(e.clone(), true), Some(after), StepKind::AssertPassed)
                }
                StmtKind::Goto(targets) => {
                    for t in targets {
                        let target = self.labels.get(t).copied().unwrap_or(after);
                        self.edge(id, Action::Identity, Some(target), StepKind::Goto);
                    }
                }
                StmtKind::If { cond, then_branch, else_branch } => {
                    let then_size: usize = then_branch.iter().map(size).sum();
                    let then_target = if then_branch.is_empty() { after } else { id + 1 };
                    let else_target = if else_branch.is_empty() { after } else { id + 1 + then_size };
                    self.edge(id, Action::Filter(cond.clone(), true), Some(then_target), StepKind::BranchThen);
                    self.edge(id, Action::Filter(cond.clone(), false), Some(else_target), StepKind::BranchElse);
                    self.block(then_branch, id + 1, after);
                    self.block(else_branch, id + 1 + then_size, after);
                }
                StmtKind::While { cond, body } => {
                    let body_target = if body.is_empty() { id } else { id + 1 };
                    self.edge(id, Action::Filter(cond.clone(), true), Some(body_target), StepKind::LoopEnter);
                    self.edge(id, Action::Filter(cond.clone(), false), Some(after), StepKind::LoopExit);
                    self.block(body, id + 1, id);
                }
                StmtKind::Call { lhs, callee, args } => {
                    let callee_id = self.program.proc_by_name(callee).map(|(i, _)| i).unwrap_or(ProcId(0));
                    self.edge(
                        id,
                        Action::Call { lhs: lhs.clone(), callee: callee_id, args: args.clone() },
                        Some(after),
                        StepKind::Call { callee: callee_id },
                    )
                }
                StmtKind::Return(values) => self.edge(
                    id,
                    Action::Return(values.clone()),
                    None,
                    StepKind::Return { caller: ProcId(0), call_stmt: StmtId(0) },
                ),
            }
            id += size(stmt);
        }
    }
}

/// The locals of `proc` that are dead before each node of `cfg` (by node): every path from the
/// node assigns them before reading them, or leaves the procedure without reading them. Reads
/// are the right-hand sides, conditions, asserts, call arguments and returned values, and
/// `enforce` (C2BP §5.1): it is re-imposed on the state after every assignment, so an
/// assignment to `q` reads every local that shares a conjunct of `enforce` with `q` (and is not
/// assigned with it). `{k.limit - k.value < 5}`, never read by a statement, still keeps
/// `{k.value + d > k.limit}` false when `d := *` is followed by `assume(d <= 5)`; quantified
/// out, it would leave a valuation no C state has, and the abstract counterexample through it
/// one that refinement cannot explain. With these reads, quantifying the dead locals out of a
/// set of states commutes with every step, so the live part of each reachable set is exact.
/// Globals are never dead (their uses are interprocedural).
pub fn dead_locals(proc: &Procedure, cfg: &ProcCfg) -> Vec<Vec<String>> {
    let names: Vec<&String> = proc.local_names().collect();
    let index = |name: &str| names.iter().position(|n| n.as_str() == name);
    let partners = enforce_partners(proc, cfg, &names);
    let reads = |e: &Expr, set: &mut Vec<bool>| {
        for v in e.variables() {
            if let Some(i) = index(v) {
                set[i] = true;
            }
        }
    };
    let mut live: Vec<Vec<bool>> = vec![vec![false; names.len()]; cfg.nodes.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for n in (0..cfg.nodes.len()).rev() {
            let node = &cfg.nodes[n];
            let mut now = vec![false; names.len()];
            if let Some(a) = &node.assert {
                reads(a, &mut now);
            }
            for edge in &node.edges {
                let mut after = edge.target.map(|t| live[t].clone()).unwrap_or_else(|| vec![false; names.len()]);
                match &edge.action {
                    Action::Identity => {}
                    Action::Filter(e, _) => reads(e, &mut after),
                    // the assigned locals die, then the right-hand sides (arguments) are read
                    Action::Assign(lhs, read) | Action::Call { lhs, args: read, .. } => {
                        let assigned: Vec<usize> = lhs.iter().filter_map(|x| index(x)).collect();
                        for &i in &assigned {
                            after[i] = false;
                        }
                        read.iter().for_each(|e| reads(e, &mut after));
                        // `enforce` ties the new values to the partners' current ones
                        for &i in &assigned {
                            for &j in &partners.of[i] {
                                after[j] |= !assigned.contains(&j);
                            }
                        }
                    }
                    Action::Return(values) => values.iter().for_each(|e| reads(e, &mut after)),
                }
                for (x, a) in now.iter_mut().zip(after) {
                    *x |= a;
                }
            }
            if now != live[n] {
                live[n] = now;
                changed = true;
            }
        }
    }
    live.iter()
        .map(|l| names.iter().zip(l).enumerate().filter(|(i, (_, live))| !**live && !partners.always[*i]).map(|(_, (n, _))| (*n).clone()).collect())
        .collect()
}

/// The locals `enforce` reads, by position in the procedure's local names.
struct EnforcePartners {
    /// The other locals that occur with each local in a conjunct of `enforce`.
    of: Vec<Vec<usize>>,
    /// Locals never dead: those in a conjunct with a global (a call may change the global, and
    /// `enforce` holds again after the next step), and the partners of a call's assigned locals
    /// (assigned at the return point without `enforce`, which the next step imposes).
    always: Vec<bool>,
}

fn enforce_partners(proc: &Procedure, cfg: &ProcCfg, names: &[&String]) -> EnforcePartners {
    let mut partners = EnforcePartners { of: vec![Vec::new(); names.len()], always: vec![false; names.len()] };
    let Some(enforce) = &proc.enforce else { return partners };
    let mut conjuncts = Vec::new();
    let mut stack = vec![enforce];
    while let Some(e) = stack.pop() {
        match e {
            Expr::And(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            other => conjuncts.push(other),
        }
    }
    for conjunct in conjuncts {
        let variables = conjunct.variables();
        let locals: Vec<usize> = variables.iter().filter_map(|v| names.iter().position(|n| n.as_str() == *v)).collect();
        if locals.len() < variables.len() {
            locals.iter().for_each(|&i| partners.always[i] = true);
        }
        for &i in &locals {
            for &j in &locals {
                if i != j && !partners.of[i].contains(&j) {
                    partners.of[i].push(j);
                }
            }
        }
    }
    for edge in cfg.nodes.iter().flat_map(|n| &n.edges) {
        if let Action::Call { lhs, .. } = &edge.action {
            for i in lhs.iter().filter_map(|x| names.iter().position(|n| n == &x)) {
                for j in partners.of[i].clone() {
                    partners.always[j] = true;
                }
            }
        }
    }
    partners
}
