//! End-to-end soundness of the whole CEGAR loop on random SV-COMP style programs.
//!
//! Each program reads up to four inputs (`int`, `unsigned`, `char`, `unsigned char`, `short`),
//! each cut down to a few values by `if (x < LO || x > HI) return 0;` (near 0, or at an end of
//! the type), then runs a body of assignments (`+ - * / % & | ^ << >>`, comparisons, casts,
//! `?:`, compound assignments, `++`/`--`; divisors and shift amounts kept defined), branches,
//! `while`/`for`/`do` loops over counters with small bounds (and `break`), calls of a helper
//! that writes a global, of a depth-bounded recursive function, and reads of small values
//! (`__VERIFIER_nondet_int` in the body, also in loops) and `__VERIFIER_assume`. Depending on
//! the program it has no memory (so that the difference-bound analysis and bounded model
//! checking apply), or pointers to locals, array elements and struct fields, a small array
//! with masked or checked indices, struct copies and calls through two possibly equal pointer
//! parameters, or a list of `malloc`ed nodes that loops build and walk. Checks are
//! `if (c) reach_error();` or `__VERIFIER_assert(!(c))`. The final check is random or *tight*:
//! chosen from the values the checked expression takes over all runs, so that it fails exactly
//! at an extreme value or at one value, or just never (`e > max`, `e == v` for a missing `v`).
//!
//! Every run is executed on the concrete interpreter (every combination of the inputs, every
//! sequence of the body's reads: the ground truth), and the verdicts of `check_source` must
//! agree with it: SAFE means no run reaches the error (also with wrapping signed arithmetic,
//! which the engine assumes) and the invariants hold wherever a run passes their statement;
//! UNSAFE means the counterexample's inputs replay to the error (and so some run reaches it).
//! Each program is checked twice: with the CLI's defaults, and without the random concrete runs
//! (`random_runs = 0`), which would otherwise turn an unsound proof into UNSAFE.
//! UNKNOWN is allowed, but at least half the default runs must decide.
//!
//! The test suite runs 24 programs from a fixed seed (the same on every machine).
//! `RANDOM_PROGRAMS_CASES=N` runs N programs from `RANDOM_PROGRAMS_SEED` (one seed per 50);
//! `RANDOM_PROGRAMS_FAILURES=DIR` writes each shrunk failure to `DIR/seedN.c` and goes on;
//! copied to `tests/random-programs/`, it is checked by `saved_programs_agree_with_all_runs`
//! (`RANDOM_PROGRAMS_FILE=path` checks one file). `RANDOM_PROGRAMS_LOG=DIR` writes each
//! program with its verdicts to `DIR/NNNN.c`; `RANDOM_PROGRAMS_REFINE`, `_STRATEGY`,
//! `_MAX_CONE`, `_BUDGET_MS` and `_ITERATIONS` pick other settings (see
//! [`tune_from_environment`]). See `docs/fuzzing.md`.

use c_ir::interp::{run_observed, Limits, Outcome};
use c_ir::Program;
use verify::{check_source, CheckOutcome, Config, Verdict};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use std::cell::RefCell;
use std::fmt::Write as _;

const DEFAULT_CASES: u32 = 24;
/// The runs of one program stay well below this many combinations of inputs.
const MAX_COMBINATIONS: u64 = 2500;
/// No generated run comes near this (loops and recursion are bounded).
const RUN_STEPS: u64 = 200_000;

// ---------------------------------------------------------------------------------------------
// The generated programs

