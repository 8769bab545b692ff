//! Confirming a violation concretely: a C harness builds every small heap with `malloc`
//! (pointer fields and the procedure's pointer arguments chosen by `__VERIFIER_nondet_int`),
//! calls the procedure, and the C interpreter (`c_ir::interp`) runs it; at every location the
//! observer converts the interpreter's heap into the paper's memory model
//! ([`crate::concrete::Heap`]) and evaluates the property. A run whose precondition fails is
//! discarded. UNSAFE is reported only with such a run.

use crate::concrete::{Cell, Heap, Val};
use crate::flowchart::LocId;
use crate::parse::Property;
use crate::terms::{FieldRef, Formula, RigidId};
use crate::Session;
use c_ir::interp::{self, Limits};
use c_ir::{Expr, ExprKind, Program, StructId, Type, VarId};
use std::collections::BTreeMap;

/// A concrete violation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Witness {
    /// The initial heap, one fact a line: `x = c0`, `c0->n = c1`.
    pub heap: Vec<String>,
    /// The `__VERIFIER_nondet_int` values the harness consumed.
    pub inputs: Vec<i128>,
    /// Values of the rigid variables (`k = c1`).
    pub rigids: Vec<String>,
    /// Where the property failed.
    pub location: String,
    /// Which property (index into the request's properties).
    pub property: usize,
    /// The harness that was run (C source appended to the program).
    pub harness: String,
}

/// The result of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replay {
    Violation(Witness),
    /// No violation on heaps of up to this many cells (runs tried).
    NotFound { cells: u32, runs: usize },
    /// The harness could not be built or lowered.
    Failed(String),
}

/// Searches heaps of up to `max_cells` cells for a violation of the properties.
pub fn search(session: &Session, source: &str, max_cells: u32) -> Replay {
    let Some(space) = crate::autohint::heap_space(session) else {
        return Replay::Failed("no list struct to build heaps of".into());
    };
    let mut runs = 0;
    for cells in 0..=max_cells {
        match search_cells(session, source, space.strukt, &space.pointer_fields, cells, &mut runs) {
            Ok(Some(w)) => return Replay::Violation(w),
            Ok(None) => {}
            Err(e) => return Replay::Failed(e),
        }
    }
    Replay::NotFound { cells: max_cells, runs }
}

fn harness(session: &Session, strukt: StructId, fields: &[FieldRef], cells: u32) -> String {
    let program = &session.program;
    let sname = format!("struct {}", program.struct_def(strukt).name);
    let pr = program.proc(session.proc);
    let mut out = String::from("\nextern int __VERIFIER_nondet_int(void);\n");
    for c in 0..cells {
        out += &format!("{sname} *__shape_c{c};\n");
    }
    out += "void __shape_harness(void) {\n  int __k;\n";
    for c in 0..cells {
        out += &format!("  __shape_c{c} = ({sname} *) malloc(sizeof({sname}));\n");
    }
    let choose = |target: &str, out: &mut String| {
        *out += &format!("  __k = __VERIFIER_nondet_int();\n  {target} = 0;\n");
        for c in 0..cells {
            *out += &format!("  if (__k == {}) {target} = __shape_c{c};\n", c + 1);
        }
    };
    for c in 0..cells {
        for f in fields {
            let fname = &program.struct_def(strukt).fields[f.index as usize].name;
            choose(&format!("__shape_c{c}->{fname}"), &mut out);
        }
    }
    let mut args = Vec::new();
    for (k, &v) in pr.formals.iter().enumerate() {
        let ty = &program.var(v).ty;
        if *ty == Type::pointer_to(Type::Struct(strukt)) {
            out += &format!("  {sname} *__shape_a{k};\n");
            choose(&format!("__shape_a{k}"), &mut out);
            args.push(format!("__shape_a{k}"));
        } else {
            args.push("0".into());
        }
    }
    out += &format!("  {}({});\n}}\n", pr.name, args.join(", "));
    out
}

