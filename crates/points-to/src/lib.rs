//! Flow- and context-insensitive may-alias analysis (Steensgaard's unification, field- and
//! array-insensitive) over the whole IR program, queried by weakest preconditions, abstraction,
//! refinement and hiding.
//!
//! Abstract locations are variables, `malloc` sites, string literals and one `External`
//! location standing for memory the program did not allocate itself (targets of pointers from
//! `havoc`, formals of procedures that are never called, results of unknown expressions).
//! Every abstract location belongs to an equivalence class; each class points to at most one
//! class. `s.f` and `a[i]` share the location of `s` and `a`.

use c_ir::{Expr, ExprKind, Program, StmtKind, StmtRef, Type, VarId};
use logic::{memory_type_key, MayAlias};

/// A named piece of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AbstractLocation {
    Var(VarId),
    /// The objects allocated by the `malloc` statement at this position.
    Malloc(StmtRef),
    /// String literal number `n`.
    Str(u32),
    /// Memory not allocated by the program (inputs).
    External,
}

/// The result of [`PointsTo::analyze`].
#[derive(Clone, Debug)]
pub struct PointsTo {
    /// Abstract location of each node.
    nodes: Vec<AbstractLocation>,
    /// Union-find parent per node (fully compressed after analysis).
    parent: Vec<u32>,
    /// Pointee class per class representative.
    pointee: Vec<Option<u32>>,
    var_count: u32,
    malloc_sites: Vec<StmtRef>,
    string_base: u32,
    external: u32,
}

/// What an lvalue or pointer value resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolved {
    Class(u32),
    /// A pointer the program never makes point anywhere.
    Nothing,
    /// Cannot tell (uninterpreted terms, constants used as pointers).
    Unknown,
}

impl PointsTo {
    /// Runs the analysis over every statement of every procedure.
    pub fn analyze(program: &Program) -> PointsTo {
        let var_count = program.vars.len() as u32;
        let mut nodes: Vec<AbstractLocation> = (0..var_count).map(|i| AbstractLocation::Var(VarId(i))).collect();
        let mut malloc_sites = Vec::new();
        for pid in program.proc_ids() {
            for (index, stmt) in program.proc(pid).body.iter().enumerate() {
                if let StmtKind::Malloc { .. } = stmt.kind {
                    let at = StmtRef { proc: pid, index: index as u32 };
                    malloc_sites.push(at);
                    nodes.push(AbstractLocation::Malloc(at));
                }
            }
        }
        let string_base = nodes.len() as u32;
        for n in 0..program.strings.len() as u32 {
            nodes.push(AbstractLocation::Str(n));
        }
        let external = nodes.len() as u32;
        nodes.push(AbstractLocation::External);
        let n = nodes.len();
        let mut pt = PointsTo {
            nodes,
            parent: (0..n as u32).collect(),
            pointee: vec![None; n],
            var_count,
            malloc_sites,
            string_base,
            external,
        };
        // external memory points to external memory
        pt.pointee[external as usize] = Some(external);
        let mut called = vec![false; program.procs.len()];
        for proc in &program.procs {
            for stmt in &proc.body {
                if let StmtKind::Call { callee, .. } = &stmt.kind {
                    if let Some(c) = called.get_mut(callee.0 as usize) {
                        *c = true;
                    }
                }
            }
        }
        for pid in program.proc_ids() {
            let proc = program.proc(pid);
            if !called[pid.0 as usize] {
                for &f in &proc.formals {
                    let target = pt.pointee_of(f.0);
                    pt.union(target, external);
                }
            }
            for (index, stmt) in proc.body.iter().enumerate() {
                match &stmt.kind {
                    StmtKind::Assign { lhs, rhs } => pt.assign(lhs, rhs),
                    StmtKind::Havoc { lhs } if lhs.ty.is_pointer() || !lhs.ty.is_scalar() => {
                        let l = pt.loc_mut(lhs);
                        let target = pt.pointee_of(l);
                        pt.union(target, external);
                    }
                    StmtKind::Malloc { lhs, .. } => {
                        let at = StmtRef { proc: pid, index: index as u32 };
                        let site = pt.malloc_sites.iter().position(|s| *s == at).unwrap_or(0) as u32 + var_count;
                        let l = pt.loc_mut(lhs);
                        let target = pt.pointee_of(l);
                        pt.union(target, site);
                    }
                    StmtKind::Call { lhs, callee, args } => {
                        if let Some(callee_proc) = program.procs.get(callee.0 as usize) {
                            for (formal, arg) in callee_proc.formals.iter().zip(args.iter()) {
                                let formal_expr = Expr::var(*formal, program.var(*formal).ty.clone());
                                pt.assign(&formal_expr, arg);
                            }
                            match (lhs, callee_proc.ret_var) {
                                (Some(l), Some(rv)) => {
                                    let ret_expr = Expr::var(rv, program.var(rv).ty.clone());
                                    pt.assign(l, &ret_expr);
                                }
                                (Some(l), None) => {
                                    let l = pt.loc_mut(l);
                                    let target = pt.pointee_of(l);
                                    pt.union(target, external);
                                }
                                _ => {}
                            }
                        }
                    }
                    StmtKind::Return { value: Some(v) } => {
                        if let Some(rv) = proc.ret_var {
                            let ret_expr = Expr::var(rv, program.var(rv).ty.clone());
                            pt.assign(&ret_expr, v);
                        }
                    }
                    _ => {}
                }
            }
        }
        for i in 0..n as u32 {
            let r = pt.find(i);
            pt.parent[i as usize] = r;
        }
        pt
    }

