//! abC variable hiding (seed 003: Dams, Hesse, Holzmann, *Abstracting C with abC*), on the
//! source-level parse of `c-front`.
//!
//! - [`Analysis::new`] parses a C file and an abstraction file (`SCOPE NAME` per line);
//! - [`Analysis::step`] applies the four inference rules once at every store site (the
//!   paper's "one abstraction inference step"), [`Analysis::closure`] until nothing new is
//!   inferred; every inference is plain data ([`Inference`]) for the log and the UI, and
//!   [`Analysis::why`] gives the derivation chain of a hidden variable;
//! - [`Analysis::points_to`] answers points-to queries on demand (the pointer analysis that
//!   rules 2a/2b perform, made explicit for explanations and tests; [`pointsto::OnDemand`]
//!   memoises across queries);
//! - [`transform::transform`] is the paper's `tr`: the hidden program with `NONDET`.
//!
//! Design choices where the paper is silent are listed in the crate's README.

pub mod absfile;
pub mod infer;
pub mod model;
pub mod pointsto;
pub mod printer;
pub mod replay;
pub mod sites;
pub mod transform;

pub use absfile::AbsLine;
pub use diagnostics;
pub use infer::{Hidden, InferOptions, Inference, Rule};
pub use model::{Program, Scope, Ty, VarId, VarKind};
pub use sites::{Site, SiteId, Warning, WarningKind};

use diagnostics::{Diagnostic, LineIndex, Span};

/// A parsed program with its store sites, warnings and the state of the inference.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub source: String,
    pub program: Program,
    pub sites: Vec<Site>,
    pub warnings: Vec<Warning>,
    /// The abstraction file's variables, in its order.
    pub initial: Vec<VarId>,
    pub hidden: Hidden,
    /// Every inference of every step so far, in log order.
    pub inferences: Vec<Inference>,
    /// Steps done (a step that inferred nothing counts and closes the set).
    pub steps: u32,
    pub closed: bool,
    pub options: InferOptions,
    /// Problems in the C file (spans in it).
    pub c_diagnostics: Vec<Diagnostic>,
    /// Problems in the abstraction file (spans in it).
    pub abs_diagnostics: Vec<Diagnostic>,
}

/// One link of a derivation chain: `var` was hidden by `inference` (None: it was in the
/// initial abstraction file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyLink {
    pub var: VarId,
    pub inference: Option<Inference>,
}

/// Sizes before and after hiding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HidingSize {
    pub variables: usize,
    pub hidden_variables: usize,
    pub bits: u64,
    pub hidden_bits: u64,
}

/// Parses the C file (preprocessor and lang-c of `c-front`); `None` when it cannot be parsed.
///
/// `c_front::lower` runs first as the gate: it rejects programs nested deeper than
/// `c_front::MAX_NESTING` (which would overflow the stack in lang-c's parser and in this
/// crate's recursive passes, natively and in the browser's 1 MiB wasm stack) and syntax errors,
/// with diagnostics at line:column.
pub fn parse_program(source: &str, file_name: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let options = c_front::LowerOptions::default();
    let (lowered, gate) = c_front::lower(source, file_name, &options);
    if lowered.is_none() {
        return (None, gate);
    }
    let (text, map, mut diagnostics) = c_front::preprocess(source, file_name, &options);
    if diagnostics::has_errors(&diagnostics) {
        return (None, diagnostics);
    }
    let config = lang_c::driver::Config::with_gcc();
    let run = std::panic::AssertUnwindSafe(|| lang_c::driver::parse_preprocessed(&config, text.clone()));
    let parse = match std::panic::catch_unwind(run) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            let at = map.map_offset(e.offset as u32).min(source.len() as u32);
            let found: String = text.get(e.offset.min(text.len())..).unwrap_or("").chars().take_while(|c| !c.is_whitespace()).take(20).collect();
            let message = if found.is_empty() { "syntax error: unexpected end of input".to_string() } else { format!("syntax error: unexpected `{found}`") };
            diagnostics.push(Diagnostic::error(Span::new(at, (at + 1).min(source.len() as u32)), message));
            return (None, diagnostics);
        }
        Err(_) => {
            diagnostics.push(Diagnostic::error(Span::at(0), "the C parser failed on this file"));
            return (None, diagnostics);
        }
    };
    let lines = LineIndex::new(source);
    let mut builder = model::Builder::new(&text, &map, &lines);
    builder.unit(&parse.unit);
    (Some(builder.program), diagnostics)
}

