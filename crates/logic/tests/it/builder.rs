//! Hand-built IR programs and expressions for tests (the front end is written elsewhere).

use c_ir::{BinaryOp, Expr, ExprKind, Field, Program, StructDef, StructId, Type, Var, VarId, VarKind};
use diagnostics::Span;

pub struct Builder {
    pub program: Program,
}

impl Builder {
    pub fn new() -> Builder {
        Builder { program: Program::default() }
    }
    fn add(&mut self, name: &str, ty: Type, address_taken: bool) -> Expr {
        let id = self.program.add_var(Var {
            name: name.into(),
            source_name: name.into(),
            ty: ty.clone(),
            kind: VarKind::Global,
            span: Span::default(),
            address_taken,
        });
        self.program.globals.push(id);
        Expr::var(id, ty)
    }
    pub fn var(&mut self, name: &str, ty: Type) -> Expr {
        self.add(name, ty, false)
    }
    pub fn var_taken(&mut self, name: &str, ty: Type) -> Expr {
        self.add(name, ty, true)
    }
    pub fn structure(&mut self, name: &str, fields: &[(&str, Type)]) -> Type {
        self.program.structs.push(StructDef {
            name: name.into(),
            is_union: false,
            fields: fields.iter().map(|(n, t)| Field { name: (*n).into(), ty: t.clone() }).collect(),
        });
        Type::Struct(StructId(self.program.structs.len() as u32 - 1))
    }
    pub fn show(&self, e: &Expr) -> String {
        c_ir::display_expr(&self.program, e)
    }
    #[allow(dead_code)]
    pub fn id(e: &Expr) -> VarId {
        match e.kind {
            ExprKind::Var(v) => v,
            _ => VarId(u32::MAX),
        }
    }
}

pub fn int(v: i128) -> Expr {
    Expr::int(v, Type::INT)
}
pub fn bin(op: BinaryOp, a: &Expr, b: &Expr) -> Expr {
    Expr::binary(op, a.clone(), b.clone())
}
pub fn deref(p: &Expr) -> Expr {
    Expr::deref(p.clone())
}
pub fn addr(l: &Expr) -> Expr {
    Expr::addr_of(l.clone())
}
pub fn field(program: &Program, base: &Expr, index: u32) -> Expr {
    let ty = program.field(&base.ty, index).map(|f| f.ty.clone()).unwrap_or(Type::INT);
    Expr::new(ExprKind::Field(Box::new(base.clone()), index), ty)
}
