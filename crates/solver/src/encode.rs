//! Encoding `logic` formulas into the circuit: integer and pointer terms as two's complement
//! bit vectors, and the logical memory model (BOOP ch. 5, C2BP §4).
//!
//! The memory model is described in the crate documentation.

use crate::blast::{Bits, Circuit};
use crate::linear::{is_negative, linearize, negated, widening_image, Equality, Linear};
use crate::polynomial::{self, Polynomial};
use crate::sat::Lit;
use crate::SolverConfig;
use c_ir::{BinaryOp, Expr, ExprKind, Program, StructId, Type, UnaryOp, VarId};
use logic::MemoryTypeKey;
use budget::hash::HashMap;

/// A formula the solver cannot encode (floating point, opaque types, struct-valued terms...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub message: String,
}

impl Unsupported {
    fn new(message: impl Into<String>) -> Unsupported {
        Unsupported { message: message.into() }
    }
    /// A diagnostic "unsupported in predicates: ..." at `span`.
    pub fn to_diagnostic(&self, span: diagnostics::Span) -> diagnostics::Diagnostic {
        diagnostics::Diagnostic::error(span, format!("unsupported in predicates: {}", self.message))
            .with_help("the decision procedure handles integers, pointers, structs fields and arrays; other terms make the answer unknown")
    }
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unsupported in predicates: {}", self.message)
    }
}

/// One encoded application of an uninterpreted symbol: argument bits and result bits.
type Application = (Vec<Bits>, Bits);

struct Location {
    address: Bits,
    value: Bits,
    kind: AddressKind,
}

/// What is known about a location's address, to skip Ackermann pairs that can never meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AddressKind {
    /// A variable's constant address.
    Variable,
    /// The address of field `.1` of struct `.0` (never a variable's, never another field's).
    Field(u32, u32),
    Other,
}

fn may_meet(a: AddressKind, b: AddressKind) -> bool {
    match (a, b) {
        (AddressKind::Variable, AddressKind::Field(..)) | (AddressKind::Field(..), AddressKind::Variable) => false,
        (AddressKind::Field(s, f), AddressKind::Field(t, g)) => s == t && f == g,
        _ => true,
    }
}

/// Estimated bytes per cached expression node: the node (kind and type) and its box's
/// allocation header (the copies in the sums and equalities are not counted).
const TERM_NODE_BYTES: u64 = std::mem::size_of::<Expr>() as u64 + 16;

/// The encoder state: the circuit plus term caches and memory-model bookkeeping.
pub(crate) struct Encoder {
    pub(crate) circuit: Circuit,
    config: SolverConfig,
    vars: Vec<(String, Type, bool)>,
    structs: Vec<StructId>,
    terms: HashMap<Expr, Bits>,
    var_values: HashMap<VarId, Bits>,
    registered_vars: Vec<VarId>,
    locations: HashMap<(MemoryTypeKey, u32), Vec<Location>>,
    /// per (struct, field): (base address, field address)
    field_addresses: HashMap<(u32, u32), Vec<(Bits, Bits)>>,
    /// constant addresses in use (variables and strings)
    used_constant_addresses: Vec<u128>,
    apps: HashMap<(c_ir::Symbol, usize, u32), Vec<Application>>,
    /// Terms encoded so far (the deadline is checked every 256 of them).
    encoded_terms: u64,
    /// Expression nodes of the terms cached in `terms` (each keeps a copy of its subterms:
    /// quadratic in the depth of a chain such as a weakest precondition along a long path).
    cached_term_nodes: u64,
    /// Sums `Σ c·atom` (no constant) by width and canonical atom list: `(i + 1) + j`,
    /// `i + (j + 1)` and `n + k == i + j + 1` share one adder chain.
    linear_sums: HashMap<(u32, Vec<(Expr, u128)>), Bits>,
    /// Integer comparisons between terms, per signedness and width, with the order axioms.
    orders: HashMap<(bool, u32), OrderGraph>,
    /// Every linear equality encoded (keyed by signedness and normal form) with its literal.
    equalities: HashMap<(bool, Equality), Lit>,
    /// The same equalities in encoding order, and their positions per (signedness, width, atom).
    equality_list: Vec<(bool, Equality, Lit)>,
    equalities_by_atom: HashMap<(bool, u32, Expr), Vec<usize>>,
    /// The equalities of `equality_list` as polynomials, and their positions per (width,
    /// factor of a monomial), for [`polynomial`] lemmas.
    polynomials: Vec<Polynomial>,
    equalities_by_factor: HashMap<(u32, Expr), Vec<usize>>,
    /// The same for the non-linear equalities only (those reduced again by later ones).
    nonlinear_by_factor: HashMap<(u32, Expr), Vec<usize>>,
}

/// Earlier equalities one new equality is combined with (those sharing an atom, oldest first).
const LEMMA_PARTNERS: usize = 32;
/// Derived equalities longer than this are not worth a lemma.
const LEMMA_MAX_ATOMS: usize = 2;
/// Earlier non-linear equalities reduced again when a new equality shares a factor with them.
const POLYNOMIAL_TARGETS: usize = 16;
/// Equalities per factor tried as divisors (the most recent first).
const POLYNOMIAL_DIVISORS: usize = 64;