#[derive(Clone, Debug)]
enum E {
    /// A variable of the context (see [`Ctx::var`]).
    Var(u8),
    Const(i32),
    /// `/?` and `%?` guard the divisor with `d == 0 ? 1 : d`, `/` and `%` with `d | 1`; shift
    /// amounts are masked with `& 7`.
    Bin(&'static str, Box<E>, Box<E>),
    Un(&'static str, Box<E>),
    Cast(Ty, Box<E>),
    /// `c ? a : b`
    Ite(Box<E>, Box<E>, Box<E>),
    /// `*p` (when the program uses memory).
    Deref,
    /// `arr[k]` (when the program uses memory).
    Elem(u8),
    /// `arr[(e) & 3]` (when the program uses memory).
    ElemAt(Box<E>),
    /// `st.f`, `st.s`, `ps->f`, `ps->s`, `st2.f`, `st2.s` (when the program uses memory).
    Field(u8),
}

#[derive(Clone, Debug)]
enum C {
    Cmp(&'static str, E, E),
    And(Box<C>, Box<C>),
    Or(Box<C>, Box<C>),
    Not(Box<C>),
}

/// Where an assignment writes.
#[derive(Clone, Debug)]
enum Place {
    Var(u8),
    /// `*p`
    Deref,
    /// `arr[k]`
    Elem(u8),
    /// A field of a struct, as [`E::Field`].
    Field(u8),
}

#[derive(Clone, Debug)]
enum Bound {
    Const(u8),
    /// `(e) & 3`, evaluated before every iteration.
    Masked(E),
}

#[derive(Clone, Debug)]
enum S {
    /// `place op e;` with `op` one of `=`, `+=`, ..., `>>=` (divisors and shift amounts guarded).
    Assign(Place, &'static str, E),
    /// `place++;`, `--place;`, ...
    Step(Place, &'static str, bool),
    /// `v = h(e1, e2);`
    Call(u8, E, E),
    /// `v = rec((e1) & 3, e2);`
    Rec(u8, E, E),
    /// `p = &a;`, `p = &b;`, `p = &arr[k];`, `ps = &st2;` or `ps = &st;`
    PtrRetarget(u8, u8),
    /// `st2 = st;`, `st = st2;` or `*ps = st2;`
    StructCopy(u8),
    /// `v = set2(t1, t2, e);` with pointers `t1`, `t2` (as for [`S::Bump`], or `&st.f`, `&ps->s`)
    /// that may be equal.
    Set2(u8, u8, u8, u8, E),
    /// `if (i >= 0 && i < 4) arr[i] = e;`
    CheckedArrWrite(E, E),
    /// `bump(&a | &b | &arr[k] | p, e);`
    Bump(u8, u8, E),
    /// `if (c) reach_error();` (or `__VERIFIER_assert(!(c))` in main when the program says so)
    Check(C),
    /// `if (c) break;` inside a loop (nothing elsewhere)
    Break(C),
    /// `v = __VERIFIER_nondet_int(); if (v < 0 || v > 2) return 0;` (main only)
    Read(u8),
    /// `__VERIFIER_assume(c);`
    Assume(C),
    /// Heap programs: a new node with `h = e1`, `v = e2` in front of the list `head`.
    Push(E, E),
    /// Heap programs: the statements for every node `q` of the list, where `q->h` and `q->v`
    /// stand for the first two variables, `*p` and `arr[k]`.
    Walk(Vec<S>),
    If(C, Vec<S>, Vec<S>),
    /// A `while` (0), `for` (1) or `do ... while` (2) loop over a fresh counter.
    Loop(u8, Bound, Vec<S>),
}

#[derive(Clone, Debug)]
enum Final {
    Random(C),
    /// The check on `(int)(e)` chosen from the values `e` takes (`kind`, `pick`: see
    /// [`with_final_check`]).
    Tight(E, u8, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Uint,
    Char,
    Uchar,
    Short,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Uint => "unsigned int",
            Ty::Char => "char",
            Ty::Uchar => "unsigned char",
            Ty::Short => "short",
        }
    }
    fn nondet(self) -> &'static str {
        match self {
            Ty::Int => "__VERIFIER_nondet_int",
            Ty::Uint => "__VERIFIER_nondet_uint",
            Ty::Char => "__VERIFIER_nondet_char",
            Ty::Uchar => "__VERIFIER_nondet_uchar",
            Ty::Short => "__VERIFIER_nondet_short",
        }
    }
    fn max(self) -> i64 {
        match self {
            Ty::Int => i32::MAX as i64,
            Ty::Uint => u32::MAX as i64,
            Ty::Char => 127,
            Ty::Uchar => 255,
            Ty::Short => 32767,
        }
    }
    fn signed(self) -> bool {
        matches!(self, Ty::Int | Ty::Char | Ty::Short)
    }
    fn literal(self, v: i64) -> String {
        if self == Ty::Uint {
            format!("{v}u")
        } else {
            v.to_string()
        }
    }
}

const TYPES: [Ty; 5] = [Ty::Int, Ty::Uint, Ty::Char, Ty::Uchar, Ty::Short];

/// An input: its type, whether its range sits at an end of the type (the top, or for a signed
/// type with an odd offset the bottom), an offset and the number of values.
#[derive(Clone, Debug)]
struct Input {
    ty: Ty,
    high: bool,
    offset: u8,
    width: u8,
}

#[derive(Clone, Debug)]
struct Prog {
    inputs: Vec<Input>,
    /// Integers only (0); main has the pointer `p` and the array `arr` (1); or a list of
    /// `malloc`ed nodes `head` (2). Without memory the uses of `*p` and `arr` become plain
    /// variables, so that the difference-bound analysis and bounded model checking apply.
    mode: u8,
    a0: i32,
    b0: i32,
    c_ty: Ty,
    c0: i32,
    g0: i32,
    arr0: [i32; 4],
    helper_body: Vec<S>,
    helper_ret: E,
    /// `int set2(int *x, int *y, int v)`: statements over `*x`, `*y`, `v` and `g`.
    set2_body: Vec<S>,
    set2_ret: E,
    rec_base: E,
    rec_step: E,
    body: Vec<S>,
    last: Final,
    assert_style: bool,
}

impl Prog {
    /// The inclusive range of each input, narrowed until the combinations are few enough.
    fn ranges(&self) -> Vec<(i64, i64)> {
        let mut widths: Vec<i64> = self.inputs.iter().map(|i| i.width as i64).collect();
        while widths.iter().product::<i64>() as u64 > MAX_COMBINATIONS {
            let widest = (0..widths.len()).max_by_key(|&k| widths[k]).unwrap();
            widths[widest] -= 1;
        }
        self.inputs
            .iter()
            .zip(widths)
            .map(|(input, w)| {
                let off = input.offset as i64;
                if input.high && input.ty.signed() && off % 2 == 1 {
                    // at the bottom of the type
                    let lo = -input.ty.max() - 1 + off / 2;
                    (lo, lo + w - 1)
                } else if input.high {
                    let hi = input.ty.max() - off;
                    (hi - w + 1, hi)
                } else if input.ty.signed() {
                    let lo = 2 * off - 6;
                    (lo, lo + w - 1)
                } else {
                    (off, off + w - 1)
                }
            })
            .collect()
    }
}

const ARITH: [&str; 15] = ["+", "-", "*", "/", "/?", "%", "%?", "&", "|", "^", "<<", ">>", "<", "==", "&&"];
const CMP: [&str; 6] = ["<", "<=", ">", ">=", "==", "!="];
const ASSIGN: [&str; 10] = ["+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", "/=", "%="];

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        6 => (0u8..8).prop_map(E::Var),
        4 => (-4i32..10).prop_map(E::Const),
        1 => Just(E::Deref),
        1 => (0u8..4).prop_map(E::Elem),
        1 => (0u8..6).prop_map(E::Field),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            10 => (select(ARITH.to_vec()), inner.clone(), inner.clone()).prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b))),
            1 => (select(vec!["-", "~", "!"]), inner.clone()).prop_map(|(op, a)| E::Un(op, Box::new(a))),
            1 => (select(TYPES.to_vec()), inner.clone()).prop_map(|(ty, a)| E::Cast(ty, Box::new(a))),
            1 => (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| E::Ite(Box::new(c), Box::new(a), Box::new(b))),
            1 => inner.prop_map(|a| E::ElemAt(Box::new(a))),
        ]
    })
}

fn cond() -> impl Strategy<Value = C> {
    let leaf = prop_oneof![
        3 => (0u8..8, select(CMP.to_vec()), -3i32..10).prop_map(|(v, op, k)| C::Cmp(op, E::Var(v), E::Const(k))),
        2 => (select(CMP.to_vec()), expr(), expr()).prop_map(|(op, a, b)| C::Cmp(op, a, b)),
    ];
    leaf.prop_recursive(2, 4, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| C::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| C::Not(Box::new(a))),
        ]
    })
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![3 => (1u8..5).prop_map(Bound::Const), 1 => expr().prop_map(Bound::Masked)]
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        6 => (0u8..8).prop_map(Place::Var),
        1 => Just(Place::Deref),
        1 => (0u8..4).prop_map(Place::Elem),
        1 => (0u8..6).prop_map(Place::Field),
    ]
}

fn assign() -> impl Strategy<Value = S> {
    prop_oneof![
        4 => (place(), expr()).prop_map(|(p, e)| S::Assign(p, "=", e)),
        1 => (place(), select(ASSIGN.to_vec()), expr()).prop_map(|(p, op, e)| S::Assign(p, op, e)),
        1 => (place(), select(vec!["++", "--"]), any::<bool>()).prop_map(|(p, op, prefix)| S::Step(p, op, prefix)),
    ]
}

fn main_stmt() -> impl Strategy<Value = S> {
    let leaf = prop_oneof![
        12 => assign(),
        2 => (0u8..8, expr(), expr()).prop_map(|(v, a, b)| S::Call(v, a, b)),
        1 => (0u8..8, expr(), expr()).prop_map(|(v, a, b)| S::Rec(v, a, b)),
        1 => (0u8..5, 0u8..4).prop_map(|(t, k)| S::PtrRetarget(t, k)),
        1 => (0u8..3).prop_map(S::StructCopy),
        2 => (0u8..8, 0u8..6, 0u8..6, 0u8..4, expr()).prop_map(|(v, t1, t2, k, e)| S::Set2(v, t1, t2, k, e)),
        1 => (expr(), expr()).prop_map(|(i, e)| S::CheckedArrWrite(i, e)),
        1 => (0u8..4, 0u8..4, expr()).prop_map(|(t, k, e)| S::Bump(t, k, e)),
        1 => cond().prop_map(S::Check),
        1 => cond().prop_map(S::Break),
        2 => (expr(), expr()).prop_map(|(h, v)| S::Push(h, v)),
        1 => (0u8..8).prop_map(S::Read),
        1 => cond().prop_map(S::Assume),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            4 => (cond(), prop::collection::vec(inner.clone(), 0..3), prop::collection::vec(inner.clone(), 0..2))
                .prop_map(|(c, t, e)| S::If(c, t, e)),
            2 => (0u8..3, bound(), prop::collection::vec(inner, 1..3)).prop_map(|(style, b, body)| S::Loop(style, b, body)),
            1 => prop::collection::vec(helper_stmt(), 1..3).prop_map(S::Walk),
        ]
    })
}

