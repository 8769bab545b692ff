//! Syntactic cone of influence (BOOP §4.4.5, formula 4.10): the predicates that share
//! symbols with a formula, transitively.

use c_ir::{Expr, ExprKind, VarId};

/// The symbols a formula depends on: its variables (also under `&`) and the names of
/// uninterpreted symbols (fresh values, floating point, named functions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    Var(VarId),
    App(c_ir::Symbol),
}

/// The symbols of `e`, without duplicates.
pub fn symbols(e: &Expr) -> Vec<Symbol> {
    let mut out: Vec<Symbol> = Vec::new();
    e.visit(&mut |sub| {
        let s = match &sub.kind {
            ExprKind::Var(v) => Symbol::Var(*v),
            ExprKind::App(symbol, _) => Symbol::App(symbol.clone()),
            _ => return,
        };
        if !out.contains(&s) {
            out.push(s);
        }
    });
    out
}

/// Whether `a` and `b` mention a common symbol.
pub fn shares_symbols(a: &Expr, b: &Expr) -> bool {
    let sa = symbols(a);
    symbols(b).iter().any(|s| sa.contains(s))
}

/// The indices of the predicates in the least fixpoint `μZ. {ψ} ∪ {φ_i | vars(φ_i) ∩ vars(Z) ≠ ∅}`
/// (formula 4.10), in increasing order. Formulas that read memory through pointers (`*p`) are
/// related through the pointers' variables, which the weakest precondition mentions explicitly.
pub fn cone_of_influence(psi: &Expr, predicates: &[Expr]) -> Vec<usize> {
    bounded_cone_of_influence(psi, predicates, None)
}

/// [`cone_of_influence`] computed layer by layer (the predicates sharing a symbol with ψ, then
/// those sharing one with the first layer, …), stopping before a layer that would take the
/// cone beyond `max` predicates; the first layer is always included. A subset of the cone, so a
/// strengthening over it stays sound, only possibly less precise — while on programs with many
/// loosely connected predicates the full cone (and the exact strategy's 2^|cone| valuations)
/// grows with every refinement.
pub fn bounded_cone_of_influence(psi: &Expr, predicates: &[Expr], max: Option<usize>) -> Vec<usize> {
    let pred_symbols: Vec<Vec<Symbol>> = predicates.iter().map(symbols).collect();
    let mut reached: Vec<Symbol> = symbols(psi);
    let mut included = vec![false; predicates.len()];
    let mut count = 0usize;
    loop {
        let layer: Vec<usize> =
            (0..predicates.len()).filter(|&i| !included[i] && pred_symbols[i].iter().any(|s| reached.contains(s))).collect();
        if layer.is_empty() || (count > 0 && max.is_some_and(|m| count + layer.len() > m)) {
            break;
        }
        count += layer.len();
        for i in layer {
            included[i] = true;
            for s in &pred_symbols[i] {
                if !reached.contains(s) {
                    reached.push(s.clone());
                }
            }
        }
    }
    (0..predicates.len()).filter(|&i| included[i]).collect()
}