/// The terms compared so far in one order (signed or unsigned, one width): for each compared
/// pair its three literals `p < q`, `q < p`, `p == q`. Each pair gets the axioms of a total
/// order (exactly one of the three holds), and each triangle of compared pairs the
/// transitivity clauses — tautologies of bit-vector arithmetic that spare the SAT solver
/// re-deriving `k >= j && j >= 2*i ==> k >= 2*i` from the comparator circuits, which can take
/// it millions of conflicts.
#[derive(Default)]
struct OrderGraph {
    nodes: HashMap<Bits, usize>,
    /// (smaller id, larger id) → (lt(small, large), lt(large, small), eq)
    pairs: HashMap<(usize, usize), (Lit, Lit, Lit)>,
    neighbours: Vec<std::collections::BTreeSet<usize>>,
}

impl OrderGraph {
    fn node(&mut self, bits: &Bits) -> usize {
        if let Some(&n) = self.nodes.get(bits) {
            return n;
        }
        let n = self.neighbours.len();
        self.nodes.insert(bits.clone(), n);
        self.neighbours.push(Default::default());
        n
    }
    /// `(p < q, p == q)`.
    fn relation(&self, p: usize, q: usize) -> Option<(Lit, Lit)> {
        if p < q {
            self.pairs.get(&(p, q)).map(|&(lt, _, eq)| (lt, eq))
        } else {
            self.pairs.get(&(q, p)).map(|&(_, gt, eq)| (gt, eq))
        }
    }
}

/// Whether `e` is integer arithmetic the linear normal form applies to.
fn is_linear_arithmetic(e: &Expr) -> bool {
    matches!(e.ty, Type::Int { .. }) && matches!(e.kind, ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul, ..) | ExprKind::Unary(UnaryOp::Neg, _))
}

impl Encoder {
    pub(crate) fn new(program: &Program, config: &SolverConfig, circuit: Circuit) -> Encoder {
        Encoder {
            circuit,
            config: config.clone(),
            vars: program.vars.iter().map(|v| (v.name.clone(), v.ty.clone(), v.address_taken)).collect(),
            structs: (0..program.structs.len() as u32).map(StructId).collect(),
            terms: HashMap::default(),
            var_values: HashMap::default(),
            registered_vars: Vec::new(),
            locations: HashMap::default(),
            field_addresses: HashMap::default(),
            used_constant_addresses: Vec::new(),
            apps: HashMap::default(),
            encoded_terms: 0,
            cached_term_nodes: 0,
            linear_sums: HashMap::default(),
            orders: HashMap::default(),
            equalities: HashMap::default(),
            equality_list: Vec::new(),
            equalities_by_atom: HashMap::default(),
            polynomials: Vec::new(),
            equalities_by_factor: HashMap::default(),
            nonlinear_by_factor: HashMap::default(),
        }
    }

    pub(crate) fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The bit width of values of `ty`.
    pub(crate) fn width(&self, ty: &Type) -> Result<u32, Unsupported> {
        match ty {
            Type::Bool => Ok(1),
            Type::Int { bits, .. } => Ok(self.config.int_width.map(|w| w as u32).unwrap_or(*bits as u32).clamp(1, 64)),
            Type::Pointer(_) | Type::Array(..) => Ok(self.config.pointer_bits.clamp(8, 64)),
            Type::Void => Err(Unsupported::new("a `void` value")),
            Type::Function => Err(Unsupported::new("a function value")),
            Type::Struct(_) => Err(Unsupported::new("a struct value used as a whole")),
            Type::Opaque(name) => Err(Unsupported::new(format!("a value of type `{name}` (e.g. floating point)"))),
        }
    }

    fn pointer_width(&self) -> u32 {
        self.config.pointer_bits.clamp(8, 64)
    }

    fn var_address(&self, v: u32) -> u128 {
        constant_address(self.pointer_width(), v)
    }

    fn str_address(&self, n: u32) -> u128 {
        self.var_address(self.vars.len() as u32 + n)
    }

    /// The value bits of a term already encoded (for models).
    pub(crate) fn encoded(&self, e: &Expr) -> Option<&Bits> {
        if let ExprKind::Var(v) = e.kind {
            return self.var_values.get(&v);
        }
        self.terms.get(e)
    }

    /// The variables encoded so far.
    pub(crate) fn encoded_vars(&self) -> Vec<VarId> {
        let mut v: Vec<VarId> = self.var_values.keys().copied().collect();
        v.sort();
        v
    }

