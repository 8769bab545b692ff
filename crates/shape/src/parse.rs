//! The paper's formula syntax: `reach[;n](x,k)`, `reach[{&(t->n)};n](x,k)`, `cyclic[n]y`,
//! `dshared[n](t,x)`, `x == y`, `x != NULL`, `! && || =>`, `true`, `false`; properties
//! `FORMULA@LABEL` and `forall k: P@n1 => Q@ne`; hints `PRED@LABEL -> if C then false else T`.
//!
//! Errors are diagnostics whose spans are byte offsets into the parsed text.

use crate::flowchart::{Flowchart, LocId};
use crate::terms::{FieldRef, Formula, Pred, PredKind, Rigid, RigidId, Term};
use c_ir::{ProcId, Program, StructId, Type};
use diagnostics::{Diagnostic, Span};

/// A property of the procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Property {
    /// `F@L`: F holds whenever control is at L.
    At { formula: Formula, loc: LocId },
    /// `forall k: P@l1 => Q@l2`: once P held at l1, Q holds at every later visit of l2.
    Implies { antecedent: Formula, at: LocId, consequent: Formula, then: LocId },
}

/// An approximation hint `(pattern, location) ↦ if cond then false else ⊤`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub pattern: Pred,
    /// `None`: every location.
    pub loc: Option<LocId>,
    pub cond: Formula,
    /// Where the hint came from (file line, or the auto-hint heuristic's reason).
    pub origin: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sym(&'static str),
}

const SYMBOLS: &[&str] = &["->", "&&", "||", "=>", "==", "!=", "[", "]", "(", ")", "{", "}", ",", ";", "&", "*", ".", "!", "@", ":"];

fn lex(text: &str) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '\'' {
            let start = i;
            while i < bytes.len() && ((bytes[i] as char).is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'\'') {
                i += 1;
            }
            out.push((Tok::Ident(text[start..i].to_string()), Span::new(start as u32, i as u32)));
            continue;
        }
        match SYMBOLS.iter().find(|s| text[i..].starts_with(**s)) {
            Some(s) => {
                out.push((Tok::Sym(s), Span::new(i as u32, (i + s.len()) as u32)));
                i += s.len();
            }
            None => {
                let end = text[i..].chars().next().map(|c| i + c.len_utf8()).unwrap_or(i + 1);
                return Err(Diagnostic::error(Span::new(i as u32, end as u32), format!("unexpected character `{c}`")));
            }
        }
    }
    Ok(out)
}

/// Parsing context: the program, the procedure, its flow chart and the rigid variables so far.
pub struct Parser<'a> {
    pub program: &'a Program,
    pub proc: ProcId,
    pub flowchart: &'a Flowchart,
    pub rigids: &'a mut Vec<Rigid>,
    toks: Vec<(Tok, Span)>,
    pos: usize,
    end: u32,
}

enum PTerm {
    Value(Term, Option<Type>),
    StructAt(Term, StructId),
}

type R<T> = Result<T, Diagnostic>;

