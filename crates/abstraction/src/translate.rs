//! Statement-by-statement translation of a C program into its boolean program abstraction
//! (C2BP §4.3–4.5, §5.1; polymorphic predicate abstraction §4.3–4.4, §5.2–5.4).

use crate::cache::{self, AbstractionCache, ConeKey};
use crate::oracle::{Limits, SolverOracle};
use crate::strengthen::{self, Cube, Dnf, Literal, StrengthenSettings, Strengthening};
use crate::{
    AbstractionConfig, Abstraction, BooleanVariable, CallAbstraction, LatticeRecord, PredicateScope, Signature, Statistics, Strategy,
};
use boolprog::Expr as BExpr;
use c_ir::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, VarId, VarKind};
use diagnostics::Diagnostic;
use logic::MayAlias;
use solver::Solver;
use budget::hash::{HashMap, HashSet};
use web_time::Instant;


/// With bounded cones, `enforce` components with more predicates than this are searched for
/// inconsistent pairs only (lattice, cube length 2) rather than enumerated exactly.
const ENFORCE_EXACT_MAX: usize = 12;
/// The cube length of the lattice that answers an exact strengthening cut short.
const FALLBACK_CUBE_LENGTH: usize = 2;

/// Abstracts `program` with respect to `predicates` (C2BP): the boolean program, the mapping
/// between its variables and the predicates, signatures, statistics and (optionally) the
/// record of every strengthening. Problems with predicates are reported, never panicked on.
pub fn abstract_program(program: &Program, predicates: &c_ir::PredicateSet, config: &AbstractionConfig) -> (Abstraction, Vec<Diagnostic>) {
    abstract_program_cached(program, predicates, config, &mut AbstractionCache::new())
}

/// [`abstract_program`] reusing (and filling) `cache`, whose entries persist across calls for
/// the same program, e.g. the iterations of a CEGAR loop. The result is the one
/// [`abstract_program`] computes (see [`AbstractionCache`] for why reuse is exact); while
/// lattices are recorded the cache is not used.
pub fn abstract_program_cached(
    program: &Program,
    predicates: &c_ir::PredicateSet,
    config: &AbstractionConfig,
    cache: &mut AbstractionCache,
) -> (Abstraction, Vec<Diagnostic>) {
    let start = Instant::now();
    cache.prepare(program, config);
    let mut translator = Translator::new(program, config, std::mem::take(cache));
    translator.collect_predicates(predicates);
    translator.compute_signatures();
    let mut procs = Vec::new();
    for proc in program.proc_ids() {
        if program.proc(proc).body.is_empty() {
            continue;
        }
        procs.push(translator.translate_procedure(proc));
    }
    let globals = translator.global_vars.iter().map(|&i| boolprog::VarDecl::new(translator.variables[i].name.clone())).collect();
    translator.statistics.micros = start.elapsed().as_micros() as u64;
    *cache = std::mem::take(&mut translator.cache);
    let abstraction = Abstraction {
        program: boolprog::Program { globals, procs },
        variables: translator.variables,
        signatures: translator.signatures,
        calls: translator.calls,
        statistics: translator.statistics,
        lattices: translator.lattices,
    };
    (abstraction, translator.diagnostics)
}

/// What a procedure may change, transitively through its callees.
#[derive(Clone, Debug, Default)]
struct ModSummary {
    globals: HashSet<VarId>,
    /// Writes through pointers other than to a field of a struct (`*p = …`, `a[i] = …`, a union
    /// member, `free`, a procedure without body): any location may change. Otherwise only the
    /// struct fields in `fields` may: the solver's memory model gives every field of every
    /// struct its own addresses (`&(e.f)` differs from every other field's and variable's).
    writes_untyped: bool,
    /// The struct fields written through pointers, by struct type and field index.
    fields: HashSet<(c_ir::StructId, u32)>,
    /// Calls something without a body: every global may change.
    havocs_globals: bool,
}

impl ModSummary {
    /// Whether the procedure's writes through pointers may change the location `l`.
    fn memory_may_change(&self, program: &Program, l: &Expr) -> bool {
        self.writes_untyped || struct_field(program, l).is_some_and(|f| self.fields.contains(&f))
    }
}

/// `e.f` of a struct (not a union) type: the struct and the field index.
fn struct_field(program: &Program, l: &Expr) -> Option<(c_ir::StructId, u32)> {
    let ExprKind::Field(base, f) = &l.kind else { return None };
    let Type::Struct(id) = base.ty else { return None };
    let def = program.structs.get(id.0 as usize)?;
    (!def.is_union).then_some((id, *f))
}

struct Translator<'a> {
    program: &'a Program,
    config: &'a AbstractionConfig,
    alias: Box<dyn MayAlias + 'a>,
    address_taken: logic::TypeBasedMayAlias,
    solver: Solver,
    variables: Vec<BooleanVariable>,
    global_vars: Vec<usize>,
    local_vars: Vec<Vec<usize>>,
    signatures: Vec<Signature>,
    summaries: Vec<ModSummary>,
    statistics: Statistics,
    lattices: Vec<LatticeRecord>,
    calls: Vec<CallAbstraction>,
    diagnostics: Vec<Diagnostic>,
    fresh_counter: u32,
    /// The program without procedure bodies, for fresh solver contexts.
    slim: Program,
    /// When the time or work budget ends (queries after it answer Unknown: sound but coarse).
    limits: Limits,
    /// Strengthenings already computed, in this abstraction or an earlier one (see [`cache`]).
    cache: AbstractionCache,
    /// Solver sessions at small-model pointer widths, by width (see [`crate::width`]).
    narrow_sessions: HashMap<u32, Solver>,
    /// While recording: the WP of each updated predicate, by statement and boolean variable.
    wp_records: HashMap<(StmtRef, String), crate::WpRecord>,
    /// While recording with [`AbstractionConfig::record_names`]: the slim program with those
    /// names, which the records are printed over.
    shown: Option<Program>,
}

/// The solver session for a cube query over `formulas`: the configured one, or one at the
/// small-model pointer width when the formulas only compare pointers (same answers, cheaper).
fn session<'s>(
    configured: &'s mut Solver,
    narrow: &'s mut HashMap<u32, Solver>,
    program: &Program,
    config: &solver::SolverConfig,
    formulas: &[&Expr],
) -> &'s mut Solver {
    let bits = crate::width::pointer_bits_for(program, formulas, config.pointer_bits);
    if bits == config.pointer_bits {
        return configured;
    }
    narrow.entry(bits).or_insert_with(|| Solver::new(program, &solver::SolverConfig { pointer_bits: bits, ..config.clone() }))
}

/// The boolean variables a strengthening may use and what each one means.
struct CubeVariables {
    names: Vec<String>,
    interpretations: Vec<Expr>,
}

