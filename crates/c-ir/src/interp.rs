//! A bit-precise concrete interpreter over the IR (used by tests, soundness checks and replaying
//! counterexamples).
//!
//! Memory is a set of byte blocks (one per variable instance, heap allocation and string
//! literal). A pointer is the number `(block + 1) << 32 | offset`, so `NULL` is 0, pointer
//! arithmetic within an object is integer arithmetic, and values round-trip through integer
//! casts. Layout is LP64 (x86-64 gcc): see [`size_of`] and [`field_offset`]. Reads of memory
//! that was never written give 0. Nondeterministic values (`Havoc`, formals of the entry
//! procedure) come from the caller's `inputs` callback. A nondeterministic `goto` takes the
//! first target whose leading `assume` holds (the lowering starts every branch with one).

mod accel;
mod layout;

pub use accel::Acceleration;
pub use layout::{align_of, eval_binary, eval_unary, field_offset, normalize, size_of, struct_layout, wrap};

use crate::{BinaryOp, Expr, ExprKind, ProcId, Program, StmtKind, StmtRef, Type, UnaryOp, VarId};
use diagnostics::Span;
use budget::hash::HashMap;

/// Budgets of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Statements executed before giving up with [`Outcome::StepLimit`].
    pub max_steps: u64,
    /// Nested calls before a [`Outcome::RuntimeError`] (recursion too deep).
    pub max_call_depth: u32,
    /// Total bytes the program may allocate with `malloc`.
    pub max_heap_bytes: u64,
    /// Record every executed statement in [`RunResult::path`] (off for long runs).
    pub record_path: bool,
    /// Signed arithmetic wraps around (gcc's `-fwrapv`) instead of stopping the run with a
    /// [`Outcome::RuntimeError`]: in C, signed overflow is undefined behaviour.
    pub wrap_signed_overflow: bool,
    /// Jump over iterations of loops that move scalar variables by constants
    /// ([`Acceleration`]); observers then see the first and last of them, and
    /// [`State::last_acceleration`] describes the jump.
    pub accelerate_loops: bool,
}

impl Limits {
    pub fn new(max_steps: u64) -> Limits {
        Limits { max_steps, max_call_depth: 10_000, max_heap_bytes: 1 << 28, record_path: true, wrap_signed_overflow: false, accelerate_loops: false }
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::new(1_000_000)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An [`StmtKind::Error`] statement was executed.
    ReachedError,
    /// The entry procedure returned (with its value, if it has one).
    Returned(Option<i128>),
    /// An `assume` (or every branch of a nondeterministic `goto`) was false: the path is infeasible.
    AssumeFailed,
    StepLimit,
    /// Undefined behaviour the interpreter detected (null dereference, out-of-bounds access,
    /// division by zero, bad `free`, ...), at the statement's span.
    RuntimeError(String, Span),
}

/// The result of [`run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Every statement executed, in order (empty unless [`Limits::record_path`]).
    pub path: Vec<StmtRef>,
    /// The nondeterministic values consumed, in order.
    pub inputs: Vec<i128>,
    /// The run made no nondeterministic choice: it consumed no input, read no memory that was
    /// never written (uninitialised locals, `malloc`ed bytes) and never had two branches open.
    /// Such a run is the program's only execution (up to where it stopped).
    pub deterministic: bool,
    /// Statements executed.
    pub steps: u64,
    /// Loop iterations jumped over ([`Limits::accelerate_loops`]): not among `steps` or `path`.
    pub skipped_iterations: u64,
}

/// Runs the program from its entry procedure.
pub fn run(program: &Program, inputs: &mut dyn FnMut(&Type) -> i128, limits: &Limits) -> RunResult {
    run_observed(program, inputs, limits, &mut |_, _| {})
}

/// Runs the program, calling `on_step` before each statement with the state at that point.
pub fn run_observed(
    program: &Program,
    inputs: &mut dyn FnMut(&Type) -> i128,
    limits: &Limits,
    on_step: &mut dyn FnMut(StmtRef, &State),
) -> RunResult {
    run_with_stop(program, inputs, limits, on_step, &|| false)
}

