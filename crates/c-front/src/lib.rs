//! The C front end: preprocessing, parsing with lang-c, type checking and lowering to `c-ir`,
//! plus parsing of C2BP predicate files and single expressions against a lowered program.
//!
//! Entry points: [`lower`] for a whole C file, [`parse_predicates`] for `proc { p1, p2 }`
//! predicate files, [`parse_expression`] for one C expression in a procedure's scope.
//! Nothing here panics on user input; every problem is a [`Diagnostic`] whose span is a byte
//! range of the text that was passed in.
//!
//! Lowering conventions (beyond those fixed in `c_ir`'s module doc):
//! - names: globals keep their source names; a formal/local whose name is taken becomes
//!   `name_proc`, then `name_N`; temporaries are `tmpN`; the return variable is `proc_return`;
//!   symbolic constants are `'name`; generated labels are `LN`, source labels keep their names;
//! - `if`/loops: `goto Lt, Lf; Lt: assume(c); ...; Lf: assume(!c);` with `!` pushed into
//!   relational operators; constant conditions produce no branch; `break` jumps past the
//!   negated loop test; `switch` dispatches with one `assume(v == k)` arm per case plus a
//!   default arm `assume(v != k1 && ...)`;
//! - `&&`, `||`, `?:` stay expressions (`And`/`Or`/`Ite`) unless an operand has side effects,
//!   then they become control flow over a temporary;
//! - `x = f(...)` calls straight into `x` when the types agree (also `p = (T*)malloc(n)`);
//!   other calls inside expressions go through temporaries, left to right;
//! - `__VERIFIER_nondet_*()` is `Havoc`; `reach_error()`, `__VERIFIER_error()`, `__assert_fail()`
//!   and a failing `assert(e)` are `Error` (even when the file gives them a body);
//!   `__VERIFIER_assume(c)` is `Assume`; `abort()`/`exit()` are `assume(false)`; `malloc`,
//!   `calloc` (size `n * s`), `alloca` are `Malloc`; `free` is `Free`; other functions without a
//!   body havoc their result and what non-`const` pointer arguments point to (one warning each);
//! - globals (and static locals, which become renamed globals) are initialised at the start of
//!   the entry procedure, zero-filled where C says so (arrays with more than 32 scalars by a loop);
//!   locals without initialiser are left alone (the interpreter reads unwritten memory as 0);
//! - array-typed rvalues decay to `&a[0]`; `a[i]` on an array lvalue is `Index`, through a
//!   pointer `*(p + i)`; pointer `+`/`-` keep C's scaling (the interpreter scales by the
//!   pointee size); `p - q` has type `long`;
//! - floating point values are `Type::Opaque`, their arithmetic uninterpreted `App`s such as
//!   `__float_add(a, b)` (one warning per file); function pointers, `setjmp`, inline assembly,
//!   variable-length arrays, `va_arg` are errors naming the construct.

mod headers;
mod lower;
mod nesting;
mod predicates;
mod preprocess;

use c_ir::Program;
use diagnostics::{Diagnostic, Span};

pub use nesting::MAX_NESTING;
pub use predicates::{display_predicates, parse_expression, parse_predicates};
pub use preprocess::SourceMap;

/// The C data model: the width of `long` (pointers are always 8 bytes in the IR's layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataModel {
    /// x86-64 Linux: `long` is 64 bits (the default).
    Lp64,
    /// 32-bit targets (SV-COMP `data_model: ILP32`): `long` is 32 bits.
    Ilp32,
}

/// Options of [`lower`].
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Width of `long`.
    pub data_model: DataModel,
    /// In-memory files for `#include "name"` (name, contents).
    pub files: Vec<(String, String)>,
    /// Predefined macros (name, replacement text), like `-DNAME=VALUE`.
    pub defines: Vec<(String, String)>,
    /// The procedure where execution starts; global initialisers are placed at its beginning.
    /// Another procedure than `main` analyses it in an open environment (polymorphic predicate
    /// abstraction §2): its formals and the globals it does not initialise hold any value.
    pub entry: String,
    /// A C label whose reaching is the error (BOOP's input convention, SLAM's `SLIC_ERROR`):
    /// the statement it labels becomes the error location, in every function that has it.
    pub error_label: Option<String>,
}

impl Default for LowerOptions {
    fn default() -> LowerOptions {
        LowerOptions {
            data_model: DataModel::Lp64,
            files: Vec::new(),
            defines: Vec::new(),
            entry: "main".to_string(),
            error_label: None,
        }
    }
}

/// The output of the preprocessor: the text handed to lang-c and the map back to the user's file.
pub fn preprocess(source: &str, file_name: &str, options: &LowerOptions) -> (String, SourceMap, Vec<Diagnostic>) {
    let (p, d) = preprocess::preprocess(source, file_name, &options.files, &options.defines);
    (p.text, p.source_map, d)
}