impl Analysis {
    /// Parses both files. `None` when the C file cannot be parsed (see `c_diagnostics` of the
    /// error); abstraction-file errors leave the offending lines out.
    pub fn new(source: &str, file_name: &str, abstraction: &str, options: InferOptions) -> Result<Analysis, Vec<Diagnostic>> {
        let (program, c_diagnostics) = parse_program(source, file_name);
        let Some(program) = program else { return Err(c_diagnostics) };
        let (lines, mut abs_diagnostics) = absfile::parse(abstraction);
        let (initial, more) = absfile::resolve(&program, &lines);
        abs_diagnostics.extend(more);
        Ok(Analysis::from_program(source, program, c_diagnostics, initial, abs_diagnostics, options))
    }

    /// An analysis of an already parsed program with the given initial set.
    pub fn from_program(source: &str, program: Program, c_diagnostics: Vec<Diagnostic>, initial: Vec<VarId>, abs_diagnostics: Vec<Diagnostic>, options: InferOptions) -> Analysis {
        let index = LineIndex::new(source);
        let mut collector = sites::Collector::new(&program, &index);
        collector.run();
        let (sites, warnings) = (collector.sites, collector.warnings);
        let mut hidden = Hidden::new(program.vars.len());
        for &v in &initial {
            hidden.insert(v);
        }
        Analysis { source: source.to_string(), program, sites, warnings, initial, hidden, inferences: Vec::new(), steps: 0, closed: false, options, c_diagnostics, abs_diagnostics }
    }

    /// One inference step; returns its inferences (empty: the set is closed).
    pub fn step(&mut self) -> Vec<Inference> {
        if self.closed {
            return Vec::new();
        }
        let step = self.steps + 1;
        let new = infer::infer_step(&self.program, &self.sites, &self.hidden, step, self.options);
        self.steps = step;
        if new.is_empty() {
            self.closed = true;
        }
        for inf in &new {
            self.hidden.insert(inf.var);
        }
        self.inferences.extend(new.iter().cloned());
        new
    }

    /// Steps until the set is closed (at most one step per variable, plus the closing one).
    pub fn closure(&mut self) {
        let bound = self.program.vars.len() + 2;
        for _ in 0..bound {
            if self.closed {
                break;
            }
            self.step();
        }
    }

    /// Whether one more step would infer nothing (without changing the analysis).
    pub fn is_closed_set(&self) -> bool {
        infer::infer_step(&self.program, &self.sites, &self.hidden, self.steps + 1, self.options).is_empty()
    }

    /// The inferences of step `k` (1-based).
    pub fn step_log(&self, k: u32) -> Vec<&Inference> {
        self.inferences.iter().filter(|i| i.step == k).collect()
    }

    /// The hidden variables in the order of the new abstraction file: the input lines, then
    /// each step's new variables, globals first, each group in order of first inference.
    pub fn hidden_in_file_order(&self) -> Vec<VarId> {
        let mut out = self.initial.clone();
        for k in 1..=self.steps {
            let mut new: Vec<VarId> = Vec::new();
            for inf in self.step_log(k) {
                if !out.contains(&inf.var) && !new.contains(&inf.var) {
                    new.push(inf.var);
                }
            }
            new.sort_by_key(|v| self.program.var(*v).scope != Scope::Global);
            out.extend(new);
        }
        out
    }

    /// The new abstraction file.
    pub fn abstraction_file(&self) -> String {
        absfile::render(&self.program, &self.hidden_in_file_order())
    }

    /// One log line in the paper's format (`line 6: move xx <--- move d`), left part padded
    /// to `width`.
    pub fn log_line(&self, inf: &Inference, width: usize) -> String {
        let left = format!("line {}: {}", inf.line, self.program.describe(inf.var));
        let from: Vec<String> = inf.from.iter().map(|v| self.program.describe(*v)).collect();
        format!("{left:width$} <--- {}", from.join(", "))
    }

    /// The log of all steps, each headed by `iteration K` (a step that inferred nothing is
    /// shown as `iteration K` followed by `(closed: no new inferences)`).
    pub fn log_text(&self) -> String {
        let mut out = String::new();
        for k in 1..=self.steps {
            out.push_str(&format!("iteration {k}\n"));
            let step = self.step_log(k);
            if step.is_empty() {
                out.push_str("(closed: no new inferences)\n");
            }
            let width = step.iter().map(|i| format!("line {}: {}", i.line, self.program.describe(i.var)).len()).max().unwrap_or(0) + 1;
            for inf in step {
                out.push_str(&self.log_line(inf, width));
                out.push('\n');
            }
        }
        out
    }

