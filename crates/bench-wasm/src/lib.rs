//! The engine benchmarks as comparable reports, for the browser build and natively.
//!
//! The same code runs in both places: compiled to `wasm32-unknown-unknown` (release profile,
//! like the playground's engine worker) it is driven by `scripts/bench-browser.mjs` inside a
//! Web Worker in headless Chromium; compiled natively (`native` profile) the `bench-native`
//! binary runs it and prints the side-by-side table against the browser's [`Report`].
//!
//! The one home of the engine benchmarks (the library crates carry none); `predabs
//! bench-engine` prints [`text_report`]. Three benchmarks:
//! - [`solver_bench`]: queries per second on the recorded abstraction-like implication queries,
//!   both SAT back ends, one incremental session and one-shot (a fresh solver per query);
//! - [`abstraction_bench`]: the C2BP Table 2 programs with both strategies;
//! - [`model_check_bench`]: generated boolean programs of growing size (time, peak BDD nodes).
//!
//! Time comes from `web_time::Instant` (`performance.now()` in the browser).

use serde::{Deserialize, Serialize};

pub mod abstraction_bench;
pub mod model_check_bench;
pub mod solver_bench;
#[cfg(target_arch = "wasm32")]
mod wasm;

/// `predabs bench-engine`: benchmark figures of the engine's parts as a text report
/// (solver throughput per back end, C2BP Table 2 style abstraction rows for both strategies,
/// model checking of generated boolean programs).
pub fn text_report() -> String {
    let mut out = String::new();
    out.push_str("== solver: recorded abstraction queries (cube => WP)\n");
    for line in solver_bench::run_all() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("\n== abstraction (C2BP Table 2 style)\n");
    let mut rows = Vec::new();
    for bench in abstraction_bench::programs() {
        let (program, diagnostics) = c_front::lower(bench.source, bench.name, &c_front::LowerOptions::default());
        let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
            out.push_str(&format!("{}: does not lower\n", bench.name));
            continue;
        };
        let (predicates, pd) = c_front::parse_predicates(&program, bench.predicates);
        if diagnostics::has_errors(&pd) {
            out.push_str(&format!("{}: predicates do not parse\n", bench.name));
            continue;
        }
        rows.extend(abstraction_bench::measure(bench.name, bench.lines(), &program, &predicates));
    }
    out.push_str(&abstraction_bench::format_table(&rows));
    out.push_str("\n== model checking generated boolean programs\n");
    let mc = model_check_bench::generated_programs(&model_check_bench::default_sizes(), &model_check::Config::default());
    out.push_str(&model_check_bench::format_rows(&mc));
    out
}

/// One solver configuration's figures (`crate::solver_bench::BenchReport`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverRow {
    pub backend: String,
    /// `"incremental"` (one session for all queries) or `"one-shot"` (a fresh solver per query).
    pub mode: String,
    pub queries: usize,
    pub valid: usize,
    pub seconds: f64,
    pub queries_per_second: f64,
    pub sat_calls: u64,
    pub clauses: u64,
}

/// One abstraction row (`crate::abstraction_bench::BenchRow`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AbstractionRow {
    pub program: String,
    pub lines: usize,
    pub predicates: usize,
    pub strategy: String,
    pub prover_calls: u64,
    pub cache_hits: u64,
    pub cubes_visited: u64,
    pub time_ms: f64,
}

/// One generated boolean program (`crate::model_check_bench::BenchRow`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelCheckRow {
    pub globals: usize,
    pub procs: usize,
    pub locals: usize,
    pub statements: usize,
    pub seed: u64,
    pub verdict: String,
    pub time_ms: f64,
    pub peak_bdd_nodes: usize,
    pub iterations: u64,
    pub bdd_variables: usize,
}

impl ModelCheckRow {
    /// `globals/procs/locals/statements`, the size of the generated program.
    pub fn size(&self) -> String {
        format!("{}/{}/{}/{}", self.globals, self.procs, self.locals, self.statements)
    }
}