/// [`run_observed`] that also ends with [`Outcome::StepLimit`] once `stop` says so (polled
/// every 65536 statements).
pub fn run_with_stop(
    program: &Program,
    inputs: &mut dyn FnMut(&Type) -> i128,
    limits: &Limits,
    on_step: &mut dyn FnMut(StmtRef, &State),
    stop: &dyn Fn() -> bool,
) -> RunResult {
    let mut machine = Machine {
        state: State { wrap_signed_overflow: limits.wrap_signed_overflow, ..State::new(program) },
        inputs,
        limits: *limits,
        path: Vec::new(),
        consumed: Vec::new(),
        heap_bytes: 0,
        ambiguous_branch: false,
        steps: 0,
        accelerator: limits.accelerate_loops.then(accel::Accelerator::default),
    };
    let outcome = machine.execute(on_step, stop);
    let deterministic = machine.consumed.is_empty() && !machine.ambiguous_branch && !machine.state.undefined_read.get();
    let skipped_iterations = machine.state.skipped_iterations;
    RunResult { outcome, path: machine.path, inputs: machine.consumed, deterministic, steps: machine.steps, skipped_iterations }
}

const BLOCK_SHIFT: u32 = 32;

#[derive(Clone, Debug)]
struct Block {
    bytes: Vec<u8>,
    /// Which bytes were ever written (globals and string literals start written).
    defined: Vec<bool>,
    alive: bool,
    heap: bool,
    read_only: bool,
}

#[derive(Clone, Debug)]
struct Frame {
    proc: ProcId,
    pc: u32,
    vars: HashMap<VarId, u32>,
    /// Where the caller stores the result (evaluated in the caller's frame after the return).
    result_lhs: Option<Expr>,
}

/// The machine state at a program point: memory and call stack. [`State::eval`] evaluates any IR
/// expression in the current frame.
#[derive(Clone, Debug)]
pub struct State<'p> {
    program: &'p Program,
    blocks: Vec<Block>,
    globals: HashMap<VarId, u32>,
    strings: Vec<u32>,
    frames: Vec<Frame>,
    /// Some read saw a byte that was never written.
    undefined_read: std::cell::Cell<bool>,
    /// [`Limits::wrap_signed_overflow`].
    wrap_signed_overflow: bool,
    /// The latest jump over loop iterations, and the iterations skipped in all.
    last_acceleration: Option<Acceleration>,
    skipped_iterations: u64,
}

/// What a pointer value points to ([`State::pointer_target`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerTarget {
    Null,
    /// `&var` plus `offset` bytes.
    Variable { var: VarId, offset: u64 },
    /// The `cell`-th `malloc` of the run (1-based) plus `offset` bytes; `freed` once released.
    Heap { cell: u32, offset: u64, freed: bool },
    StringLiteral { offset: u64 },
    /// A block the run no longer has (a returned frame's local) or no block at all.
    Invalid,
}

/// A value moved by assignments and returns: a scalar or the bytes of a struct.
#[derive(Clone, Debug)]
enum Value {
    Scalar(i128),
    Bytes(Vec<u8>),
}