/// The statements of the helpers `h` and `set2` and of walks over the list: assignments,
/// checks, branches and loops over the context's variables (reads only in walks).
fn helper_stmt() -> impl Strategy<Value = S> {
    let leaf = prop_oneof![
        4 => assign(),
        1 => cond().prop_map(S::Check),
        1 => cond().prop_map(S::Break),
        1 => (0u8..8).prop_map(S::Read),
    ];
    leaf.prop_recursive(1, 4, 2, |inner| {
        prop_oneof![
            (cond(), prop::collection::vec(inner.clone(), 0..2), prop::collection::vec(inner.clone(), 0..2)).prop_map(|(c, t, e)| S::If(c, t, e)),
            (0u8..3, (1u8..4).prop_map(Bound::Const), prop::collection::vec(inner, 1..2)).prop_map(|(style, b, body)| S::Loop(style, b, body)),
        ]
    })
}

fn input() -> impl Strategy<Value = Input> {
    (select(TYPES.to_vec()), prop::bool::weighted(0.2), 0u8..5, 3u8..10).prop_map(|(ty, high, offset, width)| Input { ty, high, offset, width })
}

fn final_check() -> impl Strategy<Value = Final> {
    prop_oneof![1 => cond().prop_map(Final::Random), 2 => (expr(), 0u8..6, any::<u32>()).prop_map(|(e, k, p)| Final::Tight(e, k, p))]
}

fn prog() -> impl Strategy<Value = Prog> {
    (
        (prop::collection::vec(input(), 1..5), 0u8..3),
        (-3i32..6, -3i32..6, select(TYPES.to_vec()), 0i32..6, -2i32..4, [-3i32..6, -3i32..6, -3i32..6, -3i32..6]),
        (prop::collection::vec(helper_stmt(), 0..3), expr(), expr(), expr(), prop::collection::vec(helper_stmt(), 0..3), expr()),
        prop::collection::vec(main_stmt(), 1..6),
        final_check(),
        any::<bool>(),
    )
        .prop_map(|((inputs, mode), (a0, b0, c_ty, c0, g0, arr0), (helper_body, helper_ret, rec_base, rec_step, set2_body, set2_ret), body, last, assert_style)| Prog {
            inputs,
            mode,
            a0,
            b0,
            c_ty,
            c0,
            g0,
            arr0,
            helper_body,
            helper_ret,
            set2_body,
            set2_ret,
            rec_base,
            rec_step,
            body,
            last,
            assert_style,
        })
}

// ---------------------------------------------------------------------------------------------
// Rendering as C

/// Which function is being written: main (inputs, locals and the memory of the program), the
/// helper `h`, `rec`, or `set2`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fun {
    Main,
    Helper,
    Rec,
    Set2,
}

#[derive(Default)]
struct Used {
    h: bool,
    rec: bool,
    bump: bool,
    set2: bool,
    structs: bool,
    ptr: bool,
    arr: bool,
    assert: bool,
    read: bool,
    assume: bool,
}

struct Ctx<'a> {
    fun: Fun,
    inputs: usize,
    /// `p` and `arr` exist (main of a program with memory).
    memory: bool,
    /// The list `head` exists (main of a heap program).
    heap: bool,
    /// Inside a walk over the list: `q` is the current node.
    cursor: bool,
    used: &'a mut Used,
    /// Loop counters so far (each loop gets a fresh one).
    loops: u32,
    /// Loops around the current statement.
    depth: u32,
    assert_style: bool,
}

