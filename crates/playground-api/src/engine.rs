//! Abstract and Check modes: C + predicates through the abstraction, the model checker and the CEGAR loop.

use crate::explain::*;
use crate::run::{abstract_steps, diagnostics_data, empty_outcome, has_error};
use crate::types::*;
use c_ir::Program;
use diagnostics::LineIndex;

/// Lowered C with the data needed to map spans to lines.
pub(crate) struct LoweredSource {
    pub program: Program,
    pub index: LineIndex,
    pub diagnostics: Vec<DiagnosticData>,
}

pub(crate) fn lower_options(options: &Options) -> c_front::LowerOptions {
    let mut lower = c_front::LowerOptions::default();
    if options.data_model.eq_ignore_ascii_case("ILP32") {
        lower.data_model = c_front::DataModel::Ilp32;
    }
    if !options.entry.trim().is_empty() {
        lower.entry = options.entry.trim().to_string();
    }
    if !options.error_label.trim().is_empty() {
        lower.error_label = Some(options.error_label.trim().to_string());
    }
    lower
}

/// Lowers the request's C source; `Err` carries the outcome to return (diagnostics).
pub(crate) fn lower_request(request: &Request) -> Result<LoweredSource, Box<Outcome>> {
    let file_name = if request.file_name.is_empty() { "input.c" } else { &request.file_name };
    let (program, diagnostics) = c_front::lower(&request.source, file_name, &lower_options(&request.options));
    let data = diagnostics_data(&diagnostics, file_name, &request.source, "source");
    match program {
        Some(program) if !has_error(&data) => {
            Ok(LoweredSource { program, index: LineIndex::new(&request.source), diagnostics: data })
        }
        _ => Err(Box::new(empty_outcome(Verdict::Unknown, "the C program has errors", data))),
    }
}

/// Abstract mode's lowering: C2BP abstracts every procedure on its own, and a program without
/// `main` (C2BP's `partition`) is model-checked from its first procedure, as the boolean program's
/// entry is. With the default entry and no `main`, that procedure is the entry: no warning.
fn lower_for_abstraction(request: &Request) -> Result<LoweredSource, Box<Outcome>> {
    let lowered = lower_request(request)?;
    let default_entry = request.options.entry.trim().is_empty() || request.options.entry.trim() == "main";
    if lowered.program.entry.is_some() || !default_entry {
        return Ok(lowered);
    }
    let Some(first) = lowered.program.procs.iter().find(|p| !p.body.is_empty()) else { return Ok(lowered) };
    let mut retry = request.clone();
    retry.options.entry = first.name.clone();
    lower_request(&retry)
}

/// The 1-based C line of the IR statement an origin points to.
pub(crate) fn c_line(program: &Program, index: &LineIndex, proc: u32, stmt: u32) -> Option<u32> {
    let procedure = program.procs.get(proc as usize)?;
    let statement = procedure.body.get(stmt as usize)?;
    Some(index.line_col(statement.span.start).line)
}

pub(crate) fn solver_config(options: &Options) -> solver::SolverConfig {
    let mut config = if options.int_width == 0 {
        solver::SolverConfig::c_semantics()
    } else {
        solver::SolverConfig::with_int_width(options.int_width)
    };
    config.integers = integer_semantics(options.integers);
    config
}

pub(crate) fn integer_semantics(integers: Integers) -> solver::IntegerSemantics {
    match integers {
        Integers::Wrap => solver::IntegerSemantics::Wrap,
        Integers::Ideal => solver::IntegerSemantics::Ideal,
    }
}

pub(crate) fn abstraction_config(options: &Options) -> abstraction::AbstractionConfig {
    let mut config = abstraction::AbstractionConfig::new(match options.strategy {
        Strategy::Lattice => abstraction::Strategy::Lattice,
        Strategy::Exact => abstraction::Strategy::Exact,
    });
    config.max_cube_length = if options.max_cube == 0 { None } else { Some(options.max_cube as usize) };
    config.record_lattices = options.record_explanations;
    config.solver = solver_config(options);
    config.enforce = options.enforce;
    config.points_to = options.points_to;
    config.distribute_f = options.distribute_f;
    config.precision = match options.precision {
        Precision::Cartesian => abstraction::Precision::Cartesian,
        Precision::Boolean => abstraction::Precision::Boolean,
    };
    config
}

fn outcome_name(outcome: abstraction::CubeOutcome) -> &'static str {
    match outcome {
        abstraction::CubeOutcome::ImpliesGoal => "implies",
        abstraction::CubeOutcome::ImpliesNegatedGoal => "implies_negation",
        abstraction::CubeOutcome::Neither => "neither",
        abstraction::CubeOutcome::PrunedSuperset => "pruned",
        abstraction::CubeOutcome::BeyondMaxLength => "beyond_max_length",
    }
}

fn verdict_name(verdict: abstraction::Verdict) -> &'static str {
    match verdict {
        abstraction::Verdict::Valid => "valid",
        abstraction::Verdict::Invalid => "invalid",
        abstraction::Verdict::Unknown => "unknown",
    }
}

fn named_cube(variables: &[String], cube: &[abstraction::Literal]) -> Vec<(String, bool)> {
    cube.iter()
        .map(|l| (variables.get(l.predicate as usize).cloned().unwrap_or_else(|| format!("#{}", l.predicate)), l.positive))
        .collect()
}