    /// The literal of a boolean formula (non-boolean scalars count as `!= 0`).
    pub(crate) fn bool_lit(&mut self, e: &Expr) -> Result<Lit, Unsupported> {
        if e.ty != Type::Bool {
            let bits = self.bits(e)?;
            return Ok(self.circuit.or_many(&bits));
        }
        match &e.kind {
            ExprKind::Const(v) => Ok(Lit::from_bool(*v != 0)),
            ExprKind::Unary(UnaryOp::Not, a) => Ok(!self.bool_lit(a)?),
            ExprKind::Binary(op, a, b) if op.is_logical() => {
                let x = self.bool_lit(a)?;
                let y = self.bool_lit(b)?;
                Ok(match op {
                    BinaryOp::And => self.circuit.and(x, y),
                    BinaryOp::Or => self.circuit.or(x, y),
                    _ => self.circuit.implies(x, y),
                })
            }
            _ => {
                let bits = self.bits(e)?;
                Ok(bits.first().copied().unwrap_or(Lit::FALSE))
            }
        }
    }

    /// The value bits of `e` at its type's width.
    pub(crate) fn bits(&mut self, e: &Expr) -> Result<Bits, Unsupported> {
        if let ExprKind::Var(v) = e.kind {
            return self.var_bits(v, &e.ty);
        }
        if let Some(b) = self.terms.get(e) {
            return Ok(b.clone());
        }
        self.encoded_terms += 1;
        if self.encoded_terms.is_multiple_of(256) {
            // the cached terms count against the memory limit
            self.config.meter.note_memory(self.cached_term_nodes * TERM_NODE_BYTES);
            // huge terms (e.g. weakest preconditions through many shifts) must not overrun the budget
            if let Some(stop) = self.config.meter.stopped() {
                return Err(Unsupported::new(format!("{stop} (while encoding the formula)")));
            }
        }
        let bits = self.bits_uncached(e)?;
        e.visit(&mut |_| self.cached_term_nodes += 1);
        self.terms.insert(e.clone(), bits.clone());
        Ok(bits)
    }

    fn var_bits(&mut self, v: VarId, ty: &Type) -> Result<Bits, Unsupported> {
        if matches!(ty, Type::Array(..)) {
            // an array used as a value is its address
            return self.var_address_bits(v);
        }
        if let Some(b) = self.var_values.get(&v) {
            return Ok(b.clone());
        }
        let w = self.width(ty)?;
        let bits = self.circuit.fresh_bits(w);
        self.var_values.insert(v, bits.clone());
        let address_taken = self.vars.get(v.0 as usize).map(|x| x.2).unwrap_or(false);
        if address_taken {
            self.register_var_location(v, ty)?;
        }
        Ok(bits)
    }

    fn var_address_bits(&mut self, v: VarId) -> Result<Bits, Unsupported> {
        let a = self.var_address(v.0);
        self.use_constant_address(a);
        Ok(Circuit::constant(a, self.pointer_width()))
    }

    fn register_var_location(&mut self, v: VarId, ty: &Type) -> Result<(), Unsupported> {
        if self.registered_vars.contains(&v) || !ty.is_scalar() {
            return Ok(());
        }
        self.registered_vars.push(v);
        let value = self.var_bits(v, ty)?;
        let address = self.var_address_bits(v)?;
        self.register_location(ty, address, value, AddressKind::Variable)
    }

    fn use_constant_address(&mut self, a: u128) {
        if self.used_constant_addresses.contains(&a) {
            return;
        }
        self.used_constant_addresses.push(a);
        let pw = self.pointer_width();
        let constant = Circuit::constant(a, pw);
        let all: Vec<Bits> = self.field_addresses.values().flat_map(|v| v.iter().map(|(_, r)| r.clone())).collect();
        for r in all {
            let eq = self.circuit.eq(&r, &constant);
            self.circuit.clause(&[!eq]);
        }
    }

    fn register_location(&mut self, ty: &Type, address: Bits, value: Bits, kind: AddressKind) -> Result<(), Unsupported> {
        let key = (logic::memory_type_key(ty), value.len() as u32);
        let existing = self.locations.remove(&key).unwrap_or_default();
        for other in &existing {
            if !may_meet(kind, other.kind) {
                continue;
            }
            if let (Some(a), Some(b)) = (Circuit::constant_value(&address), Circuit::constant_value(&other.address)) {
                if a != b {
                    continue;
                }
            }
            let same_address = self.circuit.eq(&address, &other.address);
            let same_value = self.circuit.eq(&value, &other.value);
            self.circuit.clause(&[!same_address, same_value]);
        }
        let mut existing = existing;
        existing.push(Location { address, value, kind });
        self.locations.insert(key, existing);
        Ok(())
    }

    /// A location term with the given address: its value bits (fresh), registered for Ackermann.
    fn memory_read(&mut self, ty: &Type, address: Bits, kind: AddressKind) -> Result<Bits, Unsupported> {
        let w = self.width(ty)?;
        let value = self.circuit.fresh_bits(w);
        self.register_location(ty, address, value.clone(), kind)?;
        Ok(value)
    }