    fn find(&mut self, x: u32) -> u32 {
        let mut root = x;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        let mut cur = x;
        while self.parent[cur as usize] != root {
            let next = self.parent[cur as usize];
            self.parent[cur as usize] = root;
            cur = next;
        }
        root
    }

    fn find_ro(&self, x: u32) -> u32 {
        let mut root = x;
        while self.parent[root as usize] != root {
            root = self.parent[root as usize];
        }
        root
    }

    fn new_node(&mut self) -> u32 {
        // anonymous nodes (pointees nobody names) are represented as External-free fresh nodes
        self.nodes.push(AbstractLocation::External);
        self.parent.push(self.nodes.len() as u32 - 1);
        self.pointee.push(None);
        self.nodes.len() as u32 - 1
    }

    /// The pointee class of class `x`, created on demand.
    fn pointee_of(&mut self, x: u32) -> u32 {
        let r = self.find(x);
        match self.pointee[r as usize] {
            Some(p) => self.find(p),
            None => {
                let p = self.new_node();
                self.pointee[r as usize] = Some(p);
                p
            }
        }
    }

    fn union(&mut self, a: u32, b: u32) {
        let mut work = vec![(a, b)];
        while let Some((a, b)) = work.pop() {
            let ra = self.find(a);
            let rb = self.find(b);
            if ra == rb {
                continue;
            }
            self.parent[rb as usize] = ra;
            match (self.pointee[ra as usize], self.pointee[rb as usize]) {
                (Some(pa), Some(pb)) => work.push((pa, pb)),
                (None, Some(pb)) => self.pointee[ra as usize] = Some(pb),
                _ => {}
            }
        }
    }

    fn assign(&mut self, lhs: &Expr, rhs: &Expr) {
        let l = self.loc_mut(lhs);
        let target = self.pointee_of(l);
        if let Some(v) = self.value_mut(rhs) {
            self.union(target, v);
        }
    }

    /// The class of lvalue `l` (created on demand).
    fn loc_mut(&mut self, l: &Expr) -> u32 {
        match &l.kind {
            ExprKind::Var(v) if v.0 < self.var_count => v.0,
            ExprKind::Deref(p) => match self.value_mut(p) {
                Some(c) => c,
                None => self.external,
            },
            ExprKind::Field(a, _) | ExprKind::Index(a, _) => {
                if a.is_lvalue() {
                    self.loc_mut(a)
                } else {
                    self.value_mut(a).unwrap_or(self.external)
                }
            }
            _ => self.external,
        }
    }