fn search_cells(session: &Session, source: &str, strukt: StructId, fields: &[FieldRef], cells: u32, runs: &mut usize) -> Result<Option<Witness>, String> {
    let text = harness(session, strukt, fields, cells);
    let full = format!("{source}\n{text}");
    let options = c_front::LowerOptions { entry: "__shape_harness".into(), ..Default::default() };
    let (program, diags) = c_front::lower(&full, "harness.c", &options);
    let program = program.filter(|_| !diagnostics::has_errors(&diags)).ok_or_else(|| {
        format!("the harness does not lower: {}", diags.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))
    })?;
    let pname = &session.program.proc(session.proc).name;
    let hproc = program.proc_by_name(pname).ok_or("the harness lost the procedure")?;
    let formals = session.program.proc(session.proc).formals.iter().filter(|&&v| session.program.var(v).ty.is_pointer()).count() as u32;
    let slots = cells * fields.len() as u32 + formals;
    let total = (cells as u64 + 1).pow(slots);
    let rigid_choices = if session.rigids.is_empty() { 1 } else { (cells as u64).pow(session.rigids.len() as u32) };
    for choice in 0..total.min(50_000) {
        let digits: Vec<i128> = (0..slots).map(|k| ((choice / (cells as u64 + 1).pow(k)) % (cells as u64 + 1)) as i128).collect();
        for r in 0..rigid_choices {
            *runs += 1;
            let rig: Vec<u32> = (0..session.rigids.len()).map(|k| ((r / (cells as u64).pow(k as u32)) % cells as u64) as u32).collect();
            if let Some(w) = run_one(session, &program, hproc, &digits, &rig, cells, fields, strukt) {
                return Ok(Some(Witness { harness: text, ..w }));
            }
        }
    }
    Ok(None)
}

struct Checker<'s> {
    session: &'s Session,
    ghosts: Vec<bool>,
    excluded: bool,
    violation: Option<(usize, LocId)>,
}