/// What to run (missing JSON fields: the defaults).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// Only the first N recorded solver queries (all when `None`).
    pub solver_limit: Option<usize>,
    /// Only the first N of `crate::model_check_bench::default_sizes()` (all when `None`).
    pub model_check_sizes: Option<usize>,
    pub abstraction: bool,
}

impl Default for Options {
    /// Everything: all solver queries, all sizes, the abstraction benchmark.
    fn default() -> Options {
        Options { solver_limit: None, model_check_sizes: None, abstraction: true }
    }
}

/// The figures of one run on one platform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// `"wasm32"` or the native architecture, e.g. `"x86_64"`.
    pub platform: String,
    /// The browser's user agent (set by the JS driver), empty natively.
    #[serde(default)]
    pub user_agent: String,
    pub solver: Vec<SolverRow>,
    #[serde(default)]
    pub abstraction: Vec<AbstractionRow>,
    pub model_check: Vec<ModelCheckRow>,
    /// Wall time of the whole run.
    pub total_seconds: f64,
}

/// The architecture this code was compiled for.
pub fn platform() -> String {
    std::env::consts::ARCH.to_string()
}

/// The solver benchmark: both back ends, incremental and one-shot, over the recorded queries
/// (the first `limit` of them when given).
pub fn solver_rows(limit: Option<usize>) -> Vec<SolverRow> {
    crate::solver_bench::run_all_limited(limit)
        .into_iter()
        .map(|r| SolverRow {
            backend: r.backend.name().to_string(),
            mode: if r.incremental { "incremental" } else { "one-shot" }.to_string(),
            queries: r.queries,
            valid: r.valid,
            seconds: r.seconds,
            queries_per_second: r.queries_per_second,
            sat_calls: r.sat_calls,
            clauses: r.clauses,
        })
        .collect()
}

/// The abstraction benchmark (C2BP Table 2 programs, both strategies), lowering each program
/// with the front end first (like `predabs bench-engine`). Programs that fail to lower are
/// left out.
pub fn abstraction_rows() -> Vec<AbstractionRow> {
    abstraction_rows_of(&crate::abstraction_bench::programs())
}

/// [`abstraction_rows`] for some of the programs.
pub fn abstraction_rows_of(programs: &[crate::abstraction_bench::BenchProgram]) -> Vec<AbstractionRow> {
    let mut rows = Vec::new();
    for bench in programs {
        let (program, diagnostics) = c_front::lower(bench.source, bench.name, &c_front::LowerOptions::default());
        let Some(program) = program.filter(|_| !diagnostics::has_errors(&diagnostics)) else {
            continue;
        };
        let (predicates, predicate_diagnostics) = c_front::parse_predicates(&program, bench.predicates);
        if diagnostics::has_errors(&predicate_diagnostics) {
            continue;
        }
        for r in crate::abstraction_bench::measure(bench.name, bench.lines(), &program, &predicates) {
            rows.push(AbstractionRow {
                program: r.program,
                lines: r.lines,
                predicates: r.predicates,
                strategy: r.strategy.name().to_string(),
                prover_calls: r.prover_calls,
                cache_hits: r.cache_hits,
                cubes_visited: r.cubes_visited,
                time_ms: r.micros as f64 / 1000.0,
            });
        }
    }
    rows
}

/// The model-checking benchmark on the first `count` default sizes (all when `None`), with
/// the checker's default configuration (like `predabs bench-engine`).
pub fn model_check_rows(count: Option<usize>) -> Vec<ModelCheckRow> {
    let mut sizes = crate::model_check_bench::default_sizes();
    if let Some(n) = count {
        sizes.truncate(n);
    }
    measure_sizes(&sizes)
}

