//! Loop-invariant candidates for the CEGAR loop (technique `candidates`): after a refinement
//! found new predicates, the affine equalities (Karr), counter bounds, stride congruences and
//! call relations of their procedures, difference-bound relations at loop heads, and — once a
//! non-linear predicate appears — polynomial loop equalities, that share a variable with a new
//! predicate. Path-based refinement alone unrolls loops whose proof needs `k + j == n` or
//! `j >= 0` one iteration at a time (BOOP §7.4).

use analyses::{affine, zones};
use c_ir::{Expr, ProcId, PredicateSet, Program};
use cegar::{Candidate, CandidateSource, ScopedPredicate};
use budget::hash::{HashMap, HashSet};

/// At most this many candidates join the predicates of one refinement ...
const CANDIDATES_PER_REFINEMENT: usize = 8;
/// ... of which at most this many are zone relations (each one more predicate to abstract with).
const ZONE_CANDIDATES_PER_REFINEMENT: usize = 3;

const AFFINE: &str = "affine loop facts (Karr's equalities, counter bounds, congruences, call relations)";
const ZONES: &str = "difference-bound relations at loop heads";
const POLYNOMIAL: &str = "polynomial loop equalities";

/// The candidate source of the portfolio; computes each procedure's candidates once.
pub struct LoopCandidates<'z> {
    zones: Option<&'z zones::ZoneResult>,
    per_procedure: HashMap<ProcId, Vec<(Expr, &'static str)>>,
    polynomial_done: HashSet<ProcId>,
    call_relations: Option<HashMap<ProcId, Vec<Expr>>>,
}

impl<'z> LoopCandidates<'z> {
    /// `zones`: the difference-bound analysis' result, whose loop-head relations join the
    /// candidates.
    pub fn new(zones: Option<&'z zones::ZoneResult>) -> LoopCandidates<'z> {
        LoopCandidates { zones, per_procedure: HashMap::default(), polynomial_done: HashSet::default(), call_relations: None }
    }

    fn of_procedure(&mut self, program: &Program, proc: ProcId) -> &mut Vec<(Expr, &'static str)> {
        let call_relations = self.call_relations.get_or_insert_with(|| affine::call_relations(program));
        let zones = self.zones;
        self.per_procedure.entry(proc).or_insert_with(|| {
            let mut list: Vec<(Expr, &'static str)> = Vec::new();
            let calls = call_relations.get(&proc).into_iter().flatten().cloned();
            let equalities = affine::loop_equalities(program, proc).into_iter().map(|(_, e)| e);
            let bounds = affine::counter_bounds(program, proc);
            let congruences = affine::stride_congruences(program, proc);
            let affine_facts = calls.chain(equalities).chain(bounds).chain(congruences).map(|e| (e, AFFINE));
            let relations = zones.and_then(|z| z.loop_facts.get(&proc)).into_iter().flatten().map(|e| (e.clone(), ZONES));
            for (e, source) in affine_facts.chain(relations) {
                if !list.iter().any(|(f, _)| *f == e) {
                    list.push((e, source));
                }
            }
            list
        })
    }
}

impl CandidateSource for LoopCandidates<'_> {
    fn candidates(&mut self, program: &Program, new: &[ScopedPredicate], predicates: &PredicateSet) -> Vec<Candidate> {
        let mut added: Vec<Candidate> = Vec::new();
        let mut from_zones = 0;
        // what the predicates will be once the candidates so far are added
        let mut with_added = predicates.clone();
        for d in new {
            let procs: Vec<ProcId> = match d.scope {
                Some(p) => vec![p],
                None => program.proc_ids().collect(),
            };
            let mine = logic::vars(&d.predicate);
            for proc in procs {
                // polynomial equalities once refinement has found a non-linear predicate
                if solver::has_product(&d.predicate) && self.polynomial_done.insert(proc) {
                    let polynomial = affine::polynomial_loop_equalities(program, proc);
                    let list = self.of_procedure(program, proc);
                    for (_, e) in polynomial {
                        if !list.iter().any(|(f, _)| *f == e) {
                            list.push((e, POLYNOMIAL));
                        }
                    }
                }
                for (e, source) in self.of_procedure(program, proc).iter() {
                    if added.len() >= CANDIDATES_PER_REFINEMENT {
                        return added;
                    }
                    let relevant = match *source {
                        ZONES if from_zones >= ZONE_CANDIDATES_PER_REFINEMENT => false,
                        // a polynomial equality costs the abstraction more: only over the
                        // variables of the non-linear predicate (not a counter that is a copy)
                        POLYNOMIAL => logic::vars(e).iter().all(|v| mine.contains(v)),
                        _ => logic::shares_symbols(e, &d.predicate),
                    };
                    if !relevant {
                        continue;
                    }
                    let local = logic::vars(e).iter().any(|v| !program.globals.contains(v));
                    let scope = if local { Some(proc) } else { None };
                    let existing = match scope {
                        Some(p) => with_added.of_proc(p),
                        None => &with_added.global,
                    };
                    if existing.iter().any(|p| affine::same_equality(p, e)) || cegar::is_redundant(&with_added, scope, e) {
                        continue;
                    }
                    if with_added.insert(scope, e.clone()) {
                        from_zones += (*source == ZONES) as usize;
                        added.push(Candidate { scope, predicate: e.clone(), analysis: source });
                    }
                }
            }
        }
        added
    }
}