impl<'a> Ctx<'a> {
    fn new(fun: Fun, prog: &Prog, used: &'a mut Used) -> Ctx<'a> {
        let main = fun == Fun::Main;
        Ctx {
            fun,
            inputs: prog.inputs.len(),
            memory: main && prog.mode == 1,
            heap: main && prog.mode == 2,
            cursor: false,
            used,
            loops: 0,
            depth: 0,
            assert_style: main && prog.assert_style,
        }
    }

    fn var(&self, v: u8) -> String {
        match self.fun {
            Fun::Main if self.cursor && v < 2 => ["q->h", "q->v"][v as usize].into(),
            Fun::Main => match v {
                0..=3 => format!("x{}", v as usize % self.inputs),
                4 => "a".into(),
                5 => "b".into(),
                6 => "c".into(),
                _ => "g".into(),
            },
            Fun::Helper => ["p", "q", "r", "g"][v as usize % 4].into(),
            Fun::Rec => ["acc", "n", "g", "acc"][v as usize % 4].into(),
            Fun::Set2 => ["(*x)", "(*y)", "v", "g"][v as usize % 4].into(),
        }
    }

    /// `*p` and `arr[k]` stand for plain variables where there is no memory.
    fn place(&mut self, place: &Place) -> String {
        match place {
            Place::Var(v) => self.var(*v),
            Place::Deref if self.memory => {
                self.used.ptr = true;
                "(*p)".into()
            }
            Place::Elem(k) if self.memory => {
                self.used.arr = true;
                format!("arr[{k}]")
            }
            Place::Field(k) if self.memory => {
                self.used.structs = true;
                ["st.f", "st.s", "ps->f", "ps->s", "st2.f", "st2.s"][*k as usize % 6].into()
            }
            Place::Field(k) => self.place(&Place::Elem(*k % 4)),
            Place::Deref if self.cursor => "q->v".into(),
            Place::Elem(k) if self.cursor => ["q->h", "q->v"][*k as usize % 2].into(),
            Place::Deref => self.var(4),
            Place::Elem(k) => self.var(4 + k),
        }
    }

    fn expr(&mut self, e: &E) -> String {
        match e {
            E::Var(v) => self.var(*v),
            E::Const(k) => k.to_string(),
            E::Bin(op, a, b) => {
                let a = self.expr(a);
                match *op {
                    "/" | "%" | "/?" | "%?" => format!("(({a}) {} {})", &op[..1], self.divisor(op, b)),
                    "<<" | ">>" => format!("(({a}) {op} {})", self.shift_amount(b)),
                    _ => format!("(({a}) {op} ({}))", self.expr(b)),
                }
            }
            E::Un(op, a) => format!("({op}({}))", self.expr(a)),
            E::Cast(ty, a) => format!("(({})({}))", ty.name(), self.expr(a)),
            E::Ite(c, a, b) => format!("(({}) ? ({}) : ({}))", self.expr(c), self.expr(a), self.expr(b)),
            E::Deref if self.heap && !self.cursor => "(head != 0 ? head->h : -1)".into(),
            E::Elem(k) if self.heap && !self.cursor => format!("(head != 0 ? head->v : {k})"),
            E::Deref => self.place(&Place::Deref),
            E::Elem(k) => self.place(&Place::Elem(*k)),
            E::ElemAt(i) if self.memory => {
                self.used.arr = true;
                format!("arr[({}) & 3]", self.expr(i))
            }
            E::ElemAt(i) => self.expr(i),
            E::Field(k) => self.place(&Place::Field(*k)),
        }
    }

    /// A divisor that is never 0.
    fn divisor(&mut self, op: &str, b: &E) -> String {
        match b {
            E::Const(0) => "2".to_string(),
            E::Const(k) => k.to_string(),
            b if op.ends_with('?') => {
                let b = self.expr(b);
                format!("(({b}) == 0 ? 1 : ({b}))")
            }
            b => format!("(({}) | 1)", self.expr(b)),
        }
    }

    /// A shift amount in 0..8.
    fn shift_amount(&mut self, b: &E) -> String {
        match b {
            E::Const(k) => k.rem_euclid(8).to_string(),
            b => format!("(({}) & 7)", self.expr(b)),
        }
    }

    /// A pointer to an `int` of main (with memory): `&a`, `&b`, `&arr[k]`, `p`, `&st.f`, `&ps->s`.
    fn pointer(&mut self, t: u8, k: u8) -> String {
        match t % 6 {
            0 => "&a".into(),
            1 => "&b".into(),
            2 => format!("&{}", self.place(&Place::Elem(k))),
            3 => {
                self.used.ptr = true;
                "p".into()
            }
            4 => format!("&{}", self.place(&Place::Field(0))),
            _ => format!("&{}", self.place(&Place::Field(3))),
        }
    }

    fn cond(&mut self, c: &C) -> String {
        match c {
            C::Cmp(op, a, b) => format!("{} {op} {}", self.expr(a), self.expr(b)),
            C::And(a, b) => format!("({}) && ({})", self.cond(a), self.cond(b)),
            C::Or(a, b) => format!("({}) || ({})", self.cond(a), self.cond(b)),
            C::Not(a) => format!("!({})", self.cond(a)),
        }
    }

    fn check(&mut self, c: &str, out: &mut String, indent: &str) {
        if self.assert_style {
            self.used.assert = true;
            let _ = writeln!(out, "{indent}__VERIFIER_assert(!({c}));");
        } else {
            let _ = writeln!(out, "{indent}if ({c}) reach_error();");
        }
    }

    fn stmts(&mut self, stmts: &[S], out: &mut String, level: usize) {
        let indent = "  ".repeat(level);
        for s in stmts {
            match s {
                S::Assign(place, op, e) => {
                    let lhs = self.place(place);
                    let rhs = match *op {
                        "/=" | "%=" => self.divisor(op, e),
                        "<<=" | ">>=" => self.shift_amount(e),
                        _ => self.expr(e),
                    };
                    let _ = writeln!(out, "{indent}{lhs} {op} {rhs};");
                }
                S::Step(place, op, prefix) => {
                    let lhs = self.place(place);
                    if *prefix {
                        let _ = writeln!(out, "{indent}{op}{lhs};");
                    } else {
                        let _ = writeln!(out, "{indent}{lhs}{op};");
                    }
                }
                S::Call(v, a, b) => {
                    self.used.h = true;
                    let (a, b) = (self.expr(a), self.expr(b));
                    let _ = writeln!(out, "{indent}{} = h({a}, {b});", self.var(*v));
                }
                S::Rec(v, a, b) if self.heap => {
                    // the heap analysis gives up on recursion
                    self.used.h = true;
                    let (a, b) = (self.expr(a), self.expr(b));
                    let _ = writeln!(out, "{indent}{} = h({a}, {b});", self.var(*v));
                }
                S::Rec(v, a, b) => {
                    self.used.rec = true;
                    let (a, b) = (self.expr(a), self.expr(b));
                    let _ = writeln!(out, "{indent}{} = rec(({a}) & 3, {b});", self.var(*v));
                }
                S::PtrRetarget(t, k) if self.memory => {
                    self.used.ptr = true;
                    let target = match t {
                        0 => "a".to_string(),
                        1 => "b".to_string(),
                        _ => {
                            self.used.arr = true;
                            format!("arr[{k}]")
                        }
                    };
                    let _ = writeln!(out, "{indent}p = &{target};");
                }
                S::PtrRetarget(0, _) if self.heap => {
                    let _ = writeln!(out, "{indent}if (head != 0) head = head->next;");
                }
                S::PtrRetarget(3, _) if self.memory => {
                    self.used.structs = true;
                    let _ = writeln!(out, "{indent}ps = &st2;");
                }
                S::PtrRetarget(4, _) if self.memory => {
                    self.used.structs = true;
                    let _ = writeln!(out, "{indent}ps = &st;");
                }
                S::PtrRetarget(..) => {}
                S::StructCopy(k) if self.memory => {
                    self.used.structs = true;
                    let _ = writeln!(out, "{indent}{}", ["st2 = st;", "st = st2;", "*ps = st2;"][*k as usize % 3]);
                }
                S::StructCopy(_) => {}
                S::Set2(v, t1, t2, k, e) if self.memory => {
                    self.used.set2 = true;
                    let (t1, t2) = (self.pointer(*t1, *k), self.pointer(*t2, *k));
                    let e = self.expr(e);
                    let _ = writeln!(out, "{indent}{} = set2({t1}, {t2}, {e});", self.var(*v));
                }
                S::Set2(v, _, _, _, e) => {
                    let e = self.expr(e);
                    let _ = writeln!(out, "{indent}{} = {e};", self.var(*v));
                }
                S::Push(h, v) if self.heap => {
                    let (h, v) = (self.expr(h), self.expr(v));
                    let _ = writeln!(out, "{indent}{{\n{indent}  struct node *t = malloc(sizeof(struct node));\n{indent}  if (t == 0) return 0;");
                    let _ = writeln!(out, "{indent}  t->h = {h};\n{indent}  t->v = {v};\n{indent}  t->next = head;\n{indent}  head = t;\n{indent}}}");
                }
                S::Push(..) => {}
                S::Walk(body) if self.heap && !self.cursor => {
                    let _ = writeln!(out, "{indent}{{\n{indent}  struct node *q = head;\n{indent}  while (q != 0) {{");
                    self.cursor = true;
                    self.depth += 1;
                    self.stmts(body, out, level + 2);
                    self.depth -= 1;
                    self.cursor = false;
                    let _ = writeln!(out, "{indent}    q = q->next;\n{indent}  }}\n{indent}}}");
                }
                S::Walk(_) => {}
                S::CheckedArrWrite(i, e) => {
                    let (i, e) = (self.expr(i), self.expr(e));
                    let lhs = if self.memory {
                        self.used.arr = true;
                        format!("arr[{i}]")
                    } else {
                        self.var(5)
                    };
                    let _ = writeln!(out, "{indent}if (({i}) >= 0 && ({i}) < 4) {lhs} = {e};");
                }
                S::Bump(t, k, e) => {
                    let target = match t {
                        0 => Place::Var(4),
                        1 => Place::Var(5),
                        2 => Place::Elem(*k),
                        _ => Place::Deref,
                    };
                    let e = self.expr(e);
                    if self.memory {
                        self.used.bump = true;
                        let target = match target {
                            Place::Deref => {
                                self.used.ptr = true;
                                "p".to_string()
                            }
                            place => format!("&{}", self.place(&place)),
                        };
                        let _ = writeln!(out, "{indent}bump({target}, {e});");
                    } else {
                        let lhs = self.place(&target);
                        let _ = writeln!(out, "{indent}{lhs} = {lhs} + ({e});");
                    }
                }
                S::Check(c) => {
                    let c = self.cond(c);
                    self.check(&c, out, &indent);
                }
                S::Break(c) if self.depth > 0 => {
                    let c = self.cond(c);
                    let _ = writeln!(out, "{indent}if ({c}) break;");
                }
                S::Break(_) => {}
                S::Read(v) if self.fun == Fun::Main => {
                    self.used.read = true;
                    let v = self.var(*v);
                    let _ = writeln!(out, "{indent}{v} = __VERIFIER_nondet_int();\n{indent}if ({v} < 0 || {v} > {BODY_READ_MAX}) return 0;");
                }
                S::Read(_) => {}
                S::Assume(c) => {
                    self.used.assume = true;
                    let c = self.cond(c);
                    let _ = writeln!(out, "{indent}__VERIFIER_assume({c});");
                }
                S::If(c, t, e) => {
                    let c = self.cond(c);
                    let _ = writeln!(out, "{indent}if ({c}) {{");
                    self.stmts(t, out, level + 1);
                    if e.is_empty() {
                        let _ = writeln!(out, "{indent}}}");
                    } else {
                        let _ = writeln!(out, "{indent}}} else {{");
                        self.stmts(e, out, level + 1);
                        let _ = writeln!(out, "{indent}}}");
                    }
                }
                S::Loop(style, b, body) => {
                    let i = format!("i{}", self.loops);
                    self.loops += 1;
                    let limit = match b {
                        Bound::Const(k) => k.to_string(),
                        Bound::Masked(e) => format!("(({}) & 3)", self.expr(e)),
                    };
                    self.depth += 1;
                    match style {
                        0 => {
                            let _ = writeln!(out, "{indent}{{\n{indent}  int {i} = 0;\n{indent}  while ({i} < {limit}) {{");
                            self.stmts(body, out, level + 2);
                            let _ = writeln!(out, "{indent}    {i} = {i} + 1;\n{indent}  }}\n{indent}}}");
                        }
                        1 => {
                            let _ = writeln!(out, "{indent}for (int {i} = 0; {i} < {limit}; {i}++) {{");
                            self.stmts(body, out, level + 1);
                            let _ = writeln!(out, "{indent}}}");
                        }
                        _ => {
                            let _ = writeln!(out, "{indent}{{\n{indent}  int {i} = 0;\n{indent}  do {{");
                            self.stmts(body, out, level + 2);
                            let _ = writeln!(out, "{indent}    {i}++;\n{indent}  }} while ({i} < {limit});\n{indent}}}");
                        }
                    }
                    self.depth -= 1;
                }
            }
        }
    }
}

/// How the program ends: its final check (a condition, or `(int)(e) op k`), or
/// `return (int)(e);` for finding the values of `e`.
enum Ending<'a> {
    Random(&'a C),
    Tight(&'a E, &'static str, i128),
    Probe(&'a E),
}

fn render(prog: &Prog, ending: Ending) -> String {
    let ranges = prog.ranges();
    let mut used = Used::default();
    let mut main_body = String::new();
    let mut ctx = Ctx::new(Fun::Main, prog, &mut used);
    ctx.stmts(&prog.body, &mut main_body, 1);
    match ending {
        Ending::Random(c) => {
            let c = ctx.cond(c);
            ctx.check(&c, &mut main_body, "  ");
        }
        Ending::Tight(e, op, k) => {
            let c = format!("(int)({}) {op} {k}", ctx.expr(e));
            ctx.check(&c, &mut main_body, "  ");
        }
        Ending::Probe(e) => {
            let e = ctx.expr(e);
            let _ = writeln!(main_body, "  return (int)({e});");
        }
    }
    let mut helper = String::new();
    if used.h {
        let mut ctx = Ctx::new(Fun::Helper, prog, &mut used);
        let _ = writeln!(helper, "int h(int p, int q) {{\n  int r = 0;");
        ctx.stmts(&prog.helper_body, &mut helper, 1);
        let ret = ctx.expr(&prog.helper_ret);
        let _ = writeln!(helper, "  return {ret};\n}}");
    }
    if used.rec {
        let mut ctx = Ctx::new(Fun::Rec, prog, &mut used);
        let (base, step) = (ctx.expr(&prog.rec_base), ctx.expr(&prog.rec_step));
        let _ = writeln!(helper, "int rec(int n, int acc) {{\n  if (n <= 0) return {base};\n  return rec(n - 1, {step});\n}}");
    }
    if used.bump {
        helper.push_str("void bump(int *q, int d) {\n  *q = *q + d;\n}\n");
    }
    if used.set2 {
        let mut ctx = Ctx::new(Fun::Set2, prog, &mut used);
        let _ = writeln!(helper, "int set2(int *x, int *y, int v) {{");
        ctx.stmts(&prog.set2_body, &mut helper, 1);
        let ret = ctx.expr(&prog.set2_ret);
        let _ = writeln!(helper, "  return {ret};\n}}");
    }
    let mut src = String::new();
    let mut nondets: Vec<Ty> = Vec::new();
    for input in &prog.inputs {
        if !nondets.contains(&input.ty) {
            nondets.push(input.ty);
        }
    }
    if used.read && !nondets.contains(&Ty::Int) {
        nondets.push(Ty::Int);
    }
    for ty in nondets {
        let _ = writeln!(src, "extern {} {}(void);", ty.name(), ty.nondet());
    }
    if used.assume {
        src.push_str("extern void __VERIFIER_assume(int);\n");
    }
    src.push_str("extern void reach_error(void);\n");
    if prog.mode == 2 {
        src.push_str("extern void *malloc(unsigned long);\nstruct node {\n  int h;\n  int v;\n  struct node *next;\n};\n");
    }
    if used.assert {
        src.push_str("extern void abort(void);\nvoid __VERIFIER_assert(int cond) {\n  if (!(cond)) {\n  ERROR: {reach_error();abort();}\n  }\n  return;\n}\n");
    }
    if used.structs {
        src.push_str("struct pair {\n  int f;\n  int s;\n};\n");
    }
    let _ = writeln!(src, "int g = {};", prog.g0);
    src.push_str(&helper);
    src.push_str("int main(void) {\n");
    for (k, (input, (lo, hi))) in prog.inputs.iter().zip(&ranges).enumerate() {
        let _ = writeln!(src, "  {} x{k} = {}();", input.ty.name(), input.ty.nondet());
        let _ = writeln!(src, "  if (x{k} < {} || x{k} > {}) return 0;", input.ty.literal(*lo), input.ty.literal(*hi));
    }
    let _ = writeln!(src, "  int a = {};\n  int b = {};\n  {} c = {};", prog.a0, prog.b0, prog.c_ty.name(), prog.c0);
    if used.arr {
        let [k0, k1, k2, k3] = prog.arr0;
        let _ = writeln!(src, "  int arr[4] = {{{k0}, {k1}, {k2}, {k3}}};");
    }
    if used.ptr {
        src.push_str("  int *p = &a;\n");
    }
    if used.structs {
        let [k0, k1, k2, k3] = prog.arr0;
        let _ = writeln!(src, "  struct pair st = {{{k1}, {k2}}};\n  struct pair st2 = {{{k3}, {k0}}};\n  struct pair *ps = &st;");
    }
    if prog.mode == 2 {
        src.push_str("  struct node *head = 0;\n");
    }
    src.push_str(&main_body);
    src.push_str("  return 0;\n}\n");
    src
}

// ---------------------------------------------------------------------------------------------
// Ground truth

/// Every combination of input values, in the order the program reads them.
fn combinations(ranges: &[(i64, i64)]) -> Vec<Vec<i128>> {
    let mut all: Vec<Vec<i128>> = vec![Vec::new()];
    for &(lo, hi) in ranges {
        all = all.into_iter().flat_map(|prefix| (lo..=hi).map(move |v| [prefix.clone(), vec![v as i128]].concat())).collect();
    }
    all
}

fn lower(source: &str) -> Program {
    let (program, diagnostics) = c_front::lower(source, "random.c", &c_front::LowerOptions::default());
    assert!(!diagnostics::has_errors(&diagnostics), "{}\n{source}", diagnostics::render_all(&diagnostics, "random.c", source));
    program.expect("lowered")
}

fn limits(wrap: bool) -> Limits {
    Limits { record_path: false, wrap_signed_overflow: wrap, ..Limits::new(RUN_STEPS) }
}

/// The values a read in the body may give (`t = __VERIFIER_nondet_int(); if (t < 0 || t > 2) return 0;`).
const BODY_READ_MAX: i128 = 2;
/// Programs with more runs than this (reads in loops) are left out.
const MAX_RUNS: usize = 20_000;

/// The runs of a program: every combination of the inputs at the top of `main` (`combos`) with
/// every sequence of values of the reads in the body (0..=2 each), explored depth-first.
struct Runs<'a> {
    program: &'a Program,
    combos: &'a [Vec<i128>],
    source: &'a str,
}

impl Runs<'_> {
    /// Calls `each` with the inputs and the end of every run (with wrapping signed arithmetic
    /// when `wrap`); `observe` sees every state. `None` when there are more than [`MAX_RUNS`].
    fn for_each(&self, wrap: bool, observe: &mut dyn FnMut(c_ir::StmtRef, &c_ir::interp::State), each: &mut dyn FnMut(&[i128], &Outcome)) -> Option<usize> {
        let mut runs = 0;
        for combo in self.combos {
            let mut choices: Vec<i128> = Vec::new();
            loop {
                runs += 1;
                if runs > MAX_RUNS {
                    return None;
                }
                let mut next = 0usize;
                let mut feed = |_: &c_ir::Type| {
                    let k = next;
                    next += 1;
                    if k < combo.len() {
                        return combo[k];
                    }
                    let j = k - combo.len();
                    if j == choices.len() {
                        choices.push(0);
                    }
                    choices[j]
                };
                let result = run_observed(self.program, &mut feed, &limits(wrap), observe);
                let source = self.source;
                assert!(result.inputs.len() >= combo.len() && result.inputs[..combo.len()] == combo[..], "the inputs are read first, in order:\n{source}");
                match &result.outcome {
                    Outcome::StepLimit => panic!("a run on {:?} does not end:\n{source}", result.inputs),
                    Outcome::RuntimeError(message, _) if !message.starts_with("signed integer overflow") => {
                        panic!("a run on {:?} fails: {message}\n{source}", result.inputs)
                    }
                    _ => {}
                }
                each(&result.inputs, &result.outcome);
                // the next sequence of choices: the last one that can grow grows, the rest go
                choices.truncate(result.inputs.len() - combo.len());
                while choices.last() == Some(&BODY_READ_MAX) {
                    choices.pop();
                }
                match choices.last_mut() {
                    Some(last) => *last += 1,
                    None => break,
                }
            }
        }
        Some(runs)
    }
}

