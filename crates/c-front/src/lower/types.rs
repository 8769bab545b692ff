//! Type checking support: C declaration specifiers and declarators to IR types, structs, unions,
//! enums, typedefs, function signatures.

use super::{Binding, FunctionSignature, Lowerer};
use c_ir::{Field, StructDef, StructId, Type};
use diagnostics::Span;
use lang_c::ast;
use lang_c::span::Node;

/// The result of applying a declarator to a base type.
#[derive(Clone, Debug)]
pub(crate) struct Declared<'a> {
    pub name: Option<String>,
    pub ty: Type,
    /// Set when the declarator declares a function (outermost derivation is a function).
    pub function: Option<FunctionSignature>,
    /// Parameter names of the function declarator (for definitions).
    pub param_names: Vec<(Option<String>, Span)>,
    /// Identifier list of an old-style definition `f(a, b) int a; ... {`.
    pub kr_names: Vec<String>,
    /// The length of a variable-length array (`int a[n]`: `ty` is `int[0]`, the length `n`).
    /// Only the outermost dimension may be variable; each caller decides where one is
    /// allowed ([`Lowerer::refuse_variable_length`]).
    pub variable_length: Option<(&'a Node<ast::Expression>, Span)>,
}

/// Type specifiers and qualifiers from declaration specifiers.
pub(crate) enum SpecifierItem<'s> {
    Type(&'s Node<ast::TypeSpecifier>),
    Const,
    Other,
}

pub(crate) fn decl_specifier_types(specifiers: &[Node<ast::DeclarationSpecifier>]) -> Vec<SpecifierItem<'_>> {
    specifiers
        .iter()
        .map(|s| match &s.node {
            ast::DeclarationSpecifier::TypeSpecifier(t) => SpecifierItem::Type(t),
            ast::DeclarationSpecifier::TypeQualifier(q) if q.node == ast::TypeQualifier::Const => SpecifierItem::Const,
            _ => SpecifierItem::Other,
        })
        .collect()
}

pub(crate) fn specifier_qualifier_types(specifiers: &[Node<ast::SpecifierQualifier>]) -> Vec<SpecifierItem<'_>> {
    specifiers
        .iter()
        .map(|s| match &s.node {
            ast::SpecifierQualifier::TypeSpecifier(t) => SpecifierItem::Type(t),
            ast::SpecifierQualifier::TypeQualifier(q) if q.node == ast::TypeQualifier::Const => SpecifierItem::Const,
            _ => SpecifierItem::Other,
        })
        .collect()
}

pub(crate) fn storage_class(specifiers: &[Node<ast::DeclarationSpecifier>]) -> Option<ast::StorageClassSpecifier> {
    specifiers.iter().find_map(|s| match &s.node {
        ast::DeclarationSpecifier::StorageClass(c) => Some(c.node.clone()),
        _ => None,
    })
}

pub(crate) fn has_const(specifiers: &[Node<ast::DeclarationSpecifier>]) -> bool {
    specifiers.iter().any(|s| matches!(&s.node, ast::DeclarationSpecifier::TypeQualifier(q) if q.node == ast::TypeQualifier::Const))
}