impl<'p> State<'p> {
    fn new(program: &'p Program) -> State<'p> {
        let mut state = State {
            program,
            blocks: Vec::new(),
            globals: HashMap::default(),
            strings: Vec::new(),
            frames: Vec::new(),
            undefined_read: std::cell::Cell::new(false),
            wrap_signed_overflow: false,
            last_acceleration: None,
            skipped_iterations: 0,
        };
        for &g in &program.globals {
            let size = size_of(program, &program.var(g).ty) as usize;
            // C zero-initialises globals
            let b = state.allocate(size, false, true);
            state.globals.insert(g, b);
        }
        for s in &program.strings {
            let mut bytes = s.as_bytes().to_vec();
            bytes.push(0);
            let defined = vec![true; bytes.len()];
            state.blocks.push(Block { bytes, defined, alive: true, heap: false, read_only: true });
            state.strings.push(state.blocks.len() as u32 - 1);
        }
        state
    }

    fn allocate(&mut self, size: usize, heap: bool, defined: bool) -> u32 {
        self.blocks.push(Block { bytes: vec![0; size], defined: vec![defined; size], alive: true, heap, read_only: false });
        self.blocks.len() as u32 - 1
    }

    /// The procedure executing now.
    pub fn current_proc(&self) -> Option<ProcId> {
        self.frames.last().map(|f| f.proc)
    }

    /// The latest jump over loop iterations ([`Limits::accelerate_loops`]).
    pub fn last_acceleration(&self) -> Option<&Acceleration> {
        self.last_acceleration.as_ref()
    }

    /// Loop iterations skipped so far ([`Limits::accelerate_loops`]).
    pub fn skipped_iterations(&self) -> u64 {
        self.skipped_iterations
    }

    /// Number of active procedure frames.
    pub fn call_depth(&self) -> usize {
        self.frames.len()
    }

    /// Evaluates a scalar expression in the current frame; `None` when undefined (null or dangling
    /// dereference, out of bounds, division by zero, variable not in scope, uninterpreted symbol).
    pub fn eval(&self, e: &Expr) -> Option<i128> {
        self.eval_expr(e).ok()
    }

    /// The value of variable `v` in the current frame (or the global).
    pub fn value_of(&self, v: VarId) -> Option<i128> {
        let ty = self.program.vars.get(v.0 as usize)?.ty.clone();
        self.eval(&Expr::var(v, ty))
    }

    /// True when every byte of variable `v` (in the current frame, or the global) was written.
    pub fn is_written(&self, v: VarId) -> bool {
        self.variable_block(v).is_ok_and(|b| self.blocks.get(b as usize).is_some_and(|block| block.alive && !block.defined.contains(&false)))
    }

    fn variable_block(&self, v: VarId) -> Result<u32, String> {
        if let Some(f) = self.frames.last() {
            if let Some(&b) = f.vars.get(&v) {
                return Ok(b);
            }
        }
        match self.globals.get(&v) {
            Some(&b) => Ok(b),
            None => Err(format!("variable `{}` is not in scope", self.program.vars.get(v.0 as usize).map(|x| x.name.as_str()).unwrap_or("?"))),
        }
    }

    /// What the pointer value `address` points to, for showing a run: `NULL`, a variable of a
    /// live frame (the current one first) or a global, the `cell`-th heap allocation (1-based,
    /// in allocation order), a string literal, or nothing the run knows.
    pub fn pointer_target(&self, address: i128) -> PointerTarget {
        if address == 0 {
            return PointerTarget::Null;
        }
        let block = (address >> BLOCK_SHIFT) - 1;
        let offset = (address & ((1i128 << BLOCK_SHIFT) - 1)) as u64;
        let Some(b) = usize::try_from(block).ok().and_then(|k| self.blocks.get(k)) else { return PointerTarget::Invalid };
        let block = block as u32;
        if b.heap {
            let cell = self.blocks[..block as usize].iter().filter(|x| x.heap).count() as u32 + 1;
            return PointerTarget::Heap { cell, offset, freed: !b.alive };
        }
        let owner = self.frames.iter().rev().flat_map(|f| f.vars.iter()).chain(self.globals.iter()).find(|(_, &k)| k == block);
        if let Some((&var, _)) = owner {
            return PointerTarget::Variable { var, offset };
        }
        if self.strings.contains(&block) {
            return PointerTarget::StringLiteral { offset };
        }
        PointerTarget::Invalid
    }

    fn address(block: u32, offset: u64) -> i128 {
        (((block as i128) + 1) << BLOCK_SHIFT) + offset as i128
    }

    fn decode(&self, address: i128, size: u64, what: &str) -> Result<(u32, usize), String> {
        if address == 0 {
            return Err(format!("null pointer {what}"));
        }
        let block = (address >> BLOCK_SHIFT) - 1;
        let offset = address & ((1i128 << BLOCK_SHIFT) - 1);
        if block < 0 || block as usize >= self.blocks.len() {
            return Err(format!("invalid pointer {what}"));
        }
        let b = &self.blocks[block as usize];
        if !b.alive {
            return Err(format!("{what} of freed or out-of-scope memory"));
        }
        if offset as u64 + size > b.bytes.len() as u64 {
            return Err(format!("out-of-bounds {what} (offset {offset}, size {size}, object of {} bytes)", b.bytes.len()));
        }
        Ok((block as u32, offset as usize))
    }

    fn load(&self, address: i128, ty: &Type) -> Result<i128, String> {
        let size = size_of(self.program, ty);
        let (b, off) = self.decode(address, size, "read")?;
        self.note_read(b, off, size as usize);
        let bytes = &self.blocks[b as usize].bytes[off..off + size as usize];
        let mut raw: u128 = 0;
        for (i, byte) in bytes.iter().enumerate().take(16) {
            raw |= (*byte as u128) << (8 * i);
        }
        Ok(normalize(raw as i128, ty))
    }

    fn store(&mut self, address: i128, ty: &Type, value: i128) -> Result<(), String> {
        let size = size_of(self.program, ty);
        let (b, off) = self.decode(address, size, "write")?;
        if self.blocks[b as usize].read_only {
            return Err("write to a string literal".into());
        }
        let v = normalize(value, ty) as u128;
        let block = &mut self.blocks[b as usize];
        for i in 0..size as usize {
            block.bytes[off + i] = (v >> (8 * i.min(15))) as u8;
        }
        block.defined[off..off + size as usize].fill(true);
        Ok(())
    }

    fn load_bytes(&self, address: i128, size: u64) -> Result<Vec<u8>, String> {
        let (b, off) = self.decode(address, size, "read")?;
        self.note_read(b, off, size as usize);
        Ok(self.blocks[b as usize].bytes[off..off + size as usize].to_vec())
    }

    fn store_bytes(&mut self, address: i128, bytes: &[u8]) -> Result<(), String> {
        let (b, off) = self.decode(address, bytes.len() as u64, "write")?;
        let block = &mut self.blocks[b as usize];
        block.bytes[off..off + bytes.len()].copy_from_slice(bytes);
        block.defined[off..off + bytes.len()].fill(true);
        Ok(())
    }

    /// Records a read of bytes that were never written (their value is indeterminate in C).
    fn note_read(&self, block: u32, offset: usize, size: usize) {
        if !self.undefined_read.get() && self.blocks[block as usize].defined[offset..offset + size].contains(&false) {
            self.undefined_read.set(true);
        }
    }

    /// The address an lvalue denotes.
    fn lvalue_address(&self, e: &Expr) -> Result<i128, String> {
        match &e.kind {
            ExprKind::Var(v) => Ok(State::address(self.variable_block(*v)?, 0)),
            ExprKind::Deref(p) => self.eval_expr(p),
            ExprKind::Field(base, index) => {
                let a = self.lvalue_address(base)?;
                let offset = match &base.ty {
                    Type::Struct(s) => field_offset(self.program, *s, *index),
                    _ => return Err("field access on a non-struct".into()),
                };
                Ok(a + offset as i128)
            }
            ExprKind::Index(base, i) => {
                let a = self.lvalue_address(base)?;
                let i = self.eval_expr(i)?;
                let elem = base.ty.element().cloned().unwrap_or(Type::CHAR);
                let n = match &base.ty {
                    Type::Array(_, n) => *n as i128,
                    _ => i128::MAX,
                };
                if i < 0 || i >= n {
                    return Err(format!("array index {i} out of bounds"));
                }
                Ok(a + i * size_of(self.program, &elem) as i128)
            }
            _ => Err("not an lvalue".into()),
        }
    }

    fn eval_expr(&self, e: &Expr) -> Result<i128, String> {
        match &e.kind {
            ExprKind::Const(v) => Ok(*v),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                if matches!(e.ty, Type::Array(..)) {
                    return self.lvalue_address(e);
                }
                if !e.ty.is_scalar() && !matches!(e.ty, Type::Opaque(_)) {
                    return Err("a struct value is not a scalar".into());
                }
                let a = self.lvalue_address(e)?;
                self.load(a, &e.ty)
            }
            ExprKind::AddrOf(inner) => self.lvalue_address(inner),
            ExprKind::Unary(op, a) => {
                let v = self.eval_expr(a)?;
                if *op == UnaryOp::Neg {
                    self.check_signed_overflow(BinaryOp::Sub, 0, v, &a.ty, &e.ty)?;
                }
                Ok(match op {
                    UnaryOp::Not => (v == 0) as i128,
                    _ => eval_unary(*op, v, &e.ty),
                })
            }
            ExprKind::Binary(op, a, b) => self.eval_binary_expr(*op, a, b, &e.ty),
            ExprKind::Cast(a) => {
                let v = self.eval_expr(a)?;
                Ok(normalize(v, &e.ty))
            }
            ExprKind::Ite(c, a, b) => {
                if self.eval_expr(c)? != 0 {
                    self.eval_expr(a)
                } else {
                    self.eval_expr(b)
                }
            }
            ExprKind::Str(n) => match self.strings.get(*n as usize) {
                Some(&b) => Ok(State::address(b, 0)),
                None => Err("unknown string literal".into()),
            },
            ExprKind::App(name, _) => Err(format!("uninterpreted symbol `{name}`")),
        }
    }