/// The program with its final check: a random condition, or one over `(int)(e)` chosen from the
/// values `e` takes at the end of the runs that get there. `None` when there are too many runs.
fn with_final_check(prog: &Prog, combos: &[Vec<i128>]) -> Option<String> {
    let (e, kind, pick) = match &prog.last {
        Final::Random(c) => return Some(render(prog, Ending::Random(c))),
        Final::Tight(e, kind, pick) => (e, *kind, *pick),
    };
    let probe_source = render(prog, Ending::Probe(e));
    let probe = lower(&probe_source);
    let mut values: Vec<i128> = Vec::new();
    Runs { program: &probe, combos, source: &probe_source }.for_each(false, &mut |_, _| {}, &mut |_, end| {
        if let Outcome::Returned(Some(v)) = end {
            values.push(*v);
        }
    })?;
    values.sort();
    values.dedup();
    let (Some(&min), Some(&max)) = (values.first(), values.last()) else {
        return Some(render(prog, Ending::Tight(e, ">", 0)));
    };
    let seen = values[pick as usize % values.len()];
    let missing: Vec<i128> = (min..=max).filter(|v| values.binary_search(v).is_err()).take(64).collect();
    let (op, k) = match kind {
        // just unreachable
        0 => (">", max),
        1 => ("<", min),
        // reachable at the extremes or at one value
        2 => (">=", max),
        3 => ("==", seen),
        // a value in between that never occurs (else the maximum)
        4 if !missing.is_empty() => ("==", missing[pick as usize % missing.len()]),
        4 => (">", max),
        // reachable unless `e` is constant
        _ => ("!=", seen),
    };
    Some(render(prog, Ending::Tight(e, op, k)))
}