    /// The class a pointer-valued expression points into (None for values carrying no address).
    fn value_mut(&mut self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Const(_) => None,
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let l = self.loc_mut(e);
                if matches!(e.ty, Type::Array(..)) {
                    // an array used as a value decays to its own address
                    return Some(l);
                }
                Some(self.pointee_of(l))
            }
            ExprKind::AddrOf(l) => Some(self.loc_mut(l)),
            ExprKind::Str(n) => Some(self.string_base + n),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.value_mut(a),
            ExprKind::Binary(op, a, b) => {
                if op.is_relational() || op.is_logical() {
                    return None;
                }
                let va = self.value_mut(a);
                let vb = self.value_mut(b);
                match (va, vb) {
                    (Some(x), Some(y)) => {
                        self.union(x, y);
                        Some(x)
                    }
                    (x, y) => x.or(y),
                }
            }
            ExprKind::Ite(_, a, b) => {
                let va = self.value_mut(a);
                let vb = self.value_mut(b);
                match (va, vb) {
                    (Some(x), Some(y)) => {
                        self.union(x, y);
                        Some(x)
                    }
                    (x, y) => x.or(y),
                }
            }
            ExprKind::App(..) => Some(self.external),
        }
    }

    fn loc(&self, l: &Expr) -> Resolved {
        match &l.kind {
            ExprKind::Var(v) if v.0 < self.var_count => Resolved::Class(self.find_ro(v.0)),
            ExprKind::Deref(p) => self.value(p),
            ExprKind::Field(a, _) | ExprKind::Index(a, _) => {
                if a.is_lvalue() {
                    self.loc(a)
                } else {
                    self.value(a)
                }
            }
            _ => Resolved::Unknown,
        }
    }

    fn pointee_ro(&self, r: Resolved) -> Resolved {
        match r {
            Resolved::Class(c) => match self.pointee[self.find_ro(c) as usize] {
                Some(p) => Resolved::Class(self.find_ro(p)),
                None => Resolved::Nothing,
            },
            other => other,
        }
    }

    fn value(&self, e: &Expr) -> Resolved {
        match &e.kind {
            ExprKind::Const(0) => Resolved::Nothing,
            ExprKind::Const(_) => Resolved::Unknown,
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Field(..) | ExprKind::Index(..) => {
                let l = self.loc(e);
                if matches!(e.ty, Type::Array(..)) {
                    return l;
                }
                self.pointee_ro(l)
            }
            ExprKind::AddrOf(l) => self.loc(l),
            ExprKind::Str(n) => Resolved::Class(self.find_ro(self.string_base + n)),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.value(a),
            ExprKind::Binary(_, a, b) | ExprKind::Ite(_, a, b) => match (self.value(a), self.value(b)) {
                (Resolved::Nothing, x) | (x, Resolved::Nothing) => x,
                (Resolved::Class(x), Resolved::Class(y)) if x == y => Resolved::Class(x),
                _ => Resolved::Unknown,
            },
            ExprKind::App(..) => Resolved::Class(self.find_ro(self.external)),
        }
    }

    /// The abstract locations pointer expression `e` may point to (empty when the program never
    /// makes it point anywhere; all locations when unknown).
    pub fn points_to(&self, e: &Expr) -> Vec<AbstractLocation> {
        match self.value(e) {
            Resolved::Class(c) => self.class_members(c),
            Resolved::Nothing => Vec::new(),
            Resolved::Unknown => self.named_locations().collect(),
        }
    }

    /// The abstract locations lvalue `l` may denote.
    pub fn locations_of(&self, l: &Expr) -> Vec<AbstractLocation> {
        match self.loc(l) {
            Resolved::Class(c) => self.class_members(c),
            Resolved::Nothing => Vec::new(),
            Resolved::Unknown => self.named_locations().collect(),
        }
    }

    fn named_locations(&self) -> impl Iterator<Item = AbstractLocation> + '_ {
        (0..=self.external).map(|i| self.nodes[i as usize])
    }

    fn class_members(&self, c: u32) -> Vec<AbstractLocation> {
        let root = self.find_ro(c);
        (0..=self.external).filter(|&i| self.find_ro(i) == root).map(|i| self.nodes[i as usize]).collect()
    }

    /// Whether `p` may point to the storage of `target` (an lvalue).
    pub fn may_point_to(&self, p: &Expr, target: &Expr) -> bool {
        match (self.value(p), self.loc(target)) {
            (Resolved::Nothing, _) | (_, Resolved::Nothing) => false,
            (Resolved::Class(a), Resolved::Class(b)) => self.find_ro(a) == self.find_ro(b),
            _ => true,
        }
    }

    /// The equivalence classes of named abstract locations (for display).
    pub fn classes(&self) -> Vec<Vec<AbstractLocation>> {
        let mut out: Vec<(u32, Vec<AbstractLocation>)> = Vec::new();
        for i in 0..=self.external {
            let r = self.find_ro(i);
            match out.iter_mut().find(|(root, _)| *root == r) {
                Some((_, v)) => v.push(self.nodes[i as usize]),
                None => out.push((r, vec![self.nodes[i as usize]])),
            }
        }
        out.into_iter().map(|(_, v)| v).collect()
    }
}

impl MayAlias for PointsTo {
    fn may_alias(&self, a: &Expr, b: &Expr) -> bool {
        if a == b {
            return true;
        }
        if memory_type_key(&a.ty) != memory_type_key(&b.ty) {
            return false;
        }
        if logic::syntactically_distinct(a, b) {
            return false;
        }
        match (self.loc(a), self.loc(b)) {
            (Resolved::Nothing, _) | (_, Resolved::Nothing) => false,
            (Resolved::Class(x), Resolved::Class(y)) => self.find_ro(x) == self.find_ro(y),
            _ => true,
        }
    }
}
