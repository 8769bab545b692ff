//! Deterministic work budgets (issue 33, "the same answer on every laptop").
//!
//! Every engine stage charges *work units* to a [`Meter`] for the work it does (SAT conflicts
//! and clauses, BDD nodes of new path edges, lattice cubes, interpreter steps, fixpoint
//! statements; the weights are in [`cost`]) and asks [`Meter::exhausted`] before going on. The
//! counts depend only on the program, the predicates and the options, so a run stops at the
//! same point on every machine and in the browser.
//!
//! Wall-clock time stays only as a *safety limit* ([`Meter::with_time_limit`]); when it ends a
//! run, [`Meter::stopped`] says so with [`Exhausted::Clock`], whose text tells the user that
//! the result may differ elsewhere. The memory estimate ([`Meter::note_memory`]) ends a run
//! before an estimated limit the same way ([`Exhausted::Memory`]): engines report the size of
//! their big structures (lattice queue, BDD node tables, solver clause database, path
//! conditions) and the largest estimate counts.
//!
//! Meters nest: [`Meter::sub`] makes a meter with its own limit whose charges also count
//! against every enclosing meter (the portfolio gives each technique its share this way). A
//! meter is a handle, not a setting: clones share the counters, and any two meters compare
//! equal, so configurations that differ only in their meter are the same settings.

pub mod hash;

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use web_time::Instant;

/// Work units charged per unit of work of each kind (one home for the weights). A unit is
/// roughly a microsecond of work on a 2020s laptop; only the counts matter for determinism.
pub mod cost {
    /// One SAT conflict (a learnt clause).
    pub const SAT_CONFLICT: u64 = 40;
    /// This many unit propagations of the SAT back end cost one unit (charged when a search
    /// ends).
    pub const SAT_PROPAGATIONS_PER_UNIT: u64 = 16;
    /// One call of the SAT back end (`solve`, one round of an enumeration).
    pub const SAT_CALL: u64 = 50;
    /// One clause added to a SAT instance (the encoder's bit-blasting).
    pub const SAT_CLAUSE: u64 = 1;
    /// This many BDD nodes of a model checker's new path edges or summaries cost one unit.
    pub const BDD_NODES_PER_UNIT: u64 = 4;
    /// One worklist step of the model checker.
    pub const MODEL_CHECK_STEP: u64 = 20;
    /// One cube of the strengthening lattice examined.
    pub const LATTICE_CUBE: u64 = 10;
    /// This many interpreter statements cost one unit.
    pub const INTERPRETER_STEPS_PER_UNIT: u64 = 16;
    /// One poll of an abstract interpretation (one statement of an ascent round).
    pub const FIXPOINT_STATEMENT: u64 = 20;
    /// One expression node of a weakest precondition or a path condition built.
    pub const WP_NODE: u64 = 1;
}

/// Why a meter says stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exhausted {
    /// The work budget of this many units is spent (deterministic).
    Work { limit: u64 },
    /// The safety time limit of this machine passed (not deterministic).
    Clock { limit_ms: u64 },
    /// The estimated memory of one structure would pass the limit (deterministic).
    Memory { estimate_bytes: u64, limit_bytes: u64 },
}

impl Exhausted {
    /// Whether another machine would have stopped at the same point.
    pub fn is_deterministic(&self) -> bool {
        !matches!(self, Exhausted::Clock { .. })
    }
}

/// How a stop by the safety clock begins ([`Exhausted::Clock`]'s text): readers of a run's
/// reason (the benchmark table) look for it.
pub const CLOCK_STOP: &str = "stopped by this machine's time limit";

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exhausted::Work { limit } => write!(f, "the work budget of {limit} units is spent"),
            Exhausted::Clock { limit_ms } => write!(
                f,
                "{CLOCK_STOP} ({}); results may differ elsewhere",
                if limit_ms % 1000 == 0 { format!("{} s", limit_ms / 1000) } else { format!("{limit_ms} ms") }
            ),
            Exhausted::Memory { estimate_bytes, limit_bytes } => write!(
                f,
                "stopped before the memory limit: one structure would need about {} MB (limit {} MB)",
                estimate_bytes.div_ceil(1 << 20),
                limit_bytes / (1 << 20)
            ),
        }
    }
}

const TRIPPED_NONE: u8 = 0;
const TRIPPED_CLOCK: u8 = 1;
const TRIPPED_MEMORY: u8 = 2;