/// What the runs of one program show.
struct Truth {
    reachable: bool,
    runs: usize,
    /// Runs stopped by signed overflow (undefined behaviour).
    overflows: usize,
    /// Runs ended by a failed `__VERIFIER_assume`.
    blocked: usize,
}

fn ground_truth(runs: &Runs) -> Option<Truth> {
    let mut truth = Truth { reachable: false, runs: 0, overflows: 0, blocked: 0 };
    truth.runs = runs.for_each(false, &mut |_, _| {}, &mut |_, end| match end {
        Outcome::ReachedError => truth.reachable = true,
        Outcome::RuntimeError(..) => truth.overflows += 1,
        Outcome::AssumeFailed => truth.blocked += 1,
        _ => {}
    })?;
    Some(truth)
}

// ---------------------------------------------------------------------------------------------
// The property

#[derive(Default, Debug)]
struct Tally {
    safe: u32,
    unsafe_: u32,
    unknown: u32,
    /// SAFE verdicts by their reason's first words.
    safe_reasons: std::collections::BTreeMap<String, u32>,
    unknown_reasons: std::collections::BTreeMap<String, u32>,
    /// SAFE verdicts without invariants.
    safe_without_invariants: u32,
    invariant_checks: u64,
    max_ms: u128,
}

#[derive(Default, Debug)]
struct Stats {
    programs: u32,
    /// Programs left out: reads in loops make too many runs.
    too_many_runs: u32,
    reachable: u32,
    with_overflow: u32,
    with_blocked_runs: u32,
    runs: usize,
    default: Tally,
    unguarded: Tally,
}