/// Preprocesses, parses, type-checks and lowers a C file. Returns `None` only when the file
/// could not be parsed at all; lowering errors come back as diagnostics with a best-effort program.
pub fn lower(source: &str, file_name: &str, options: &LowerOptions) -> (Option<Program>, Vec<Diagnostic>) {
    let (pre, mut diagnostics) = preprocess::preprocess(source, file_name, &options.files, &options.defines);
    if diagnostics::has_errors(&diagnostics) {
        clamp_spans(&mut diagnostics, source.len() as u32);
        return (None, diagnostics);
    }
    if let Some(d) = nesting::check(&pre.text, Some(&pre.source_map)) {
        diagnostics.push(d);
        clamp_spans(&mut diagnostics, source.len() as u32);
        return (None, diagnostics);
    }
    let config = lang_c::driver::Config::with_gcc();
    let parsed = parse_guarded(&config, pre.text.clone());
    let parse = match parsed {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            let at = pre.source_map.map_offset(e.offset as u32);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let shown: Vec<String> = expected.iter().take(12).map(|s| format!("`{s}`")).collect();
            let found = pre.text.get(e.offset.min(pre.text.len())..).unwrap_or("").chars().take_while(|c| !c.is_whitespace()).take(20).collect::<String>();
            let message = if found.is_empty() { "syntax error: unexpected end of input".to_string() } else { format!("syntax error: unexpected `{found}`") };
            let mut d = Diagnostic::error(Span::new(at, at + 1), message);
            if !shown.is_empty() {
                d = d.with_help(format!("expected one of {}", shown.join(", ")));
            }
            diagnostics.push(d);
            clamp_spans(&mut diagnostics, source.len() as u32);
            return (None, diagnostics);
        }
        Err(message) => {
            diagnostics.push(Diagnostic::error(Span::at(0), format!("the C parser failed: {message}")));
            return (None, diagnostics);
        }
    };
    let mut lowerer = lower::Lowerer::new(&pre.source_map, &pre.text, &options.entry);
    if options.data_model == DataModel::Ilp32 {
        lowerer.long_bits = 32;
    }
    lower::lower_unit(&mut lowerer, &parse.unit);
    predicates::add_deref_symbolic_constants(&mut lowerer.program);
    if lowerer.program.entry.is_none() {
        diagnostics.push(Diagnostic::warning(Span::at(0), format!("no `{}` procedure: the program has no entry point", options.entry)));
    }
    diagnostics.extend(lowerer.diagnostics);
    let mut program = lowerer.program;
    if let Some(label) = &options.error_label {
        mark_error_label(&mut program, label, &mut diagnostics);
    }
    clamp_spans(&mut diagnostics, source.len() as u32);
    (Some(program), diagnostics)
}

/// Makes the statement labelled `label` the error location in every procedure that has the
/// label (BOOP §3: the property holds iff the label is unreachable). The labelled statement is
/// replaced by `Error` (what follows it is reached only through other labels); a label on the
/// final `return` gets an `Error` inserted before it, so the return stays last.
fn mark_error_label(program: &mut Program, label: &str, diagnostics: &mut Vec<Diagnostic>) {
    let mut found = false;
    for proc in &mut program.procs {
        let Some(index) = proc.label_index(label) else { continue };
        found = true;
        let at = index as usize;
        let span = proc.body[at].span;
        if matches!(proc.body[at].kind, c_ir::StmtKind::Return { .. }) {
            // only jumps to `index` can target the last statement: they now reach the error
            proc.body[at].label = None;
            proc.body.insert(at, c_ir::Stmt { kind: c_ir::StmtKind::Error, span, label: Some(label.to_string()) });
        } else {
            proc.body[at].kind = c_ir::StmtKind::Error;
        }
    }
    if !found {
        diagnostics.push(
            Diagnostic::error(Span::at(0), format!("the error label `{label}` labels no statement"))
                .with_help(format!("write `{label}: ;` in the C function where reaching it is the error")),
        );
    }
}

/// Runs lang-c, turning a panic inside it into an error (native builds; wasm aborts instead).
fn parse_guarded(config: &lang_c::driver::Config, text: String) -> Result<Result<lang_c::driver::Parse, lang_c::driver::SyntaxError>, String> {
    let run = std::panic::AssertUnwindSafe(|| lang_c::driver::parse_preprocessed(config, text));
    std::panic::catch_unwind(run).map_err(|payload| {
        payload.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| payload.downcast_ref::<String>().cloned()).unwrap_or_else(|| "internal error".into())
    })
}

fn clamp_spans(diagnostics: &mut [Diagnostic], len: u32) {
    for d in diagnostics {
        d.span = Span::new(d.span.start.min(len), d.span.end.min(len));
        for l in &mut d.labels {
            l.span = Span::new(l.span.start.min(len), l.span.end.min(len));
        }
    }
}