    /// The warnings' text: the paper's wording for external calls, `*** abC: WARNING (line N): ...` for the others.
    pub fn warnings_text(&self) -> String {
        let mut out = String::new();
        for w in &self.warnings {
            if w.kind == WarningKind::ExternalCall {
                out.push_str(&w.message);
            } else {
                out.push_str(&format!("*** abC: WARNING (line {}): {}", w.line, w.message));
            }
            out.push('\n');
        }
        for v in self.hidden.iter() {
            let var = self.program.var(v);
            if var.kind != VarKind::Result && var.ty.is_function_pointer() {
                out.push_str(&format!("*** abC: WARNING: the inference hid the function pointer `{}`: calls through it cannot be kept\n", self.program.describe(v)));
            }
        }
        out
    }

    /// The first inference of `v` (None for initial or concrete variables).
    pub fn derivation(&self, v: VarId) -> Option<&Inference> {
        self.inferences.iter().find(|i| i.var == v)
    }

    /// why(v): v, the inference that hid it, the first variable that fired it, ... back to a
    /// variable of the initial file. Empty when v is not hidden.
    pub fn why(&self, v: VarId) -> Vec<WhyLink> {
        let mut out = Vec::new();
        if !self.hidden.contains(v) {
            return out;
        }
        let mut current = v;
        while out.len() <= self.program.vars.len() {
            let inference = if self.initial.contains(&current) { None } else { self.derivation(current).cloned() };
            let next = inference.as_ref().and_then(|i| i.from.first().copied());
            out.push(WhyLink { var: current, inference });
            match next {
                Some(n) if !out.iter().any(|l: &WhyLink| l.var == n) => current = n,
                _ => break,
            }
        }
        out
    }

    /// why(v) as text: `nametab <- line 8 (2b) <- (global) i <- line 16 (2a) <- move d (initial)`.
    pub fn why_text(&self, v: VarId) -> String {
        let mut parts = Vec::new();
        for link in self.why(v) {
            parts.push(self.program.describe(link.var));
            match link.inference {
                Some(inf) => parts.push(format!("line {} (rule {}: {})", inf.line, inf.rule.name(), inf.rule.gloss())),
                None => parts.push("initial abstraction file".into()),
            }
        }
        parts.join(" <- ")
    }

    /// The variables `p` may point to (Andersen-style over the store sites), computed on
    /// demand: only the stores `p` depends on are looked at.
    pub fn points_to(&self, p: VarId) -> Vec<VarId> {
        pointsto::OnDemand::new(&self.program, &self.sites).of(p)
    }

    /// A points-to oracle for several queries (each solved set is memoised: ask it for every
    /// hidden pointer of a view instead of calling [`Analysis::points_to`] per pointer).
    pub fn points_to_queries(&self) -> pointsto::OnDemand<'_> {
        pointsto::OnDemand::new(&self.program, &self.sites)
    }

    /// How much was hidden (the variables of the user's file and functions' results that
    /// have a value).
    pub fn size(&self) -> HidingSize {
        let mut s = HidingSize::default();
        for (i, var) in self.program.vars.iter().enumerate() {
            if var.from_header || matches!(var.ty, Ty::Void | Ty::Func(_)) {
                continue;
            }
            if var.kind == VarKind::Result && !self.program.function(&var.name).is_some_and(|f| f.has_body) {
                continue;
            }
            let bits = self.program.bits(&var.ty);
            s.variables += 1;
            s.bits += bits;
            if self.hidden.contains(VarId(i as u32)) {
                s.hidden_variables += 1;
                s.hidden_bits += bits;
            }
        }
        s
    }

    /// The variables of the user's file that may be listed in an abstraction file (globals,
    /// locals and formals of defined functions; no function pointers).
    pub fn hideable_variables(&self) -> Vec<VarId> {
        (0..self.program.vars.len() as u32)
            .map(VarId)
            .filter(|v| {
                let var = self.program.var(*v);
                !var.from_header && var.kind != VarKind::Result && !var.ty.is_function_pointer()
            })
            .collect()
    }

    /// The initial variables from which `v` was derived (through every inference of its
    /// first step, transitively).
    pub fn initial_sources(&self, v: VarId) -> Vec<VarId> {
        let mut out = Vec::new();
        let mut seen = Hidden::new(self.program.vars.len());
        let mut work = vec![v];
        while let Some(x) = work.pop() {
            if !seen.insert(x) {
                continue;
            }
            if self.initial.contains(&x) {
                out.push(x);
                continue;
            }
            if let Some(first) = self.derivation(x) {
                for inf in self.inferences.iter().filter(|i| i.var == x && i.step == first.step) {
                    work.extend(inf.from.iter().copied());
                }
            }
        }
        out
    }

    /// Localization refinement: the initial set without `vars` and the initial variables
    /// they were derived from.
    pub fn unhide(&self, vars: &[VarId]) -> Vec<VarId> {
        let mut drop: Vec<VarId> = vars.to_vec();
        for &v in vars {
            drop.extend(self.initial_sources(v));
        }
        self.initial.iter().copied().filter(|v| !drop.contains(v)).collect()
    }

    /// The variables a property mentions: those in `assert`-like calls' arguments and in the
    /// conditions of `if` statements whose branch calls an error function.
    pub fn property_variables(&self) -> Vec<VarId> {
        replay::property_variables(&self.program)
    }
}