    fn eval_binary_expr(&self, op: BinaryOp, a: &Expr, b: &Expr, result_ty: &Type) -> Result<i128, String> {
        // lazy connectives: the right operand may be undefined when the left decides
        match op {
            BinaryOp::And => {
                return Ok((self.eval_expr(a)? != 0 && self.eval_expr(b)? != 0) as i128);
            }
            BinaryOp::Or => {
                return Ok((self.eval_expr(a)? != 0 || self.eval_expr(b)? != 0) as i128);
            }
            BinaryOp::Implies => {
                return Ok((self.eval_expr(a)? == 0 || self.eval_expr(b)? != 0) as i128);
            }
            _ => {}
        }
        let x = self.eval_expr(a)?;
        let y = self.eval_expr(b)?;
        if let Type::Pointer(pointee) = &a.ty {
            let scale = size_of(self.program, pointee).max(1) as i128;
            match op {
                BinaryOp::Add if !b.ty.is_pointer() => return Ok(normalize(x + y * scale, &a.ty)),
                BinaryOp::Sub if !b.ty.is_pointer() => return Ok(normalize(x - y * scale, &a.ty)),
                BinaryOp::Sub => return Ok(normalize((x - y) / scale, result_ty)),
                _ => {}
            }
        }
        self.check_signed_overflow(op, x, y, &a.ty, result_ty)?;
        eval_binary(op, x, y, &a.ty, result_ty).ok_or_else(|| "division by zero".to_string())
    }

