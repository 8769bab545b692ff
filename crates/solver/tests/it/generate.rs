//! A deterministic random generator of typed IR terms and formulas (driven by proptest seeds).

use c_ir::{BinaryOp, Expr, ExprKind, Type, UnaryOp};

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// What the generator may use: integer variables, the integer types, the constant width.
pub struct Vocabulary {
    pub vars: Vec<Expr>,
    pub types: Vec<Type>,
    /// Extra leaves per type (e.g. memory terms), used like variables.
    pub extra_leaves: Vec<Expr>,
    /// The width constants are drawn from (edge values of this width are favoured).
    pub width: u32,
}

impl Vocabulary {
    fn leaves_of(&self, ty: &Type) -> Vec<Expr> {
        self.vars.iter().chain(self.extra_leaves.iter()).filter(|v| v.ty == *ty).cloned().collect()
    }

    pub fn constant(&self, rng: &mut Rng, ty: &Type) -> Expr {
        let (bits, signed) = match ty {
            Type::Int { bits, signed } => ((*bits as u32).min(self.width), *signed),
            _ => (1, false),
        };
        let raw: i128 = match rng.below(6) {
            0 => 0,
            1 => 1,
            2 => -1,
            3 => (1i128 << (bits - 1)) - 1,
            4 => -(1i128 << (bits - 1)),
            _ => rng.next() as i128,
        };
        let v = logic::eval::wrap(raw, bits, signed);
        Expr::int(v, ty.clone())
    }

    /// A random integer term of type `ty`.
    pub fn term(&self, rng: &mut Rng, ty: &Type, depth: u32) -> Expr {
        let leaves = self.leaves_of(ty);
        if depth == 0 || rng.chance(25) {
            if !leaves.is_empty() && rng.chance(70) {
                return leaves[rng.below(leaves.len() as u64) as usize].clone();
            }
            return self.constant(rng, ty);
        }
        let d = depth - 1;
        match rng.below(10) {
            0..=5 => {
                let ops = [
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Div,
                    BinaryOp::Rem,
                    BinaryOp::Shl,
                    BinaryOp::Shr,
                    BinaryOp::BitAnd,
                    BinaryOp::BitOr,
                    BinaryOp::BitXor,
                ];
                let op = ops[rng.below(ops.len() as u64) as usize];
                let a = self.term(rng, ty, d);
                let b = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    let amount_ty = self.types[rng.below(self.types.len() as u64) as usize].clone();
                    self.term(rng, &amount_ty, d)
                } else {
                    self.term(rng, ty, d)
                };
                Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty.clone())
            }
            6 => {
                let op = if rng.chance(50) { UnaryOp::Neg } else { UnaryOp::BitNot };
                Expr::new(ExprKind::Unary(op, Box::new(self.term(rng, ty, d))), ty.clone())
            }
            7 => {
                let from = self.types[rng.below(self.types.len() as u64) as usize].clone();
                let inner = if rng.chance(20) { self.formula(rng, d) } else { self.term(rng, &from, d) };
                Expr::new(ExprKind::Cast(Box::new(inner)), ty.clone())
            }
            _ => {
                let c = self.formula(rng, d);
                let a = self.term(rng, ty, d);
                let b = self.term(rng, ty, d);
                Expr::new(ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty.clone())
            }
        }
    }

    /// A random formula.
    pub fn formula(&self, rng: &mut Rng, depth: u32) -> Expr {
        if depth == 0 || rng.chance(50) {
            let ty = self.types[rng.below(self.types.len() as u64) as usize].clone();
            let ops = [BinaryOp::Eq, BinaryOp::Ne, BinaryOp::Lt, BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge];
            let op = ops[rng.below(ops.len() as u64) as usize];
            let d = depth.min(3);
            return Expr::binary(op, self.term(rng, &ty, d), self.term(rng, &ty, d));
        }
        let d = depth - 1;
        match rng.below(4) {
            0 => Expr::logical_not(self.formula(rng, d)),
            1 => Expr::and(self.formula(rng, d), self.formula(rng, d)),
            2 => Expr::or(self.formula(rng, d), self.formula(rng, d)),
            _ => Expr::binary(BinaryOp::Implies, self.formula(rng, d), self.formula(rng, d)),
        }
    }
}