impl<'a> Parser<'a> {
    pub fn new(program: &'a Program, proc: ProcId, flowchart: &'a Flowchart, rigids: &'a mut Vec<Rigid>, text: &str) -> R<Parser<'a>> {
        Ok(Parser { program, proc, flowchart, rigids, toks: lex(text)?, pos: 0, end: text.len() as u32 })
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn span(&self) -> Span {
        self.toks.get(self.pos).map(|t| t.1).unwrap_or(Span::new(self.end, self.end))
    }
    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Sym(x)) if *x == s)
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, s: &str) -> R<()> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{s}` here")))
        }
    }
    fn error(&self, message: String) -> Diagnostic {
        Diagnostic::error(self.span(), message)
    }
    fn ident(&mut self) -> R<(String, Span)> {
        match self.toks.get(self.pos) {
            Some((Tok::Ident(s), sp)) => {
                let r = (s.clone(), *sp);
                self.pos += 1;
                Ok(r)
            }
            _ => Err(self.error("expected a name here".into())),
        }
    }
    fn done(&self) -> R<()> {
        if self.pos < self.toks.len() {
            Err(self.error("unexpected text after the end".into()))
        } else {
            Ok(())
        }
    }

    /// The struct whose pointers the rigid variables have: the first with a pointer-to-itself field.
    fn list_struct(&self) -> Option<StructId> {
        self.program.structs.iter().enumerate().find_map(|(i, s)| {
            let id = StructId(i as u32);
            s.fields.iter().any(|f| f.ty == Type::pointer_to(Type::Struct(id))).then_some(id)
        })
    }

    fn label(&mut self) -> R<LocId> {
        let (name, span) = self.ident()?;
        self.flowchart.location_by_label(&name).ok_or_else(|| {
            let known: Vec<&str> = self.flowchart.locations.iter().map(|l| l.label.as_str()).collect();
            Diagnostic::error(span, format!("unknown label `{name}`")).with_help(format!("the locations of this procedure are: {}", known.join(", ")))
        })
    }

    /// `[forall k, j:] F@L [=> G@M]`.
    pub fn property(&mut self) -> R<Property> {
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == "forall") {
            self.pos += 1;
            loop {
                let (name, span) = self.ident()?;
                if self.program.lookup_var(Some(self.proc), &name).is_some() {
                    return Err(Diagnostic::error(span, format!("`{name}` is a program variable; a `forall` variable needs a new name")));
                }
                let Some(s) = self.list_struct() else {
                    return Err(Diagnostic::error(span, "no struct with a pointer-to-itself field for the `forall` variable to range over"));
                };
                if !self.rigids.iter().any(|r| r.name == name) {
                    self.rigids.push(Rigid { name, ty: Type::pointer_to(Type::Struct(s)) });
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(":")?;
        }
        let formula = self.formula()?;
        self.expect("@")?;
        let loc = self.label()?;
        if self.eat("=>") {
            let consequent = self.formula()?;
            self.expect("@")?;
            let then = self.label()?;
            self.done()?;
            return Ok(Property::Implies { antecedent: formula, at: loc, consequent, then });
        }
        self.done()?;
        Ok(Property::At { formula, loc })
    }

    /// `PRED@LABEL -> if C then false else T` (LABEL may be `*`).
    pub fn hint(&mut self, origin: String) -> R<Hint> {
        let start = self.span();
        let pattern = match self.formula()? {
            Formula::Atom(p) => p,
            _ => return Err(Diagnostic::error(start, "a hint's pattern must be a single predicate")),
        };
        self.expect("@")?;
        let loc = if self.eat("*") { None } else { Some(self.label()?) };
        self.expect("->")?;
        self.keyword("if")?;
        let cond = self.formula()?;
        self.keyword("then")?;
        self.keyword("false")?;
        self.keyword("else")?;
        self.keyword("T")?;
        self.done()?;
        Ok(Hint { pattern, loc, cond, origin })
    }

    fn keyword(&mut self, k: &str) -> R<()> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == k => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.error(format!("expected `{k}` here"))),
        }
    }

    pub fn formula(&mut self) -> R<Formula> {
        let left = self.disjunction()?;
        if self.is_sym("=>") && !self.implication_is_property() {
            self.pos += 1;
            let right = self.formula()?;
            return Ok(Formula::or(vec![Formula::not(left), right]));
        }
        Ok(left)
    }

    /// In `P@l1 => Q@l2` the `=>` after the label belongs to the property, never to a formula.
    fn implication_is_property(&self) -> bool {
        false
    }

    fn disjunction(&mut self) -> R<Formula> {
        let mut items = vec![self.conjunction()?];
        while self.eat("||") {
            items.push(self.conjunction()?);
        }
        Ok(Formula::or(items))
    }
    fn conjunction(&mut self) -> R<Formula> {
        let mut items = vec![self.unary()?];
        while self.eat("&&") {
            items.push(self.unary()?);
        }
        Ok(Formula::and(items))
    }
    fn unary(&mut self) -> R<Formula> {
        if self.eat("!") {
            return Ok(Formula::not(self.unary()?));
        }
        if self.is_sym("(") {
            let save = self.pos;
            self.pos += 1;
            if let Ok(f) = self.formula() {
                if self.eat(")") && !self.is_sym("==") && !self.is_sym("!=") && !self.is_sym("->") && !self.is_sym(".") {
                    return Ok(f);
                }
            }
            self.pos = save;
        }
        if let Some(Tok::Ident(name)) = self.peek().cloned() {
            match name.as_str() {
                "true" | "false" => {
                    self.pos += 1;
                    return Ok(Formula::Const(name == "true"));
                }
                "reach" | "reachp" | "dshared" | "cyclic" => {
                    if matches!(self.toks.get(self.pos + 1), Some((Tok::Sym("["), _))) {
                        return self.shape_atom(&name);
                    }
                }
                _ => {}
            }
        }
        let sa = self.span();
        let (a, _) = self.value_term()?;
        let negate = if self.eat("==") {
            false
        } else if self.eat("!=") {
            true
        } else {
            return Err(Diagnostic::error(sa, "expected a predicate (reach, reachp, dshared, cyclic) or a comparison `a == b`"));
        };
        let (b, _) = self.value_term()?;
        let atom = Formula::Atom(Pred::eq(a, b));
        Ok(if negate { Formula::not(atom) } else { atom })
    }

    fn shape_atom(&mut self, name: &str) -> R<Formula> {
        let kind = match name {
            "reach" => PredKind::Reach,
            "reachp" => PredKind::Reachp,
            "dshared" => PredKind::Dshared,
            _ => PredKind::Cyclic,
        };
        self.pos += 1;
        self.expect("[")?;
        // avoid set: everything before `;` (optional for dshared/cyclic)
        let has_avoid = self.toks[self.pos..].iter().take_while(|t| t.0 != Tok::Sym("]")).any(|t| t.0 == Tok::Sym(";"));
        let mut avoid = Vec::new();
        if has_avoid {
            let braced = self.eat("{");
            while !self.is_sym(";") && !self.is_sym("}") {
                avoid.push(self.address_term()?);
                if !self.eat(",") {
                    break;
                }
            }
            if braced {
                self.expect("}")?;
            }
            self.expect(";")?;
        }
        let mut field_names = Vec::new();
        loop {
            field_names.push(self.ident()?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect("]")?;
        let arity = if kind == PredKind::Cyclic { 1 } else { 2 };
        let mut args = Vec::new();
        let paren = self.eat("(");
        if !paren && arity == 2 {
            return Err(self.error("expected `(` and two arguments".into()));
        }
        for k in 0..arity {
            if k > 0 {
                self.expect(",")?;
            }
            args.push(self.value_term()?);
        }
        if paren {
            self.expect(")")?;
        }
        let fields = self.resolve_fields(&field_names, args.first().and_then(|a| a.1.clone()))?;
        Ok(Formula::Atom(Pred::new(kind, avoid, fields, args.into_iter().map(|a| a.0).collect())))
    }

    fn resolve_fields(&self, names: &[(String, Span)], first_ty: Option<Type>) -> R<Vec<FieldRef>> {
        let preferred = match first_ty.as_ref().and_then(|t| t.pointee()) {
            Some(Type::Struct(s)) => Some(*s),
            _ => None,
        };
        names
            .iter()
            .map(|(name, span)| {
                let mut found: Vec<FieldRef> = Vec::new();
                for (si, s) in self.program.structs.iter().enumerate() {
                    if let Some(fi) = s.fields.iter().position(|f| f.name == *name) {
                        found.push(FieldRef { strukt: StructId(si as u32), index: fi as u32 });
                    }
                }
                found
                    .iter()
                    .find(|f| Some(f.strukt) == preferred)
                    .or(found.first())
                    .copied()
                    .ok_or_else(|| Diagnostic::error(*span, format!("no struct has a field named `{name}`")))
            })
            .collect()
    }

    /// A pointer value: `x`, `x->n`, `(*x).n`, `NULL`, a rigid variable, `&(x->n)`.
    fn value_term(&mut self) -> R<(Term, Option<Type>)> {
        let span = self.span();
        match self.term()? {
            PTerm::Value(t, ty) => Ok((t, ty)),
            PTerm::StructAt(..) => Err(Diagnostic::error(span, "a struct value is not a pointer: select a field (`(*x).n`) or drop the `*`")),
        }
    }

    /// An address (avoid-set member): `&(x->n)`, `&x`, or a pointer value.
    fn address_term(&mut self) -> R<Term> {
        Ok(self.value_term()?.0)
    }

    fn term(&mut self) -> R<PTerm> {
        let span = self.span();
        if self.eat("&") {
            return match self.term()? {
                PTerm::Value(Term::Load(addr), ty) => Ok(PTerm::Value(*addr, ty.map(Type::pointer_to))),
                _ => Err(Diagnostic::error(span, "`&` needs a variable or a field (`&(x->n)`)")),
            };
        }
        let mut t = if self.eat("*") {
            match self.term()? {
                PTerm::Value(p, Some(Type::Pointer(inner))) => match *inner {
                    Type::Struct(s) => PTerm::StructAt(p, s),
                    other => PTerm::Value(Term::load(p), Some(other)),
                },
                _ => return Err(Diagnostic::error(span, "`*` needs a pointer")),
            }
        } else if self.eat("(") {
            let t = self.term()?;
            self.expect(")")?;
            t
        } else {
            let (name, sp) = self.ident()?;
            if name == "NULL" || name == "0" {
                PTerm::Value(Term::Null, None)
            } else if let Some(i) = self.rigids.iter().position(|r| r.name == name) {
                PTerm::Value(Term::Rigid(RigidId(i as u32)), Some(self.rigids[i].ty.clone()))
            } else if let Some(v) = self.program.lookup_var(Some(self.proc), &name) {
                PTerm::Value(Term::var(v), Some(self.program.var(v).ty.clone()))
            } else {
                return Err(Diagnostic::error(sp, format!("unknown variable `{name}` in procedure `{}`", self.program.proc(self.proc).name))
                    .with_help("a logical variable must be declared first: `forall k: ...`"));
            }
        };
        loop {
            let arrow = self.is_sym("->");
            if !arrow && !self.is_sym(".") {
                return Ok(t);
            }
            self.pos += 1;
            let (fname, fspan) = self.ident()?;
            let (base, strukt) = match (t, arrow) {
                (PTerm::Value(p, Some(Type::Pointer(inner))), true) => match *inner {
                    Type::Struct(s) => (p, s),
                    _ => return Err(Diagnostic::error(fspan, format!("`->{fname}` needs a pointer to a struct"))),
                },
                (PTerm::StructAt(p, s), false) => (p, s),
                _ => return Err(Diagnostic::error(fspan, format!("cannot select field `{fname}` here"))),
            };
            let def = self.program.struct_def(strukt);
            let Some(index) = def.fields.iter().position(|f| f.name == fname) else {
                return Err(Diagnostic::error(fspan, format!("struct `{}` has no field `{fname}`", def.name)));
            };
            let f = FieldRef { strukt, index: index as u32 };
            t = PTerm::Value(Term::field(base, f), Some(def.fields[index].ty.clone()));
        }
    }
}