/// One lattice record as the two halves (`F(ψ)` and `F(¬ψ)`) of the lattice view, its boolean
/// variables named by `booleans` (`{p}` over the source's names).
fn lattice_data(record: &abstraction::LatticeRecord, booleans: &crate::names::BooleanNames) -> LatticeData {
    let variables: Vec<String> = record.variables.iter().map(|v| booleans.get(v)).collect();
    let name = |i: &u32| variables.get(*i as usize).cloned().unwrap_or_default();
    let mut cubes = Vec::new();
    let mut log = Vec::new();
    for (order, visited) in record.lattice.iter().enumerate() {
        let query = visited.queries.iter().map(|q| q.text.clone()).collect::<Vec<_>>().join("\n");
        let answer = visited.queries.iter().map(|q| verdict_name(q.answer)).collect::<Vec<_>>().join(", ");
        let micros = visited.queries.iter().map(|q| q.micros as f64).sum();
        for q in &visited.queries {
            log.push((q.text.clone(), q.answer, q.micros, q.cached));
        }
        cubes.push(CubeData {
            literals: named_cube(&variables, &visited.cube),
            outcome: outcome_name(visited.outcome).to_string(),
            query,
            answer,
            micros,
            order: order as u32,
        });
    }
    let exact = record.exact.as_ref().map(|e| {
        let cone: Vec<u32> = record.cone.clone();
        ExactData {
            valuations: e
                .valuations
                .iter()
                .map(|v| {
                    let mut row: Vec<(String, bool)> =
                        cone.iter().zip(&v.values).map(|(i, b)| (name(i), *b)).collect();
                    row.push(("ψ".to_string(), v.goal));
                    row
                })
                .collect(),
            prime_implicants: e.goal_primes.iter().map(|c| named_cube(&variables, c)).collect(),
        }
    });
    // F(ψ) and F(¬ψ) printed again from their cubes over the shown names
    let goal_result = boolprog::print_expr_bebop(&abstraction::dnf_expr(&record.goal_formula, &variables));
    let negated_goal_result = boolprog::print_expr_bebop(&abstraction::dnf_expr(&record.negated_goal_formula, &variables));
    LatticeData {
        target: record.goal.clone(),
        cone: record.cone.iter().map(name).collect(),
        outside_cone: record.outside_cone.iter().map(name).collect(),
        near_cone: record.near_cone.iter().map(name).collect(),
        cubes,
        result: format!("F(ψ) = {goal_result}   F(¬ψ) = {negated_goal_result}"),
        goal_result,
        negated_goal_result,
        exact,
    }
}

/// Explanations of every recorded strengthening, grouped by C statement, in the source's terms:
/// the C statements and the records' C formulas over the source's names (the abstraction
/// printed its records over [`crate::names::SourceNames::variable_names`], see
/// [`record_names`]), boolean variables as `{p}` over them, and each boolean statement printed
/// from the program renamed so (`print` prints the boolean program as the pane does, whose
/// line numbers `printed` holds).
pub(crate) fn explanation_data(
    lowered: &LoweredSource,
    abs: &abstraction::Abstraction,
    printed: &boolprog::Printed,
    print: fn(&boolprog::Program) -> boolprog::Printed,
) -> ExplanationData {
    let mut statements: Vec<StatementExplanation> = Vec::new();
    let mut solver_log = Vec::new();
    // the C statements over the source's names (`return 42;`, not `f_return = 42;`)
    let names = crate::names::SourceNames::new(&lowered.program, &lowered.index);
    let shown = names.display_program();
    let booleans = crate::names::SourceNames::boolean_names(&shown, &abs.variables);
    let shown_text = print(&booleans.rename_program(&abs.program)).text;
    for record in &abs.lattices {
        let at = record.at;
        let exists = lowered.program.proc(at.proc).body.get(at.index as usize).is_some();
        let c_statement = if exists { names.concrete_statement(&shown, at, None) } else { String::new() };
        let bp_line = printed
            .lines
            .iter()
            .find(|l| l.origin == Some(boolprog::Origin { proc: at.proc.0, index: at.index }))
            .map(|l| l.line);
        let index = match statements.iter().position(|s| s.c_statement == c_statement && s.bp_line == bp_line) {
            Some(i) => i,
            None => {
                let call_notes = abs
                    .calls
                    .iter()
                    .filter(|c| c.at == at)
                    .flat_map(|c| {
                        let mut notes = Vec::new();
                        for (prm, e) in &c.parameters {
                            notes.push(format!("{prm}: actual-parameter value of the callee's formal predicate {e} (E_f at the call site)"));
                        }
                        for (ret, g) in &c.returns {
                            notes.push(format!("{ret}: returned value, stands for {g} after the call (E_r)"));
                        }
                        if !c.updated.is_empty() {
                            let updated: Vec<String> = c.updated.iter().map(|u| booleans.get(u)).collect();
                            notes.push(format!("updated after the call (E_u): {}", updated.join(", ")));
                        }
                        notes
                    })
                    .collect();
                statements.push(StatementExplanation {
                    bp_line,
                    c_line: c_line(&lowered.program, &lowered.index, at.proc.0, at.index),
                    c_statement,
                    bp_statement: bp_line
                        .and_then(|l| shown_text.lines().nth(l as usize - 1))
                        .map(|s| s.trim().to_string())
                        .unwrap_or_default(),
                    call_notes,
                    predicates: Vec::new(),
                });
                statements.len() - 1
            }
        };
        let entry = &mut statements[index];
        let positive = lattice_data(record, &booleans);
        let target = booleans.get(&record.target);
        for visited in &record.lattice {
            for q in &visited.queries {
                solver_log.push(QueryData {
                    statement: index as u32,
                    predicate: target.clone(),
                    formula: q.text.clone(),
                    answer: verdict_name(q.answer).to_string(),
                    micros: q.micros as f64,
                    cached: q.cached,
                });
            }
        }
        let wp = record.wp.as_ref();
        entry.predicates.push(PredicateExplanation {
            predicate: target,
            wp_raw: wp.map(|w| w.unpruned.clone()).unwrap_or_else(|| record.goal.clone()),
            alias_cases: wp.map(alias_case_lines).unwrap_or_default(),
            wp_simplified: wp.map(|w| w.simplified.clone()).unwrap_or_else(|| record.goal.clone()),
            assigned: format!("choose({}, {})", positive.goal_result, positive.negated_goal_result),
            negative: LatticeData::default(),
            positive,
        });
    }
    let cached = solver_log.iter().filter(|q| q.cached).count();
    let cache_hit_rate = if solver_log.is_empty() { 0.0 } else { cached as f64 / solver_log.len() as f64 };
    ExplanationData { statements, solver_log, cache_hit_rate }
}