/// Everything about one inference a UI shows: the store `e1 ← e2` as text, where its parts
/// are, the keys of the side that got hidden, and the abstract occurrences that fired it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InferenceDetail {
    /// `e1 <- e2` (a formal or a function's name as `SCOPE NAME` when the target is one).
    pub store: String,
    pub site_span: Span,
    /// Spans of e1 (None for formals, functions' names and declared variables) and e2.
    pub target_span: Option<Span>,
    pub value_span: Option<Span>,
    /// keys(e1) for rules 1, keys(e2) for rules 2.
    pub keys: Vec<VarId>,
    /// The abstract occurrences with their spans (against the hidden set of the step's start).
    pub occurrences: Vec<(VarId, Span)>,
}

impl Analysis {
    /// The hidden set at the start of step `k` (1-based).
    pub fn hidden_before_step(&self, k: u32) -> Hidden {
        let mut h = Hidden::new(self.program.vars.len());
        for &v in &self.initial {
            h.insert(v);
        }
        for inf in self.inferences.iter().filter(|i| i.step < k) {
            h.insert(inf.var);
        }
        h
    }

    /// The details of an inference (for the UI's log table).
    pub fn detail(&self, inf: &Inference) -> InferenceDetail {
        use sites::{Target, Value};
        let site = &self.sites[inf.site.0 as usize];
        let h = self.hidden_before_step(inf.step);
        let p = &self.program;
        let (target_text, target_span, target_keys, target_occ) = match &site.target {
            Target::Var(v) => (p.describe(*v), None, vec![*v], if h.contains(*v) { vec![(*v, site.span)] } else { Vec::new() }),
            Target::Expr(e) => (printer::expr_to_string(p, e), Some(e.span), infer::keys(p, e), infer::occ_spans(p, &h, e)),
        };
        let values: Vec<&model::Expr> = match &site.value {
            Value::Expr(e) => vec![e],
            Value::List(items) => items.iter().collect(),
            Value::Compound(a, b) => std::iter::once(a).chain(b.iter()).collect(),
        };
        let value_text = values.iter().map(|e| printer::expr_to_string(p, e)).collect::<Vec<_>>().join(", ");
        let value_span = values.iter().map(|e| e.span).reduce(Span::cover);
        let value_occ: Vec<(VarId, Span)> = values.iter().flat_map(|e| infer::occ_spans(p, &h, e)).collect();
        let value_keys: Vec<VarId> = values.iter().filter(|e| e.ty.is_pointer()).flat_map(|e| infer::keys(p, e)).collect();
        let value_text = if matches!(site.value, Value::List(_)) { format!("{{ {value_text} }}") } else { value_text };
        let (keys, occurrences) = match inf.rule {
            Rule::R1a => (target_keys, value_occ),
            Rule::R1b => (target_keys, target_occ),
            Rule::R2a => (value_keys, target_occ),
            Rule::R2b => (value_keys, value_occ),
        };
        InferenceDetail { store: format!("{target_text} <- {value_text}"), site_span: site.span, target_span, value_span, keys, occurrences }
    }
}
