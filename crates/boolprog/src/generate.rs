//! Generated boolean programs: a seeded random generator of well-formed programs (globals,
//! procedures with formals, locals and return values, calls with or without recursion,
//! conditionals, loops, gotos, `assert`s) for the model checker's differential tests and the
//! engine benchmarks (`bench-wasm`).

use crate::{Expr, Procedure, Program, Stmt, StmtKind, VarDecl};

/// Shape of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorParams {
    pub globals: usize,
    /// Procedures besides `main`.
    pub procs: usize,
    /// Locals per procedure (formals come on top: 0 to 2).
    pub locals: usize,
    /// Roughly the number of statements per procedure.
    pub statements: usize,
    /// Allow calls to any procedure (recursion); otherwise only to later ones.
    pub recursion: bool,
    /// Generate `assert`s (without them every program is safe and the whole state space is explored).
    pub asserts: bool,
    pub seed: u64,
}

/// A small deterministic generator (xorshift64*), so no `rand` dependency is needed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

struct Gen<'a> {
    rng: Rng,
    params: &'a GeneratorParams,
    /// (name, formals, returns) of every procedure, `main` first.
    signatures: Vec<(String, usize, usize)>,
}

/// A random valid boolean program: `main` plus `params.procs` procedures, with assignments,
/// `*`/`choose`, conditionals, loops, gotos, assumes, asserts, calls and multiple returns.
pub fn random_program(params: &GeneratorParams) -> Program {
    let mut rng = Rng::new(params.seed);
    let mut signatures = vec![("main".to_string(), 0, 0)];
    for i in 0..params.procs {
        signatures.push((format!("p{i}"), rng.below(3), rng.below(3)));
    }
    let mut gen = Gen { rng, params, signatures };
    let globals = (0..params.globals).map(|i| VarDecl::new(format!("g{i}"))).collect();
    let procs = (0..=params.procs).map(|i| gen.procedure(i)).collect();
    Program { globals, procs }
}