impl<'a> Translator<'a> {
    fn new(program: &'a Program, config: &'a AbstractionConfig, cache: AbstractionCache) -> Translator<'a> {
        let alias: Box<dyn MayAlias + 'a> = if config.points_to {
            Box::new(points_to::PointsTo::analyze(program))
        } else {
            Box::new(logic::TypeBasedMayAlias::new(program))
        };
        // the earlier of the abstraction's budget and the solver's own deadline
        let budget = config.time_budget_ms.map(|ms| Instant::now() + std::time::Duration::from_millis(ms));
        let limits = Limits { deadline: budget, meter: config.solver.meter.clone() };
        let slim = program.without_bodies();
        let shown = config.record_names.as_ref().filter(|_| config.record_lattices).map(|names| {
            let mut shown = slim.clone();
            for (var, name) in shown.vars.iter_mut().zip(names) {
                var.name = name.clone();
            }
            shown
        });
        Translator {
            limits,
            program,
            config,
            alias,
            address_taken: logic::TypeBasedMayAlias::new(program),
            solver: Solver::new(program, &config.solver),
            variables: Vec::new(),
            global_vars: Vec::new(),
            local_vars: vec![Vec::new(); program.procs.len()],
            signatures: Vec::new(),
            summaries: Vec::new(),
            statistics: Statistics::default(),
            lattices: Vec::new(),
            calls: Vec::new(),
            diagnostics: Vec::new(),
            fresh_counter: 0,
            cache,
            narrow_sessions: HashMap::default(),
            wp_records: HashMap::default(),
            slim,
            shown,
        }
    }

    fn text(&self, e: &Expr) -> String {
        c_ir::display_expr(self.program, e)
    }

    /// `e` as the records print it (over [`AbstractionConfig::record_names`]).
    fn record_text(&self, e: &Expr) -> String {
        c_ir::display_expr(self.shown.as_ref().unwrap_or(self.program), e)
    }

    fn var_kind(&self, v: VarId) -> Option<VarKind> {
        self.program.vars.get(v.0 as usize).map(|var| var.kind)
    }

    // ---------------------------------------------------------------- predicates

    fn collect_predicates(&mut self, predicates: &c_ir::PredicateSet) {
        for pred in &predicates.global {
            let Some(pred) = self.check_predicate(pred, None) else { continue };
            self.add_variable(pred, PredicateScope::Global, false);
        }
        for (proc, list) in &predicates.local {
            if proc.0 as usize >= self.program.procs.len() {
                self.diagnostics.push(Diagnostic::error(diagnostics::Span::default(), format!("predicates for unknown procedure #{}", proc.0)));
                continue;
            }
            for pred in list {
                let Some(pred) = self.check_predicate(pred, Some(*proc)) else { continue };
                self.add_variable(pred, PredicateScope::Procedure(*proc), false);
            }
        }
        // Binding predicates `f == 'f` for every symbolic constant used (polymorphic §4.4.1),
        // `*'f == '*f` for every `'*f` (§5.3, which also needs `f == 'f`).
        for proc in self.program.proc_ids() {
            let mut needed: Vec<(VarId, VarId)> = Vec::new();
            for &i in &self.local_vars[proc.0 as usize] {
                for v in self.variables[i].predicate.vars() {
                    if let Some(VarKind::SymbolicConst { of, .. }) = self.var_kind(v) {
                        let mut pairs = vec![(of, v)];
                        if self.deref_constant_of(v).is_some() {
                            pairs.extend(self.program.symbolic_const_of(of).map(|c| (of, c)));
                        }
                        for pair in pairs {
                            if !needed.contains(&pair) {
                                needed.push(pair);
                            }
                        }
                    }
                }
            }
            for (formal, constant) in needed {
                let mut f = Expr::var(formal, self.program.var(formal).ty.clone());
                if self.deref_constant_of(constant).is_some() {
                    let Some(entry) = self.program.symbolic_const_of(formal) else { continue };
                    f = Expr::deref(Expr::var(entry, self.program.var(entry).ty.clone()));
                }
                let c = Expr::var(constant, self.program.var(constant).ty.clone());
                let forward = Expr::eq(f.clone(), c.clone());
                let backward = Expr::eq(c, f);
                let present = self.local_vars[proc.0 as usize].iter().any(|&i| {
                    let p = &self.variables[i].predicate;
                    *p == forward || *p == backward
                });
                if !present {
                    self.add_variable(forward, PredicateScope::Procedure(proc), true);
                }
            }
        }
    }

    /// The formal `f` when `v` is the symbolic constant `'*f`, the value of `*f` at entry
    /// (polymorphic §5.3): a symbolic constant of `f` whose type is `f`'s pointee type.
    fn deref_constant_of(&self, v: VarId) -> Option<VarId> {
        match self.var_kind(v)? {
            VarKind::SymbolicConst { of, .. } => {
                let ty = &self.program.vars.get(v.0 as usize)?.ty;
                let formal_ty = &self.program.vars.get(of.0 as usize)?.ty;
                (ty != formal_ty).then_some(of)
            }
            _ => None,
        }
    }

    /// For the entry statement `'f = f` (which lowering emits first in every procedure): the
    /// substitution `'*f ↦ *'f` that makes its abstraction the parallel assignment
    /// `'f, '*f := f, *f` (polymorphic §5.3's `'*p := *'p`), so the binding predicate
    /// `*'f == '*f` holds after it.
    fn entry_rebinding(&self, lhs: &Expr, rhs: &Expr) -> Vec<(VarId, Expr)> {
        let (ExprKind::Var(c), ExprKind::Var(f)) = (&lhs.kind, &rhs.kind) else { return Vec::new() };
        match self.var_kind(*c) {
            Some(VarKind::SymbolicConst { of, .. }) if of == *f && self.deref_constant_of(*c).is_none() => {}
            _ => return Vec::new(),
        }
        (0..self.program.vars.len() as u32)
            .map(VarId)
            .filter(|&d| self.deref_constant_of(d) == Some(*f))
            .map(|d| (d, Expr::deref(lhs.clone())))
            .collect()
    }

    fn check_predicate(&mut self, pred: &Expr, proc: Option<ProcId>) -> Option<Expr> {
        let pred = if pred.ty == Type::Bool {
            pred.clone()
        } else if pred.ty.is_scalar() {
            Expr::binary(BinaryOp::Ne, pred.clone(), Expr::int(0, pred.ty.clone()))
        } else {
            self.diagnostics.push(Diagnostic::error(diagnostics::Span::default(), format!("predicate `{}` is not a condition", self.text(pred))));
            return None;
        };
        for v in pred.vars() {
            let Some(kind) = self.var_kind(v) else {
                self.diagnostics.push(Diagnostic::error(diagnostics::Span::default(), "predicate mentions an unknown variable"));
                return None;
            };
            let ok = match (kind, proc) {
                (VarKind::Global, _) => true,
                (other, Some(p)) => other.proc() == Some(p),
                (_, None) => false,
            };
            if !ok {
                let scope = match proc {
                    Some(p) => format!("procedure `{}`", self.program.proc(p).name),
                    None => "the global predicates".to_string(),
                };
                self.diagnostics.push(Diagnostic::error(
                    diagnostics::Span::default(),
                    format!("predicate `{}` mentions `{}`, which is not visible in {scope}", self.text(&pred), self.program.var(v).name),
                ));
                return None;
            }
        }
        Some(pred)
    }

    fn add_variable(&mut self, pred: Expr, scope: PredicateScope, is_binding: bool) {
        let visible: Vec<usize> = match scope {
            PredicateScope::Global => self.global_vars.clone(),
            PredicateScope::Procedure(p) => self.global_vars.iter().chain(self.local_vars[p.0 as usize].iter()).copied().collect(),
        };
        if visible.iter().any(|&i| self.variables[i].predicate == pred) {
            return;
        }
        let text = self.text(&pred);
        let mut name = boolprog::predicate_name(&text);
        let mut suffix = 2;
        while visible.iter().any(|&i| self.variables[i].name == name) || self.variables.iter().any(|v| v.name == name && v.scope == scope) {
            name = boolprog::predicate_name(&format!("{text} #{suffix}"));
            suffix += 1;
        }
        let index = self.variables.len();
        self.variables.push(BooleanVariable { name, scope, predicate: pred, text, is_formal: false, is_returned: false, is_binding });
        match scope {
            PredicateScope::Global => self.global_vars.push(index),
            PredicateScope::Procedure(p) => self.local_vars[p.0 as usize].push(index),
        }
    }

    // ---------------------------------------------------------------- signatures

    fn modified_formals(&self, proc: ProcId) -> HashSet<VarId> {
        let mut out = HashSet::default();
        let pr = self.program.proc(proc);
        for stmt in &pr.body {
            let lhs = match &stmt.kind {
                StmtKind::Assign { lhs, .. } | StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => Some(lhs),
                StmtKind::Call { lhs: Some(lhs), .. } => Some(lhs),
                _ => None,
            };
            if let Some(root) = lhs.and_then(logic::alias::root_var) {
                out.insert(root);
            }
        }
        for &f in &pr.formals {
            if self.address_taken.is_address_taken(f) {
                out.insert(f);
            }
        }
        out
    }

    /// The variables standing for the returned value at the return statement: the returned
    /// variable, and `w` when the lowering wrote `ret = w; return ret;` with nothing jumping
    /// between the copy and the return (so `w == ret` holds at the return).
    fn return_vars(&self, proc: ProcId) -> Vec<VarId> {
        let pr = self.program.proc(proc);
        let n = pr.body.len();
        let returned = match pr.body.last().map(|s| &s.kind) {
            Some(StmtKind::Return { value: Some(Expr { kind: ExprKind::Var(v), .. }) }) => Some(*v),
            Some(StmtKind::Return { value: Some(_) }) => pr.ret_var,
            _ => None,
        };
        let Some(r) = returned else { return Vec::new() };
        let mut out = vec![r];
        if n >= 2 {
            let jumped_to = pr.body.iter().any(|s| matches!(&s.kind, StmtKind::Goto { targets } if targets.contains(&(n as u32 - 1))));
            if let StmtKind::Assign { lhs, rhs } = &pr.body[n - 2].kind {
                if let (ExprKind::Var(l), ExprKind::Var(w)) = (&lhs.kind, &rhs.kind) {
                    let w_ok = matches!(self.var_kind(*w), Some(VarKind::Local(_) | VarKind::Formal(..) | VarKind::Temp(_)))
                        && !self.address_taken.is_address_taken(*w);
                    if *l == r && !jumped_to && w_ok && lhs.ty == rhs.ty {
                        out.push(*w);
                    }
                }
            }
        }
        out
    }

    fn compute_signatures(&mut self) {
        let entry = self.program.entry.or_else(|| self.program.proc_by_name("main"));
        for proc in self.program.proc_ids() {
            let pr = self.program.proc(proc);
            let has_body = !pr.body.is_empty();
            let returns = self.return_vars(proc);
            let modified = self.modified_formals(proc);
            let mut formal_predicates = Vec::new();
            let mut return_predicates = Vec::new();
            for &i in &self.local_vars[proc.0 as usize] {
                let pred = &self.variables[i].predicate;
                let vars = pred.vars();
                let kinds: Vec<(VarId, VarKind)> = vars.iter().filter_map(|&v| Some((v, self.var_kind(v)?))).collect();
                let is_local = |k: &VarKind| matches!(k, VarKind::Local(_) | VarKind::Temp(_) | VarKind::Return(_));
                let mentions_local = kinds.iter().any(|(_, k)| is_local(k));
                let mentions_constant = kinds.iter().any(|(_, k)| matches!(k, VarKind::SymbolicConst { .. }));
                let mentions_formal = kinds.iter().any(|(_, k)| matches!(k, VarKind::Formal(..)));
                let mentions_global = kinds.iter().any(|(_, k)| matches!(k, VarKind::Global));
                // E_f (C2BP §4.5.2 / polymorphic §4.4.1): no locals, no symbolic constants.
                let is_formal = Some(proc) != entry && !mentions_local && !mentions_constant && (mentions_formal || mentions_global);
                // E_r: about r or symbolic constants, otherwise only globals, constants and
                // unmodified formals; or a formal predicate about globals or `*formal`.
                let others_ok = kinds.iter().all(|(v, k)| {
                    returns.contains(v)
                        || matches!(k, VarKind::Global | VarKind::SymbolicConst { .. })
                        || (matches!(k, VarKind::Formal(..)) && !modified.contains(v))
                });
                let mentions_r = returns.iter().any(|r| vars.contains(r));
                let derefs_formal = logic::drfs(pred).iter().any(|p| {
                    p.vars().iter().any(|v| matches!(self.var_kind(*v), Some(VarKind::Formal(..))))
                });
                let is_returned = others_ok && ((mentions_r || mentions_constant) || (is_formal && (mentions_global || derefs_formal)));
                if is_formal {
                    formal_predicates.push(i);
                }
                if is_returned {
                    return_predicates.push(i);
                }
            }
            for &i in &formal_predicates {
                self.variables[i].is_formal = true;
            }
            for &i in &return_predicates {
                self.variables[i].is_returned = true;
            }
            self.signatures.push(Signature { proc, formal_predicates, return_predicates, return_vars: returns, has_body });
        }
        self.compute_mod_summaries();
    }

    fn compute_mod_summaries(&mut self) {
        let n = self.program.procs.len();
        let mut summaries = vec![ModSummary::default(); n];
        let mut callees: Vec<Vec<ProcId>> = vec![Vec::new(); n];
        for proc in self.program.proc_ids() {
            let pr = self.program.proc(proc);
            let s = &mut summaries[proc.0 as usize];
            if pr.body.is_empty() {
                s.writes_untyped = true;
                s.havocs_globals = true;
            }
            for stmt in &pr.body {
                let lhs = match &stmt.kind {
                    StmtKind::Assign { lhs, .. } | StmtKind::Havoc { lhs } | StmtKind::Malloc { lhs, .. } => Some(lhs),
                    StmtKind::Call { lhs, callee, .. } => {
                        callees[proc.0 as usize].push(*callee);
                        lhs.as_ref()
                    }
                    StmtKind::Free { .. } => {
                        s.writes_untyped = true;
                        None
                    }
                    _ => None,
                };
                if let Some(lhs) = lhs {
                    match logic::alias::root_var(lhs) {
                        Some(v) if matches!(self.var_kind(v), Some(VarKind::Global)) => {
                            s.globals.insert(v);
                        }
                        Some(_) => {}
                        None => {
                            match struct_field(self.program, lhs) {
                                Some(field) => {
                                    s.fields.insert(field);
                                }
                                None => s.writes_untyped = true,
                            }
                        }
                    }
                }
            }
        }
        loop {
            let mut changed = false;
            for p in 0..n {
                for &c in &callees[p].clone() {
                    let Some(callee) = summaries.get(c.0 as usize).cloned() else { continue };
                    let s = &mut summaries[p];
                    if callee.writes_untyped && !s.writes_untyped {
                        s.writes_untyped = true;
                        changed = true;
                    }
                    for f in callee.fields.iter() {
                        changed |= s.fields.insert(*f);
                    }
                    if callee.havocs_globals && !s.havocs_globals {
                        s.havocs_globals = true;
                        changed = true;
                    }
                    for g in callee.globals {
                        changed |= s.globals.insert(g);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.summaries = summaries;
    }

    // ---------------------------------------------------------------- strengthening

    fn visible(&self, proc: ProcId) -> Vec<usize> {
        self.global_vars.iter().chain(self.local_vars[proc.0 as usize].iter()).copied().collect()
    }

    fn cube_variables(&self, indices: &[usize]) -> CubeVariables {
        CubeVariables {
            names: indices.iter().map(|&i| self.variables[i].name.clone()).collect(),
            interpretations: indices.iter().map(|&i| self.variables[i].predicate.clone()).collect(),
        }
    }

    fn settings(&self, goal_only: bool) -> StrengthenSettings {
        let mut s = StrengthenSettings::new(self.config.max_cube_length, self.config.record_lattices);
        s.enumeration_limit = self.config.enumeration_limit;
        s.goal_only = goal_only;
        s.limits = self.limits.clone();
        s
    }

    /// Whether results may be reused (not when every strengthening is recorded for the lattice
    /// view, which shows each search).
    fn memo_enabled(&self) -> bool {
        !self.config.record_lattices
    }

    /// Past the time budget: the solver is not asked any more.
    fn out_of_time(&self) -> bool {
        self.limits.reached()
    }

    /// The predicates (indices into `vars`) a strengthening of `goal` ranges over: its cone of
    /// influence, bounded by `max_cone`.
    fn cone(&self, goal: &Expr, vars: &CubeVariables) -> Vec<u32> {
        logic::bounded_cone_of_influence(goal, &vars.interpretations, self.config.max_cone).into_iter().map(|i| i as u32).collect()
    }

    /// The cache key of `goal` (simplified) over `vars`, and the cone as indices into `vars`.
    fn memo_key(&self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> (ConeKey, Vec<u32>) {
        let cone = self.cone(goal, vars);
        let interpretations = cone.iter().filter_map(|&i| vars.interpretations.get(i as usize).cloned()).collect();
        (ConeKey { goal: goal.clone(), assumption: assumption.cloned(), cone: interpretations }, cone)
    }

    /// Whether a result for `goal` (simplified) is cached (without counting a hit).
    fn memo_contains(&mut self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> bool {
        self.memo_enabled() && self.memo_find(goal, assumption, vars).is_some()
    }

    /// A reused result for `goal` (simplified), or (exact strategy) for its negation with the
    /// sides swapped, over the indices of `vars`.
    fn memo_lookup(&mut self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> Option<(Dnf, Dnf)> {
        if !self.memo_enabled() {
            return None;
        }
        let hit = self.memo_find(goal, assumption, vars)?;
        self.cache.note_hit();
        Some(hit)
    }

    fn memo_find(&mut self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> Option<(Dnf, Dnf)> {
        let (key, cone) = self.memo_key(goal, assumption, vars);
        let (pos, neg) = match self.cache.lookup(&key) {
            Some(hit) => hit,
            None if cache::swap_is_exact(self.config.strategy) => {
                let negated = logic::simplify(&logic::negate(goal));
                let (negated_key, negated_cone) = self.memo_key(&negated, assumption, vars);
                if negated_cone != cone {
                    return None;
                }
                let (pos, neg) = self.cache.lookup(&negated_key)?;
                (neg, pos)
            }
            None => return None,
        };
        Some((cache::from_positions(&pos, &cone)?, cache::from_positions(&neg, &cone)?))
    }

    fn memo_store(&mut self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables, result: &(Dnf, Dnf)) {
        if !self.memo_enabled() || self.out_of_time() {
            return;
        }
        let (key, cone) = self.memo_key(goal, assumption, vars);
        if let (Some(pos), Some(neg)) = (cache::to_positions(&result.0, &cone), cache::to_positions(&result.1, &cone)) {
            self.cache.store(key, (pos, neg));
        }
    }

    /// `F(ψ)` and `F(¬ψ)` over `vars`.
    fn strengthen(&mut self, at: StmtRef, target: &str, goal: &Expr, vars: &CubeVariables) -> (Dnf, Dnf) {
        self.strengthen_under(at, target, goal, None, vars)
    }

    /// `F(ψ)` and `F(¬ψ)` over `vars`, where every query also assumes `assumption`.
    fn strengthen_under(&mut self, at: StmtRef, target: &str, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> (Dnf, Dnf) {
        self.strengthen_seeded(at, target, goal, assumption, vars, None)
    }

    /// [`Self::strengthen_under`]; with `seed` (the models a joint enumeration found before it
    /// was cut short, over the goal's cone) it goes straight to the fallback lattice.
    fn strengthen_seeded(
        &mut self,
        at: StmtRef,
        target: &str,
        goal: &Expr,
        assumption: Option<&Expr>,
        vars: &CubeVariables,
        seed: Option<Vec<strengthen::EnumeratedValuation>>,
    ) -> (Dnf, Dnf) {
        let goal = logic::simplify(goal);
        if self.config.distribute_f && seed.is_none() {
            if let Some(pair) = self.distributed(at, target, &goal, assumption, vars) {
                return pair;
            }
        }
        self.statistics.strengthenings += 1;
        let shortcut = if assumption.is_some() { None } else { shortcut_for(&goal, vars) };
        let cone = self.cone(&goal, vars);
        if shortcut.is_none() {
            if let Some(hit) = self.memo_lookup(&goal, assumption, vars) {
                self.statistics.cache_hits += 1;
                return hit;
            }
        }
        let was_shortcut = shortcut.is_some();
        let result = match shortcut {
            Some((pos, neg)) => {
                self.statistics.shortcuts += 1;
                let mut result =
                    Strengthening { goal: pos, negated_goal: neg, counters: Default::default(), lattice: Vec::new(), exact: None, complete: true, partial: Vec::new() };
                if self.config.record_lattices && goal.as_const().is_none() {
                    // The lattice view still shows the cubes (not counted in the statistics);
                    // the result stays the syntactic one (equal modulo consistency).
                    let shown = self.run_strategy(&goal, assumption, vars, &cone, None);
                    result.lattice = shown.lattice;
                    result.exact = shown.exact;
                }
                result
            }
            None => self.run_strategy(&goal, assumption, vars, &cone, seed),
        };
        self.account(at, target, &goal, vars, &cone, was_shortcut, &result);
        let complete = result.complete && !result.exact.as_ref().is_some_and(|e| e.truncated);
        let pair = (result.goal, result.negated_goal);
        if !was_shortcut && complete {
            self.memo_store(&goal, assumption, vars, &pair);
        }
        pair
    }

    /// `(F(ψ), F(¬ψ))` by distributing `F` over `∧`/`∨` (C2BP §5.2), or `None` when `ψ` is
    /// atomic. `F(¬(a ∧ b)) = F(¬a ∨ ¬b)`, so the negated side distributes dually.
    fn distributed(&mut self, at: StmtRef, target: &str, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> Option<(Dnf, Dnf)> {
        let ExprKind::Binary(op, a, b) = &goal.kind else {
            if let ExprKind::Unary(c_ir::UnaryOp::Not, a) = &goal.kind {
                if is_compound(a) {
                    let (pos, neg) = self.strengthen_under(at, target, a, assumption, vars);
                    return Some((neg, pos));
                }
            }
            return None;
        };
        let (a, b) = match op {
            BinaryOp::And | BinaryOp::Or => ((**a).clone(), (**b).clone()),
            BinaryOp::Implies => (Expr::logical_not((**a).clone()), (**b).clone()),
            _ => return None,
        };
        let (a_pos, a_neg) = self.strengthen_under(at, target, &a, assumption, vars);
        let (b_pos, b_neg) = self.strengthen_under(at, target, &b, assumption, vars);
        Some(match op {
            BinaryOp::And => (dnf_and(&a_pos, &b_pos), dnf_or(&a_neg, &b_neg)),
            _ => (dnf_or(&a_pos, &b_pos), dnf_and(&a_neg, &b_neg)),
        })
    }

    /// The boolean abstraction of an update of `group` (name, WP) (see [`crate::Precision`]):
    /// one enumeration of (valuation of the union cone, values of the WPs); `None` to fall
    /// back to the cartesian abstraction.
    fn boolean_update(&mut self, group: &[(String, Expr)], vars: &CubeVariables) -> Option<Vec<boolprog::Stmt>> {
        let mut union: Vec<u32> = group.iter().flat_map(|(_, g)| self.cone(g, vars)).collect();
        union.sort_unstable();
        union.dedup();
        let goals: Vec<&Expr> = group.iter().map(|(_, g)| g).collect();
        let mut calls = 0;
        let limit = self.settings(false).enumeration_limit;
        let enumerated = {
            let mut oracle = SolverOracle {
                program: self.program,
                shown: self.shown.as_ref().unwrap_or(self.program),
                solver: &mut self.solver,
                interpretations: &vars.interpretations,
                goal: goals[0],
                fresh_context: Some((&self.slim, &self.config.solver)),
                assumption: None,
                limits: self.limits.clone(),
                conflict_budget: self.config.enumeration_conflicts,
                lattice: None,
            };
            oracle.enumerate_goals(&union, &goals, limit, &mut calls)
        };
        self.statistics.prover_calls += calls;
        self.statistics.strengthenings += 1;
        let joint = enumerated.ok()?;
        let mut outcomes: Vec<Vec<bool>> = joint.iter().map(|(_, w)| w.clone()).collect();
        outcomes.sort();
        outcomes.dedup();
        if outcomes.len() > 16 {
            return None;
        }
        let names: Vec<String> = group.iter().map(|(n, _)| n.clone()).collect();
        let mut branches: Vec<Vec<boolprog::Stmt>> = Vec::new();
        for w in &outcomes {
            // old valuations allowing `w`; the inconsistent ones (never enumerated) are don't-cares
            let with_w: Vec<&[bool]> = joint.iter().filter(|(_, x)| x == w).map(|(v, _)| v.as_slice()).collect();
            let without_w: Vec<&[bool]> = joint.iter().filter(|(v, _)| !with_w.contains(&v.as_slice())).map(|(v, _)| v.as_slice()).collect();
            let cover = crate::minimise::minimise_pair(union.len(), &with_w, &without_w).goal_cover;
            let condition = BExpr::or_all(cover.iter().map(|cube| {
                BExpr::and_all(cube.iter().map(|&(i, positive)| {
                    let x = BExpr::var(vars.names[union[i] as usize].clone());
                    if positive { x } else { BExpr::not(x) }
                }))
            }));
            let values = w.iter().map(|&b| BExpr::Const(b)).collect();
            branches.push(vec![boolprog::Stmt::assume(condition), boolprog::Stmt::assign(names.clone(), values)]);
        }
        let mut rest = branches.pop()?;
        while let Some(branch) = branches.pop() {
            rest = vec![boolprog::Stmt::if_then_else(BExpr::unknown(), branch, rest)];
        }
        Some(rest)
    }

    /// The exact strategy for several goals of one statement with a single enumeration over
    /// the union of their cones, projected to each goal's own cone (so each result equals the
    /// separate computation). When the enumeration was cut short: `Err` with the models it
    /// found, projected to each goal's cone.
    fn joint_exact(&mut self, at: StmtRef, group: &[(String, Expr)], vars: &CubeVariables) -> Result<Vec<(Dnf, Dnf)>, Vec<Vec<strengthen::EnumeratedValuation>>> {
        let cones: Vec<Vec<u32>> =
            group.iter().map(|(_, g)| self.cone(g, vars)).collect();
        let mut union: Vec<u32> = cones.iter().flatten().copied().collect();
        union.sort_unstable();
        union.dedup();
        let goals: Vec<&Expr> = group.iter().map(|(_, g)| g).collect();
        let mut calls = 0;
        let settings = self.settings(false);
        let enumerated = {
            let mut oracle = SolverOracle {
                program: self.program,
                shown: self.shown.as_ref().unwrap_or(self.program),
                solver: &mut self.solver,
                interpretations: &vars.interpretations,
                goal: goals[0],
                fresh_context: Some((&self.slim, &self.config.solver)),
                assumption: None,
                limits: self.limits.clone(),
                conflict_budget: self.config.enumeration_conflicts,
                lattice: None,
            };
            oracle.enumerate_goals(&union, &goals, settings.enumeration_limit, &mut calls)
        };
        self.statistics.prover_calls += calls;
        let project = |joint: &[(Vec<bool>, Vec<bool>)]| -> Vec<Vec<strengthen::EnumeratedValuation>> {
            cones
                .iter()
                .enumerate()
                .map(|(k, cone)| {
                    let positions: Vec<usize> = cone.iter().filter_map(|c| union.iter().position(|u| u == c)).collect();
                    let mut seen = HashSet::default();
                    joint
                        .iter()
                        .map(|(values, goal_values)| strengthen::EnumeratedValuation { values: positions.iter().map(|&p| values[p]).collect(), goal: goal_values[k] })
                        .filter(|v| seen.insert(v.clone()))
                        .collect()
                })
                .collect()
        };
        let joint = match enumerated {
            Ok(joint) => joint,
            Err(partial) => return Err(project(&partial)),
        };
        let mut out = Vec::new();
        for (((name, goal), cone), valuations) in group.iter().zip(cones.iter()).zip(project(&joint)) {
            self.statistics.strengthenings += 1;
            let result = strengthen::exact_from_valuations(cone, valuations, Default::default(), &settings);
            self.account(at, name, goal, vars, cone, false, &result);
            let pair = (result.goal, result.negated_goal);
            self.memo_store(goal, None, vars, &pair);
            out.push(pair);
        }
        Ok(out)
    }

    /// `F(ψ)` and `F(¬ψ)` by the configured strategy. An exact enumeration cut short (or
    /// `seed`, the models of one cut short before) leads to the lattice over short cubes,
    /// seeded with the models found.
    fn run_strategy(&mut self, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables, cone: &[u32], seed: Option<Vec<strengthen::EnumeratedValuation>>) -> Strengthening {
        let settings = self.settings(false);
        let mut formulas: Vec<&Expr> = cone.iter().filter_map(|&i| vars.interpretations.get(i as usize)).collect();
        formulas.push(goal);
        formulas.extend(assumption);
        let solver = session(&mut self.solver, &mut self.narrow_sessions, &self.slim, &self.config.solver, &formulas);
        let mut oracle = SolverOracle { program: self.program, shown: self.shown.as_ref().unwrap_or(self.program), solver, interpretations: &vars.interpretations, goal, fresh_context: Some((&self.slim, &self.config.solver)), assumption, limits: self.limits.clone(), conflict_budget: self.config.enumeration_conflicts, lattice: None };
        match self.config.strategy {
            Strategy::Lattice => strengthen::lattice_strengthen(cone, &mut oracle, &settings),
            Strategy::Exact => {
                let (counters, record, partial) = match seed {
                    Some(partial) => (Default::default(), None, partial),
                    None => {
                        let exact = strengthen::exact_strengthen(cone, &mut oracle, &settings);
                        if exact.complete || self.limits.reached() {
                            return exact;
                        }
                        (exact.counters, exact.exact, exact.partial)
                    }
                };
                // too many valuations, or too hard for the SAT solver: the lattice over short
                // cubes, spared most queries by the models the enumeration found
                self.statistics.fallbacks += 1;
                let short = settings.with_cubes_at_most(FALLBACK_CUBE_LENGTH);
                let mut fallback = strengthen::lattice_strengthen_seeded(cone, &mut oracle, &short, partial);
                fallback.counters.add(&counters);
                fallback.exact = record;
                fallback
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn account(&mut self, at: StmtRef, target: &str, goal: &Expr, vars: &CubeVariables, cone: &[u32], shortcut: bool, result: &Strengthening) {
        self.statistics.prover_calls += result.counters.solver_calls;
        self.statistics.cache_hits += result.counters.cache_hits;
        self.statistics.cubes_visited += result.counters.cubes_visited;
        if self.config.record_lattices {
            let outside_cone = (0..vars.names.len() as u32).filter(|i| !cone.contains(i)).collect();
            let (indices, cone_predicates): (Vec<u32>, Vec<Expr>) =
                cone.iter().filter_map(|&i| vars.interpretations.get(i as usize).map(|e| (i, e.clone()))).unzip();
            let near_cone = logic::bounded_cone_of_influence(goal, &cone_predicates, Some(0)).into_iter().map(|k| indices[k]).collect();
            self.lattices.push(LatticeRecord {
                at,
                target: target.to_string(),
                goal: self.record_text(goal),
                strategy: self.config.strategy,
                variables: vars.names.clone(),
                cone: cone.to_vec(),
                near_cone,
                outside_cone,
                goal_result: boolprog::print_expr_bebop(&dnf_expr(&result.goal, &vars.names)),
                negated_goal_result: boolprog::print_expr_bebop(&dnf_expr(&result.negated_goal, &vars.names)),
                goal_formula: result.goal.clone(),
                negated_goal_formula: result.negated_goal.clone(),
                shortcut,
                lattice: result.lattice.clone(),
                exact: result.exact.clone(),
                counters: result.counters,
                wp: self.wp_records.get(&(at, target.to_string())).cloned(),
            });
        }
    }

    /// `choose(F(ψ), F(¬ψ))`, simplified.
    fn choose_for(&mut self, at: StmtRef, target: &str, goal: &Expr, vars: &CubeVariables) -> BExpr {
        self.choose_under(at, target, goal, None, vars)
    }

    fn choose_under(&mut self, at: StmtRef, target: &str, goal: &Expr, assumption: Option<&Expr>, vars: &CubeVariables) -> BExpr {
        let (pos, neg) = self.strengthen_under(at, target, goal, assumption, vars);
        choose_expr(dnf_expr(&pos, &vars.names), dnf_expr(&neg, &vars.names))
    }

    /// The inconsistent valuations of the predicates `cone`, enumerated exactly.
    fn exact_inconsistency(&mut self, cone: &[u32], vars: &CubeVariables, settings: &StrengthenSettings) -> Strengthening {
        let truth = Expr::bool(true);
        let mut oracle = SolverOracle { program: self.program, shown: self.shown.as_ref().unwrap_or(self.program), solver: &mut self.solver, interpretations: &vars.interpretations, goal: &truth, fresh_context: Some((&self.slim, &self.config.solver)), assumption: None, limits: self.limits.clone(), conflict_budget: self.config.enumeration_conflicts, lattice: None };
        strengthen::exact_inconsistency(cone, &mut oracle, settings)
    }

    /// `θ = ¬F(false)` over the predicates visible in `proc`, one cone component at a time.
    fn enforce_for(&mut self, proc: ProcId) -> Option<BExpr> {
        let visible = self.visible(proc);
        if visible.is_empty() {
            return None;
        }
        let vars = self.cube_variables(&visible);
        let at = StmtRef { proc, index: 0 };
        // connected components of "shares a symbol"
        let n = visible.len();
        let mut component: Vec<usize> = (0..n).collect();
        for i in 0..n {
            for j in 0..i {
                if logic::shares_symbols(&vars.interpretations[i], &vars.interpretations[j]) {
                    let (a, b) = (find(&mut component, i), find(&mut component, j));
                    component[a] = b;
                }
            }
        }
        let mut groups: HashMap<usize, Vec<u32>> = HashMap::default();
        for i in 0..n {
            let root = find(&mut component, i);
            groups.entry(root).or_default().push(i as u32);
        }
        let mut groups: Vec<Vec<u32>> = groups.into_values().collect();
        groups.sort();
        let mut cubes = Vec::new();
        let falsity = Expr::bool(false);
        for cone in groups {
            self.statistics.strengthenings += 1;
            let component: Vec<Expr> = cone.iter().filter_map(|&i| vars.interpretations.get(i as usize).cloned()).collect();
            if self.memo_enabled() {
                if let Some(hit) = self.cache.lookup_inconsistency(&component).and_then(|d| cache::from_positions(&d, &cone)) {
                    self.statistics.cache_hits += 1;
                    cubes.extend(hit.cubes);
                    continue;
                }
            }
            let mut settings = self.settings(true);
            // a large component's consistent valuations can number 2^n (loosely related
            // predicates): while cones are bounded, search only its inconsistent pairs with the
            // lattice instead. A weaker `enforce` is still sound.
            let pairwise = self.config.max_cone.is_some() && cone.len() > ENFORCE_EXACT_MAX;
            if pairwise {
                settings = settings.with_cubes_at_most(2);
            }
            let mut exact = None;
            // consistent valuations an enumeration cut short found (goal `false`, as below)
            let mut seed = Vec::new();
            if !pairwise && self.config.strategy == Strategy::Exact {
                let result = self.exact_inconsistency(&cone, &vars, &settings);
                if result.complete || self.limits.reached() {
                    exact = Some(result);
                } else {
                    // too many consistent valuations or too hard: the inconsistent pairs only
                    self.statistics.fallbacks += 1;
                    settings = settings.with_cubes_at_most(2);
                    seed = result.partial.into_iter().map(|v| strengthen::EnumeratedValuation { goal: false, ..v }).collect();
                }
            }
            let result = match exact {
                Some(result) => result,
                None => {
                    let formulas: Vec<&Expr> = cone.iter().filter_map(|&i| vars.interpretations.get(i as usize)).collect();
                    let solver = session(&mut self.solver, &mut self.narrow_sessions, &self.slim, &self.config.solver, &formulas);
                    let mut oracle = SolverOracle { program: self.program, shown: self.shown.as_ref().unwrap_or(self.program), solver, interpretations: &vars.interpretations, goal: &falsity, fresh_context: Some((&self.slim, &self.config.solver)), assumption: None, limits: self.limits.clone(), conflict_budget: self.config.enumeration_conflicts, lattice: None };
                    strengthen::lattice_strengthen_seeded(&cone, &mut oracle, &settings, seed)
                }
            };
            self.account(at, "enforce", &falsity, &vars, &cone, false, &result);
            let complete = result.complete && !result.exact.as_ref().is_some_and(|e| e.truncated);
            if self.memo_enabled() && complete && !self.out_of_time() {
                if let Some(positions) = cache::to_positions(&result.goal, &cone) {
                    self.cache.store_inconsistency(component, positions);
                }
            }
            cubes.extend(result.goal.cubes);
            if pairwise {
                // the pairs miss `x >= 0 && x <= 0 => x == 0`: the predicates over one
                // variable are few and tightly related, and enumerated exactly
                for group in small_variable_groups(&cone, &vars.interpretations) {
                    if self.out_of_time() {
                        break;
                    }
                    let result = self.exact_inconsistency(&group, &vars, &self.settings(true));
                    self.account(at, "enforce", &falsity, &vars, &group, false, &result);
                    if result.complete {
                        cubes.extend(result.goal.cubes);
                    }
                }
            }
        }
        cubes.extend(self.learned_cubes(&visible));
        if cubes.is_empty() {
            return None;
        }
        Some(negate_dnf(&Dnf { cubes }, &vars.names))
    }

    /// The learned inconsistent cubes ([`crate::LearnedInconsistency`]) whose predicates are all
    /// among `visible`, over their positions there.
    fn learned_cubes(&self, visible: &[usize]) -> Vec<Cube> {
        let position = |scope: &PredicateScope, predicate: &Expr| {
            visible.iter().position(|&i| self.variables.get(i).is_some_and(|v| v.scope == *scope && v.predicate == *predicate))
        };
        let mut cubes: Vec<Cube> = self
            .config
            .learned_inconsistencies
            .iter()
            .filter_map(|learned| learned.literals.iter().map(|(scope, p, value)| Some(Literal::new(position(scope, p)? as u32, *value))).collect::<Option<Cube>>())
            .filter(|cube| !cube.is_empty())
            .collect();
        cubes.sort();
        cubes.dedup();
        cubes
    }

    // ---------------------------------------------------------------- statements

    fn translate_procedure(&mut self, proc: ProcId) -> boolprog::Procedure {
        let pr = self.program.proc(proc);
        let signature = self.signatures[proc.0 as usize].clone();
        let mut bp = boolprog::Procedure::new(pr.name.clone());
        bp.span = pr.span;
        bp.formals = signature.formal_predicates.iter().map(|&i| self.variables[i].name.clone()).collect();
        bp.locals = self.local_vars[proc.0 as usize]
            .iter()
            .filter(|&&i| !signature.formal_predicates.contains(&i))
            .map(|&i| self.variables[i].name.clone())
            .collect();
        bp.returns = signature.return_predicates.len();
        if self.config.enforce {
            bp.enforce = self.enforce_for(proc);
        }
        // labels for every goto target
        let mut labels: Vec<Option<String>> = pr.body.iter().map(|s| s.label.clone()).collect();
        let existing: HashSet<String> = labels.iter().flatten().cloned().collect();
        for stmt in &pr.body {
            if let StmtKind::Goto { targets } = &stmt.kind {
                for &t in targets {
                    if let Some(slot) = labels.get_mut(t as usize) {
                        if slot.is_none() {
                            let mut name = format!("L{t}");
                            while existing.contains(&name) {
                                name.push('_');
                            }
                            *slot = Some(name);
                        }
                    }
                }
            }
        }
        let mut temporaries: Vec<String> = Vec::new();
        let mut body = Vec::new();
        for index in 0..pr.body.len() {
            self.statistics.statements += 1;
            let at = StmtRef { proc, index: index as u32 };
            let mut stmts = self.translate_statement(at, &labels, &mut temporaries);
            if stmts.is_empty() {
                stmts.push(boolprog::Stmt::skip());
            }
            let origin = boolprog::Origin { proc: proc.0, index: index as u32 };
            let span = pr.body[index].span;
            set_origin(&mut stmts, origin, span);
            if let Some(label) = &labels[index] {
                stmts[0].label = Some(label.clone());
            }
            body.extend(stmts);
        }
        for t in temporaries {
            if !bp.locals.contains(&t) {
                bp.locals.push(t);
            }
        }
        bp.body = body;
        bp
    }

    fn translate_statement(&mut self, at: StmtRef, labels: &[Option<String>], temporaries: &mut Vec<String>) -> Vec<boolprog::Stmt> {
        let pr = self.program.proc(at.proc);
        let stmt = &pr.body[at.index as usize];
        match &stmt.kind {
            StmtKind::Skip | StmtKind::Free { .. } => vec![boolprog::Stmt::skip()],
            StmtKind::Assign { lhs, rhs } => self.translate_update(at, lhs, &Update::Assign(rhs.clone())),
            StmtKind::Havoc { lhs } => {
                let fresh = self.fresh(&lhs.ty, "havoc");
                self.translate_update(at, lhs, &Update::Havoc(fresh))
            }
            StmtKind::Malloc { lhs, .. } => {
                let fresh = self.fresh(&lhs.ty, "malloc");
                self.translate_update(at, lhs, &Update::Malloc(fresh))
            }
            StmtKind::Assume { cond } => {
                if cond.is_false() {
                    return vec![boolprog::Stmt::assume(BExpr::ff())];
                }
                let vars = self.cube_variables(&self.visible(at.proc));
                let (_, negated) = self.strengthen(at, "assume", cond, &vars);
                vec![boolprog::Stmt::assume(negate_dnf(&negated, &vars.names))]
            }
            StmtKind::Goto { targets } => {
                let names = targets.iter().filter_map(|&t| labels.get(t as usize).cloned().flatten()).collect();
                vec![boolprog::Stmt::goto(names)]
            }
            StmtKind::Return { .. } => {
                let signature = &self.signatures[at.proc.0 as usize];
                let values = signature.return_predicates.iter().map(|&i| BExpr::var(self.variables[i].name.clone())).collect();
                vec![boolprog::Stmt::ret(values)]
            }
            StmtKind::Error => vec![boolprog::Stmt::assert(BExpr::ff())],
            StmtKind::Call { lhs, callee, args } => self.translate_call(at, lhs.as_ref(), *callee, args, temporaries),
        }
    }

    fn fresh(&mut self, ty: &Type, what: &str) -> Expr {
        self.fresh_counter += 1;
        logic::fresh_symbol(&format!("{what}{}", self.fresh_counter), ty)
    }

    /// The parallel assignment abstracting `lhs = rhs` (or `havoc`/`malloc`): only predicates
    /// whose weakest precondition differs from themselves are updated (C2BP §5.2).
    fn translate_update(&mut self, at: StmtRef, lhs: &Expr, update: &Update) -> Vec<boolprog::Stmt> {
        let visible = self.visible(at.proc);
        let vars = self.cube_variables(&visible);
        let mut items: Vec<(String, Expr, Option<Expr>)> = Vec::new();
        // past the budget every affected predicate becomes `*` (sound, coarse, and cheap: no
        // simplification, cone or solver work)
        let late = self.out_of_time();
        let rebinding = match update {
            Update::Assign(rhs) => self.entry_rebinding(lhs, rhs),
            _ => Vec::new(),
        };
        for (k, &i) in visible.iter().enumerate() {
            let original = self.variables[i].predicate.clone();
            let phi = if rebinding.is_empty() {
                original.clone()
            } else {
                logic::map_expr(&original, &mut |sub| match sub.kind {
                    ExprKind::Var(v) => rebinding.iter().find(|(d, _)| *d == v).map(|(_, e)| e.clone()),
                    _ => None,
                })
            };
            let value_expr = match update {
                Update::Assign(rhs) => rhs.clone(),
                Update::Havoc(fresh) | Update::Malloc(fresh) => fresh.clone(),
            };
            let unsimplified = logic::wp_assign_unsimplified(self.program, self.alias.as_ref(), lhs, &value_expr, &phi);
            if unsimplified == original {
                continue;
            }
            if late {
                items.push((vars.names[k].clone(), unsimplified, None));
                continue;
            }
            // WP(s, φ); the fresh value of havoc/malloc is universally quantified (a free symbol
            // in validity checks), so WP(s, ¬φ) = ¬WP(s, φ) holds for the body; malloc's
            // "the address is new" premise is kept apart as an assumption of every query.
            let (wp, assumption) = match update {
                Update::Assign(rhs) => (logic::wp_assign(self.program, self.alias.as_ref(), lhs, rhs, &phi), None),
                Update::Havoc(fresh) => (logic::wp_havoc(self.program, self.alias.as_ref(), lhs, &phi, fresh), None),
                Update::Malloc(fresh) => {
                    let body = logic::wp_assign(self.program, self.alias.as_ref(), lhs, fresh, &phi);
                    let premise = malloc_premise(&body, fresh);
                    (body, Some(premise))
                }
            };
            if self.config.record_lattices {
                let record = crate::morris::wp_record(self.program, self.shown.as_ref().unwrap_or(self.program), self.alias.as_ref(), self.config.points_to, lhs, &value_expr, &phi, &wp);
                self.wp_records.insert((at, vars.names[k].clone()), record);
            }
            items.push((vars.names[k].clone(), wp, assumption));
        }
        if late {
            if items.is_empty() {
                return vec![boolprog::Stmt::skip()];
            }
            let values = items.iter().map(|_| BExpr::unknown()).collect();
            return vec![boolprog::Stmt::assign(items.into_iter().map(|i| i.0).collect(), values)];
        }
        if self.config.precision == crate::Precision::Boolean && items.len() >= 2 && items.iter().all(|i| i.2.is_none()) {
            let group: Vec<(String, Expr)> = items.iter().map(|(n, wp, _)| (n.clone(), logic::simplify(wp))).collect();
            if let Some(stmts) = self.boolean_update(&group, &vars) {
                return stmts;
            }
        }
        let mut precomputed: HashMap<usize, (Dnf, Dnf)> = HashMap::default();
        // models of joint enumerations cut short, per item
        let mut seeds: HashMap<usize, Vec<strengthen::EnumeratedValuation>> = HashMap::default();
        if self.config.strategy == Strategy::Exact {
            // One all-SAT enumeration for several predicates of the same statement.
            let joint: Vec<usize> = (0..items.len())
                .filter(|&j| {
                    let goal = logic::simplify(&items[j].1);
                    items[j].2.is_none()
                        && shortcut_for(&goal, &vars).is_none()
                        && !self.memo_contains(&goal, None, &vars)
                        && !(self.config.distribute_f && is_compound(&goal))
                })
                .collect();
            // only goals with the same cone of influence share an enumeration (a larger union
            // cone would multiply the valuations)
            let mut by_cone: Vec<(Vec<u32>, Vec<usize>)> = Vec::new();
            for j in joint {
                let cone = self.cone(&logic::simplify(&items[j].1), &vars);
                match by_cone.iter_mut().find(|(c, _)| *c == cone) {
                    Some((_, members)) => members.push(j),
                    None => by_cone.push((cone, vec![j])),
                }
            }
            let chunks: Vec<Vec<usize>> = by_cone.into_iter().flat_map(|(_, m)| m.chunks(3).map(|c| c.to_vec()).collect::<Vec<_>>()).collect();
            for chunk in chunks.iter().filter(|c| c.len() >= 2) {
                let group: Vec<(String, Expr)> = chunk.iter().map(|&j| (items[j].0.clone(), logic::simplify(&items[j].1))).collect();
                match self.joint_exact(at, &group, &vars) {
                    Ok(results) => precomputed.extend(chunk.iter().copied().zip(results)),
                    Err(partial) => seeds.extend(chunk.iter().copied().zip(partial)),
                }
            }
        }
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (j, (name, wp, assumption)) in items.into_iter().enumerate() {
            let (pos, neg) = match precomputed.remove(&j) {
                Some(pair) => pair,
                None => self.strengthen_seeded(at, &name, &wp, assumption.as_ref(), &vars, seeds.remove(&j)),
            };
            let value = choose_expr(dnf_expr(&pos, &vars.names), dnf_expr(&neg, &vars.names));
            names.push(name);
            values.push(value);
        }
        if names.is_empty() {
            vec![boolprog::Stmt::skip()]
        } else {
            vec![boolprog::Stmt::assign(names, values)]
        }
    }

    /// Whether the location `l` of the caller may be changed by a call to `callee` (polymorphic §5.4).
    fn possibly_affected(&self, l: &Expr, callee: ProcId) -> bool {
        let Some(summary) = self.summaries.get(callee.0 as usize) else { return true };
        match logic::alias::root_var(l) {
            Some(v) => match self.var_kind(v) {
                Some(VarKind::Global) => {
                    summary.havocs_globals
                        || summary.globals.contains(&v)
                        || (summary.memory_may_change(self.program, l) && self.address_taken.is_address_taken(v))
                }
                _ => summary.memory_may_change(self.program, l) && self.address_taken.is_address_taken(v),
            },
            None => {
                summary.memory_may_change(self.program, l)
                    || summary.havocs_globals
                    || summary.globals.iter().any(|&g| self.alias.may_alias(l, &Expr::var(g, self.program.var(g).ty.clone())))
            }
        }
    }

    /// `orig(e)`: `e` with every location the call may change replaced by a fresh symbol for its
    /// value before the call.
    fn orig(&self, e: &Expr, callee: ProcId, originals: &mut Vec<(Expr, Expr)>) -> Expr {
        logic::map_expr(e, &mut |sub| {
            // `orig(&l) = &l`: the location's address, only the values it is computed from
            // (`p` in `&p->f`, `i` in `&a[i]`) are read
            if let ExprKind::AddrOf(l) = &sub.kind {
                let address = self.orig_address(l, callee, originals);
                return Some(Expr::new(ExprKind::AddrOf(Box::new(address)), sub.ty.clone()));
            }
            if !sub.is_lvalue() || !sub.ty.is_scalar() || !self.possibly_affected(sub, callee) {
                return None;
            }
            if let Some((_, o)) = originals.iter().find(|(l, _)| l == sub) {
                return Some(o.clone());
            }
            let name = match &sub.kind {
                ExprKind::Var(v) => format!("{}_o", self.program.var(*v).name),
                _ => format!("o{}", originals.len() + 1),
            };
            let o = logic::fresh_symbol(&name, &sub.ty);
            originals.push((sub.clone(), o.clone()));
            Some(o)
        })
    }

    /// The lvalue `l` (whose address is taken) with `orig` applied to the values its address
    /// depends on.
    fn orig_address(&self, l: &Expr, callee: ProcId, originals: &mut Vec<(Expr, Expr)>) -> Expr {
        let kind = match &l.kind {
            ExprKind::Deref(p) => ExprKind::Deref(Box::new(self.orig(p, callee, originals))),
            ExprKind::Field(base, f) => ExprKind::Field(Box::new(self.orig_address(base, callee, originals)), *f),
            ExprKind::Index(base, i) => {
                let base = self.orig_address(base, callee, originals);
                ExprKind::Index(Box::new(base), Box::new(self.orig(i, callee, originals)))
            }
            _ => return l.clone(),
        };
        Expr::new(kind, l.ty.clone())
    }

    fn translate_call(&mut self, at: StmtRef, lhs: Option<&Expr>, callee: ProcId, args: &[Expr], temporaries: &mut Vec<String>) -> Vec<boolprog::Stmt> {
        let mut out = Vec::new();
        let Some(signature) = self.signatures.get(callee.0 as usize).cloned() else {
            return vec![boolprog::Stmt::skip()];
        };
        let callee_proc = self.program.proc(callee);
        let formals = callee_proc.formals.clone();
        let actual_of = |f: VarId| -> Option<Expr> {
            let k = formals.iter().position(|&x| x == f)?;
            let a = args.get(k)?;
            Some(Expr::cast(a.clone(), self_ty(self.program, f)))
        };
        let caller_visible = self.visible(at.proc);
        let caller_vars = self.cube_variables(&caller_visible);
        let mut record = CallAbstraction { at, parameters: Vec::new(), returns: Vec::new(), updated: Vec::new() };

        // 1. actual parameters for the formal predicates E_f
        let mut prm_names = Vec::new();
        let mut prm_values = Vec::new();
        if signature.has_body {
            for (k, &i) in signature.formal_predicates.iter().enumerate() {
                let e = self.variables[i].predicate.clone();
                let translated = logic::map_expr(&e, &mut |sub| match sub.kind {
                    ExprKind::Var(v) => actual_of(v),
                    _ => None,
                });
                let name = format!("prm{}", k + 1);
                let value = self.choose_for(at, &name, &translated, &caller_vars);
                record.parameters.push((name.clone(), self.record_text(&translated)));
                prm_names.push(name);
                prm_values.push(value);
            }
        }
        if !prm_names.is_empty() {
            out.push(boolprog::Stmt::assign(prm_names.clone(), prm_values));
        }

        // 2. the call, receiving the return predicates E_r
        let vret = match lhs {
            Some(l) => self.fresh(&l.ty, "vret"),
            None => self.fresh(&callee_proc.ret_ty, "vret"),
        };
        let returns = signature.return_vars.clone();
        let mut originals: Vec<(Expr, Expr)> = Vec::new();
        let mut ret_names = Vec::new();
        let mut ret_interpretations = Vec::new();
        if signature.has_body {
            for (k, &i) in signature.return_predicates.iter().enumerate() {
                let e = self.variables[i].predicate.clone();
                let gamma = logic::map_expr(&e, &mut |sub| match sub.kind {
                    ExprKind::Var(v) if returns.contains(&v) => Some(Expr::cast(vret.clone(), sub.ty.clone())),
                    ExprKind::Var(v) => match self.var_kind(v) {
                        // γ('*f) = orig(*a), γ('f) = orig(a) (polymorphic §5.4)
                        Some(VarKind::SymbolicConst { of, .. }) if self.deref_constant_of(v).is_some() => {
                            actual_of(of).map(|a| self.orig(&logic::simplify(&Expr::deref(a)), callee, &mut originals))
                        }
                        Some(VarKind::SymbolicConst { of, .. }) => actual_of(of).map(|a| self.orig(&a, callee, &mut originals)),
                        Some(VarKind::Formal(..)) => actual_of(v).map(|a| self.orig(&a, callee, &mut originals)),
                        _ => None,
                    },
                    _ => None,
                });
                let gamma = logic::simplify(&gamma);
                let name = format!("ret{}", k + 1);
                record.returns.push((name.clone(), self.record_text(&gamma)));
                ret_names.push(name);
                ret_interpretations.push(gamma);
            }
            let args: Vec<BExpr> = prm_names.iter().map(|n| BExpr::var(n.clone())).collect();
            out.push(boolprog::Stmt::call(ret_names.clone(), callee_proc.name.clone(), args));
        }
        for n in prm_names.iter().chain(ret_names.iter()) {
            if !temporaries.contains(n) {
                temporaries.push(n.clone());
            }
        }

        // 3. update the caller's predicates E_u through Ê (polymorphic (3)/(4))
        let mut hat_names = Vec::new();
        let mut hat_interpretations = Vec::new();
        let mut updates: Vec<(usize, Expr)> = Vec::new();
        for (k, &i) in caller_visible.iter().enumerate() {
            let phi = self.variables[i].predicate.clone();
            hat_names.push(caller_vars.names[k].clone());
            // Global predicates are kept up to date by the callee's abstraction (after the call
            // they stand for themselves); a callee without a body has none, so they are updated
            // here like the caller's own. Either may still change by the assignment of the
            // returned value (`g = f()`, `*p = f()` with `p == &g`).
            let kept_by_callee = self.variables[i].scope == PredicateScope::Global && signature.has_body;
            let original = if kept_by_callee { phi.clone() } else { self.orig(&phi, callee, &mut originals) };
            let goal_changed = match lhs {
                Some(l) => logic::wp_assign_unsimplified(self.program, self.alias.as_ref(), l, &vret, &phi) != phi,
                None => false,
            };
            if original != phi || goal_changed {
                let goal = match lhs {
                    Some(l) => logic::wp_assign(self.program, self.alias.as_ref(), l, &vret, &phi),
                    None => phi.clone(),
                };
                updates.push((k, goal));
            }
            hat_interpretations.push(original);
        }
        hat_names.extend(ret_names.iter().cloned());
        hat_interpretations.extend(ret_interpretations);
        let hat = CubeVariables { names: hat_names, interpretations: hat_interpretations };
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (k, goal) in updates {
            let name = caller_vars.names[k].clone();
            let value = self.choose_for(at, &name, &goal, &hat);
            record.updated.push(name.clone());
            names.push(name);
            values.push(value);
        }
        if !names.is_empty() {
            out.push(boolprog::Stmt::assign(names, values));
        }
        self.calls.push(record);
        if out.is_empty() {
            out.push(boolprog::Stmt::skip());
        }
        out
    }
}

/// The syntactic answers of C2BP §5.2: constants, and `ψ` (or `¬ψ`) being a cube variable.
/// Sets the origin and span of `stmts` and of the statements nested in them.
fn set_origin(stmts: &mut [boolprog::Stmt], origin: boolprog::Origin, span: diagnostics::Span) {
    for s in stmts {
        s.origin = Some(origin);
        s.span = span;
        match &mut s.kind {
            boolprog::StmtKind::If { then_branch, else_branch, .. } => {
                set_origin(then_branch, origin, span);
                set_origin(else_branch, origin, span);
            }
            boolprog::StmtKind::While { body, .. } => set_origin(body, origin, span),
            _ => {}
        }
    }
}

/// A formula `F` distributes over (C2BP §5.2): `∧`, `∨`, `=>`, or the negation of one.
fn is_compound(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(BinaryOp::And | BinaryOp::Or | BinaryOp::Implies, ..) => true,
        ExprKind::Unary(c_ir::UnaryOp::Not, a) => is_compound(a),
        _ => false,
    }
}

/// `a ∨ b` (the cubes of both, duplicates dropped).
fn dnf_or(a: &Dnf, b: &Dnf) -> Dnf {
    let mut cubes = a.cubes.clone();
    for c in &b.cubes {
        if !cubes.contains(c) {
            cubes.push(c.clone());
        }
    }
    Dnf { cubes }
}

/// `a ∧ b` (pairwise unions of cubes; contradictory ones dropped).
fn dnf_and(a: &Dnf, b: &Dnf) -> Dnf {
    let mut cubes: Vec<Vec<Literal>> = Vec::new();
    for x in &a.cubes {
        'pairs: for y in &b.cubes {
            let mut cube = x.clone();
            for l in y {
                if cube.iter().any(|m| m.predicate == l.predicate && m.positive != l.positive) {
                    continue 'pairs;
                }
                if !cube.contains(l) {
                    cube.push(*l);
                }
            }
            cube.sort_by_key(|l| l.predicate);
            if !cubes.contains(&cube) {
                cubes.push(cube);
            }
        }
    }
    Dnf { cubes }
}

fn shortcut_for(goal: &Expr, vars: &CubeVariables) -> Option<(Dnf, Dnf)> {
    if goal.is_true() {
        return Some((Dnf::truth(), Dnf::falsity()));
    }
    if goal.is_false() {
        return Some((Dnf::falsity(), Dnf::truth()));
    }
    let negated = logic::simplify(&logic::negate(goal));
    vars.interpretations.iter().enumerate().find_map(|(i, interp)| {
        let interp = logic::simplify(interp);
        if &interp == goal {
            Some((Dnf::literal(Literal::new(i as u32, true)), Dnf::literal(Literal::new(i as u32, false))))
        } else if interp == negated {
            Some((Dnf::literal(Literal::new(i as u32, false)), Dnf::literal(Literal::new(i as u32, true))))
        } else {
            None
        }
    })
}

/// `fresh != NULL && fresh != a1 && ...` for the pointer-valued terms `a_i` of `body` (the
/// addresses a new allocation differs from), as in `logic::wp_malloc`.
fn malloc_premise(body: &Expr, fresh: &Expr) -> Expr {
    let mut existing: Vec<Expr> = Vec::new();
    body.visit(&mut |sub| {
        if sub.ty.is_pointer() && sub != fresh && !existing.contains(sub) && sub.as_const().is_none() {
            let mut mentions_fresh = false;
            sub.visit(&mut |x| mentions_fresh |= x == fresh);
            if !mentions_fresh {
                existing.push(sub.clone());
            }
        }
    });
    let mut conds = vec![Expr::binary(BinaryOp::Ne, fresh.clone(), Expr::int(0, fresh.ty.clone()))];
    conds.extend(existing.into_iter().map(|a| Expr::binary(BinaryOp::Ne, fresh.clone(), a)));
    logic::conjunction(&conds)
}

fn self_ty(program: &Program, v: VarId) -> Type {
    program.var(v).ty.clone()
}

enum Update {
    Assign(Expr),
    Havoc(Expr),
    Malloc(Expr),
}

/// Within a large `enforce` component: for each variable that some predicate is over alone,
/// the predicates over it alone, when they are three to [`ENFORCE_EXACT_MAX`] (fewer are
/// covered by the pairs). Groups over two variables too changed which spurious paths the
/// loop saw and cost `loop-invgen/up` its verdict.
fn small_variable_groups(cone: &[u32], interpretations: &[Expr]) -> Vec<Vec<u32>> {
    let var_sets: Vec<(u32, Vec<c_ir::VarId>)> = cone
        .iter()
        .filter_map(|&i| {
            let mut vs = logic::vars(interpretations.get(i as usize)?);
            vs.sort();
            vs.dedup();
            Some((i, vs))
        })
        .collect();
    let mut singles: Vec<c_ir::VarId> = var_sets
        .iter()
        .filter_map(|(_, vs)| match vs.as_slice() {
            [v] => Some(*v),
            _ => None,
        })
        .collect();
    singles.sort();
    singles.dedup();
    singles
        .into_iter()
        .map(|v| var_sets.iter().filter(|(_, vs)| vs.iter().all(|w| *w == v)).map(|(i, _)| *i).collect::<Vec<u32>>())
        .filter(|group| (3..=ENFORCE_EXACT_MAX).contains(&group.len()))
        .collect()
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn literal_expr(l: &Literal, names: &[String]) -> BExpr {
    let v = BExpr::var(names.get(l.predicate as usize).cloned().unwrap_or_else(|| format!("b{}", l.predicate)));
    if l.positive {
        v
    } else {
        BExpr::not(v)
    }
}

/// A disjunction of cubes as a boolean expression.
pub fn dnf_expr(dnf: &Dnf, names: &[String]) -> BExpr {
    BExpr::or_all(dnf.cubes.iter().map(|c| BExpr::and_all(c.iter().map(|l| literal_expr(l, names)))))
}

/// `¬dnf` as a conjunction of negated cubes, a negated cube `l1 && .. && ln` printed as
/// `l1 && .. => !ln` (the shape of C2BP §4.4's `assume({x==0} ==> {*p<=0})`).
pub(crate) fn negate_dnf(dnf: &Dnf, names: &[String]) -> BExpr {
    BExpr::and_all(dnf.cubes.iter().map(|c| {
        if c.is_empty() {
            return BExpr::ff();
        }
        if c.len() == 1 {
            return literal_expr(&c[0].negated(), names);
        }
        // conclude with a negative literal of the cube (printed positively) when there is one
        let pick = c.iter().rposition(|l| !l.positive).unwrap_or(c.len() - 1);
        let premises = c.iter().enumerate().filter(|(i, _)| *i != pick).map(|(_, l)| literal_expr(l, names));
        BExpr::implies(BExpr::and_all(premises), literal_expr(&c[pick].negated(), names))
    }))
}

/// `choose(pos, neg)` with the obvious simplifications.
pub(crate) fn choose_expr(pos: BExpr, neg: BExpr) -> BExpr {
    match (&pos, &neg) {
        (BExpr::Const(true), _) => BExpr::tt(),
        (BExpr::Const(false), BExpr::Const(true)) => BExpr::ff(),
        (BExpr::Const(false), BExpr::Const(false)) => BExpr::unknown(),
        _ if BExpr::not(pos.clone()) == neg => pos,
        _ => BExpr::choose(pos, neg),
    }
}
