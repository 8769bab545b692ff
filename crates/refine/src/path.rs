//! C paths: a sequence of executed statements turned into a linear, call-free path (BOOP §7.1)
//! where every call instance works on its own fresh copies of the callee's variables.

use c_ir::{Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, Var, VarId, VarKind};

/// What one step of an expanded path does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathOp {
    /// `lhs = rhs` (also parameter passing and return-value binding).
    Assign { lhs: Expr, rhs: Expr },
    /// Blocks unless `cond` holds (assume statements and branch guards).
    Assume { cond: Expr },
    /// Entry into a call instance: the callee's variables (fresh copies) come into scope.
    ScopeBegin { callee: ProcId, instance: u32, vars: Vec<VarId> },
    /// The callee returned.
    ScopeEnd { callee: ProcId, instance: u32 },
    /// No effect on the state (jumps, skips).
    Skip,
    /// The error location.
    Error,
}

/// One step of an expanded path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The C statement this step comes from.
    pub origin: StmtRef,
    /// The call instance (0 = the entry procedure's activation).
    pub instance: u32,
    pub op: PathOp,
}

/// A value the program reads from its environment along the path (`__VERIFIER_nondet_*`,
/// unknown library results): the fresh variable standing for it and where it is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathInput {
    pub var: VarId,
    pub origin: StmtRef,
    pub ty: Type,
}

/// A linear path with its own variable arena: the program's variables first, then the copies
/// made for call instances, fresh input variables and heap objects.
#[derive(Clone, Debug)]
pub struct ExpandedPath {
    /// The program with the extra variables appended to [`Program::vars`].
    pub program: Program,
    pub steps: Vec<PathStep>,
    /// The environment reads, in path order.
    pub inputs: Vec<PathInput>,
    /// The call instances of the path, in call order.
    pub calls: Vec<CallInstance>,
    /// For each extra variable (index `- base_vars`): the program variable it copies, if any.
    copy_of: Vec<Option<VarId>>,
    base_vars: usize,
}

impl ExpandedPath {
    /// The program variable a path variable stands for (itself for program variables); `None`
    /// for fresh inputs and heap objects, which are not program variables.
    pub fn original_var(&self, v: VarId) -> Option<VarId> {
        let i = v.0 as usize;
        if i < self.base_vars {
            Some(v)
        } else {
            self.copy_of.get(i - self.base_vars).copied().flatten()
        }
    }
    /// Whether `v` is a fresh variable for an input or heap object.
    pub fn is_fresh(&self, v: VarId) -> bool {
        (v.0 as usize) >= self.base_vars && self.original_var(v).is_none()
    }
    /// Number of variables of the original program.
    pub fn base_var_count(&self) -> usize {
        self.base_vars
    }
}

/// One call instance: its callee, the caller's instance, and for every formal with a symbolic
/// constant the pair (the instance's `'f`, the actual argument in the caller's instance).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallInstance {
    pub instance: u32,
    pub caller_instance: u32,
    pub callee: ProcId,
    pub site: StmtRef,
    pub bindings: Vec<(VarId, Expr)>,
}

/// Why a statement sequence could not be turned into a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError(pub String);

struct Frame {
    proc: ProcId,
    instance: u32,
    /// Map program var -> instance var for this activation (identity when empty map entry).
    rename: Vec<(VarId, VarId)>,
    /// The call statement in the caller waiting for this frame.
    call_site: Option<StmtRef>,
    last: Option<u32>,
}

fn rename_expr(e: &Expr, rename: &[(VarId, VarId)]) -> Expr {
    if rename.is_empty() {
        return e.clone();
    }
    crate::wp::map_vars(e, &mut |v| rename.iter().find(|(a, _)| *a == v).map(|(_, b)| *b).unwrap_or(v))
}