fn reason_key(outcome: &CheckOutcome) -> String {
    let reason = outcome.reason.as_deref().unwrap_or("refinement");
    reason.split([':', '(']).next().unwrap_or("").trim().chars().take(60).collect()
}

/// Checks one verdict against the ground truth.
fn check_verdict(runs: &Runs, truth: &Truth, outcome: &CheckOutcome, label: &str, tally: &mut Tally) {
    let (program, source) = (runs.program, runs.source);
    match outcome.verdict {
        Verdict::Safe => {
            tally.safe += 1;
            *tally.safe_reasons.entry(reason_key(outcome)).or_default() += 1;
            assert!(!truth.reachable, "{label}: SAFE ({:?}), but some input reaches the error:\n{source}", outcome.reason);
            if outcome.invariants.is_empty() {
                tally.safe_without_invariants += 1;
            }
            // the engine lets signed arithmetic wrap: the verdict and the invariants hold for
            // those runs too (they agree with the plain ones up to an overflow)
            let violations: RefCell<Vec<String>> = RefCell::new(Vec::new());
            let checks = std::cell::Cell::new(0u64);
            let mut observe = |at: c_ir::StmtRef, state: &c_ir::interp::State| {
                for inv in outcome.invariants.iter().filter(|i| i.at == at) {
                    if let Some(v) = state.eval(&inv.formula) {
                        checks.set(checks.get() + 1);
                        let text = format!("line {}: {}", inv.line, inv.text);
                        if v == 0 && !violations.borrow().contains(&text) {
                            violations.borrow_mut().push(text);
                        }
                    }
                }
            };
            let (mut failing, mut reached): (Option<Vec<i128>>, Option<Vec<i128>>) = (None, None);
            // (runs that wrap may read more: a cut short enumeration checks fewer runs)
            let _ = runs.for_each(true, &mut observe, &mut |inputs, end| {
                if failing.is_none() && !violations.borrow().is_empty() {
                    failing = Some(inputs.to_vec());
                }
                if *end == Outcome::ReachedError && reached.is_none() {
                    reached = Some(inputs.to_vec());
                }
            });
            tally.invariant_checks += checks.get();
            assert!(violations.borrow().is_empty(), "{label}: SAFE, but on inputs {failing:?} invariants fail: {:?}\n{source}", violations.borrow());
            assert!(reached.is_none(), "{label}: SAFE, but inputs {reached:?} reach the error with wrapping signed arithmetic:\n{source}");
        }
        Verdict::Unsafe => {
            tally.unsafe_ += 1;
            let cex = outcome.counterexample.as_ref().unwrap_or_else(|| panic!("{label}: UNSAFE without a counterexample:\n{source}"));
            let replayed = concrete::replay_to_error(program, &cex.inputs);
            assert!(replayed.is_ok(), "{label}: UNSAFE ({:?}) with inputs {:?} that do not replay: {replayed:?}\n{source}", outcome.reason, cex.inputs);
            assert!(truth.reachable, "{label}: UNSAFE, but no input reaches the error:\n{source}");
        }
        Verdict::Unknown => {
            tally.unknown += 1;
            *tally.unknown_reasons.entry(reason_key(outcome)).or_default() += 1;
        }
    }
}

fn check_program_against_all_runs(prog: &Prog, stats: &RefCell<Stats>) {
    let combos = combinations(&prog.ranges());
    let Some(source) = with_final_check(prog, &combos) else {
        stats.borrow_mut().too_many_runs += 1;
        return;
    };
    check_source_against_all_runs(&source, &combos, stats);
}

/// The property on one rendered program whose inputs take the values of `combos`.
fn check_source_against_all_runs(source: &str, combos: &[Vec<i128>], stats: &RefCell<Stats>) {
    let source = source.to_string();
    let program = lower(&source);
    let runs = Runs { program: &program, combos, source: &source };
    let Some(truth) = ground_truth(&runs) else {
        stats.borrow_mut().too_many_runs += 1;
        return;
    };
    let default = default_config();
    // the loop and its proofs alone: no random runs that would turn a wrong SAFE into UNSAFE
    let unguarded = Config { random_runs: 0, ..default.clone() };
    let log = std::env::var("RANDOM_PROGRAMS_LOG").ok().map(|dir| format!("{dir}/{:04}.c", stats.borrow().programs + 1));
    if let Some(file) = &log {
        // written before the checks too, in case one of them does not come back
        let _ = std::fs::write(file, format!("// reachable: {}, overflowing runs: {}\n// (being checked)\n{source}", truth.reachable, truth.overflows));
    }
    let mut outcomes = Vec::new();
    for config in [&default, &unguarded] {
        let start = std::time::Instant::now();
        let outcome = check_source(&source, "random.c", config, &mut |_| {}, &|| false);
        outcomes.push((outcome, start.elapsed().as_millis()));
    }
    let mut stats = stats.borrow_mut();
    stats.programs += 1;
    if let Some(file) = &log {
        // every program with its verdicts, for looking at what the loop does with them
        let mut text = format!("// reachable: {}, overflowing runs: {}\n", truth.reachable, truth.overflows);
        for ((outcome, ms), label) in outcomes.iter().zip(["default", "unguarded"]) {
            let _ = writeln!(text, "// {label}: {} in {ms} ms ({})", outcome.verdict.name(), outcome.reason.as_deref().unwrap_or(""));
        }
        let _ = std::fs::write(file, text + &source);
    }
    stats.reachable += truth.reachable as u32;
    stats.with_overflow += (truth.overflows > 0) as u32;
    stats.with_blocked_runs += (truth.blocked > 0) as u32;
    stats.runs += truth.runs;
    for ((outcome, ms), label) in outcomes.iter().zip(["default", "unguarded"]) {
        let tally = if label == "default" { &mut stats.default } else { &mut stats.unguarded };
        tally.max_ms = tally.max_ms.max(*ms);
        check_verdict(&runs, &truth, outcome, label, tally);
    }
}

/// Other settings of the CLI for longer hunts: `RANDOM_PROGRAMS_REFINE=sp`,
/// `RANDOM_PROGRAMS_STRATEGY=lattice`, `RANDOM_PROGRAMS_MAX_CONE=N` (0: full cones),
/// `RANDOM_PROGRAMS_BUDGET_MS=N`, `RANDOM_PROGRAMS_ITERATIONS=N`.
fn tune_from_environment(config: &mut Config) {
    let var = |name: &str| std::env::var(name).ok();
    if var("RANDOM_PROGRAMS_REFINE").as_deref() == Some("sp") {
        config.loop_config.refinement = cegar::RefinementMethod::Sp;
    }
    if var("RANDOM_PROGRAMS_STRATEGY").as_deref() == Some("lattice") {
        config.loop_config.strategy = abstraction::Strategy::Lattice;
    }
    if let Some(n) = var("RANDOM_PROGRAMS_MAX_CONE").and_then(|s| s.parse::<usize>().ok()) {
        config.loop_config.max_cone = (n > 0).then_some(n);
    }
    if let Some(ms) = var("RANDOM_PROGRAMS_BUDGET_MS").and_then(|s| s.parse::<u64>().ok()) {
        config.time_budget_ms = Some(ms);
    }
    if let Some(n) = var("RANDOM_PROGRAMS_ITERATIONS").and_then(|s| s.parse::<u32>().ok()) {
        config.loop_config.max_iterations = n;
    }
}