/// The model-checking benchmark on the `index`-th default size alone (`None` past the end).
pub fn model_check_row(index: usize) -> Option<ModelCheckRow> {
    let sizes = crate::model_check_bench::default_sizes();
    measure_sizes(sizes.get(index..=index)?).pop()
}

fn measure_sizes(sizes: &[boolprog::generate::GeneratorParams]) -> Vec<ModelCheckRow> {
    crate::model_check_bench::generated_programs(sizes, &model_check::Config::default())
        .into_iter()
        .map(|r| ModelCheckRow {
            globals: r.params.globals,
            procs: r.params.procs,
            locals: r.params.locals,
            statements: r.params.statements,
            seed: r.params.seed,
            verdict: match r.verdict {
                model_check::Verdict::Safe => "SAFE".to_string(),
                model_check::Verdict::ErrorReachable => "UNSAFE".to_string(),
                model_check::Verdict::Unknown(why) => format!("UNKNOWN({why})"),
            },
            time_ms: r.time_ms,
            peak_bdd_nodes: r.peak_bdd_nodes,
            iterations: r.iterations,
            bdd_variables: r.bdd_variables,
        })
        .collect()
}

/// Runs the benchmarks chosen by `options`: solver, abstraction, model checking, in this order.
pub fn run(options: &Options) -> Report {
    let start = web_time::Instant::now();
    let solver = solver_rows(options.solver_limit);
    let abstraction = if options.abstraction { abstraction_rows() } else { Vec::new() };
    let model_check = model_check_rows(options.model_check_sizes);
    Report {
        platform: platform(),
        user_agent: String::new(),
        solver,
        abstraction,
        model_check,
        total_seconds: start.elapsed().as_secs_f64(),
    }
}

/// One report as plain text.
pub fn format_report(report: &Report) -> String {
    let mut out = format!("platform: {}", report.platform);
    if !report.user_agent.is_empty() {
        out.push_str(&format!(" ({})", report.user_agent));
    }
    out.push_str(&format!(", total {:.1} s\n", report.total_seconds));
    out.push_str("\n== solver: recorded abstraction queries (cube => WP)\n");
    out.push_str("backend  mode         queries  valid   seconds  queries/s  sat-calls    clauses\n");
    for r in &report.solver {
        out.push_str(&format!(
            "{:<8} {:<11} {:>8} {:>6} {:>9.3} {:>10.0} {:>10} {:>10}\n",
            r.backend, r.mode, r.queries, r.valid, r.seconds, r.queries_per_second, r.sat_calls, r.clauses
        ));
    }
    if !report.abstraction.is_empty() {
        out.push_str("\n== abstraction (C2BP Table 2 style)\n");
        out.push_str("program    lines  preds  strategy  prover-calls  cache-hits  cubes  time(ms)\n");
        for r in &report.abstraction {
            out.push_str(&format!(
                "{:<10} {:>5}  {:>5}  {:<8}  {:>12}  {:>10}  {:>5}  {:>8.1}\n",
                r.program, r.lines, r.predicates, r.strategy, r.prover_calls, r.cache_hits, r.cubes_visited, r.time_ms
            ));
        }
    }
    out.push_str("\n== model checking generated boolean programs\n");
    out.push_str("globals procs locals stmts  verdict      time_ms  peak_nodes  iterations\n");
    let mut notes = Vec::new();
    for r in &report.model_check {
        out.push_str(&format!(
            "{:>7} {:>5} {:>6} {:>5}  {:<9} {:>10.1} {:>11} {:>11}\n",
            r.globals,
            r.procs,
            r.locals,
            r.statements,
            short_verdict(&r.verdict, &mut notes),
            r.time_ms,
            r.peak_bdd_nodes,
            r.iterations
        ));
    }
    for note in notes {
        out.push_str(&format!("{note}\n"));
    }
    out
}