    fn field_address(&mut self, struct_ty: &Type, field: u32, base: Bits) -> Result<Bits, Unsupported> {
        let sid = match struct_ty {
            Type::Struct(s) => s.0,
            other => return Err(Unsupported::new(format!("field access on a non-struct type {other:?}"))),
        };
        let _ = &self.structs;
        let key = (sid, field);
        if let Some(list) = self.field_addresses.get(&key) {
            for (b, r) in list {
                if *b == base {
                    return Ok(r.clone());
                }
            }
        }
        let pw = self.pointer_width();
        let result = self.circuit.fresh_bits(pw);
        // non-null
        self.circuit.clause(&result);
        let all: Vec<((u32, u32), Bits, Bits)> = self
            .field_addresses
            .iter()
            .flat_map(|(k, v)| v.iter().map(move |(b, r)| (*k, b.clone(), r.clone())))
            .collect();
        for (k, b, r) in all {
            let same_result = self.circuit.eq(&result, &r);
            if k == key {
                let same_base = self.circuit.eq(&base, &b);
                self.circuit.clause(&[!same_base, same_result]);
                self.circuit.clause(&[same_base, !same_result]);
            } else {
                self.circuit.clause(&[!same_result]);
            }
        }
        for &a in &self.used_constant_addresses.clone() {
            let c = Circuit::constant(a, pw);
            let eq = self.circuit.eq(&result, &c);
            self.circuit.clause(&[!eq]);
        }
        self.field_addresses.entry(key).or_default().push((base, result.clone()));
        Ok(result)
    }

    /// The address of lvalue `l`.
    pub(crate) fn address(&mut self, l: &Expr) -> Result<Bits, Unsupported> {
        match &l.kind {
            ExprKind::Var(v) => {
                if (v.0 as usize) >= self.vars.len() {
                    return Err(Unsupported::new(format!("unknown variable v{}", v.0)));
                }
                if l.ty.is_scalar() {
                    self.register_var_location(*v, &l.ty)?;
                }
                self.var_address_bits(*v)
            }
            ExprKind::Deref(p) => {
                let bits = self.bits(p)?;
                Ok(self.resize(&bits, &p.ty, self.pointer_width()))
            }
            ExprKind::Field(a, f) => {
                let base = self.address(a)?;
                self.field_address(&a.ty, *f, base)
            }
            ExprKind::Index(a, i) => {
                let base = self.address(a)?;
                let index = self.bits(i)?;
                let pw = self.pointer_width();
                let offset = self.resize(&index, &i.ty, pw);
                Ok(self.circuit.add(&base, &offset))
            }
            _ => Err(Unsupported::new("the address of a value that is not a location")),
        }
    }

    /// Sign- or zero-extends (by `from`'s signedness) or truncates `bits` to `width`.
    fn resize(&self, bits: &[Lit], from: &Type, width: u32) -> Bits {
        let w = width as usize;
        if bits.len() >= w {
            return bits[..w].to_vec();
        }
        let fill = if from.is_signed() { *bits.last().unwrap_or(&Lit::FALSE) } else { Lit::FALSE };
        let mut out = bits.to_vec();
        out.resize(w, fill);
        out
    }