/// What all meters of one run share: the safety clock and the memory estimate.
#[derive(Debug)]
struct Shared {
    started: Instant,
    time_limit_ms: Option<u64>,
    memory_limit: Option<u64>,
    tripped: AtomicU8,
    /// The estimate that tripped the memory limit, or the largest so far.
    memory_peak: AtomicU64,
}

#[derive(Debug)]
struct Level {
    spent: AtomicU64,
    limit: Option<u64>,
    parent: Option<Arc<Level>>,
}

/// A shared work counter with a limit, a safety clock and a memory estimate (see the crate
/// documentation). `Meter::default()` is unlimited.
#[derive(Clone, Debug)]
pub struct Meter {
    level: Arc<Level>,
    shared: Arc<Shared>,
}

impl Default for Meter {
    fn default() -> Meter {
        Meter::new(None)
    }
}

impl PartialEq for Meter {
    /// Meters are handles, not settings: any two are equal.
    fn eq(&self, _: &Meter) -> bool {
        true
    }
}
impl Eq for Meter {}

impl Meter {
    /// A root meter with a work limit (`None`: unlimited), no time or memory limit.
    pub fn new(limit: Option<u64>) -> Meter {
        let shared = Shared { started: Instant::now(), time_limit_ms: None, memory_limit: None, tripped: AtomicU8::new(TRIPPED_NONE), memory_peak: AtomicU64::new(0) };
        Meter { level: Arc::new(Level { spent: AtomicU64::new(0), limit, parent: None }), shared: Arc::new(shared) }
    }

    /// A root meter with a work limit, a safety time limit (counted from now) and a memory
    /// limit in bytes for the estimate.
    pub fn with_limits(limit: Option<u64>, time_limit_ms: Option<u64>, memory_limit: Option<u64>) -> Meter {
        let shared = Shared { started: Instant::now(), time_limit_ms, memory_limit, tripped: AtomicU8::new(TRIPPED_NONE), memory_peak: AtomicU64::new(0) };
        Meter { level: Arc::new(Level { spent: AtomicU64::new(0), limit, parent: None }), shared: Arc::new(shared) }
    }

    /// [`Meter::with_limits`] without a memory limit.
    pub fn with_time_limit(limit: Option<u64>, time_limit_ms: Option<u64>) -> Meter {
        Meter::with_limits(limit, time_limit_ms, None)
    }

    /// A meter whose own spending is limited to `limit` units (`None`: only the enclosing
    /// limits) and whose charges count against this one too.
    pub fn sub(&self, limit: Option<u64>) -> Meter {
        Meter { level: Arc::new(Level { spent: AtomicU64::new(0), limit, parent: Some(self.level.clone()) }), shared: self.shared.clone() }
    }

    /// Charges `units` of work to this meter and every enclosing one.
    pub fn charge(&self, units: u64) {
        let mut level = Some(&self.level);
        while let Some(l) = level {
            l.spent.fetch_add(units, Ordering::Relaxed);
            level = l.parent.as_ref();
        }
    }

    /// Units charged to this meter so far.
    pub fn spent(&self) -> u64 {
        self.level.spent.load(Ordering::Relaxed)
    }

    /// This meter's own limit.
    pub fn limit(&self) -> Option<u64> {
        self.level.limit
    }

    /// Units left before this meter or an enclosing one is spent (`None`: unlimited).
    pub fn remaining(&self) -> Option<u64> {
        let mut left: Option<u64> = None;
        let mut level = Some(&self.level);
        while let Some(l) = level {
            if let Some(limit) = l.limit {
                let here = limit.saturating_sub(l.spent.load(Ordering::Relaxed));
                left = Some(left.map_or(here, |x| x.min(here)));
            }
            level = l.parent.as_ref();
        }
        left
    }

    /// Milliseconds since the root meter was made (for statistics only, never for decisions).
    pub fn elapsed_ms(&self) -> u64 {
        self.shared.started.elapsed().as_millis() as u64
    }