    fn eval_value(&self, e: &Expr) -> Result<Value, String> {
        match &e.ty {
            Type::Struct(_) => {
                let source = match &e.kind {
                    ExprKind::Ite(c, a, b) => {
                        if self.eval_expr(c)? != 0 {
                            a
                        } else {
                            b
                        }
                    }
                    _ => e,
                };
                let a = self.lvalue_address(source)?;
                Ok(Value::Bytes(self.load_bytes(a, size_of(self.program, &e.ty))?))
            }
            _ => Ok(Value::Scalar(self.eval_expr(e)?)),
        }
    }

    fn assign(&mut self, lhs: &Expr, value: Value) -> Result<(), String> {
        let a = self.lvalue_address(lhs)?;
        match value {
            Value::Scalar(v) => self.store(a, &lhs.ty, v),
            Value::Bytes(bytes) => self.store_bytes(a, &bytes),
        }
    }
}

/// The exact result of `x op y` when the operation is signed arithmetic in `int` or wider whose
/// result does not fit its type: undefined behaviour in C (narrower types are promoted first, and
/// conversions to signed types are implementation-defined, not undefined).
fn signed_overflow(op: BinaryOp, x: i128, y: i128, operand_ty: &Type, result_ty: &Type) -> Option<i128> {
    let Type::Int { bits, signed: true } = *result_ty else { return None };
    if !(32..=64).contains(&bits) || *operand_ty != *result_ty {
        return None;
    }
    let exact = match op {
        BinaryOp::Add => x.checked_add(y)?,
        BinaryOp::Sub => x.checked_sub(y)?,
        BinaryOp::Mul => x.checked_mul(y)?,
        // `INT_MIN / -1` (and `INT_MIN % -1`, whose quotient overflows)
        BinaryOp::Div | BinaryOp::Rem if y == -1 => x.checked_neg()?,
        _ => return None,
    };
    (wrap(exact, bits as u32, true) != exact).then_some(exact)
}

impl State<'_> {
    /// The runtime error of a signed overflow in `x op y` (unless
    /// [`Limits::wrap_signed_overflow`]).
    fn check_signed_overflow(&self, op: BinaryOp, x: i128, y: i128, operand_ty: &Type, result_ty: &Type) -> Result<(), String> {
        match signed_overflow(op, x, y, operand_ty, result_ty) {
            Some(exact) if !self.wrap_signed_overflow => Err(format!(
                "signed integer overflow: the exact result {exact} does not fit in `{}` (undefined behaviour)",
                crate::print::type_name(self.program, result_ty)
            )),
            _ => Ok(()),
        }
    }
}

struct Machine<'p, 'i> {
    state: State<'p>,
    inputs: &'i mut dyn FnMut(&Type) -> i128,
    limits: Limits,
    path: Vec<StmtRef>,
    consumed: Vec<i128>,
    heap_bytes: u64,
    /// A branch had more than one open target.
    ambiguous_branch: bool,
    steps: u64,
    accelerator: Option<accel::Accelerator>,
}

impl Machine<'_, '_> {
    fn input(&mut self, ty: &Type) -> i128 {
        let v = normalize((self.inputs)(ty), ty);
        self.consumed.push(v);
        v
    }

    fn push_frame(&mut self, proc: ProcId, result_lhs: Option<Expr>) {
        let program = self.state.program;
        let p = program.proc(proc);
        let mut vars = HashMap::default();
        for &v in p.formals.iter().chain(p.locals.iter()) {
            let size = size_of(program, &program.var(v).ty) as usize;
            let b = self.state.allocate(size, false, false);
            vars.insert(v, b);
        }
        self.state.frames.push(Frame { proc, pc: 0, vars, result_lhs });
    }

    fn pop_frame(&mut self) -> Option<Frame> {
        let frame = self.state.frames.pop()?;
        for &b in frame.vars.values() {
            if let Some(block) = self.state.blocks.get_mut(b as usize) {
                block.alive = false;
                block.bytes = Vec::new();
                block.defined = Vec::new();
            }
        }
        Some(frame)
    }