/// The engine's settings for the generated programs (also for saved ones).
fn default_config() -> Config {
    let mut default = Config::default_for_cli();
    default.loop_config.max_iterations = 12;
    default.time_budget_ms = Some(3000);
    tune_from_environment(&mut default);
    default
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// `RANDOM_PROGRAMS_CASES` (or proptest's `PROPTEST_CASES`), else [`DEFAULT_CASES`].
fn cases() -> u32 {
    env_number("RANDOM_PROGRAMS_CASES").or_else(|| env_number("PROPTEST_CASES")).map_or(DEFAULT_CASES, |n| n as u32)
}

/// The folder of regression programs: minimised failures of the long runs, checked by
/// [`saved_programs_agree_with_all_runs`].
fn regression_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/random-programs")
}

/// Programs per proptest run in the long mode: a failure is shrunk and saved, and the next
/// chunk goes on with the next seed.
const CHUNK: u32 = 50;

/// Runs `cases` generated programs from `seed`; returns the shrunk failing program (as saved
/// text) and the failure, if any.
fn run_seed(seed: u64, cases: u32, stats: &RefCell<Stats>) -> Option<(String, String)> {
    let config = ProptestConfig {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 256,
        max_shrink_time: 300_000,
        ..ProptestConfig::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&prog(), |prog| {
        check_program_against_all_runs(&prog, stats);
        Ok(())
    });
    match result {
        Ok(()) => None,
        Err(proptest::test_runner::TestError::Fail(reason, prog)) => {
            let ranges = prog.ranges();
            let source = with_final_check(&prog, &combinations(&ranges)).unwrap_or_default();
            Some((saved_text(&ranges, seed, &reason.to_string(), &source), reason.to_string()))
        }
        Err(e) => Some((String::new(), e.to_string())),
    }
}

/// A regression program: its input ranges on the first line, then how it was found, then C.
fn saved_text(ranges: &[(i64, i64)], seed: u64, reason: &str, source: &str) -> String {
    let ranges: Vec<String> = ranges.iter().map(|(lo, hi)| format!("{lo}..={hi}")).collect();
    let first_line = reason.lines().next().unwrap_or("");
    format!("// inputs: {}\n// found by random_programs with seed {seed}: {first_line}\n{source}", ranges.join(", "))
}

/// The input ranges from a saved program's first line.
fn saved_ranges(text: &str) -> Option<Vec<(i64, i64)>> {
    let line = text.lines().next()?.strip_prefix("// inputs:")?;
    line.split(',').map(str::trim).filter(|r| !r.is_empty()).map(|r| r.split_once("..=").and_then(|(lo, hi)| Some((lo.trim().parse().ok()?, hi.trim().parse().ok()?)))).collect()
}

/// The bounded form runs [`DEFAULT_CASES`] programs from a fixed seed (the same programs on
/// every machine). The long form: `RANDOM_PROGRAMS_CASES=N` programs from
/// `RANDOM_PROGRAMS_SEED` (default 1) in chunks of [`CHUNK`] seeds; with
/// `RANDOM_PROGRAMS_FAILURES=DIR` every shrunk failure is written to `DIR/seedN.c` (in the
/// format of `tests/random-programs/`) and the run goes on.
#[test]
fn random_programs_agree_with_all_runs() {
    let cases = cases();
    let first_seed = env_number("RANDOM_PROGRAMS_SEED").unwrap_or(1);
    let failures_dir = std::env::var("RANDOM_PROGRAMS_FAILURES").ok();
    let stats = RefCell::new(Stats::default());
    let started = std::time::Instant::now();
    let mut failures = Vec::new();
    let chunks = cases.div_ceil(CHUNK);
    for chunk in 0..chunks {
        let seed = first_seed + u64::from(chunk);
        let n = CHUNK.min(cases - chunk * CHUNK);
        let Some((saved, reason)) = run_seed(seed, n, &stats) else { continue };
        if let Some(dir) = &failures_dir {
            let _ = std::fs::create_dir_all(dir);
            let path = format!("{dir}/seed{seed}.c");
            let _ = std::fs::write(&path, &saved);
            eprintln!("failure with seed {seed} written to {path}");
        }
        failures.push(format!("seed {seed}: {reason}\n{saved}"));
        if failures_dir.is_none() {
            break;
        }
    }
    let stats = stats.into_inner();
    eprintln!("{stats:#?}\n{} programs in {:.0} s", stats.programs, started.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} failing seeds; the first:\n{}", failures.len(), failures[0]);
    let decided = stats.default.safe + stats.default.unsafe_;
    assert!(2 * decided >= stats.programs, "only {decided} of {} programs decided: {stats:#?}", stats.programs);
}

/// The saved programs in `tests/random-programs/` (or the one file `RANDOM_PROGRAMS_FILE`)
/// agree with all their runs, with the same two configurations.
#[test]
fn saved_programs_agree_with_all_runs() {
    let files: Vec<std::path::PathBuf> = match std::env::var("RANDOM_PROGRAMS_FILE") {
        Ok(path) => vec![path.into()],
        Err(_) => {
            let mut files: Vec<_> = std::fs::read_dir(regression_dir()).expect("tests/random-programs").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
            files.sort();
            files
        }
    };
    assert!(!files.is_empty(), "no saved programs");
    let stats = RefCell::new(Stats::default());
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable program");
        let ranges = saved_ranges(&text).unwrap_or_else(|| panic!("{}: the first line gives the input ranges", path.display()));
        check_source_against_all_runs(&text, &combinations(&ranges), &stats);
    }
    let stats = stats.into_inner();
    eprintln!("{stats:#?}");
    assert_eq!(stats.programs as usize, files.len(), "every saved program is checked: {stats:#?}");
}

/// Writes the programs of one seed to `RANDOM_PROGRAMS_SAVE=DIR` in the saved format (to add
/// regression programs by hand); checks that the format reads back.
#[test]
fn saved_format_reads_back() {
    let ranges = [(-3, 2), (0, 1), (250, 255)];
    let text = saved_text(&ranges, 7, "SAFE, but some input reaches the error", "int main() { return 0; }\n");
    assert_eq!(saved_ranges(&text), Some(ranges.to_vec()));
    assert!(text.ends_with("int main() { return 0; }\n"));
    if let Ok(dir) = std::env::var("RANDOM_PROGRAMS_SAVE") {
        let seed = env_number("RANDOM_PROGRAMS_SEED").unwrap_or(1);
        let mut runner = TestRunner::new(ProptestConfig { rng_seed: proptest::test_runner::RngSeed::Fixed(seed), ..ProptestConfig::default() });
        for k in 0..cases() {
            let prog = prog().new_tree(&mut runner).expect("a program").current();
            let ranges = prog.ranges();
            if let Some(source) = with_final_check(&prog, &combinations(&ranges)) {
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(format!("{dir}/seed{seed}_{k}.c"), saved_text(&ranges, seed, "saved by hand", &source));
            }
        }
    }
}