    fn bits_uncached(&mut self, e: &Expr) -> Result<Bits, Unsupported> {
        if is_linear_arithmetic(e) {
            let w = self.width(&e.ty)?;
            let mut linear = Linear::default();
            linearize(e, &e.ty, w, 1, &mut linear);
            let atom_is_itself = linear.atoms.len() == 1 && linear.constant == 0 && linear.atoms.get(e) == Some(&1);
            if !atom_is_itself {
                let atoms: Vec<(Expr, u128)> = linear.atoms.into_iter().collect();
                let sum = self.linear_sum(&atoms, w)?;
                if linear.constant == 0 {
                    return Ok(sum);
                }
                return Ok(self.circuit.add(&sum, &Circuit::constant(linear.constant, w)));
            }
        }
        match &e.kind {
            ExprKind::Const(v) => {
                let w = self.width(&e.ty)?;
                Ok(Circuit::constant(*v as u128, w))
            }
            ExprKind::Var(v) => self.var_bits(*v, &e.ty),
            ExprKind::Str(n) => {
                let a = self.str_address(*n);
                self.use_constant_address(a);
                Ok(Circuit::constant(a, self.pointer_width()))
            }
            ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                if matches!(e.ty, Type::Array(..)) {
                    return self.address(e);
                }
                self.width(&e.ty)?;
                let address = self.address(e)?;
                let kind = match (&e.kind, Circuit::constant_value(&address)) {
                    (_, Some(_)) => AddressKind::Other,
                    (ExprKind::Field(base, f), None) => match base.ty {
                        Type::Struct(s) => AddressKind::Field(s.0, *f),
                        _ => AddressKind::Other,
                    },
                    _ => AddressKind::Other,
                };
                self.memory_read(&e.ty, address, kind)
            }
            ExprKind::AddrOf(l) => self.address(l),
            ExprKind::Unary(op, a) => {
                if *op == UnaryOp::Not {
                    return Ok(vec![!self.bool_lit(a)?]);
                }
                let w = self.width(&e.ty)?;
                let x = self.bits(a)?;
                let x = self.resize(&x, &a.ty, w);
                Ok(match op {
                    UnaryOp::Neg => self.circuit.neg(&x),
                    _ => x.iter().map(|&l| !l).collect(),
                })
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, &e.ty),
            ExprKind::Cast(a) => {
                let w = self.width(&e.ty)?;
                if e.ty == Type::Bool {
                    return Ok(vec![self.bool_lit(a)?]);
                }
                let x = self.bits(a)?;
                Ok(self.resize(&x, &a.ty, w))
            }
            ExprKind::Ite(c, x, y) => {
                let w = self.width(&e.ty)?;
                let s = self.bool_lit(c)?;
                let xb = self.bits(x)?;
                let xb = self.resize(&xb, &x.ty, w);
                let yb = self.bits(y)?;
                let yb = self.resize(&yb, &y.ty, w);
                Ok(self.circuit.mux_bits(s, &xb, &yb))
            }
            ExprKind::App(name, args) => {
                let w = self.width(&e.ty)?;
                let mut arg_bits = Vec::with_capacity(args.len());
                for a in args {
                    arg_bits.push(self.bits(a)?);
                }
                let result = self.circuit.fresh_bits(w);
                let key = (name.clone(), args.len(), w);
                let existing = self.apps.remove(&key).unwrap_or_default();
                for (other_args, other_result) in &existing {
                    let mut conds = Vec::new();
                    let mut comparable = true;
                    for (x, y) in arg_bits.iter().zip(other_args.iter()) {
                        if x.len() != y.len() {
                            comparable = false;
                            break;
                        }
                        conds.push(self.circuit.eq(x, y));
                    }
                    if !comparable {
                        continue;
                    }
                    let same_args = self.circuit.and_many(&conds);
                    let same_result = self.circuit.eq(&result, other_result);
                    self.circuit.clause(&[!same_args, same_result]);
                }
                let mut existing = existing;
                existing.push((arg_bits, result.clone()));
                self.apps.insert(key, existing);
                Ok(result)
            }
        }
    }

    /// The bits of `Σ c·atom` at width `w` (atoms in canonical order; cached).
    fn linear_sum(&mut self, atoms: &[(Expr, u128)], w: u32) -> Result<Bits, Unsupported> {
        let key = (w, atoms.to_vec());
        if let Some(b) = self.linear_sums.get(&key) {
            return Ok(b.clone());
        }
        let mut sum: Option<Bits> = None;
        for (atom, c) in atoms {
            let raw = self.bits(atom)?;
            let x = self.resize(&raw, &atom.ty, w);
            let negative = is_negative(*c, w);
            let magnitude = if negative { negated(*c, w) } else { *c };
            let term = if magnitude == 1 { x } else { self.circuit.mul(&x, &Circuit::constant(magnitude, w)) };
            sum = Some(match (sum, negative) {
                (None, false) => term,
                (None, true) => self.circuit.neg(&term),
                (Some(s), false) => self.circuit.add(&s, &term),
                (Some(s), true) => self.circuit.sub(&s, &term),
            });
        }
        let bits = sum.unwrap_or_else(|| Circuit::constant(0, w));
        self.linear_sums.insert(key, bits.clone());
        Ok(bits)
    }

    /// `a == b` for integer terms of one type, as `Σ c·atom == k` in the normal form of
    /// [`crate::linear`], so that `n + k == i + j`, `n + k == i + 1 + j` and `3*n == 3*i`
    /// compare shared sums, and every new equality gets the lemmas it forms with earlier ones.
    /// `None`: not integer terms of one type.
    fn linear_equality(&mut self, a: &Expr, b: &Expr) -> Result<Option<Lit>, Unsupported> {
        if a.ty != b.ty || !matches!(a.ty, Type::Int { .. }) {
            return Ok(None);
        }
        let w = self.width(&a.ty)?;
        let equality = Equality::from_sides(a, b, &a.ty, w);
        self.equality(a.ty.is_signed(), equality, true).map(Some)
    }

    /// The literal of an equality in normal form (shared between equal normal forms); a new
    /// one is registered for lemmas, and with `derive` gets the lemmas with earlier ones.
    fn equality(&mut self, signed: bool, equality: Equality, derive: bool) -> Result<Lit, Unsupported> {
        if equality.atoms.is_empty() {
            return Ok(Lit::from_bool(equality.target == 0));
        }
        let key = (signed, equality);
        if let Some(&lit) = self.equalities.get(&key) {
            return Ok(lit);
        }
        let (signed, equality) = key;
        let polynomial = Polynomial::of_equality(&equality);
        let factors: std::collections::BTreeSet<Expr> = polynomial.factors().cloned().collect();
        if derive {
            for f in &factors {
                if let Some(image) = widening_image(f, equality.w) {
                    self.equality(signed, image, false)?;
                }
            }
        }
        let lit = self.encode_equality(signed, &equality)?;
        let index = self.equality_list.len();
        for (atom, _) in &equality.atoms {
            self.equalities_by_atom.entry((signed, equality.w, atom.clone())).or_default().push(index);
        }
        let nonlinear = polynomial.is_nonlinear();
        for f in factors {
            self.equalities_by_factor.entry((equality.w, f.clone())).or_default().push(index);
            if nonlinear {
                self.nonlinear_by_factor.entry((equality.w, f.clone())).or_default().push(index);
            }
        }
        self.polynomials.push(polynomial);
        self.equalities.insert((signed, equality.clone()), lit);
        self.equality_list.push((signed, equality, lit));
        if derive {
            self.derive_lemmas(index)?;
            self.polynomial_lemmas(index);
        }
        Ok(lit)
    }

    /// The lemmas of [`polynomial`] for the new equality at `index`: itself reduced by the
    /// earlier ones when it is non-linear, and each earlier non-linear equality sharing a
    /// factor with it reduced again now that it can serve as a divisor.
    fn polynomial_lemmas(&mut self, index: usize) {
        let w = self.polynomials[index].w;
        let mut targets: Vec<usize> = Vec::new();
        if self.polynomials[index].is_nonlinear() {
            targets.push(index);
        }
        for f in self.polynomials[index].factors() {
            for &j in self.nonlinear_by_factor.get(&(w, f.clone())).into_iter().flatten().rev() {
                if j != index && targets.len() < POLYNOMIAL_TARGETS && !targets.contains(&j) {
                    targets.push(j);
                }
            }
        }
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        for t in targets {
            let polynomials = &self.polynomials;
            let by_factor = &self.equalities_by_factor;
            let candidates = |f: &Expr| -> Vec<(usize, &Polynomial)> {
                by_factor.get(&(w, f.clone())).into_iter().flatten().rev().filter(|&&j| j != t).take(POLYNOMIAL_DIVISORS).map(|&j| (j, &polynomials[j])).collect()
            };
            let found = polynomial::ORDERS.iter().find_map(|&order| polynomial::reduce(&polynomials[t], order, &candidates));
            let Some((used, constant)) = found else { continue };
            if used.is_empty() || (t != index && !used.contains(&index)) {
                continue;
            }
            let mut clause: Vec<Lit> = used.iter().map(|&u| !self.equality_list[u].2).collect();
            let target = self.equality_list[t].2;
            clause.push(if constant == 0 { target } else { !target });
            clauses.push(clause);
        }
        for c in clauses {
            self.circuit.clause(&c);
        }
    }

    fn encode_equality(&mut self, signed: bool, equality: &Equality) -> Result<Lit, Unsupported> {
        let w = equality.w;
        let target = equality.target;
        Ok(match equality.atoms.as_slice() {
            // x == k and x == y keep their direct encodings
            [(x, 1)] => {
                let raw = self.bits(x)?;
                let xb = self.resize(&raw, &x.ty, w);
                self.compare(signed, &xb, &Circuit::constant(target, w)).2
            }
            [(x, 1), (y, c)] if target == 0 && *c == crate::blast_mask(w) => {
                let (rx, ry) = (self.bits(x)?, self.bits(y)?);
                let (xb, yb) = (self.resize(&rx, &x.ty, w), self.resize(&ry, &y.ty, w));
                self.compare(signed, &xb, &yb).2
            }
            atoms => {
                let atoms = atoms.to_vec();
                let sum = self.linear_sum(&atoms, w)?;
                self.circuit.eq(&sum, &Circuit::constant(target, w))
            }
        })
    }

    /// For the equality at `index`: with each earlier equality sharing an atom, the clause
    /// `E₁ ∧ E₂ ⇒ E₁ + k·E₂` for every shared atom the combination eliminates, when the
    /// combination is short (a contradiction gives `¬E₁ ∨ ¬E₂`).
    fn derive_lemmas(&mut self, index: usize) -> Result<(), Unsupported> {
        let (signed, equality, lit) = self.equality_list[index].clone();
        // `x == k`, `x == y + k`: the comparison circuits and order axioms already relate these
        let simple = |e: &Equality| e.atoms.len() <= 2 && e.atoms.iter().all(|(_, c)| *c == 1 || *c == crate::blast_mask(e.w));
        let mut partners: Vec<usize> = Vec::new();
        for (atom, _) in &equality.atoms {
            for &j in self.equalities_by_atom.get(&(signed, equality.w, atom.clone())).into_iter().flatten() {
                if j != index && !partners.contains(&j) && partners.len() < LEMMA_PARTNERS && !(simple(&equality) && simple(&self.equality_list[j].1)) {
                    partners.push(j);
                }
            }
        }
        for j in partners {
            let (_, other, other_lit) = self.equality_list[j].clone();
            let mut derived: Vec<Equality> = Vec::new();
            for (atom, _) in &equality.atoms {
                if let Some(d) = equality.eliminate(&other, atom) {
                    if d.atoms.len() <= LEMMA_MAX_ATOMS && !derived.contains(&d) {
                        derived.push(d);
                    }
                }
            }
            for d in derived {
                let d_lit = self.equality(signed, d, false)?;
                if d_lit != Lit::TRUE {
                    self.circuit.clause(&[!lit, !other_lit, d_lit]);
                }
            }
        }
        Ok(())
    }

    /// The literals `x < y`, `y < x` and `x == y` of one order, registered with their axioms
    /// and the transitivity clauses of every triangle they close.
    fn compare(&mut self, signed: bool, x: &Bits, y: &Bits) -> (Lit, Lit, Lit) {
        if x == y {
            return (Lit::FALSE, Lit::FALSE, Lit::TRUE);
        }
        let graph = self.orders.entry((signed, x.len() as u32)).or_default();
        let (a, b) = (graph.node(x), graph.node(y));
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        if let Some(&(lt, gt, eq)) = graph.pairs.get(&(lo, hi)) {
            return if a < b { (lt, gt, eq) } else { (gt, lt, eq) };
        }
        let common: Vec<usize> = graph.neighbours[a].intersection(&graph.neighbours[b]).copied().collect();
        let x_lt_y = self.circuit.lt(signed, x, y);
        let y_lt_x = self.circuit.lt(signed, y, x);
        let eq = self.circuit.eq(x, y);
        // exactly one of the three
        self.circuit.clause(&[x_lt_y, y_lt_x, eq]);
        self.circuit.clause(&[!x_lt_y, !y_lt_x]);
        self.circuit.clause(&[!x_lt_y, !eq]);
        self.circuit.clause(&[!y_lt_x, !eq]);
        let graph = self.orders.get_mut(&(signed, x.len() as u32)).expect("registered above");
        let entry = if a < b { (x_lt_y, y_lt_x, eq) } else { (y_lt_x, x_lt_y, eq) };
        graph.pairs.insert((lo, hi), entry);
        graph.neighbours[a].insert(b);
        graph.neighbours[b].insert(a);
        let mut clauses: Vec<[Lit; 3]> = Vec::new();
        for c in common {
            for (p, q, r) in [(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)] {
                let (Some((pq_lt, pq_eq)), Some((qr_lt, qr_eq)), Some((pr_lt, pr_eq))) = (graph.relation(p, q), graph.relation(q, r), graph.relation(p, r)) else {
                    continue;
                };
                clauses.push([!pq_lt, !qr_lt, pr_lt]);
                clauses.push([!pq_lt, !qr_eq, pr_lt]);
                clauses.push([!pq_eq, !qr_lt, pr_lt]);
                clauses.push([!pq_eq, !qr_eq, pr_eq]);
            }
        }
        for c in clauses {
            self.circuit.clause(&c);
        }
        (x_lt_y, y_lt_x, eq)
    }

    /// Quotient and remainder of `x / 2^k` (C truncation toward zero when signed).
    fn divide_by_power_of_two(&mut self, x: &[Lit], k: u32, signed: bool) -> (Bits, Bits) {
        let w = x.len();
        let k = k as usize;
        let low_mask: Bits = (0..w).map(|i| Lit::from_bool(i < k)).collect();
        if !signed {
            let q: Bits = (0..w).map(|i| if i + k < w { x[i + k] } else { Lit::FALSE }).collect();
            let r: Bits = x.iter().zip(low_mask.iter()).map(|(&a, &m)| if m == Lit::TRUE { a } else { Lit::FALSE }).collect();
            return (q, r);
        }
        // q = (x + (x < 0 ? 2^k - 1 : 0)) >> k (arithmetic); r = x - (q << k)
        let sign = x[w - 1];
        let bias: Bits = low_mask.iter().map(|&m| if m == Lit::TRUE { sign } else { Lit::FALSE }).collect();
        let biased = self.circuit.add(x, &bias);
        // x + 2^k - 1 cannot overflow, but it may turn a negative x non-negative: the
        // arithmetic shift fills with the sign of the biased value, not of x
        let biased_sign = biased[w - 1];
        let q: Bits = (0..w).map(|i| if i + k < w { biased[i + k] } else { biased_sign }).collect();
        let q_shifted: Bits = (0..w).map(|i| if i >= k { q[i - k] } else { Lit::FALSE }).collect();
        let r = self.circuit.sub(x, &q_shifted);
        (q, r)
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, ty: &Type) -> Result<Bits, Unsupported> {
        use BinaryOp::*;
        if op.is_logical() {
            let x = self.bool_lit(a)?;
            let y = self.bool_lit(b)?;
            return Ok(vec![match op {
                And => self.circuit.and(x, y),
                Or => self.circuit.or(x, y),
                _ => self.circuit.implies(x, y),
            }]);
        }
        if matches!(op, Eq | Ne) {
            if let Some(eq) = self.linear_equality(a, b)? {
                return Ok(vec![if op == Eq { eq } else { !eq }]);
            }
        }
        let xa = self.bits(a)?;
        let xb = self.bits(b)?;
        if op.is_relational() {
            let w = xa.len().max(xb.len()) as u32;
            let x = self.resize(&xa, &a.ty, w);
            let y = self.resize(&xb, &b.ty, w);
            let signed = comparison_is_signed(a, b);
            if matches!(a.ty, Type::Int { .. }) && matches!(b.ty, Type::Int { .. }) {
                let (lt, gt, eq) = self.compare(signed, &x, &y);
                return Ok(vec![match op {
                    Eq => eq,
                    Ne => !eq,
                    Lt => lt,
                    Gt => gt,
                    Le => !gt,
                    _ => !lt,
                }]);
            }
            let r = match op {
                Eq => self.circuit.eq(&x, &y),
                Ne => !self.circuit.eq(&x, &y),
                Lt => self.circuit.lt(signed, &x, &y),
                Gt => self.circuit.lt(signed, &y, &x),
                Le => !self.circuit.lt(signed, &y, &x),
                _ => !self.circuit.lt(signed, &x, &y),
            };
            return Ok(vec![r]);
        }
        let w = self.width(ty)?;
        // pointer arithmetic: the integer operand is an element offset (stride 1)
        let x = self.resize(&xa, &a.ty, w);
        if matches!(op, Shl | Shr) {
            // the amount keeps its own width, read as unsigned
            let arithmetic = ty.is_signed();
            return Ok(self.circuit.shift(&x, &xb, op == Shl, arithmetic));
        }
        let y = self.resize(&xb, &b.ty, w);
        let signed = ty.is_signed();
        Ok(match op {
            Add => self.circuit.add(&x, &y),
            Sub => self.circuit.sub(&x, &y),
            Mul => {
                if Circuit::constant_value(&x).is_some() {
                    self.circuit.mul(&y, &x)
                } else {
                    self.circuit.mul(&x, &y)
                }
            }
            Div | Rem => {
                let constant = Circuit::constant_value(&y).filter(|&c| c != 0);
                // a signed constant's magnitude, unless it is the minimum (no positive twin)
                let negated = constant.map(|c| c.wrapping_neg() & crate::blast_mask(w));
                let positive = |c: u128| c >> (w - 1) == 0;
                let (q, r) = match (power_of_two(&y), constant, negated) {
                    (Some(k), ..) if !signed || k + 1 < w => self.divide_by_power_of_two(&x, k, signed),
                    (_, Some(c), _) if !signed => self.circuit.udiv_rem_by_constant(&x, c),
                    (_, Some(c), _) if positive(c) => self.circuit.sdiv_rem_by_constant(&x, c),
                    // c < 0: x / c == -(x / -c), x % c == x % -c
                    (_, _, Some(m)) if positive(m) => {
                        let (q, r) = self.circuit.sdiv_rem_by_constant(&x, m);
                        (self.circuit.neg(&q), r)
                    }
                    _ if signed => self.circuit.sdiv_rem(&x, &y),
                    _ => self.circuit.udiv_rem(&x, &y),
                };
                if op == Div {
                    q
                } else {
                    r
                }
            }
            BitAnd => x.iter().zip(y.iter()).map(|(&p, &q)| self.circuit.and(p, q)).collect(),
            BitOr => x.iter().zip(y.iter()).map(|(&p, &q)| self.circuit.or(p, q)).collect(),
            _ => x.iter().zip(y.iter()).map(|(&p, &q)| self.circuit.xor(p, q)).collect(),
        })
    }
}