    /// Havocs every scalar inside the lvalue.
    fn havoc(&mut self, lhs: &Expr) -> Result<(), String> {
        let program = self.state.program;
        match &lhs.ty {
            Type::Struct(s) => {
                let def = program.struct_def(*s);
                for (i, f) in def.fields.iter().enumerate() {
                    let field = Expr::new(ExprKind::Field(Box::new(lhs.clone()), i as u32), f.ty.clone());
                    self.havoc(&field)?;
                    if def.is_union {
                        break;
                    }
                }
                Ok(())
            }
            Type::Array(elem, n) => {
                for i in 0..(*n).min(1 << 16) {
                    let element = Expr::new(ExprKind::Index(Box::new(lhs.clone()), Box::new(Expr::int(i as i128, Type::LONG))), (**elem).clone());
                    self.havoc(&element)?;
                }
                Ok(())
            }
            ty if ty.is_scalar() => {
                let address = self.state.lvalue_address(lhs)?;
                let v = self.input(ty);
                self.state.store(address, ty, v)
            }
            _ => Ok(()),
        }
    }

    fn execute(&mut self, on_step: &mut dyn FnMut(StmtRef, &State), stop: &dyn Fn() -> bool) -> Outcome {
        let program = self.state.program;
        let Some(entry) = program.entry else {
            return Outcome::RuntimeError("the program has no entry procedure".into(), Span::default());
        };
        if entry.0 as usize >= program.procs.len() {
            return Outcome::RuntimeError("the entry procedure does not exist".into(), Span::default());
        }
        self.push_frame(entry, None);
        // integer formals of the entry procedure are inputs (pointers such as `argv` stay NULL)
        for &f in &program.proc(entry).formals {
            let ty = program.var(f).ty.clone();
            if ty.is_integer() {
                let v = self.input(&ty);
                let lhs = Expr::var(f, ty);
                let _ = self.state.assign(&lhs, Value::Scalar(v));
            }
        }
        let mut steps: u64 = 0;
        loop {
            let Some(frame) = self.state.frames.last() else {
                return Outcome::Returned(None);
            };
            let proc = frame.proc;
            let pc = frame.pc;
            let body = &program.proc(proc).body;
            if pc as usize >= body.len() {
                // falling off the end: return without a value
                match self.do_return(None, false) {
                    Ok(Some(outcome)) => return outcome,
                    Ok(None) => continue,
                    Err(message) => return Outcome::RuntimeError(message, program.proc(proc).span),
                }
            }
            if steps >= self.limits.max_steps || (steps & 0xffff == 0xffff && stop()) {
                return Outcome::StepLimit;
            }
            steps += 1;
            self.steps = steps;
            let at = StmtRef { proc, index: pc };
            let stmt = &body[pc as usize];
            let mut pending = accel::Pending::None;
            if let Some(accelerator) = self.accelerator.as_mut() {
                accelerator.at_statement(&mut self.state, at);
                if accelerator.tracking() {
                    pending = accelerator.before(&self.state, &stmt.kind);
                }
            }
            on_step(at, &self.state);
            if self.limits.record_path {
                self.path.push(at);
            }
            let span = stmt.span;
            match self.step(proc, pc, &stmt.kind) {
                Ok(None) => {
                    if let Some(accelerator) = self.accelerator.as_mut() {
                        accelerator.after(&self.state, pending);
                    }
                }
                Ok(Some(outcome)) => return outcome,
                Err(message) => return Outcome::RuntimeError(message, span),
            }
        }
    }

    fn set_pc(&mut self, pc: u32) {
        if let Some(f) = self.state.frames.last_mut() {
            f.pc = pc;
        }
    }