/// The alias cases the abstraction recorded for one weakest precondition (C2BP §4.2), one line
/// each.
fn alias_case_lines(wp: &abstraction::WpRecord) -> Vec<String> {
    let lhs = &wp.lhs;
    let pruned_by = if wp.points_to { "points-to" } else { "types" };
    wp.alias_cases
        .iter()
        .map(|case| {
            let text = &case.location;
            match case.kind {
                abstraction::AliasCaseKind::Assigned => format!("{text} is the assigned location: replaced by {}", wp.value),
                abstraction::AliasCaseKind::MayAlias => {
                    format!("{lhs} may alias {text}: both cases kept (&{lhs} == &{text} and &{lhs} != &{text})")
                }
                abstraction::AliasCaseKind::Pruned => format!("{lhs} cannot alias {text} ({pruned_by}): the alias case is pruned"),
            }
        })
        .collect()
}

fn abstraction_statistics(stats: &abstraction::Statistics) -> Statistics {
    Statistics {
        solver_queries: stats.prover_calls,
        solver_cache_hits: stats.cache_hits,
        cubes_visited: stats.cubes_visited,
        abstraction_ms: stats.micros as f64 / 1000.0,
        ..Statistics::default()
    }
}

/// Abstract mode: user predicates → boolean program → model check → invariants.
pub(crate) fn run_abstract(request: &Request, on_event: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> Outcome {
    let lowered = match lower_for_abstraction(request) {
        Ok(l) => l,
        Err(outcome) => return *outcome,
    };
    let (predicates, predicate_diagnostics) = c_front::parse_predicates(&lowered.program, &request.predicates);
    let mut diagnostics = lowered.diagnostics.clone();
    diagnostics.extend(diagnostics_data(&predicate_diagnostics, "predicates", &request.predicates, "predicates"));
    if has_error(&diagnostics) {
        return empty_outcome(Verdict::Unknown, "the predicates have errors", diagnostics);
    }
    on_event(Event::Progress { phase: "abstracting".into(), iteration: 1, solver_queries: 0 });
    let mut config = abstraction_config(&request.options);
    record_names(&mut config, &lowered);
    let (abs, abstraction_diagnostics) = abstraction::abstract_program(&lowered.program, &predicates, &config);
    diagnostics.extend(diagnostics_data(&abstraction_diagnostics, "input.c", &request.source, "source"));
    if cancel() {
        return empty_outcome(Verdict::Unknown, "cancelled", diagnostics);
    }
    on_event(Event::Progress { phase: "model checking".into(), iteration: 1, solver_queries: abs.statistics.prover_calls });
    let mc_config = model_check::Config { time_budget_ms: Some(request.options.timeout_ms), ..model_check::Config::default() };
    let mc = model_check::check_with_cancel(&abs.program, &mc_config, cancel);
    let line_of = |o: boolprog::Origin| c_line(&lowered.program, &lowered.index, o.proc, o.index);
    let print = match request.options.syntax {
        Syntax::Bebop => boolprog::print_bebop,
        Syntax::C2bp => boolprog::print_c_like,
    };
    let (text, printed) = crate::run::printed_text(print(&abs.program), &line_of);
    let mut statistics = abstraction_statistics(&abs.statistics);
    statistics.predicates = predicates.len() as u64;
    statistics.bdd_peak_nodes = mc.statistics.peak_bdd_nodes as u64;
    statistics.model_check_ms = mc.statistics.time_ms;
    let explanation = request.options.record_explanations.then(|| explanation_data(&lowered, &abs, &printed, print));
    let names = crate::names::SourceNames::new(&lowered.program, &lowered.index);
    let booleans = crate::names::SourceNames::boolean_names(&names.display_program(), &abs.variables);
    let mut snapshot = IterationSnapshot {
        index: 1,
        predicates: c_front::display_predicates(&lowered.program, &predicates),
        boolean_program: text,
        statistics: statistics.clone(),
        explanation,
        predicate_names: booleans.renamed(),
        ..IterationSnapshot::default()
    };
    if let Some(trace) = &mc.trace {
        let shown = print(&booleans.rename_program(&abs.program)).text;
        snapshot.abstract_trace = abstract_steps(&abs.program, &printed, trace, &line_of, Some((&booleans, &shown)));
        snapshot.symbolic_constants = names.symbolic_constants(trace_predicate_vars(&abs.variables, Some(trace)));
        snapshot.counterexample_search = counterexample_search(Some(trace.search));
    }
    let (verdict, reason) = match &mc.verdict {
        model_check::Verdict::Safe => (Verdict::Safe, cegar::SAFE_BECAUSE_ABSTRACTION_IS_SAFE.to_string()),
        model_check::Verdict::ErrorReachable => (
            Verdict::Unknown,
            "the error is reachable in the boolean program; without refinement the C program may or may not be safe"
                .to_string(),
        ),
        model_check::Verdict::Unknown(why) => (Verdict::Unknown, why.clone()),
    };
    on_event(Event::Iteration { snapshot: Box::new(snapshot.clone()) });
    let invariants = mc
        .invariants
        .iter()
        .filter(|inv| inv.label.is_some() || inv.stmt.0 == 0)
        .map(|inv| InvariantData {
            procedure: abs.program.procs.get(inv.proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default(),
            c_line: inv.origin.and_then(line_of),
            location: match &inv.label {
                Some(l) => format!("at {l}"),
                None => "at entry".to_string(),
            },
            formula: inv.text.clone(),
            predicates: invariant_predicates(inv, &abs.variables),
        })
        .collect();
    Outcome {
        verdict,
        sv_comp: verdict.sv_comp().to_string(),
        reason,
        diagnostics,
        final_predicates: snapshot.predicates.clone(),
        iterations: vec![snapshot],
        invariants,
        invariant_source: "boolean_program".into(),
        trace: Vec::new(),
        inputs: Vec::new(),
        input_sources: Vec::new(),
        runtime_error: None,
        statistics,
        elapsed_ms: 0.0,
        decided_by: None,
        next_step: String::new(),
        predicates: Vec::new(),
        cancelled: false,
    }
}

pub(crate) fn verify_config(options: &Options) -> verify::Config {
    let mut config = verify::Config::default_for_cli();
    let l = &mut config.loop_config;
    l.refinement = match options.refine {
        RefineMethod::Wp => cegar::RefinementMethod::Wp,
        RefineMethod::Sp => cegar::RefinementMethod::Sp,
    };
    l.max_iterations = options.max_iterations.max(1);
    l.strategy = match options.strategy {
        Strategy::Lattice => abstraction::Strategy::Lattice,
        Strategy::Exact => abstraction::Strategy::Exact,
    };
    l.max_cube_length = if options.max_cube == 0 { None } else { Some(options.max_cube as usize) };
    l.max_cone = if options.max_cone == 0 { None } else { Some(options.max_cone as usize) };
    l.integer_width = if options.int_width == 0 { None } else { Some(options.int_width) };
    l.integers = integer_semantics(options.integers);
    config.time_budget_ms = Some(options.timeout_ms);
    config.work_budget = (options.budget > 0).then_some(options.budget);
    let selected: Vec<verify::Technique> = options.techniques.iter().map(|t| technique_to_engine(*t)).collect();
    // an empty selection is the textbook loop: the loop always runs in Check mode
    config.techniques = if selected.is_empty() { verify::Techniques::textbook() } else { verify::Techniques::of(&selected) };
    config
}

pub(crate) fn technique_to_engine(t: Technique) -> verify::Technique {
    match t {
        Technique::Cegar => verify::Technique::Cegar,
        Technique::Candidates => verify::Technique::Candidates,
        Technique::Zones => verify::Technique::Zones,
        Technique::HeapValues => verify::Technique::HeapValues,
        Technique::Bmc => verify::Technique::Bmc,
        Technique::SingleExecution => verify::Technique::SingleExecution,
        Technique::RandomRuns => verify::Technique::RandomRuns,
    }
}

fn technique_from_engine(t: verify::Technique) -> Technique {
    *Technique::ALL.iter().find(|&&u| technique_to_engine(u) == t).unwrap_or(&Technique::Cegar)
}

fn scoped_predicates_text(program: &Program, predicates: &[cegar::ScopedPredicate]) -> String {
    cegar::format_predicates(program, predicates)
}

/// `p` with its scope and origin; `shown` is the program with the source's names
/// ([`crate::names::SourceNames::display_program`]) it is printed over for students.
fn predicate_data(lowered: &LoweredSource, shown: &c_ir::Program, p: &cegar::ScopedPredicate) -> PredicateData {
    let program = &lowered.program;
    let origin = match &p.origin {
        cegar::PredicateOrigin::ErrorGuard => PredicateOrigin::ErrorGuard,
        cegar::PredicateOrigin::BranchCondition => PredicateOrigin::BranchCondition,
        cegar::PredicateOrigin::User => PredicateOrigin::User,
        cegar::PredicateOrigin::Refinement { iteration, at, step } => PredicateOrigin::Refinement {
            iteration: *iteration,
            step: *step as u32 + 1,
            c_line: at.and_then(|at| c_line(program, &lowered.index, at.proc.0, at.index)),
        },
        cegar::PredicateOrigin::Candidate { iteration, analysis } => PredicateOrigin::Candidate { iteration: *iteration, analysis: analysis.to_string() },
    };
    PredicateData {
        scope: p.scope.map(|s| program.proc(s).name.clone()).unwrap_or_else(|| "global".into()),
        text: p.text.clone(),
        origin,
        shown: c_ir::display_expr(shown, &p.predicate),
    }
}

/// The predicates an invariant of the boolean program mentions (those of its literals' boolean
/// variables), as the engine printed them (`{p}` in the formula is `p`), in the order of the
/// abstraction's variables, without duplicates.
fn invariant_predicates(inv: &model_check::Invariant, variables: &[abstraction::BooleanVariable]) -> Vec<String> {
    let literals: Vec<&model_check::Literal> = inv.cubes.iter().chain(inv.clauses.iter().flatten()).flatten().collect();
    let mut out: Vec<String> = Vec::new();
    for v in variables {
        if !v.text.is_empty() && literals.iter().any(|l| l.var == v.name) && !out.contains(&v.text) {
            out.push(v.text.clone());
        }
    }
    out
}

/// The columns of a feasibility table as named columns: one per `wp` condition thread (`thread
/// 1` is the error guard's, numbered backwards along the path as BOOP Fig 7.3 does), NEWTON's
/// `Ω`, `Φ`, `Π`.
pub(crate) fn feasibility_columns(table: &[refine::FeasibilityRow]) -> Vec<Vec<(String, String)>> {
    let mut threads: Vec<usize> = table
        .iter()
        .flat_map(|r| &r.conditions)
        .filter_map(|c| match c.column {
            refine::ConditionColumn::Thread { origin_step } => Some(origin_step),
            _ => None,
        })
        .collect();
    threads.sort_unstable_by(|a, b| b.cmp(a));
    threads.dedup();
    let name = |column: refine::ConditionColumn| match column {
        refine::ConditionColumn::Thread { origin_step } => {
            format!("thread {}", threads.iter().position(|&s| s == origin_step).unwrap_or(0) + 1)
        }
        refine::ConditionColumn::Omega => "Ω".to_string(),
        refine::ConditionColumn::Phi => "Φ".to_string(),
        refine::ConditionColumn::Pi => "Π".to_string(),
    };
    table.iter().map(|row| row.conditions.iter().map(|c| (name(c.column), c.text.clone())).collect()).collect()
}

/// Converts one CEGAR iteration record to a snapshot.
pub(crate) fn iteration_snapshot(lowered: &LoweredSource, record: &cegar::IterationRecord) -> IterationSnapshot {
    let program = &lowered.program;
    let line_count = record.boolean_program.lines().count();
    let mut c_lines = vec![None; line_count];
    for info in &record.line_map {
        if let (Some(at), Some(slot)) = (info.origin, c_lines.get_mut((info.line as usize).wrapping_sub(1))) {
            *slot = c_line(program, &lowered.index, at.proc, at.index);
        }
    }
    let names = crate::names::SourceNames::new(program, &lowered.index);
    // the program over the source's names, which predicates and learned cubes are printed over
    let shown_program = names.display_program();
    // the path of the feasibility check again (`expand_path` is deterministic: the same
    // arena as the table's expressions), its variables named in the source's terms
    let path = record.feasibility.as_ref().and_then(|_| refine::expand_path(program, &record.c_path).ok());
    let path_names = path.as_ref().map(|p| names.path_names(p));
    let abstract_trace = match (&record.abstract_program, &record.abstract_counterexample) {
        (Some(bp), Some(trace)) => {
            // the text and line map the loop printed once
            let printed = boolprog::Printed { text: record.boolean_program.clone(), lines: record.line_map.clone() };
            let booleans = match &path_names {
                Some(p) => crate::names::SourceNames::boolean_names(p.shown(), &record.boolean_variables),
                None => crate::names::SourceNames::boolean_names(&shown_program, &record.boolean_variables),
            };
            let shown = boolprog::print_bebop(&booleans.rename_program(bp)).text;
            let line_of = |o: boolprog::Origin| c_line(program, &lowered.index, o.proc, o.index);
            abstract_steps(bp, &printed, trace, &line_of, Some((&booleans, &shown)))
        }
        _ => record
            .abstract_trace
            .iter()
            .map(|line| AbstractStep {
                procedure: line.split(':').next().unwrap_or("").trim().to_string(),
                bp_line: None,
                c_line: None,
                statement: line.clone(),
                kind: String::new(),
                valuation: Vec::new(),
            })
            .collect(),
    };
    let (feasibility, method, table) = match &record.feasibility {
        Some(f) => (
            f.verdict.to_string(),
            f.method.name().to_string(),
            f.table
                .iter()
                .zip(feasibility_columns(&f.table))
                .filter_map(|(row, columns)| {
                    let contradiction = matches!(f.verdict, cegar::Feasibility::Infeasible { step, .. } if step == row.step)
                        || row.conditions.iter().any(|c| c.is_false);
                    // typed: the path's statement and conditions printed over display names;
                    // the printed text only if the path could not be expanded again
                    let (statement, columns, atoms) = match &path_names {
                        Some(p) => {
                            let statement = match p.statement(row.step) {
                                Some(s) => s,
                                None if contradiction => row.statement.clone(),
                                None => return None,
                            };
                            let texts = row.conditions.iter().map(|c| p.condition(c));
                            let mut atoms = Vec::new();
                            row.conditions.iter().for_each(|c| p.condition_atoms(c, &mut atoms));
                            (statement, columns.into_iter().zip(texts).map(|((column, _), text)| (column, text)).collect(), atoms)
                        }
                        None => (row.statement.clone(), columns, Vec::new()),
                    };
                    Some(FeasibilityRow {
                        step: row.step as u32 + 1,
                        c_line: c_line(program, &lowered.index, row.origin.proc.0, row.origin.index),
                        statement,
                        contradiction,
                        columns,
                        atoms,
                    })
                })
                .collect(),
        ),
        None => (String::new(), String::new(), Vec::new()),
    };
    let (feasibility_kind, infeasible_step) = match record.feasibility.as_ref().map(|f| &f.verdict) {
        None => (FeasibilityKind::None, None),
        Some(cegar::Feasibility::Feasible) => (FeasibilityKind::Feasible, None),
        Some(cegar::Feasibility::Infeasible { step, .. }) => (FeasibilityKind::Infeasible, Some(*step as u32 + 1)),
        Some(cegar::Feasibility::Unknown(_)) => (FeasibilityKind::Unknown, None),
    };
    IterationSnapshot {
        index: record.iteration,
        predicates: scoped_predicates_text(program, &record.predicates_before),
        boolean_program: BooleanProgramText { text: record.boolean_program.clone(), c_lines },
        abstract_trace,
        counterexample_search: counterexample_search(record.abstract_trace_search),
        feasibility,
        feasibility_method: method,
        feasibility_kind,
        infeasible_step,
        feasibility_table: table,
        new_predicates: record.new_predicates.iter().map(|p| p.text.clone()).collect(),
        added_predicates: record.new_predicates.iter().map(|p| predicate_data(lowered, &shown_program, p)).collect(),
        learned: record.learned.iter().map(|cube| cube.text(|l| c_ir::display_expr(&shown_program, &l.predicate))).collect(),
        notes: record.feasibility.as_ref().map(|f| f.notes.clone()).unwrap_or_default(),
        statistics: Statistics {
            solver_queries: record.statistics.abstraction_prover_calls + record.statistics.refine_solver_calls,
            bdd_peak_nodes: record.statistics.peak_bdd_nodes as u64,
            abstraction_ms: record.statistics.abstraction_ms as f64,
            model_check_ms: record.statistics.model_check_ms as f64,
            refine_ms: record.statistics.refine_ms as f64,
            predicates: record.predicates_before.len() as u64,
            work_units: record.statistics.abstraction_work + record.statistics.model_check_work + record.statistics.refine_work,
            ..Statistics::default()
        },
        explanation: None,
        pushdown: None,
        symbolic_constants: names
            .symbolic_constants(trace_predicate_vars(&record.boolean_variables, record.abstract_counterexample.as_ref()).chain(
                match (&path_names, &record.feasibility) {
                    (Some(p), Some(f)) => p.program_vars(&f.table),
                    _ => Vec::new(),
                },
            ))
            .into_iter()
            .chain(path_names.iter().flat_map(|p| p.legend().iter().cloned()))
            .collect(),
        predicate_names: crate::names::SourceNames::boolean_names(&shown_program, &record.boolean_variables).renamed(),
    }
}

/// The variables of the predicates whose boolean variables an abstract counterexample's
/// valuations show.
fn trace_predicate_vars<'a>(variables: &'a [abstraction::BooleanVariable], trace: Option<&'a model_check::Trace>) -> impl Iterator<Item = c_ir::VarId> + 'a {
    variables
        .iter()
        .filter(move |v| trace.is_some_and(|t| t.steps.iter().any(|s| s.valuation.iter().any(|(n, _)| *n == v.name))))
        .flat_map(|v| v.predicate.vars())
}

pub(crate) fn counterexample_search(search: Option<model_check::TraceSearch>) -> CounterexampleSearch {
    match search {
        None => CounterexampleSearch::None,
        Some(model_check::TraceSearch::BreadthFirst) => CounterexampleSearch::BreadthFirst,
        Some(model_check::TraceSearch::Ranked) => CounterexampleSearch::Ranked,
    }
}

/// Independent confirmation of an UNSAFE verdict (used by `predabs bench`): lowers `request`'s
/// source afresh and replays `inputs` (as printed in [`Outcome::inputs`]) on the concrete
/// interpreter. `Ok` gives the number of steps of the replayed trace; `Err` says why the run
/// does not reach the error.
pub fn replay_inputs(request: &Request, inputs: &[String]) -> Result<usize, String> {
    let lowered = lower_request(request).map_err(|outcome| outcome.reason)?;
    let values = inputs
        .iter()
        .map(|text| text.trim().parse::<i128>().map_err(|_| format!("input `{text}` is not an integer")))
        .collect::<Result<Vec<_>, _>>()?;
    concrete::replay_to_error(&lowered.program, &values).map(|cex| cex.steps.len()).map_err(|e| e.to_string())
}

/// Check mode: the CEGAR loop.
pub(crate) fn run_check(request: &Request, on_event: &mut dyn FnMut(Event), cancel: &dyn Fn() -> bool) -> Outcome {
    let lowered = match lower_request(request) {
        Ok(l) => l,
        Err(outcome) => return *outcome,
    };
    let mut config = verify_config(&request.options);
    let (user_predicates, predicate_diagnostics) = c_front::parse_predicates(&lowered.program, &request.predicates);
    if diagnostics::has_errors(&predicate_diagnostics) {
        let mut diagnostics = lowered.diagnostics.clone();
        diagnostics.extend(diagnostics_data(&predicate_diagnostics, "predicates", &request.predicates, "predicates"));
        return empty_outcome(Verdict::Unknown, "the predicates have errors", diagnostics);
    }
    config.loop_config.user_predicates = user_predicates;
    // each iteration reaches the front end as soon as it is finished
    let mut forward = |e: verify::Event| match e {
        verify::Event::Technique { technique, .. } => {
            on_event(Event::Progress { phase: technique.describe().to_string(), iteration: 0, solver_queries: 0 })
        }
        verify::Event::Loop(cegar::Event::Progress(p)) => {
            on_event(Event::Progress { phase: p.phase.describe().to_string(), iteration: p.iteration, solver_queries: p.solver_calls })
        }
        verify::Event::Loop(cegar::Event::Iteration(record)) => {
            on_event(Event::Iteration { snapshot: Box::new(iteration_snapshot(&lowered, record)) })
        }
    };
    let result = verify::check_program(&lowered.program, &config, &mut forward, cancel);
    check_outcome(request, &lowered, &result)
}

/// The plain data of a Check run's result (also of a stepped run, `run::CheckSteps`).
pub(crate) fn check_outcome(request: &Request, lowered: &LoweredSource, result: &verify::CheckOutcome) -> Outcome {
    let program = &lowered.program;
    let iterations: Vec<IterationSnapshot> = result.iterations.iter().map(|r| iteration_snapshot(lowered, r)).collect();
    let mut diagnostics = lowered.diagnostics.clone();
    let file_name = if request.file_name.is_empty() { "input.c" } else { &request.file_name };
    diagnostics.extend(diagnostics_data(&result.diagnostics, file_name, &request.source, "source"));
    let verdict = match result.verdict {
        cegar::Verdict::Safe => Verdict::Safe,
        cegar::Verdict::Unsafe => Verdict::Unsafe,
        cegar::Verdict::Unknown => Verdict::Unknown,
    };
    let names = crate::names::SourceNames::new(program, &lowered.index);
    // UNKNOWN because the feasible path's run met undefined behaviour: that run is the trace
    let runtime_failure = match result.loop_end.as_ref().and_then(cegar::LoopEnd::stop_reason) {
        Some(cegar::StopReason::ReplayFailed(f)) if result.verdict == cegar::Verdict::Unknown => f.runtime_error.as_ref(),
        _ => None,
    };
    let run = result.counterexample.as_ref().or(runtime_failure.map(|f| &f.run));
    let (trace, inputs, input_sources) = match run {
        Some(cex) => (
            concrete_steps(&names, lowered, cex),
            cex.inputs.iter().map(|v| v.to_string()).collect(),
            cex.inputs.iter().zip(&cex.input_sites).map(|(&v, &site)| names.input(v, site)).collect(),
        ),
        None => (Vec::new(), Vec::new(), Vec::new()),
    };
    let runtime_error = runtime_failure.map(|f| {
        let at = lowered.index.line_col(f.span.start);
        RuntimeErrorData { message: f.message.clone(), line: at.line, column: at.column, c_source: names.c_text(f.span).unwrap_or_default() }
    });
    let reason = match &runtime_error {
        Some(e) => format!(
            "the solver found a path to the error feasible, but its run stops at line {}:{} ({}) on undefined behaviour: {}",
            e.line, e.column, e.c_source, e.message
        ),
        None => result.reason.clone().unwrap_or_default(),
    };
    let invariants = result
        .invariants
        .iter()
        .map(|inv| InvariantData {
            procedure: program.procs.get(inv.at.proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default(),
            c_line: Some(lowered.index.line_col(inv.span.start).line),
            location: match inv.point {
                c_ir::points::InvariantPoint::ProcedureEntry => "at entry".to_string(),
                c_ir::points::InvariantPoint::LoopHead => "at loop head".to_string(),
            },
            formula: inv.text.clone(),
            predicates: Vec::new(),
        })
        .collect();
    let statistics = Statistics {
        predicates: result.predicates.len() as u64,
        solver_queries: result.statistics.solver_calls,
        abstraction_ms: result.statistics.abstraction_ms as f64,
        model_check_ms: result.statistics.model_check_ms as f64,
        refine_ms: result.statistics.refine_ms as f64,
        work_units: result.statistics.work_units,
        ..Statistics::default()
    };
    Outcome {
        verdict,
        sv_comp: verdict.sv_comp().to_string(),
        reason,
        diagnostics,
        iterations,
        final_predicates: scoped_predicates_text(program, &result.predicates),
        invariants,
        invariant_source: result.invariant_source.name().into(),
        trace,
        inputs,
        input_sources,
        runtime_error,
        statistics,
        elapsed_ms: result.statistics.time_ms as f64,
        decided_by: result.decided_by.map(technique_from_engine),
        next_step: result.next_step.clone().unwrap_or_default(),
        predicates: {
            let shown = crate::names::SourceNames::new(&lowered.program, &lowered.index).display_program();
            result.predicates.iter().map(|p| predicate_data(&lowered, &shown, p)).collect()
        },
        cancelled: result.cancelled,
    }
}

/// A concrete run's steps in the source's terms: the lowering's own steps left out, names
/// mapped back, pointers shown as what they point to, each step with its C text.
fn concrete_steps(names: &crate::names::SourceNames, lowered: &LoweredSource, run: &concrete::Counterexample) -> Vec<ConcreteStep> {
    let program = &lowered.program;
    let shown = names.display_program();
    let inputs = input_numbers(run);
    run.steps
        .iter()
        .zip(inputs)
        .filter(|(s, _)| s.statement.starts_with("/*") || !names.is_lowering_artefact(s.at))
        .map(|(s, input)| ConcreteStep {
            line: lowered.index.line_col(s.span.start).line,
            procedure: program.procs.get(s.at.proc.0 as usize).map(|p| p.name.clone()).unwrap_or_default(),
            // the interpreter's own notes (`/* 3 more iterations … */`) are no program statement
            statement: if s.statement.starts_with("/*") { s.statement.clone() } else { names.concrete_statement(&shown, s.at, input) },
            values: s
                .values
                .iter()
                .filter(|v| names.shows_value(v.var))
                .map(|v| (names.display(v.var), v.target.map(|t| names.pointer(t)).unwrap_or_else(|| v.value.to_string())))
                .collect(),
            c_source: if s.statement.starts_with("/*") { String::new() } else { names.line_text(lowered.index.line_col(s.span.start).line).unwrap_or_default() },
        })
        .collect()
}

/// For each step of a concrete run, the 1-based number of the input it reads, if any: the
/// steps before the run's elided middle (`/* N statements not shown */`) are matched with
/// the input sites from the first on, those after it from the last back.
fn input_numbers(run: &concrete::Counterexample) -> Vec<Option<usize>> {
    let sites: Vec<Option<c_ir::StmtRef>> = run
        .input_sites
        .iter()
        .map(|s| match s {
            concrete::InputSite::Statement { at, .. } => Some(*at),
            concrete::InputSite::EntryFormal(_) => None,
        })
        .collect();
    let mut numbers = vec![None; run.steps.len()];
    let elided = run.steps.iter().position(|s| s.statement.starts_with("/*") && s.statement.contains("not shown")).unwrap_or(run.steps.len());
    let mut next = 0;
    for (k, step) in run.steps.iter().enumerate().take(elided) {
        if let Some(i) = (next..sites.len()).find(|&i| sites[i] == Some(step.at)) {
            numbers[k] = Some(i + 1);
            next = i + 1;
        }
    }
    let mut last = sites.len();
    for (k, step) in run.steps.iter().enumerate().skip(elided).rev() {
        if let Some(i) = (next..last).rev().find(|&i| sites[i] == Some(step.at)) {
            numbers[k] = Some(i + 1);
            last = i;
        }
    }
    numbers
}

/// Check mode's explanations on demand (issue 31 item 9): the cube lattices, WP conditions and
/// solver queries of one iteration's abstraction (C2BP §4, BOOP Fig 5.1), recomputed with the
/// iteration's predicates (`IterationSnapshot::predicates`) and the abstraction settings of the
/// CEGAR loop, the lattices recorded. The boolean program is printed as the loop prints it, so
/// the explanation's boolean lines are the iteration's.
pub fn explain_iteration(request: &Request, predicates: &str) -> Result<ExplanationData, String> {
    let lowered = lower_request(request).map_err(|o| o.reason)?;
    let (set, diagnostics) = c_front::parse_predicates(&lowered.program, predicates);
    if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!("the iteration's predicates do not parse: {}", error.message));
    }
    let loop_config = verify_config(&request.options).loop_config;
    let mut config = abstraction::AbstractionConfig::new(loop_config.strategy);
    config.max_cube_length = loop_config.max_cube_length;
    config.max_cone = loop_config.max_cone;
    config.record_lattices = true;
    config.solver = solver_config(&request.options);
    config.solver.log_queries = true;
    record_names(&mut config, &lowered);
    let (abs, diagnostics) = abstraction::abstract_program(&lowered.program, &set, &config);
    if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!("abstraction failed: {}", error.message));
    }
    let printed = boolprog::print_bebop(&abs.program);
    Ok(explanation_data(&lowered, &abs, &printed, boolprog::print_bebop))
}

/// While recording explanations: the abstraction prints its records over the source's names.
fn record_names(config: &mut abstraction::AbstractionConfig, lowered: &LoweredSource) {
    if config.record_lattices {
        config.record_names = Some(crate::names::SourceNames::new(&lowered.program, &lowered.index).variable_names());
    }
}