impl<'a> Lowerer<'a> {
    /// The type denoted by a list of type specifiers (`unsigned long`, `struct s`, a typedef name, ...).
    pub fn base_type(&mut self, items: &[SpecifierItem<'a>], span: Span) -> Type {
        let mut longs = 0;
        let mut short = false;
        let mut char_ = false;
        let mut int = false;
        let mut signed = None;
        let mut void = false;
        let mut bool_ = false;
        let mut float = None;
        let mut other: Option<Type> = None;
        for item in items {
            let SpecifierItem::Type(t) = item else { continue };
            let tspan = self.span(t.span);
            match &t.node {
                ast::TypeSpecifier::Void => void = true,
                ast::TypeSpecifier::Char => char_ = true,
                ast::TypeSpecifier::Short => short = true,
                ast::TypeSpecifier::Int => int = true,
                ast::TypeSpecifier::Long => longs += 1,
                ast::TypeSpecifier::Float => float = Some("float"),
                ast::TypeSpecifier::Double => float = Some("double"),
                ast::TypeSpecifier::Signed => signed = Some(true),
                ast::TypeSpecifier::Unsigned => signed = Some(false),
                ast::TypeSpecifier::Bool => bool_ = true,
                ast::TypeSpecifier::Complex => {
                    self.unsupported(tspan, "complex numbers (_Complex)");
                    other = Some(Type::Opaque("_Complex".into()));
                }
                ast::TypeSpecifier::Atomic(tn) => other = Some(self.type_name(tn)),
                ast::TypeSpecifier::Struct(st) => other = Some(self.struct_type(st)),
                ast::TypeSpecifier::Enum(en) => other = Some(self.enum_type(en)),
                ast::TypeSpecifier::TypedefName(id) => match self.lookup(&id.node.name).cloned() {
                    Some(Binding::Typedef(ty)) => other = Some(ty),
                    // GCC's own type behind `va_list` (glibc's headers name it): a pointer is
                    // enough, variadic arguments are never read.
                    _ if id.node.name == "__builtin_va_list" => other = Some(Type::pointer_to(Type::CHAR)),
                    _ => {
                        self.error(tspan, format!("unknown type name `{}`", id.node.name));
                        other = Some(Type::INT);
                    }
                },
                ast::TypeSpecifier::TypeOf(typeof_) => {
                    other = Some(match &typeof_.node {
                        ast::TypeOf::Type(tn) => self.type_name(tn),
                        ast::TypeOf::Expression(e) => {
                            self.discarding(true, |l| l.rvalue_no_decay(e).ty)
                        }
                    })
                }
                ast::TypeSpecifier::TS18661Float(_) => float = Some("double"),
            }
        }
        if let Some(t) = other {
            return t;
        }
        if let Some(f) = float {
            return Type::Opaque(if longs > 0 && f == "double" { "long double".into() } else { f.into() });
        }
        if void {
            return Type::Void;
        }
        if bool_ {
            return Type::Bool;
        }
        let is_signed = signed.unwrap_or(true);
        let bits = if char_ {
            8
        } else if short {
            16
        } else if longs == 1 {
            self.long_bits
        } else if longs > 1 {
            64
        } else if int || signed.is_some() {
            32
        } else {
            // no type specifier at all: implicit int (C89)
            let _ = span;
            32
        };
        Type::Int { bits, signed: is_signed }
    }

    pub fn type_name(&mut self, tn: &'a Node<ast::TypeName>) -> Type {
        let span = self.span(tn.span);
        let base = self.base_type(&specifier_qualifier_types(&tn.node.specifiers), span);
        match &tn.node.declarator {
            Some(d) => {
                let declared = self.declarator(base, d);
                self.refuse_variable_length(&declared);
                if declared.function.is_some() {
                    Type::Function
                } else {
                    declared.ty
                }
            }
            None => base,
        }
    }

    /// Reports a variable-length array where only fixed lengths are supported (type names,
    /// struct fields, globals, typedefs).
    pub fn refuse_variable_length(&mut self, declared: &Declared<'a>) {
        if let Some((_, span)) = declared.variable_length {
            self.unsupported(span, "variable-length arrays outside a function body");
        }
    }

    /// Applies a declarator to `base`.
    pub fn declarator(&mut self, base: Type, d: &'a Node<ast::Declarator>) -> Declared<'a> {
        let mut ty = base;
        let mut function: Option<FunctionSignature> = None;
        let mut param_names = Vec::new();
        let mut kr_names = Vec::new();
        let derived = &d.node.derived;
        // pointers (prefix) apply first, in order; then suffixes from the innermost (rightmost)
        let mut suffixes = Vec::new();
        for dd in derived {
            match &dd.node {
                ast::DerivedDeclarator::Pointer(_) => {
                    ty = Type::pointer_to(if function.is_some() { Type::Function } else { ty });
                    function = None;
                }
                ast::DerivedDeclarator::Block(_) => {
                    self.unsupported(self.span(dd.span), "blocks (^)");
                }
                _ => suffixes.push(dd),
            }
        }
        let mut variable_length: Option<(&'a Node<ast::Expression>, Span)> = None;
        for dd in suffixes.iter().rev() {
            let dspan = self.span(dd.span);
            if variable_length.is_some() {
                // an inner dimension is variable (`int a[n][m]` with `m` variable)
                self.unsupported(dspan, "variable-length arrays of more than one dimension");
                variable_length = None;
            }
            if function.is_some() {
                // a function returning an array/function is invalid; keep going
                ty = Type::Function;
                function = None;
            }
            match &dd.node {
                ast::DerivedDeclarator::Array(array) => {
                    let length = match &array.node.size {
                        ast::ArraySize::Unknown => 0,
                        // `int a[*]` (prototypes only): decays like any parameter array
                        ast::ArraySize::VariableUnknown => 0,
                        ast::ArraySize::VariableExpression(e) | ast::ArraySize::StaticExpression(e) => match self.constant_value_quietly(e) {
                            Some(n) if (0..1i128 << 40).contains(&n) => n as u64,
                            Some(_) => {
                                self.error(dspan, "array size is negative or too large");
                                0
                            }
                            None => {
                                variable_length = Some((e, dspan));
                                0
                            }
                        },
                    };
                    if ty == Type::Void {
                        self.error(dspan, "array of void");
                        ty = Type::CHAR;
                    }
                    ty = Type::Array(Box::new(ty), length);
                }
                ast::DerivedDeclarator::Function(fd) => {
                    let (sig, names) = self.function_declarator(ty.clone(), fd);
                    function = Some(sig);
                    param_names = names;
                }
                ast::DerivedDeclarator::KRFunction(names) => {
                    kr_names = names.iter().map(|n| n.node.name.clone()).collect();
                    function = Some(FunctionSignature {
                        ret: ty.clone(),
                        params: Vec::new(),
                        param_points_to_const: Vec::new(),
                        variadic: false,
                        has_prototype: false,
                    });
                }
                _ => {}
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Abstract => Declared { name: None, ty, function, param_names, kr_names, variable_length },
            ast::DeclaratorKind::Identifier(id) => Declared { name: Some(id.node.name.clone()), ty, function, param_names, kr_names, variable_length },
            ast::DeclaratorKind::Declarator(inner) => {
                if let Some((_, span)) = variable_length {
                    // `int (*p)[n]`: a pointer to a variable-length array
                    self.unsupported(span, "pointers to variable-length arrays");
                }
                // the outer derivations form the base of the inner declarator
                let outer_ty = if function.is_some() { Type::Function } else { ty };
                let mut result = self.declarator(outer_ty, inner);
                if result.function.is_none() && matches!(result.ty, Type::Function) {
                    // `int (f)(int)`: parenthesised function name
                    result.function = function;
                    result.param_names = param_names;
                }
                result
            }
        }
    }

    fn function_declarator(&mut self, ret: Type, fd: &'a Node<ast::FunctionDeclarator>) -> (FunctionSignature, Vec<(Option<String>, Span)>) {
        let mut params = Vec::new();
        let mut consts = Vec::new();
        let mut names = Vec::new();
        for p in &fd.node.parameters {
            let pspan = self.span(p.span);
            let base = self.base_type(&decl_specifier_types(&p.node.specifiers), pspan);
            let is_const = has_const(&p.node.specifiers);
            let (name, ty, is_function) = match &p.node.declarator {
                Some(d) => {
                    let declared = self.declarator(base, d);
                    let is_function = declared.function.is_some();
                    (declared.name, declared.ty, is_function)
                }
                None => (None, base, false),
            };
            if ty == Type::Void && name.is_none() && fd.node.parameters.len() == 1 {
                break;
            }
            // parameters of array or function type are pointers
            let ty = match ty {
                Type::Array(elem, _) => Type::Pointer(elem),
                _ if is_function => Type::pointer_to(Type::Function),
                Type::Function => Type::pointer_to(Type::Function),
                t => t,
            };
            let points_to_const = is_const && ty.is_pointer();
            params.push(ty);
            consts.push(points_to_const);
            names.push((name, pspan));
        }
        let ret = match ret {
            Type::Array(elem, _) => Type::Pointer(elem),
            t => t,
        };
        (
            FunctionSignature {
                ret,
                params,
                param_points_to_const: consts,
                variadic: fd.node.ellipsis == ast::Ellipsis::Some,
                has_prototype: true,
            },
            names,
        )
    }

    /// The signature of an old-style definition from its parameter declarations.
    pub fn kr_signature(
        &mut self,
        signature: &FunctionSignature,
        names: &[String],
        declarations: &'a [Node<ast::Declaration>],
        span: Span,
    ) -> FunctionSignature {
        let mut params = vec![Type::INT; names.len()];
        for decl in declarations {
            let dspan = self.span(decl.span);
            let base = self.base_type(&decl_specifier_types(&decl.node.specifiers), dspan);
            for init in &decl.node.declarators {
                let declared = self.declarator(base.clone(), &init.node.declarator);
                if let Some(name) = declared.name {
                    match names.iter().position(|n| *n == name) {
                        Some(i) => {
                            params[i] = match declared.ty {
                                Type::Array(elem, _) => Type::Pointer(elem),
                                t => t,
                            }
                        }
                        None => self.error(span, format!("declaration of `{name}` which is not a parameter")),
                    }
                }
            }
        }
        FunctionSignature {
            ret: signature.ret.clone(),
            param_points_to_const: vec![false; params.len()],
            params,
            variadic: false,
            has_prototype: true,
        }
    }

    fn struct_type(&mut self, st: &'a Node<ast::StructType>) -> Type {
        let span = self.span(st.span);
        let is_union = st.node.kind.node == ast::StructKind::Union;
        let keyword = if is_union { "union" } else { "struct" };
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let Some(declarations) = &st.node.declarations else {
            // a reference: look the tag up, or declare an incomplete struct
            let tag = tag.unwrap_or_default();
            let key = format!("{keyword} {tag}");
            if let Some(ty) = self.lookup_tag(&key) {
                return ty.clone();
            }
            let id = self.add_struct(tag, is_union);
            let ty = Type::Struct(id);
            // incomplete types are declared at file scope so later definitions complete them
            self.tags[0].insert(key, ty.clone());
            return ty;
        };
        // a definition: reuse an incomplete declaration of the same tag in this scope
        let id = match &tag {
            Some(tag) => {
                let key = format!("{keyword} {tag}");
                let existing = self.tags.last().and_then(|t| t.get(&key)).cloned().or_else(|| self.tags[0].get(&key).cloned());
                match existing {
                    Some(Type::Struct(id)) if self.program.structs[id.0 as usize].fields.is_empty() => id,
                    Some(Type::Struct(id)) if self.tags.last().and_then(|t| t.get(&key)).is_some() => {
                        // already defined in this scope (e.g. the same definition seen twice): keep it
                        return Type::Struct(id);
                    }
                    _ => {
                        let id = self.add_struct(tag.clone(), is_union);
                        if let Some(t) = self.tags.last_mut() {
                            t.insert(key, Type::Struct(id));
                        }
                        id
                    }
                }
            }
            None => {
                self.anonymous_structs += 1;
                let name = format!("__anon{}", self.anonymous_structs);
                self.add_struct(name, is_union)
            }
        };
        let mut fields = Vec::new();
        for d in declarations {
            let ast::StructDeclaration::Field(field) = &d.node else { continue };
            let fspan = self.span(field.span);
            let base = self.base_type(&specifier_qualifier_types(&field.node.specifiers), fspan);
            if field.node.declarators.is_empty() {
                // anonymous struct/union member: its fields become fields of this struct
                if let Type::Struct(inner) = &base {
                    let inner_fields = self.program.structs[inner.0 as usize].fields.clone();
                    let inner_name = format!("__anon_member{}", fields.len());
                    let _ = inner_fields;
                    fields.push(Field { name: inner_name, ty: base.clone() });
                }
                continue;
            }
            for sd in &field.node.declarators {
                // a bit-field `unsigned f : 3` is a 3-bit integer (values wrap at its width;
                // the layout does not pack it)
                let mut width = None;
                if let Some(w) = &sd.node.bit_width {
                    match self.constant_value(w) {
                        Some(0) if sd.node.declarator.is_none() => continue,
                        Some(v) if v > 0 && v <= 64 => width = Some(v as u8),
                        _ => {
                            let s = self.span(w.span);
                            self.error(s, "bit-field width is not a constant between 1 and 64");
                        }
                    }
                }
                let (name, ty) = match &sd.node.declarator {
                    Some(decl) => {
                        let declared = self.declarator(base.clone(), decl);
                        self.refuse_variable_length(&declared);
                        let ty = if declared.function.is_some() { Type::Function } else { declared.ty };
                        (declared.name.unwrap_or_else(|| format!("__field{}", fields.len())), ty)
                    }
                    None => (format!("__field{}", fields.len()), base.clone()),
                };
                if matches!(&ty, Type::Struct(s) if *s == id) {
                    self.error(fspan, format!("field `{name}` has the incomplete type of its own struct"));
                    continue;
                }
                let ty = match (ty, width) {
                    (Type::Int { bits, signed }, Some(w)) if w < bits => Type::Int { bits: w, signed },
                    (ty, _) => ty,
                };
                fields.push(Field { name, ty });
            }
        }
        let _ = span;
        self.program.structs[id.0 as usize].fields = fields;
        Type::Struct(id)
    }

    fn add_struct(&mut self, name: String, is_union: bool) -> StructId {
        let mut unique = if name.is_empty() { "__anon".to_string() } else { name };
        if self.program.structs.iter().any(|s| s.name == unique) {
            let mut n = 1;
            while self.program.structs.iter().any(|s| s.name == format!("{unique}_{n}")) {
                n += 1;
            }
            unique = format!("{unique}_{n}");
        }
        self.program.structs.push(StructDef { name: unique, is_union, fields: Vec::new() });
        StructId(self.program.structs.len() as u32 - 1)
    }

    fn enum_type(&mut self, en: &'a Node<ast::EnumType>) -> Type {
        let mut next = 0i128;
        for e in &en.node.enumerators {
            if let Some(value) = &e.node.expression {
                match self.constant_value(value) {
                    Some(v) => next = v,
                    None => {
                        let s = self.span(value.span);
                        self.error(s, "enumerator value is not an integer constant");
                    }
                }
            }
            self.bind(&e.node.identifier.node.name, Binding::EnumConstant(next));
            next += 1;
        }
        if let Some(tag) = &en.node.identifier {
            if let Some(t) = self.tags.last_mut() {
                t.insert(format!("enum {}", tag.node.name), Type::INT);
            }
        }
        Type::INT
    }

    /// The value of an integer constant expression, if it is one.
    pub fn constant_value(&mut self, e: &'a Node<ast::Expression>) -> Option<i128> {
        let before = self.diagnostics.len();
        let value = self.discarding(true, |l| l.rvalue(e));
        let had_errors = self.diagnostics[before.min(self.diagnostics.len())..].iter().any(|d| d.is_error());
        if had_errors {
            return None;
        }
        if value.ty.is_integer() {
            value.as_const()
        } else {
            None
        }
    }

    /// [`Self::constant_value`] without the diagnostics of a non-constant expression (an array
    /// length naming a parameter not in scope yet: whoever evaluates it reports them).
    fn constant_value_quietly(&mut self, e: &'a Node<ast::Expression>) -> Option<i128> {
        let before = self.diagnostics.len();
        let value = self.constant_value(e);
        if value.is_none() {
            self.diagnostics.truncate(before);
        }
        value
    }

    /// The number of elements an initializer gives an array of unknown size.
    pub fn initializer_length(&mut self, elem: &Type, init: &'a Node<ast::Initializer>) -> Option<u64> {
        match &init.node {
            ast::Initializer::Expression(e) => match &e.node {
                ast::Expression::StringLiteral(s) if matches!(elem, Type::Int { bits: 8, .. }) => {
                    Some(crate::lower::expr::string_literal_bytes(&s.node).len() as u64 + 1)
                }
                _ => None,
            },
            ast::Initializer::List(items) => {
                let mut index: u64 = 0;
                let mut max = 0u64;
                for item in items {
                    if let Some(d) = item.node.designation.first() {
                        if let ast::Designator::Index(e) = &d.node {
                            if let Some(v) = self.constant_value(e) {
                                index = v.max(0) as u64;
                            }
                        } else if let ast::Designator::Range(r) = &d.node {
                            if let Some(v) = self.constant_value(&r.node.to) {
                                index = v.max(0) as u64;
                            }
                        }
                    }
                    index += 1;
                    max = max.max(index);
                }
                // brace elision for scalar elements of aggregates is not counted here
                let elem_leaves = self.scalar_leaf_count(elem).max(1);
                let all_plain = items.iter().all(|i| i.node.designation.is_empty() && matches!(i.node.initializer.node, ast::Initializer::Expression(_)));
                if all_plain && elem_leaves > 1 {
                    let n = items.len() as u64;
                    return Some(n.div_ceil(elem_leaves));
                }
                Some(max)
            }
        }
    }

    pub fn scalar_leaf_count(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(elem, n) => self.scalar_leaf_count(elem).saturating_mul(*n),
            Type::Struct(s) => {
                let def = &self.program.structs[s.0 as usize];
                if def.is_union {
                    def.fields.first().map(|f| self.scalar_leaf_count(&f.ty)).unwrap_or(1)
                } else {
                    def.fields.iter().map(|f| self.scalar_leaf_count(&f.ty)).sum()
                }
            }
            _ => 1,
        }
    }
}