    /// Executes one statement; `Ok(Some(outcome))` ends the run.
    fn step(&mut self, proc: ProcId, pc: u32, kind: &StmtKind) -> Result<Option<Outcome>, String> {
        let program = self.state.program;
        match kind {
            StmtKind::Skip => self.set_pc(pc + 1),
            StmtKind::Assign { lhs, rhs } => {
                let v = self.state.eval_value(rhs)?;
                self.state.assign(lhs, v)?;
                self.set_pc(pc + 1);
            }
            StmtKind::Havoc { lhs } => {
                self.havoc(lhs)?;
                self.set_pc(pc + 1);
            }
            StmtKind::Malloc { lhs, size } => {
                let n = self.state.eval_expr(size)?;
                if n < 0 || (n as u64).saturating_add(self.heap_bytes) > self.limits.max_heap_bytes {
                    return Err(format!("allocation of {n} bytes exceeds the heap limit"));
                }
                self.heap_bytes += n as u64;
                let b = self.state.allocate(n as usize, true, false);
                self.state.assign(lhs, Value::Scalar(State::address(b, 0)))?;
                self.set_pc(pc + 1);
            }
            StmtKind::Free { ptr } => {
                let p = self.state.eval_expr(ptr)?;
                if p != 0 {
                    let block = (p >> BLOCK_SHIFT) - 1;
                    let offset = p & ((1i128 << BLOCK_SHIFT) - 1);
                    let valid = block >= 0
                        && (block as usize) < self.state.blocks.len()
                        && offset == 0
                        && self.state.blocks[block as usize].heap
                        && self.state.blocks[block as usize].alive;
                    if !valid {
                        return Err("free of a pointer that is not a live heap block".into());
                    }
                    self.state.blocks[block as usize].alive = false;
                }
                self.set_pc(pc + 1);
            }
            StmtKind::Assume { cond } => {
                if self.state.eval_expr(cond)? == 0 {
                    return Ok(Some(Outcome::AssumeFailed));
                }
                self.set_pc(pc + 1);
            }
            StmtKind::Goto { targets } => {
                let body = &program.proc(proc).body;
                let mut first_error = None;
                let mut chosen = None;
                for &t in targets {
                    // once a target is chosen, the others are only looked at to notice a
                    // nondeterministic choice (a second open target)
                    let open = match body.get(t as usize).map(|s| &s.kind) {
                        Some(StmtKind::Assume { cond }) => match self.state.eval_expr(cond) {
                            Ok(0) => false,
                            Ok(_) => true,
                            Err(e) => {
                                if chosen.is_some() {
                                    self.ambiguous_branch = true;
                                    break;
                                }
                                first_error.get_or_insert(e);
                                false
                            }
                        },
                        _ => true,
                    };
                    if open {
                        if chosen.is_some() {
                            self.ambiguous_branch = true;
                            break;
                        }
                        chosen = Some(t);
                        if first_error.is_some() {
                            // an earlier target's condition was undefined: it might be open too
                            self.ambiguous_branch = true;
                        }
                        if self.ambiguous_branch {
                            break;
                        }
                    }
                }
                match (chosen, first_error) {
                    (Some(t), _) => self.set_pc(t),
                    (None, Some(e)) => return Err(e),
                    (None, None) => return Ok(Some(Outcome::AssumeFailed)),
                }
            }
            StmtKind::Call { lhs, callee, args } => {
                if callee.0 as usize >= program.procs.len() {
                    return Err("call of an unknown procedure".into());
                }
                if self.state.frames.len() as u32 >= self.limits.max_call_depth {
                    return Err("call depth limit exceeded (recursion too deep)".into());
                }
                let mut values = Vec::new();
                for a in args {
                    values.push(self.state.eval_value(a)?);
                }
                self.set_pc(pc + 1);
                self.push_frame(*callee, lhs.clone());
                let formals = program.proc(*callee).formals.clone();
                for (f, v) in formals.iter().zip(values) {
                    let lhs = Expr::var(*f, program.var(*f).ty.clone());
                    self.state.assign(&lhs, v)?;
                }
            }
            StmtKind::Return { value } => {
                // A returned value that was never written (`int f() {}`) only matters when a
                // caller stores it: the read is then charged to determinism in `do_return`.
                let earlier = self.state.undefined_read.replace(false);
                let v = value.as_ref().map(|e| self.state.eval_value(e)).transpose();
                let undefined = self.state.undefined_read.replace(earlier);
                return self.do_return(v?, undefined);
            }
            StmtKind::Error => return Ok(Some(Outcome::ReachedError)),
        }
        Ok(None)
    }