/// The verdict without the reason of an UNKNOWN (`UNKNOWN*`; the reasons go below the table).
fn short_verdict<'a>(verdict: &'a str, notes: &mut Vec<String>) -> &'a str {
    match verdict.strip_prefix("UNKNOWN(").and_then(|r| r.strip_suffix(')')) {
        Some(reason) => {
            let note = format!("* UNKNOWN: {reason}");
            if !notes.contains(&note) {
                notes.push(note);
            }
            "UNKNOWN*"
        }
        None => verdict,
    }
}

/// `browser / native` (how many times longer the browser took), or `-` without a native time.
fn ratio(browser: f64, native: f64) -> String {
    if native > 0.0 && browser.is_finite() {
        format!("{:.2}x", browser / native)
    } else {
        "-".to_string()
    }
}

fn geometric_mean(ratios: &[f64]) -> Option<f64> {
    let finite: Vec<f64> = ratios.iter().copied().filter(|r| r.is_finite() && *r > 0.0).collect();
    if finite.is_empty() {
        return None;
    }
    Some((finite.iter().map(|r| r.ln()).sum::<f64>() / finite.len() as f64).exp())
}

/// The side-by-side table of a browser and a native report: per row both figures and the
/// browser/native time ratio (above 1: the browser is slower), the geometric mean of the
/// ratios per benchmark, and whether both runs computed the same results (valid queries,
/// verdicts, peak BDD nodes, prover calls) — they must, the engine is deterministic.
pub fn format_comparison(browser: &Report, native: &Report) -> String {
    let mut out = String::new();
    let mut mismatches = Vec::new();

    out.push_str("== solver: queries per second (ratio = browser time / native time)\n");
    out.push_str("backend  mode         queries  native q/s  browser q/s   ratio\n");
    let mut ratios = Vec::new();
    for b in &browser.solver {
        let Some(n) = native.solver.iter().find(|n| n.backend == b.backend && n.mode == b.mode) else {
            continue;
        };
        if (n.queries, n.valid) != (b.queries, b.valid) {
            mismatches.push(format!("solver {} {}: valid {}/{} natively, {}/{} in the browser", b.backend, b.mode, n.valid, n.queries, b.valid, b.queries));
        }
        ratios.push(b.seconds / n.seconds);
        out.push_str(&format!(
            "{:<8} {:<11} {:>8} {:>11.0} {:>12.0} {:>7}\n",
            b.backend,
            b.mode,
            b.queries,
            n.queries_per_second,
            b.queries_per_second,
            ratio(b.seconds, n.seconds)
        ));
    }
    if let Some(g) = geometric_mean(&ratios) {
        out.push_str(&format!("geometric mean ratio: {g:.2}x\n"));
    }

    if !browser.abstraction.is_empty() && !native.abstraction.is_empty() {
        out.push_str("\n== abstraction: time (ms)\n");
        out.push_str("program    strategy  prover-calls  native ms  browser ms   ratio\n");
        let mut ratios = Vec::new();
        let (mut native_total, mut browser_total) = (0.0, 0.0);
        for b in &browser.abstraction {
            let Some(n) = native.abstraction.iter().find(|n| n.program == b.program && n.strategy == b.strategy) else {
                continue;
            };
            if n.prover_calls != b.prover_calls {
                mismatches.push(format!("abstraction {} {}: {} prover calls natively, {} in the browser", b.program, b.strategy, n.prover_calls, b.prover_calls));
            }
            ratios.push(b.time_ms / n.time_ms);
            native_total += n.time_ms;
            browser_total += b.time_ms;
            out.push_str(&format!(
                "{:<10} {:<8}  {:>12} {:>10.1} {:>11.1} {:>7}\n",
                b.program,
                b.strategy,
                b.prover_calls,
                n.time_ms,
                b.time_ms,
                ratio(b.time_ms, n.time_ms)
            ));
        }
        out.push_str(&format!(
            "{:<10} {:<8}  {:>12} {:>10.1} {:>11.1} {:>7}\n",
            "total",
            "",
            "",
            native_total,
            browser_total,
            ratio(browser_total, native_total)
        ));
        if let Some(g) = geometric_mean(&ratios) {
            out.push_str(&format!("geometric mean ratio: {g:.2}x\n"));
        }
    }

    out.push_str("\n== model checking generated boolean programs (size = globals/procs/locals/stmts)\n");
    out.push_str("size          verdict     native ms  browser ms   ratio  native peak  browser peak\n");
    let mut ratios = Vec::new();
    let mut notes = Vec::new();
    for b in &browser.model_check {
        let Some(n) = native.model_check.iter().find(|n| n.size() == b.size() && n.seed == b.seed) else {
            continue;
        };
        if (&n.verdict, n.peak_bdd_nodes, n.iterations) != (&b.verdict, b.peak_bdd_nodes, b.iterations) {
            mismatches.push(format!(
                "model check {}: {} / {} peak nodes / {} iterations natively, {} / {} / {} in the browser",
                b.size(),
                n.verdict,
                n.peak_bdd_nodes,
                n.iterations,
                b.verdict,
                b.peak_bdd_nodes,
                b.iterations
            ));
        }
        ratios.push(b.time_ms / n.time_ms);
        let verdict = if n.verdict == b.verdict {
            short_verdict(&b.verdict, &mut notes).to_string()
        } else {
            format!("{}|{}", short_verdict(&n.verdict, &mut notes), short_verdict(&b.verdict, &mut notes))
        };
        out.push_str(&format!(
            "{:<13} {:<9} {:>11.1} {:>11.1} {:>7} {:>12} {:>13}\n",
            b.size(),
            verdict,
            n.time_ms,
            b.time_ms,
            ratio(b.time_ms, n.time_ms),
            n.peak_bdd_nodes,
            b.peak_bdd_nodes
        ));
    }
    if let Some(g) = geometric_mean(&ratios) {
        out.push_str(&format!("geometric mean ratio: {g:.2}x\n"));
    }
    for note in notes {
        out.push_str(&format!("{note}\n"));
    }

    out.push_str(&format!(
        "\ntotal wall time: native {:.1} s, browser {:.1} s ({})\n",
        native.total_seconds,
        browser.total_seconds,
        ratio(browser.total_seconds, native.total_seconds)
    ));
    if mismatches.is_empty() {
        out.push_str("results agree: same valid queries, prover calls, verdicts and peak BDD nodes\n");
    } else {
        out.push_str("RESULTS DIFFER:\n");
        for m in mismatches {
            out.push_str(&format!("  {m}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Report {
        run(&Options { solver_limit: Some(40), model_check_sizes: Some(2), abstraction: false })
    }

    #[test]
    fn model_check_rows_match_the_default_sizes() {
        let sizes = crate::model_check_bench::default_sizes();
        // The first three sizes are quick even unoptimised (the biggest take seconds).
        let rows = model_check_rows(Some(3));
        assert_eq!(rows.len(), 3);
        for (row, params) in rows.iter().zip(&sizes) {
            assert_eq!((row.globals, row.procs, row.locals, row.statements, row.seed), (params.globals, params.procs, params.locals, params.statements, params.seed));
            // The generated programs have no asserts: the checker proves them safe.
            assert_eq!(row.verdict, "SAFE");
            assert!(row.peak_bdd_nodes > 0 && row.iterations > 0);
        }
    }

    #[test]
    fn one_size_at_a_time_is_the_same_program() {
        let all = model_check_rows(Some(2));
        let second = model_check_row(1).expect("a second size");
        assert_eq!((second.size(), second.seed, &second.verdict, second.peak_bdd_nodes), (all[1].size(), all[1].seed, &all[1].verdict, all[1].peak_bdd_nodes));
        assert_eq!(model_check_row(crate::model_check_bench::default_sizes().len()), None);
    }

    #[test]
    fn solver_rows_are_both_backends_incremental_and_one_shot() {
        let rows = solver_rows(Some(30));
        let configs: Vec<(&str, &str)> = rows.iter().map(|r| (r.backend.as_str(), r.mode.as_str())).collect();
        assert_eq!(configs, [("batsat", "incremental"), ("varisat", "incremental"), ("batsat", "one-shot"), ("varisat", "one-shot")]);
        for r in &rows {
            assert_eq!(r.queries, 30);
            assert!(r.sat_calls > 0);
        }
        // Both back ends and both modes decide the same queries.
        assert!(rows.iter().all(|r| r.valid == rows[0].valid));
    }

    #[test]
    fn abstraction_rows_have_both_strategies_per_program() {
        // The whole table takes minutes unoptimised: every program must lower (else it would
        // silently be left out), the smallest one is abstracted.
        let programs = crate::abstraction_bench::programs();
        for bench in &programs {
            let (program, diagnostics) = c_front::lower(bench.source, bench.name, &c_front::LowerOptions::default());
            assert!(program.is_some() && !diagnostics::has_errors(&diagnostics), "{} does not lower", bench.name);
        }
        let smallest = programs.iter().min_by_key(|b| b.lines()).copied().expect("programs");
        let rows = abstraction_rows_of(&[smallest]);
        let strategies: Vec<&str> = rows.iter().map(|r| r.strategy.as_str()).collect();
        assert_eq!(strategies, ["lattice", "exact"]);
        assert!(rows.iter().all(|r| r.program == smallest.name && r.prover_calls > 0));
    }

    #[test]
    fn report_survives_json_and_compares_with_itself() {
        let report = small();
        assert_eq!(report.platform, std::env::consts::ARCH);
        let json = serde_json::to_string(&report).unwrap();
        let back: Report = serde_json::from_str(&json).unwrap();
        // Floats may lose their last bit through serde_json; everything else comes back.
        let approx = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
        assert_eq!((back.solver.len(), back.model_check.len(), &back.platform), (4, 2, &report.platform));
        assert!(back.solver.iter().zip(&report.solver).all(|(a, b)| (&a.backend, &a.mode, a.valid, a.clauses) == (&b.backend, &b.mode, b.valid, b.clauses) && approx(a.seconds, b.seconds)));
        assert!(back.model_check.iter().zip(&report.model_check).all(|(a, b)| (a.size(), &a.verdict, a.peak_bdd_nodes) == (b.size(), &b.verdict, b.peak_bdd_nodes) && approx(a.time_ms, b.time_ms)));

        let text = format_report(&report);
        assert!(text.contains("== solver") && text.contains("== model checking"));
        assert_eq!(text.matches("SAFE").count(), 2);

        let comparison = format_comparison(&report, &report);
        assert!(comparison.contains("results agree"), "{comparison}");
        // Four solver rows and two model-check rows, all with ratio 1.
        assert!(comparison.matches("1.00x").count() >= 6, "{comparison}");
    }

    #[test]
    fn unknown_verdicts_are_footnoted() {
        let mut report = small();
        report.model_check[1].verdict = "UNKNOWN(BDD node budget of 2000000 exhausted)".to_string();
        for text in [format_report(&report), format_comparison(&report, &report)] {
            assert!(text.contains("UNKNOWN*") && text.contains("* UNKNOWN: BDD node budget of 2000000 exhausted\n"), "{text}");
            assert!(!text.contains("UNKNOWN(BDD"), "{text}");
        }
    }

    #[test]
    fn comparison_reports_different_results() {
        let native = small();
        let mut browser = native.clone();
        browser.model_check[0].peak_bdd_nodes += 1;
        browser.solver[0].seconds = native.solver[0].seconds * 2.0;
        let comparison = format_comparison(&browser, &native);
        assert!(comparison.contains("RESULTS DIFFER") && comparison.contains("model check 4/2/3/12"), "{comparison}");
        assert!(comparison.contains("2.00x"), "{comparison}");
    }
}