/// Expands the executed statements `stmts` (from the entry procedure's first statement to an
/// error statement; calls are followed by the callee's statements, its `return`, then the
/// caller's next statement) into a linear path. Consecutive duplicates of a call statement
/// around its callee's steps are tolerated.
pub fn expand_path(program: &Program, stmts: &[StmtRef]) -> Result<ExpandedPath, PathError> {
    let mut out = ExpandedPath {
        program: program.clone(),
        steps: Vec::new(),
        inputs: Vec::new(),
        calls: Vec::new(),
        copy_of: Vec::new(),
        base_vars: program.vars.len(),
    };
    let Some(first) = stmts.first() else { return Err(PathError("empty path".into())) };
    let mut activations_of: Vec<u32> = vec![0; program.procs.len()];
    let mut next_instance = 1u32;
    activations_of[first.proc.0 as usize] = 1;
    let mut stack: Vec<Frame> = vec![Frame { proc: first.proc, instance: 0, rename: Vec::new(), call_site: None, last: None }];
    // the interpreter reads the entry procedure's integer formals as its first inputs (an
    // entry other than `main` runs in an open environment)
    if program.entry == Some(first.proc) {
        for &formal in &program.proc(first.proc).formals {
            let ty = program.var(formal).ty.clone();
            if ty.is_integer() {
                let name = format!("input#{}", out.inputs.len());
                let fresh = add_fresh(&mut out, name, ty.clone(), first.proc, None);
                out.inputs.push(PathInput { var: fresh, origin: *first, ty: ty.clone() });
                out.steps.push(PathStep { origin: *first, instance: 0, op: PathOp::Assign { lhs: Expr::var(formal, ty.clone()), rhs: Expr::var(fresh, ty) } });
            }
        }
    }
    let mut k = 0usize;
    while k < stmts.len() {
        let at = stmts[k];
        let Some(frame) = stack.last_mut() else { return Err(PathError("path continues after the entry procedure returned".into())) };
        if at.proc != frame.proc {
            return Err(PathError(format!("step {k}: statement of procedure {} while executing {}", at.proc.0, frame.proc.0)));
        }
        let proc = program.proc(at.proc);
        let Some(stmt) = proc.body.get(at.index as usize) else { return Err(PathError(format!("step {k}: no such statement"))) };
        match frame.last {
            None => {
                if at.index != 0 {
                    return Err(PathError(format!("step {k}: procedure {} entered at statement {}", proc.name, at.index)));
                }
            }
            Some(prev) => {
                if !proc.successors(prev).contains(&at.index) {
                    // a repeated call statement (call step followed by a return step with the same origin)
                    if prev == at.index && matches!(stmt.kind, StmtKind::Call { .. }) {
                        k += 1;
                        continue;
                    }
                    return Err(PathError(format!("step {k}: statement {} of {} cannot follow statement {prev}", at.index, proc.name)));
                }
            }
        }
        frame.last = Some(at.index);
        let instance = frame.instance;
        let rename = frame.rename.clone();
        let r = |e: &Expr| rename_expr(e, &rename);
        match &stmt.kind {
            StmtKind::Skip | StmtKind::Goto { .. } | StmtKind::Free { .. } => {
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Skip });
            }
            StmtKind::Assign { lhs, rhs } => {
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs: r(lhs), rhs: r(rhs) } });
            }
            StmtKind::Havoc { lhs } => {
                let name = format!("input#{}", out.inputs.len());
                        let fresh = add_fresh(&mut out, name, lhs.ty.clone(), at.proc, None);
                out.inputs.push(PathInput { var: fresh, origin: at, ty: lhs.ty.clone() });
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs: r(lhs), rhs: Expr::var(fresh, lhs.ty.clone()) } });
            }
            StmtKind::Malloc { lhs, .. } => {
                let object_ty = match lhs.ty.pointee() {
                    Some(Type::Void) | None => Type::CHAR,
                    Some(t) => t.clone(),
                };
                let n = out.program.vars.len() - out.base_vars;
                let heap = add_fresh(&mut out, format!("heap#{n}"), object_ty.clone(), at.proc, None);
                out.program.vars[heap.0 as usize].address_taken = true;
                let addr = Expr::cast(Expr::addr_of(Expr::var(heap, object_ty)), lhs.ty.clone());
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs: r(lhs), rhs: addr } });
            }
            StmtKind::Assume { cond } => {
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Assume { cond: r(cond) } });
            }
            StmtKind::Error => {
                out.steps.push(PathStep { origin: at, instance, op: PathOp::Error });
                if k + 1 != stmts.len() {
                    return Err(PathError("path continues after the error statement".into()));
                }
            }
            StmtKind::Call { lhs, callee, args } => {
                let callee_proc = program.proc(*callee);
                if callee_proc.body.is_empty() {
                    // a procedure without a body: its result is an input
                    if let Some(lhs) = lhs {
                        let name = format!("input#{}", out.inputs.len());
                        let fresh = add_fresh(&mut out, name, lhs.ty.clone(), at.proc, None);
                        out.inputs.push(PathInput { var: fresh, origin: at, ty: lhs.ty.clone() });
                        out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs: r(lhs), rhs: Expr::var(fresh, lhs.ty.clone()) } });
                    } else {
                        out.steps.push(PathStep { origin: at, instance, op: PathOp::Skip });
                    }
                    k += 1;
                    continue;
                }
                if args.len() != callee_proc.formals.len() {
                    return Err(PathError(format!("call of {} with {} arguments for {} formals", callee_proc.name, args.len(), callee_proc.formals.len())));
                }
                let activation = activations_of[callee.0 as usize];
                activations_of[callee.0 as usize] += 1;
                let callee_instance = next_instance;
                next_instance += 1;
                let mut callee_rename = Vec::new();
                let mut vars = Vec::new();
                for &v in callee_proc.formals.iter().chain(callee_proc.locals.iter()) {
                    if activation == 0 {
                        vars.push(v);
                    } else {
                        let base = program.var(v);
                        let name = format!("{}#{}", base.name, activation + 1);
                        let copy = add_fresh(&mut out, name, base.ty.clone(), *callee, Some(v));
                        out.program.vars[copy.0 as usize].kind = base.kind;
                        out.program.vars[copy.0 as usize].address_taken = base.address_taken;
                        out.program.vars[copy.0 as usize].source_name = base.source_name.clone();
                        callee_rename.push((v, copy));
                        vars.push(copy);
                    }
                }
                out.steps.push(PathStep {
                    origin: at,
                    instance,
                    op: PathOp::ScopeBegin { callee: *callee, instance: callee_instance, vars },
                });
                let mut bindings = Vec::new();
                for (formal, arg) in callee_proc.formals.iter().zip(args) {
                    if let Some(sc) = program.symbolic_const_of(*formal) {
                        let sc_ty = program.var(sc).ty.clone();
                        if let ExprKind::Var(renamed) = rename_expr(&Expr::var(sc, sc_ty.clone()), &callee_rename).kind {
                            bindings.push((renamed, Expr::cast(r(arg), sc_ty)));
                        }
                    }
                    let ty = program.var(*formal).ty.clone();
                    let formal_expr = rename_expr(&Expr::var(*formal, ty.clone()), &callee_rename);
                    out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs: formal_expr, rhs: Expr::cast(r(arg), ty) } });
                }
                out.calls.push(CallInstance { instance: callee_instance, caller_instance: instance, callee: *callee, site: at, bindings });
                stack.push(Frame { proc: *callee, instance: callee_instance, rename: callee_rename, call_site: Some(at), last: None });
            }
            StmtKind::Return { value } => {
                let Some(done) = stack.pop() else { return Err(PathError("return without a frame".into())) };
                match done.call_site {
                    None => {
                        // the entry procedure returns: the path cannot reach an error any more
                        return Err(PathError("the entry procedure returned before the error".into()));
                    }
                    Some(site) => {
                        let Some(caller) = stack.last() else { return Err(PathError("return without a caller".into())) };
                        let caller_rename = caller.rename.clone();
                        if let StmtKind::Call { lhs: Some(lhs), .. } = &program.stmt(site).kind {
                            let value = match (value, proc.ret_var) {
                                (Some(v), _) => Some(r(v)),
                                (None, Some(rv)) => Some(r(&Expr::var(rv, program.var(rv).ty.clone()))),
                                (None, None) => None,
                            };
                            if let Some(value) = value {
                                let lhs = rename_expr(lhs, &caller_rename);
                                let rhs = Expr::cast(value, lhs.ty.clone());
                                out.steps.push(PathStep { origin: at, instance, op: PathOp::Assign { lhs, rhs } });
                            }
                        }
                        out.steps.push(PathStep { origin: at, instance, op: PathOp::ScopeEnd { callee: at.proc, instance } });
                    }
                }
            }
        }
        k += 1;
    }
    match out.steps.last() {
        Some(PathStep { op: PathOp::Error, .. }) => Ok(out),
        _ => Err(PathError("the path does not end at an error statement".into())),
    }
}

fn add_fresh(out: &mut ExpandedPath, name: String, ty: Type, proc: ProcId, copy_of: Option<VarId>) -> VarId {
    let id = out.program.add_var(Var {
        name: name.clone(),
        source_name: name,
        ty,
        kind: VarKind::Temp(proc),
        span: Default::default(),
        address_taken: false,
    });
    out.copy_of.push(copy_of);
    id
}

/// Whether the expression reads memory through a pointer or array (the path checks only
/// support these when the solver's memory model does).
pub(crate) fn uses_memory(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if matches!(x.kind, ExprKind::Deref(_) | ExprKind::Index(..) | ExprKind::AddrOf(_) | ExprKind::Field(..)) {
            found = true;
        }
    });
    found
}