    fn do_return(&mut self, value: Option<Value>, undefined: bool) -> Result<Option<Outcome>, String> {
        let Some(frame) = self.pop_frame() else { return Ok(Some(Outcome::Returned(None))) };
        if self.state.frames.is_empty() {
            let v = match value {
                Some(Value::Scalar(v)) => Some(v),
                _ => None,
            };
            return Ok(Some(Outcome::Returned(v)));
        }
        if let (Some(lhs), Some(v)) = (frame.result_lhs, value) {
            if undefined {
                self.state.undefined_read.set(true);
            }
            self.state.assign(&lhs, v)?;
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Procedure, Stmt, Var, VarKind};

    fn var(program: &mut Program, name: &str, ty: Type, kind: VarKind) -> VarId {
        program.add_var(Var { name: name.into(), source_name: name.into(), ty, kind, span: Span::default(), address_taken: false })
    }

    fn stmt(kind: StmtKind) -> Stmt {
        Stmt { kind, span: Span::default(), label: None }
    }

    /// `main() { int x = *; int *p = &x; unsigned u = (unsigned)x; assume(x != 3); r = x / -2 + u % 7; return r; }`
    fn sample() -> (Program, VarId, VarId, VarId) {
        let mut p = Program::default();
        let main = ProcId(0);
        let x = var(&mut p, "x", Type::INT, VarKind::Local(main));
        let ptr = var(&mut p, "p", Type::pointer_to(Type::INT), VarKind::Local(main));
        let u = var(&mut p, "u", Type::UINT, VarKind::Local(main));
        let r = var(&mut p, "r", Type::INT, VarKind::Return(main));
        let xe = Expr::var(x, Type::INT);
        let ue = Expr::var(u, Type::UINT);
        let body = vec![
            stmt(StmtKind::Havoc { lhs: xe.clone() }),
            stmt(StmtKind::Assign { lhs: Expr::var(ptr, Type::pointer_to(Type::INT)), rhs: Expr::addr_of(xe.clone()) }),
            stmt(StmtKind::Assign { lhs: ue.clone(), rhs: Expr::cast(xe.clone(), Type::UINT) }),
            stmt(StmtKind::Assume { cond: Expr::binary(BinaryOp::Ne, xe.clone(), Expr::int(3, Type::INT)) }),
            stmt(StmtKind::Assign {
                lhs: Expr::var(r, Type::INT),
                rhs: Expr::binary(
                    BinaryOp::Add,
                    Expr::binary(BinaryOp::Div, xe.clone(), Expr::int(-2, Type::INT)),
                    Expr::cast(Expr::binary(BinaryOp::Rem, ue, Expr::int(7, Type::UINT)), Type::INT),
                ),
            }),
            stmt(StmtKind::Return { value: Some(Expr::var(r, Type::INT)) }),
        ];
        p.procs.push(Procedure { name: "main".into(), formals: vec![], locals: vec![x, ptr, u, r], ret_var: Some(r), ret_ty: Type::INT, body, span: Span::default() });
        p.entry = Some(main);
        (p, x, ptr, u)
    }

    #[test]
    fn runs_with_c_division_and_unsigned_conversion() {
        let (p, ..) = sample();
        let result = run(&p, &mut |_| -7, &Limits::default());
        // -7 / -2 = 3 (truncation); (unsigned)-7 = 4294967289, % 7 = 4294967289 - 7*613566755 = 4
        assert_eq!(result.outcome, Outcome::Returned(Some(7)));
        assert_eq!(result.inputs, vec![-7]);
        assert_eq!(result.path.len(), 6);
        let result = run(&p, &mut |_| 3, &Limits::default());
        assert_eq!(result.outcome, Outcome::AssumeFailed);
        let result = run(&p, &mut |_| 0, &Limits::new(2));
        assert_eq!(result.outcome, Outcome::StepLimit);
    }

    #[test]
    fn observer_evaluates_any_expression() {
        let (p, x, ptr, _) = sample();
        let mut seen = Vec::new();
        run_observed(&p, &mut |_| 41, &Limits::default(), &mut |at, state| {
            if at.index == 3 {
                let deref = Expr::deref(Expr::var(ptr, Type::pointer_to(Type::INT)));
                seen.push(state.eval(&Expr::binary(BinaryOp::Eq, deref, Expr::var(x, Type::INT))));
                let null = Expr::deref(Expr::int(0, Type::pointer_to(Type::INT)));
                seen.push(state.eval(&null));
                seen.push(state.value_of(x));
            }
        });
        assert_eq!(seen, vec![Some(1), None, Some(41)]);
    }

    #[test]
    fn normalisation_and_operators_are_bit_precise() {
        let u8t = Type::Int { bits: 8, signed: false };
        let i8t = Type::Int { bits: 8, signed: true };
        assert_eq!(normalize(300, &u8t), 44);
        assert_eq!(normalize(200, &i8t), -56);
        assert_eq!(normalize(-1, &Type::UINT), 4294967295);
        assert_eq!(eval_binary(BinaryOp::Rem, -7, 2, &Type::INT, &Type::INT), Some(-1));
        assert_eq!(eval_binary(BinaryOp::Div, 7, -2, &Type::INT, &Type::INT), Some(-3));
        assert_eq!(eval_binary(BinaryOp::Shr, -16, 2, &Type::INT, &Type::INT), Some(-4));
        assert_eq!(eval_binary(BinaryOp::Shr, 4294967280, 2, &Type::UINT, &Type::UINT), Some(1073741820));
        assert_eq!(eval_binary(BinaryOp::Add, 2147483647, 1, &Type::INT, &Type::INT), Some(-2147483648));
        assert_eq!(eval_binary(BinaryOp::Lt, 4294967295, 0, &Type::UINT, &Type::Bool), Some(0));
        assert_eq!(eval_binary(BinaryOp::Div, 1, 0, &Type::INT, &Type::INT), None);
        assert_eq!(eval_unary(UnaryOp::BitNot, 0, &Type::UINT), 4294967295);
    }
}