impl Checker<'_> {
    fn at(&mut self, loc: LocId, heap: &Heap) {
        if self.excluded || self.violation.is_some() {
            return;
        }
        let holds = |f: &Formula| heap.eval_formula(f) != Some(false);
        for p in &self.session.preconditions {
            if let Property::At { formula, loc: l } = p {
                if *l == loc && !holds(formula) {
                    self.excluded = true;
                    return;
                }
            }
        }
        for (k, p) in self.session.properties.iter().enumerate() {
            match p {
                Property::At { formula, loc: l } if *l == loc && heap.eval_formula(formula) == Some(false) => {
                    self.violation = Some((k, loc));
                }
                Property::Implies { antecedent, at, consequent, then } => {
                    if *at == loc && heap.eval_formula(antecedent) == Some(true) {
                        self.ghosts[k] = true;
                    }
                    if *then == loc && self.ghosts[k] && heap.eval_formula(consequent) == Some(false) {
                        self.violation = Some((k, loc));
                    }
                }
                _ => {}
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_one(session: &Session, program: &Program, hproc: c_ir::ProcId, digits: &[i128], rig: &[u32], cells: u32, fields: &[FieldRef], strukt: StructId) -> Option<Witness> {
    let mut queue: Vec<i128> = digits.to_vec();
    queue.reverse();
    let mut inputs = |_: &Type| queue.pop().unwrap_or(0);
    let mut checker = Checker { session, ghosts: vec![false; session.properties.len()], excluded: false, violation: None };
    let fc = &session.flowchart;
    let orig = session.program.proc(session.proc);
    let var_map: Vec<(VarId, VarId)> = orig
        .formals
        .iter()
        .chain(orig.locals.iter())
        .filter_map(|&v| program.lookup_var(Some(hproc), &session.program.var(v).name).map(|h| (v, h)))
        .collect();
    let cell_globals: Vec<VarId> = (0..cells).filter_map(|c| program.lookup_var(None, &format!("__shape_c{c}"))).collect();
    let mut initial: Option<Heap> = None;
    let mut on_step = |at: c_ir::StmtRef, state: &interp::State| {
        if at.proc != hproc {
            return;
        }
        let Some(loc) = fc.locations.iter().find(|l| l.stmt == at.index) else { return };
        let cell_ptrs: Vec<i128> = cell_globals.iter().map(|&g| state.value_of(g).unwrap_or(0)).collect();
        let heap = convert(state, &var_map, &cell_ptrs, rig, strukt, fields, &session.program);
        if initial.is_none() {
            initial = Some(heap.clone());
        }
        checker.at(loc.id, &heap);
    };
    let limits = Limits { record_path: false, ..Limits::new(100_000) };
    let _ = interp::run_observed(program, &mut inputs, &limits, &mut on_step);
    let (k, loc) = checker.violation.filter(|_| !checker.excluded)?;
    let names = session.names();
    let heap = initial.unwrap_or_default();
    let describe = |v: &Val| match v {
        Val::Null => "NULL".to_string(),
        Val::Cell(c) => format!("c{c}"),
        other => format!("{other:?}"),
    };
    let mut lines = Vec::new();
    for (addr, val) in &heap.mem {
        match addr {
            Val::Var(v) if session.program.var(*v).ty.is_pointer() && matches!(session.program.var(*v).kind, c_ir::VarKind::Formal(..)) => lines.push(format!("{} = {}", names.var_name(*v), describe(val))),
            Val::Slot(c, f) if fields.contains(f) => lines.push(format!("c{c}->{} = {}", names.field_name(*f), describe(val))),
            _ => {}
        }
    }
    let rigids = session.rigids.iter().zip(rig).map(|(r, c)| format!("{} = c{c}", r.name)).collect();
    Some(Witness { heap: lines, inputs: digits.to_vec(), rigids, location: fc.location(loc).label.clone(), property: k, harness: String::new() })
}

/// The interpreter's heap as a model heap: cells are numbered in the order of `cell_ptrs`
/// (the harness's cells), then in order of discovery.
fn convert(state: &interp::State, var_map: &[(VarId, VarId)], cell_ptrs: &[i128], rig: &[u32], strukt: StructId, fields: &[FieldRef], program: &Program) -> Heap {
    let mut ids: BTreeMap<i128, u32> = BTreeMap::new();
    for (i, p) in cell_ptrs.iter().enumerate() {
        ids.insert(*p, i as u32);
    }
    let cell_ty = Type::pointer_to(Type::Struct(strukt));
    let mut heap = Heap { cells: cell_ptrs.iter().map(|_| Cell { strukt, alloc: true }).collect(), ..Heap::default() };
    let value = |p: i128, heap: &mut Heap, ids: &mut BTreeMap<i128, u32>| -> Val {
        if p == 0 {
            return Val::Null;
        }
        let next = ids.len() as u32;
        let id = *ids.entry(p).or_insert(next);
        while heap.cells.len() <= id as usize {
            heap.cells.push(Cell { strukt, alloc: true });
        }
        Val::Cell(id)
    };
    for &(orig, h) in var_map {
        let ty = &program.var(orig).ty;
        if *ty == cell_ty {
            let v = value(state.value_of(h).unwrap_or(0), &mut heap, &mut ids);
            heap.mem.insert(Val::Var(orig), v);
        } else if ty.is_integer() {
            heap.mem.insert(Val::Var(orig), Val::Int);
        }
    }
    let mut done = 0usize;
    while done < heap.cells.len() {
        let ptr = ptr_of(&ids, done);
        for f in fields {
            let base = Expr::deref(Expr::int(ptr, cell_ty.clone()));
            let fty = program.struct_def(strukt).fields[f.index as usize].ty.clone();
            let e = Expr::new(ExprKind::Field(Box::new(base), f.index), fty);
            let v = state.eval(&e).unwrap_or(0);
            let v = value(v, &mut heap, &mut ids);
            heap.mem.insert(Val::Slot(done as u32, *f), v);
        }
        done += 1;
    }
    heap.rigids = rig.iter().map(|c| Val::Cell(*c)).collect();
    heap
}

/// Rigid variables are referred to by index.
pub fn rigid_name(session: &Session, r: RigidId) -> String {
    session.rigids.get(r.0 as usize).map(|x| x.name.clone()).unwrap_or_default()
}

fn ptr_of(ids: &BTreeMap<i128, u32>, cell: usize) -> i128 {
    ids.iter().find(|(_, &id)| id as usize == cell).map(|(p, _)| *p).unwrap_or(0)
}