/// Whether a comparison of `a` and `b` is signed: by the left operand's type, or the right
/// one's when the left is a constant. Pointers and `Bool` compare unsigned.
pub(crate) fn comparison_is_signed(a: &Expr, b: &Expr) -> bool {
    if a.as_const().is_some() {
        b.ty.is_signed()
    } else {
        a.ty.is_signed()
    }
}

/// The constant address of variable number `slot` (string literals continue after the
/// variables) at pointer width `pointer_bits`.
pub(crate) fn constant_address(pointer_bits: u32, slot: u32) -> u128 {
    let pw = pointer_bits.clamp(8, 64);
    let slot = slot as u128 + 1;
    if pw >= 32 {
        slot << (pw / 2)
    } else {
        slot & crate::blast_mask(pw)
    }
}

/// The bit width of values of `ty` under `config` (errors for non-scalar types).
pub fn type_width(config: &SolverConfig, ty: &Type) -> Option<u32> {
    match ty {
        Type::Bool => Some(1),
        Type::Int { bits, .. } => Some(config.int_width.map(|w| w as u32).unwrap_or(*bits as u32).clamp(1, 64)),
        Type::Pointer(_) | Type::Array(..) => Some(config.pointer_bits.clamp(8, 64)),
        _ => None,
    }
}

/// `Some(k)` when `bits` is the constant `2^k`.
fn power_of_two(bits: &[Lit]) -> Option<u32> {
    let v = Circuit::constant_value(bits)?;
    if v != 0 && v & (v - 1) == 0 {
        Some(v.trailing_zeros())
    } else {
        None
    }
}