    /// Why to stop now, if so: a spent work budget (this meter's or an enclosing one's), a
    /// memory estimate over the limit, or the safety clock.
    pub fn stopped(&self) -> Option<Exhausted> {
        let mut level = Some(&self.level);
        while let Some(l) = level {
            if let Some(limit) = l.limit {
                if l.spent.load(Ordering::Relaxed) >= limit {
                    return Some(Exhausted::Work { limit });
                }
            }
            level = l.parent.as_ref();
        }
        match self.shared.tripped.load(Ordering::Relaxed) {
            TRIPPED_MEMORY => return Some(self.memory_stop()),
            TRIPPED_CLOCK => return Some(self.clock_stop()),
            _ => {}
        }
        if let Some(ms) = self.shared.time_limit_ms {
            if self.elapsed_ms() >= ms {
                self.shared.tripped.store(TRIPPED_CLOCK, Ordering::Relaxed);
                return Some(self.clock_stop());
            }
        }
        None
    }

    /// Whether to stop now ([`Meter::stopped`] is `Some`).
    pub fn exhausted(&self) -> bool {
        self.stopped().is_some()
    }

    /// Whether the run was stopped by the safety clock (at any level).
    pub fn stopped_by_clock(&self) -> bool {
        self.shared.tripped.load(Ordering::Relaxed) == TRIPPED_CLOCK
    }

    /// The memory stop, if the estimate passed the limit.
    pub fn memory_exhausted(&self) -> Option<Exhausted> {
        (self.shared.tripped.load(Ordering::Relaxed) == TRIPPED_MEMORY).then(|| self.memory_stop())
    }

    /// Reports the estimated size in bytes of one structure the caller keeps; past the memory
    /// limit the run stops ([`Exhausted::Memory`]). Returns whether it is within the limit.
    pub fn note_memory(&self, estimate_bytes: u64) -> bool {
        let before = self.shared.memory_peak.load(Ordering::Relaxed);
        let tripped = self.shared.tripped.load(Ordering::Relaxed) == TRIPPED_MEMORY;
        if estimate_bytes > before && !tripped {
            self.shared.memory_peak.store(estimate_bytes, Ordering::Relaxed);
        }
        match self.shared.memory_limit {
            Some(limit) if estimate_bytes > limit => {
                if self.shared.tripped.load(Ordering::Relaxed) != TRIPPED_CLOCK {
                    self.shared.tripped.store(TRIPPED_MEMORY, Ordering::Relaxed);
                }
                false
            }
            _ => true,
        }
    }

    /// The largest memory estimate reported so far, in bytes.
    pub fn memory_peak(&self) -> u64 {
        self.shared.memory_peak.load(Ordering::Relaxed)
    }

    fn memory_stop(&self) -> Exhausted {
        Exhausted::Memory { estimate_bytes: self.shared.memory_peak.load(Ordering::Relaxed), limit_bytes: self.shared.memory_limit.unwrap_or(0) }
    }

    fn clock_stop(&self) -> Exhausted {
        Exhausted::Clock { limit_ms: self.shared.time_limit_ms.unwrap_or(0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_meters_charge_their_parents_and_stop_at_the_tighter_limit() {
        let root = Meter::new(Some(100));
        let part = root.sub(Some(30));
        part.charge(20);
        assert_eq!(root.spent(), 20);
        assert_eq!(part.remaining(), Some(10));
        assert_eq!(part.stopped(), None);
        part.charge(10);
        assert_eq!(part.stopped(), Some(Exhausted::Work { limit: 30 }));
        assert_eq!(root.stopped(), None);
        let rest = root.sub(None);
        rest.charge(70);
        assert_eq!(rest.stopped(), Some(Exhausted::Work { limit: 100 }));
    }

    #[test]
    fn the_clock_and_the_memory_estimate_say_why_they_stopped() {
        let clock = Meter::with_time_limit(None, Some(0));
        let stop = clock.stopped().expect("a zero time limit has passed");
        assert!(!stop.is_deterministic());
        assert!(stop.to_string().contains("results may differ elsewhere"), "{stop}");
        assert!(clock.sub(None).stopped_by_clock());
        let memory = Meter::with_limits(None, None, Some(1 << 20));
        assert!(memory.note_memory(1000));
        assert_eq!(memory.stopped(), None);
        assert!(!memory.note_memory(3 << 20));
        let stop = memory.sub(Some(5)).stopped().expect("the estimate passed the limit");
        assert!(stop.is_deterministic());
        assert!(stop.to_string().contains("about 3 MB (limit 1 MB)"), "{stop}");
    }

    #[test]
    fn meters_compare_equal_and_unlimited_ones_never_stop() {
        let a = Meter::default();
        a.charge(u64::MAX / 2);
        assert_eq!(a, Meter::new(Some(1)));
        assert_eq!(a.stopped(), None);
        assert_eq!(a.remaining(), None);
    }
}