impl Gen<'_> {
    fn procedure(&mut self, index: usize) -> Procedure {
        let (name, formals, returns) = self.signatures[index].clone();
        let mut proc = Procedure::new(name);
        proc.formals = (0..formals).map(|i| format!("f{i}")).collect();
        proc.locals = (0..self.params.locals).map(|i| format!("l{i}")).collect();
        proc.returns = returns;
        let mut scope: Vec<String> = (0..self.params.globals).map(|i| format!("g{i}")).collect();
        scope.extend(proc.local_names().cloned());
        if !scope.is_empty() && self.rng.chance(10) {
            let e = self.expr(&scope, 1);
            proc.enforce = Some(Expr::or(e, Expr::var(scope[self.rng.below(scope.len())].clone())));
        }
        let mut budget = self.params.statements.max(1);
        let mut body = self.block(index, &scope, 0, &mut budget);
        if returns > 0 || self.rng.chance(30) {
            let values = (0..returns).map(|_| self.expr(&scope, 1)).collect();
            body.push(Stmt::ret(values));
        }
        // Labels and gotos.
        let count = crate::statements_in_order(&body).len();
        if count >= 3 {
            let labels: Vec<usize> = (0..1 + self.rng.below(2)).map(|_| self.rng.below(count)).collect();
            let mut names = Vec::new();
            label_statements(&mut body, &labels, &mut 0, &mut names);
            if !names.is_empty() {
                let rng = &mut self.rng;
                gotos_for_skips(&mut body, &names, rng);
            }
        }
        proc.body = body;
        proc
    }

    fn block(&mut self, index: usize, scope: &[String], depth: usize, budget: &mut usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let len = 1 + self.rng.below(if depth == 0 { (*budget).max(1) } else { 4 });
        for _ in 0..len {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            out.push(self.statement(index, scope, depth, budget));
        }
        out
    }

    fn statement(&mut self, index: usize, scope: &[String], depth: usize, budget: &mut usize) -> Stmt {
        let roll = self.rng.below(100);
        let callable: Vec<usize> = (1..self.signatures.len())
            .filter(|&j| if self.params.recursion { true } else { j > index })
            .collect();
        if scope.is_empty() {
            return Stmt::skip();
        }
        match roll {
            0..=34 => {
                let k = 1 + self.rng.below(2.min(scope.len()));
                let lhs = self.distinct(scope, k);
                let rhs = (0..lhs.len()).map(|_| self.expr(scope, 2)).collect();
                Stmt::assign(lhs, rhs)
            }
            35..=47 if depth < 3 => {
                let cond = if self.rng.chance(50) { Expr::Nondet } else { self.expr(scope, 1) };
                let then_branch = self.block(index, scope, depth + 1, budget);
                let else_branch = if self.rng.chance(50) { self.block(index, scope, depth + 1, budget) } else { Vec::new() };
                Stmt::if_then_else(cond, then_branch, else_branch)
            }
            48..=55 if depth < 3 => {
                let cond = if self.rng.chance(60) { Expr::Nondet } else { self.expr(scope, 1) };
                let body = self.block(index, scope, depth + 1, budget);
                Stmt::while_loop(cond, body)
            }
            56..=62 => Stmt::assume(self.expr(scope, 1)),
            63..=69 if self.params.asserts => Stmt::assert(self.expr(scope, 2)),
            70..=84 if !callable.is_empty() => {
                let j = callable[self.rng.below(callable.len())];
                let (name, formals, returns) = self.signatures[j].clone();
                let args = (0..formals).map(|_| self.expr(scope, 1)).collect();
                let lhs = if returns > 0 && returns <= scope.len() && self.rng.chance(80) {
                    self.distinct(scope, returns)
                } else {
                    Vec::new()
                };
                Stmt::call(lhs, name, args)
            }
            _ => Stmt::skip(),
        }
    }

    fn distinct(&mut self, scope: &[String], k: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        while out.len() < k {
            let v = scope[self.rng.below(scope.len())].clone();
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    fn expr(&mut self, scope: &[String], depth: usize) -> Expr {
        let roll = self.rng.below(100);
        if depth == 0 || roll < 45 {
            return match self.rng.below(20) {
                0 => Expr::Const(self.rng.chance(50)),
                1 => Expr::Nondet,
                _ => Expr::var(scope[self.rng.below(scope.len())].clone()),
            };
        }
        let a = self.expr(scope, depth - 1);
        match roll {
            45..=54 => Expr::Not(Box::new(a)),
            55..=66 => Expr::And(Box::new(a), Box::new(self.expr(scope, depth - 1))),
            67..=78 => Expr::Or(Box::new(a), Box::new(self.expr(scope, depth - 1))),
            79..=84 => Expr::Xor(Box::new(a), Box::new(self.expr(scope, depth - 1))),
            85..=90 => Expr::Eq(Box::new(a), Box::new(self.expr(scope, depth - 1))),
            91..=94 => Expr::Implies(Box::new(a), Box::new(self.expr(scope, depth - 1))),
            _ => Expr::Choose(Box::new(a), Box::new(self.expr(scope, depth - 1))),
        }
    }
}

fn label_statements(body: &mut [Stmt], chosen: &[usize], counter: &mut usize, names: &mut Vec<String>) {
    for stmt in body {
        if chosen.contains(counter) && stmt.label.is_none() {
            let name = format!("L{}", names.len());
            stmt.label = Some(name.clone());
            names.push(name);
        }
        *counter += 1;
        match &mut stmt.kind {
            StmtKind::If { then_branch, else_branch, .. } => {
                label_statements(then_branch, chosen, counter, names);
                label_statements(else_branch, chosen, counter, names);
            }
            StmtKind::While { body, .. } => label_statements(body, chosen, counter, names),
            _ => {}
        }
    }
}

fn gotos_for_skips(body: &mut [Stmt], names: &[String], rng: &mut Rng) {
    for stmt in body {
        match &mut stmt.kind {
            StmtKind::Skip if rng.chance(60) => {
                let mut targets = vec![names[rng.below(names.len())].clone()];
                if names.len() > 1 && rng.chance(30) {
                    let other = names[rng.below(names.len())].clone();
                    if !targets.contains(&other) {
                        targets.push(other);
                    }
                }
                stmt.kind = StmtKind::Goto(targets);
            }
            StmtKind::If { then_branch, else_branch, .. } => {
                gotos_for_skips(then_branch, names, rng);
                gotos_for_skips(else_branch, names, rng);
            }
            StmtKind::While { body, .. } => gotos_for_skips(body, names, rng),
            _ => {}
        }
    }
}
