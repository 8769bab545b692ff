//! The examples gallery: the seed papers' programs and a few classic lock/driver programs,
//! each with a short description and a lab note (markdown) for course labs.

use crate::types::{Mode, RefineMethod, Technique};

/// One gallery entry.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    pub mode: Mode,
    /// Two lines: what the program is and what to look at.
    pub description: &'static str,
    pub source: &'static str,
    pub predicates: &'static str,
    /// A guided exercise: what to predict, what to click, what to observe.
    pub lab_note: &'static str,
    /// The settings the lab note assumes (opening the example selects them).
    pub techniques: &'static [Technique],
    pub refine: RefineMethod,
}

/// The textbook CEGAR loop alone.
const TEXTBOOK: &[Technique] = &[Technique::Cegar];
/// Every technique of the portfolio.
const PORTFOLIO: &[Technique] = &Technique::ALL;

// The seed programs that golden tests also read (c-front, abstraction) are kept once, in
// `tests/programs/`, and so are the predicate files the golden tests use
// (`tests/abstraction/NAME.preds`). Keep their text stable: the browser tests and lab notes
// cite line numbers.
pub const PARTITION: &str = include_str!("../../../tests/programs/partition.c");

pub const PARTITION_PREDICATES: &str = include_str!("../../../tests/abstraction/partition.preds");

pub const FOO_BAR: &str = include_str!("../../../tests/programs/foo_bar.c");

pub const FOO_BAR_PREDICATES: &str = include_str!("../../../tests/abstraction/foobar.preds");

pub const INC_FOO: &str = include_str!("../../../tests/programs/inc_foo.c");

pub const INC_FOO_MONO_PREDICATES: &str = include_str!("../../../tests/abstraction/inc_mono.preds");

pub const INC_FOO_POLY_PREDICATES: &str = "inc {\n  x == 'x + 1\n}\n\nfoo {\n  a == 2,\n  b == 3,\n  c == 4\n}\n";

pub const SWAP: &str = include_str!("../../../tests/programs/swap.c");

pub const SWAP_PREDICATES: &str = include_str!("../../../tests/abstraction/swap.preds");

pub const INC_DEREF: &str = include_str!("../../../tests/programs/inc_deref.c");

pub const INC_DEREF_PREDICATES: &str = include_str!("../../../tests/abstraction/inc_deref.preds");

pub const STRUCT_COUNTER: &str = include_str!("../../../tests/struct-pointers/counter.c");

pub const INCREMENT: &str = include_str!("../../../tests/programs/increment.c");

pub const INCREMENT_PREDICATES: &str = include_str!("../../../tests/abstraction/increment.preds");

pub const TESTDEV: &str = include_str!("../../../tests/programs/testdev.c");

pub const TESTDEV_FIXED: &str = include_str!("../../../tests/programs/testdev_fixed.c");

pub const COUNTING_LOOP: &str = include_str!("../../../tests/programs/counting_loop.c");

pub const MARK: &str = include_str!("../../../tests/programs/mark.c");

pub const MARK_PREDICATES: &str = "mark {\n  this == 0,\n  prev == 0,\n  this->mark == 1,\n  prev->mark == 1\n}\n";

// C2BP Table 2 (§6.2): the programs and the paper's predicate files, kept once
// (`tests/programs/NAME.c`, `tests/abstraction/NAME.preds`; the golden tests and
// `bench_wasm::abstraction_bench` read the same files). Reverse is Fig 3's `mark` with the
// `h`/`hnext` instrumentation and the paper's 7 predicates.
pub const KMP: &str = include_str!("../../../tests/programs/kmp.c");
pub const KMP_PREDICATES: &str = include_str!("../../../tests/abstraction/kmp.preds");
pub const QSORT: &str = include_str!("../../../tests/programs/qsort.c");
pub const QSORT_PREDICATES: &str = include_str!("../../../tests/abstraction/qsort.preds");
pub const LISTFIND: &str = include_str!("../../../tests/programs/listfind.c");
pub const LISTFIND_PREDICATES: &str = include_str!("../../../tests/abstraction/listfind.preds");
pub const REVERSE: &str = include_str!("../../../tests/programs/reverse.c");
pub const REVERSE_PREDICATES: &str = include_str!("../../../tests/abstraction/reverse.preds");

pub const LOCK: &str = include_str!("../../../tests/programs/lock.c");

pub const DRIVER_STATE: &str = include_str!("../../../tests/programs/driver_state.c");

pub const BOOLEAN_PROGRAM: &str = include_str!("../../../tests/programs/recursion_parity.bp");

// Hide mode (seed 003, abC) and Shape mode (seed 004): copies of the crates' test programs,
// kept stable for the browser tests and the lab notes.
pub const HIDE_APPENDIX: &str = include_str!("../../../tests/programs/hide_appendix.c");
pub const HIDE_TR_FRAGMENT: &str = include_str!("../../../tests/programs/hide_tr_fragment.c");
pub const HIDE_SPURIOUS: &str = include_str!("../../../tests/programs/hide_spurious.c");
pub const HIDE_POINTER_CHAIN: &str = include_str!("../../../tests/programs/hide_pointer_chain.c");
pub const HIDE_DRIVER: &str = include_str!("../../../tests/programs/hide_driver.c");
pub const SHAPE_INSERT: &str = include_str!("../../../tests/programs/shape_insert.c");
pub const SHAPE_REVERSE: &str = include_str!("../../../tests/programs/shape_reverse.c");
pub const SHAPE_TRAVERSE: &str = include_str!("../../../tests/programs/shape_traverse.c");
pub const SHAPE_PUSH_CYCLE: &str = include_str!("../../../tests/programs/shape_push_cycle.c");

/// The whole gallery, in the order the UI lists it.
pub const ALL: &[Example] = &[
    Example {
        id: "testdev",
        title: "testdev driver (buggy)",
        mode: Mode::Check,
        description: "BOOP ch. 3: a Linux driver that increments its use count even when open fails.\nRun it and step through the iterations: predicates about locked and the return value appear until the two-opens trace is found.",
        source: TESTDEV,
        predicates: "",
        lab_note: "## testdev\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop; opening the example selects it), refinement *wp*.\n\n**Predict.** The program opens the device at `A` and again at `B` without closing it. Will `unregister_chrdev` see a non-zero use count?\n\n**Click.** *Run* (Ctrl+Enter), then click iteration 1 in the timeline. Open the trace view.\n\n**Observe.** Iteration 1 only knows the predicate from the `assert`; every path is possible, so the abstract counterexample is spurious. Which statement makes its feasibility check fail (BOOP Fig 7.3)? Which predicates are added? In the last iteration the counterexample is real: read the concrete inputs and the replayed C trace.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "testdev-fixed",
        title: "testdev driver (fixed)",
        mode: Mode::Check,
        description: "The same driver with MOD_INC_USE_COUNT moved after locked = TRUE.\nThe verdict is SAFE: look at the invariants the final boolean program proves.",
        source: TESTDEV_FIXED,
        predicates: "",
        lab_note: "## testdev, fixed\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop; opening the example selects it), refinement *wp*.\n\n**Predict.** Which predicates does the proof need? (Think of `usecount` and `locked`.)\n\n**Click.** *Run*, then open the invariants view of the last iteration.\n\n**Observe.** The invariant at the entry of `unregister_chrdev` contains `usecount == 0`: every open was released before the driver is unregistered. At the entry of `testdev_read` it contains `usecount - 1 == 0`: exactly one open is active while the device is read. Compare the number of iterations with the buggy version.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "partition",
        title: "partition (C2BP Fig. 1)",
        mode: Mode::Abstract,
        description: "C2BP's running example: abstracting list partition with four predicates.\nCompare the boolean program with Fig. 1(b) and read the invariant at label L.",
        source: PARTITION,
        predicates: PARTITION_PREDICATES,
        lab_note: "## partition\n\n**Predict.** What does `prev = curr` do to `{prev==NULL}`? What does `curr = nextCurr` do to `{curr==NULL}`?\n\n**Click.** *Run* in Abstract mode. Hover the boolean line of `prev = curr`; open the cube lattice for `{prev==NULL}`.\n\n**Observe.** The cube `{curr==NULL}` implies the weakest precondition, its negation implies the negated one: `choose({curr==NULL}, !{curr==NULL})`. For `curr = nextCurr` no cube works: the predicate becomes unknown. The invariant at `L` is `{curr!=NULL} && {curr->val>v} && ({prev->val<=v} || {prev==NULL})`.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "foo-bar",
        title: "foo / bar (C2BP Fig. 2)",
        mode: Mode::Abstract,
        description: "C2BP §4: aliasing in *p = *p + x, and how a call is abstracted with prm/ret and the update of E_u.\nLook at the call r = bar(p, x).",
        source: FOO_BAR,
        predicates: FOO_BAR_PREDICATES,
        lab_note: "## foo / bar\n\n**Predict.** Can `*p` alias `x` in `*p = *p + x`? What is `WP(*p = *p + x, *p <= 0)`?\n\n**Click.** *Run* in Abstract mode; select the statement `*p = *p + x` and open the WP view; then select the call `r = bar(p, x)`.\n\n**Observe.** Points-to analysis rules out the alias case, so the WP is `*p + x <= 0`, strengthened to `{*p<=0} && {x==0}`. At the call, the actual-parameter predicates `prm` are computed from `bar`'s formal predicates `E_f`, and `{*p<=0}` and `{r==0}` are updated from the return predicates.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "inc-foo-poly",
        title: "inc / foo (polymorphic)",
        mode: Mode::Abstract,
        description: "Polymorphic predicate abstraction §2: one predicate x == 'x + 1 serves every call of inc.\nSwitch to the monomorphic predicates in the comment and compare.",
        source: INC_FOO,
        predicates: INC_FOO_POLY_PREDICATES,
        lab_note: "## inc / foo\n\n**Predict.** With the monomorphic predicates `x==2, x==3, x==4`, can the abstraction prove `c == 4` when `a == 2`?\n\n**Click.** *Run* in Abstract mode with the polymorphic predicate, then replace it with the monomorphic set and run again.\n\n**Observe.** With `x == 'x + 1`, the call `b = inc(a)` becomes `{b==3} := choose({a==2} && ret, ...)`: the symbolic constant `'x` is bound to the actual at each call site.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "inc-foo-mono",
        title: "inc / foo (monomorphic)",
        mode: Mode::Abstract,
        description: "Polymorphic predicate abstraction §2, the monomorphic way: inc gets one predicate per value it is called with.\nCompare with inc / foo (polymorphic): same verdict, more predicates.",
        source: INC_FOO,
        predicates: INC_FOO_MONO_PREDICATES,
        lab_note: "## inc / foo, monomorphic\n\n**Settings.** Abstract mode with the predicates shown (`inc { x == 2, x == 3, x == 4 }`).\n\n**Predict.** `foo` calls `inc` twice, with 2 and then 3. Which predicates must `inc` have so that `c == 4` follows from `a == 2`?\n\n**Click.** *Run*. Read `inc`'s boolean program, then open the invariants view.\n\n**Observe.** `inc` needs a predicate for each value it sees: its assignment is `{x == 2}, {x == 3}, {x == 4} := choose(0, ...), {x == 2}, {x == 3}`, which shifts the values by one. The verdict is SAFE and the invariant at `L1` in `foo` contains `{a == 2} && {b == 3} && {c == 4}`. A third call with 4 would need a fourth predicate; the polymorphic example needs one predicate, `x == 'x + 1`, for every call.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "swap",
        title: "swap (polymorphic Figs 5, 6)",
        mode: Mode::Abstract,
        description: "Polymorphic predicate abstraction §5: swap through pointers, summarised with the symbolic constants '*p and '*q.\nThe caller reads the summary at its call with x and y.",
        source: SWAP,
        predicates: SWAP_PREDICATES,
        lab_note: "## swap\n\n**Settings.** Abstract mode with the predicates shown: `t == '*p`, `*'p == '*q`, `*'q == '*p` in `swap`.\n\n**Predict.** `'*p` is the value `*p` had at entry; `*'p` is the cell `p` pointed to at entry, read now. Which of the two does the caller know at its call `swap(&x, &y)`?\n\n**Click.** *Run*. Read `swap`'s return line and `main`'s line after the call.\n\n**Observe.** `swap` returns six bits: besides the three predicates, the abstraction adds `*'p == '*p`, `p == 'p`, `*'q == '*q` and `q == 'q` (§5.3: what the callee may change about the cells its pointers reached at entry). At the call, `'*p` becomes `x`'s value before the call and `*'p` becomes `x`, so `{x == 5}` gets `choose({y == 5} & ret1 | {x == 5} & ret3, ...)`. The assertion cannot fail: the verdict is SAFE.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "inc-deref",
        title: "'*p vs *'p (polymorphic §5.4)",
        mode: Mode::Abstract,
        description: "Two symbolic constants for one pointer: '*p is the value at entry, *'p the entry cell now.\nOne predicate, *p == '*p + 1, summarises inc(&x) for the caller.",
        source: INC_DEREF,
        predicates: INC_DEREF_PREDICATES,
        lab_note: "## '*p and *'p\n\n**Settings.** Abstract mode with `inc { *p == '*p + 1 }`.\n\n**Predict.** After `*p = *p + 1`, is `*p == '*p + 1` true? What must hold for the caller to read it as `x == 2`?\n\n**Click.** *Run*. Read `inc`'s declarations and its return line.\n\n**Observe.** The abstraction adds `*'p == '*p` and `p == 'p` to the predicate: the caller can only use `*p == '*p + 1` about `x` when `p` still points to the cell it pointed to at entry (`p == 'p`), and `*'p == '*p` holds before the increment. Main's update after the call gives `{x == 2}` the value `choose({x == 1} & ret1 | {x == 2} & ret2, ...)`. The verdict is SAFE.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "struct-counter",
        title: "a counter struct through a pointer",
        mode: Mode::Check,
        description: "bump(&k, d) adds d to k.value only while it stays within k.limit; main then checks k.value <= k.limit.\nRefinement names the fields through the pointer in bump: c->value > c->limit.",
        source: STRUCT_COUNTER,
        predicates: "",
        lab_note: "## a counter through a pointer\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop; opening the example selects it), refinement *wp*.\n\n**Predict.** `main` knows `k.value > k.limit` is false before the call. `bump` may write `k.value` through `c`. What must `bump`'s boolean program know for the call to keep the fact?\n\n**Click.** *Run*, then click each iteration in the timeline and read its new predicates.\n\n**Observe.** The verdict is SAFE after 4 iterations. The WP condition `k.value > k.limit` passes through `bump` unchanged on the path that skips the update; refinement rewrites it in `bump`'s own terms, `c->value > c->limit` (and `'c->value > 'c->limit` over the symbolic constant `'c`, the pointer at entry). These are return predicates (C2BP §4.5): the call updates `{k.value > k.limit}` from them. The loop-head invariant in `main` is `k.value <= k.limit`.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "increment",
        title: "x = x + 1 with {x<5}, {x==2}",
        mode: Mode::Abstract,
        description: "Polymorphic paper §4.3: after x = x + 1, {x<5} is implied by {x==2}.\nOpen the cube lattice of the assignment for {x<5}.",
        source: INCREMENT,
        predicates: INCREMENT_PREDICATES,
        lab_note: "## x = x + 1\n\n**Predict.** Which cubes over `{x<5}` and `{x==2}` imply `x + 1 < 5`?\n\n**Click.** *Run*, select `x = x + 1`, open the lattice for `{x<5}`.\n\n**Observe.** `{x==2}` is proven (so is `{x<5}` alone? no: `x = 4` is a counterexample); the result is `choose({x==2}, ...)`.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "counting-loop",
        title: "counting loop (BOOP §7.4)",
        mode: Mode::Check,
        description: "while (i < K) i = i + 1, then assert(i == K). Settings: techniques = cegar only.\nWith NEWTON (sp) each refinement learns one more value of i; with wp one predicate generalises.",
        source: COUNTING_LOOP,
        predicates: "",
        lab_note: "## counting loop\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop); refinement *sp* (NEWTON), then *wp*.\n\n**Predict.** How many iterations does the loop need for K = 4? For K = 100?\n\n**Click.** *Run* with sp and count the timeline entries (K = 4: 4 iterations, predicates `i == 0`, `i == 1`, `i == 2`, `i == 3`). Set K to 100 and the iteration bound (Settings) to 10, and run again: UNKNOWN at the iteration bound, with one new value of `i` per iteration (BOOP §7.4).\n\n**Then.** Switch the refinement to *wp* and run K = 100: SAFE after 3 iterations. The weakest precondition of the loop exit `i >= K` through `i = i + 1` is `i + 1 >= K`, and with it the abstraction proves `i <= K` at the loop head, whatever K is.\n\n**Portfolio.** With all techniques the program is SAFE at once: the verdict names the technique that decided it.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Sp,
    },
    Example {
        id: "mark",
        title: "mark (C2BP Fig. 3, as printed)",
        mode: Mode::Abstract,
        description: "Marking a list by pointer reversal, abstracted with heap predicates (Fig. 3 without the h/hnext instrumentation: the paper's check is the entry reverse).\nLook at which assignments become unknown and why.",
        source: MARK,
        predicates: MARK_PREDICATES,
        lab_note: "## mark\n\n**Predict.** Which statements of the traversal can change `{this->mark==1}`?\n\n**Click.** *Run* in Abstract mode; hover `prev->next = tmp` and open its WP view.\n\n**Observe.** Morris' rule considers whether `prev->next` may alias `this`, `prev` or their fields; the points-to analysis decides which cases remain.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "kmp",
        title: "kmp (C2BP Table 2)",
        mode: Mode::Abstract,
        description: "Knuth-Morris-Pratt string matching (C2BP §6.2): an array bounds check proved with 4 predicates, index >= 0 and index < length.\nCompare the prover calls with Table 2.",
        source: KMP,
        predicates: KMP_PREDICATES,
        lab_note: "## kmp (C2BP Table 2)\n\n**Settings.** Abstract mode, strategy *exact* (the default), the 4 predicates of `tests/abstraction/kmp.preds`: `0 <= i`, `i < n`, `0 <= j`, `j < m`.\n\n**Predict.** C2BP §6.2: for an array indexed in a loop, \"we simply had to model the bounds index ≥ 0 and index ≤ length(a)\". The `assert` at the top of the search loop is the bounds check of `str[i]`. Which of the 4 predicates does its proof need, and which loop invariant carries them?\n\n**Click.** *Run*. Read the invariants view in the search loop and the timeline entry (its `solver calls` are the prover calls below). Then set the strategy to *lattice* (Settings) and run again.\n\n**Observe.** SAFE: in the search loop the invariant is `{0 <= i} && {i < n}`. C2BP's Table 2 beside this tool (times are not pinned; see below):\n\n- C2BP, Table 2: 75 lines, 4 predicates, 286 prover calls, 7 s: loop invariant.\n- predabs, exact: 29 lines, 4 predicates, 305 prover calls, 0 cache hits: SAFE.\n- predabs, lattice: 29 lines, 4 predicates, 297 prover calls, 729 cache hits: SAFE.\n\n**Why they differ.** The paper does not print its kmp (Necula's); ours is a rewrite with the same kind of predicates, so the line counts differ. C2BP asks its theorem prover one implication per cube, pruned by the cone of influence (§5.2); the *lattice* strategy is that search, and the implications it answers from counter-models of earlier queries (cache hits) cost no call. The *exact* strategy enumerates the valuations of each cone with a SAT solver: it counts enumeration steps, not implications. Time: C2BP called an external prover per query on a 2001 machine; here the bit-precise solver runs in-process; the *Solver* tab shows the milliseconds (machine-dependent, so not pinned).\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "qsort",
        title: "qsort (C2BP Table 2)",
        mode: Mode::Abstract,
        description: "The partition loop of quicksort (C2BP §6.2) with Table 2's 2 predicates: not enough for our bounds check.\nThe lab note gives the 7 predicates that prove it.",
        source: QSORT,
        predicates: QSORT_PREDICATES,
        lab_note: "## qsort (C2BP Table 2)\n\n**Settings.** Abstract mode, strategy *exact* (the default), Table 2's 2 predicates (`tests/abstraction/qsort.preds`): `lo - 1 <= i`, `i < j`.\n\n**Predict.** The partition loop checks `a[i]` against the array's length: `assert(0 <= i && i < 100)`. Are two predicates over `i` and `j` enough?\n\n**Click.** *Run* and read the abstract counterexample. Then replace the predicates with these 7 and run again:\n\n`qsort_partition { lo - 1 <= i, i < j, i <= j, lo <= i, 0 <= lo, j < hi, hi < 100 }`\n\n**Observe.** With the 2 predicates the error is reachable in the boolean program: UNKNOWN. The assumption `0 <= lo && lo < hi && hi < 100` names no predicate, so `lo >= 0` and `hi < 100` are forgotten; even `{i < j}` after `i = lo - 1; j = lo` is `*` (with 32-bit wrap-around `lo - 1` overflows when `lo` is the smallest int). And `i < j` does not survive the loop body statement by statement: after `i = i + 1` only `i <= j` holds, and `j++` gives `i < j` back only from `i <= j`. With the 7 predicates the verdict is SAFE; leaving out any one of them makes it UNKNOWN again.\n\n- C2BP, Table 2: 45 lines, 2 predicates, 199 prover calls, 5 s: loop invariant.\n- predabs, exact: 21 lines, 2 predicates, 112 prover calls, 0 cache hits: UNKNOWN.\n- predabs, exact, 7 predicates: 21 lines, 7 predicates, 1490 prover calls, 0 cache hits: SAFE.\n\n**Why they differ.** The paper does not print its qsort (Necula's), only that the bounds `index ≥ 0` and `index ≤ length(a)` sufficed. Our rewrite takes `lo` and `hi` as parameters and checks against the declared length 100, so the precondition and the loop bound must be predicates too. Prover calls: see kmp (the exact strategy counts enumeration steps). Time: milliseconds here (the *Solver* tab), not pinned.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "listfind",
        title: "listfind (C2BP Table 2)",
        mode: Mode::Abstract,
        description: "Searching a list for a value (C2BP §6.2): the found cell holds the value, with 6 pointer predicates.\nCompare the prover calls with Table 2.",
        source: LISTFIND,
        predicates: LISTFIND_PREDICATES,
        lab_note: "## listfind (C2BP Table 2)\n\n**Settings.** Abstract mode, strategy *exact* (the default), the 6 predicates of `tests/abstraction/listfind.preds`: `curr == NULL`, `found == NULL`, `curr->val == v`, `found->val == v`, `found == curr`, `l == NULL`.\n\n**Predict.** At `assert(found->val == v)`, what must the boolean program know about `found`? Which statement establishes it, and which predicate carries it past `break`?\n\n**Click.** *Run*. Hover `found = curr` and read its assignment; read the invariant before the assertion. Then set the strategy to *lattice* and run again.\n\n**Observe.** SAFE: `found = curr` becomes `{found == NULL}, {found->val == v}, {found == curr} := {curr == NULL}, {curr->val == v}, 1`, and the invariant where `found` is not NULL contains `{found->val == v}`.\n\n- C2BP, Table 2: 37 lines, 6 predicates, 4412 prover calls, 172 s: loop invariant.\n- predabs, exact: 22 lines, 6 predicates, 173 prover calls, 0 cache hits: SAFE.\n- predabs, lattice: 22 lines, 6 predicates, 304 prover calls, 3270 cache hits: SAFE.\n\n**Why they differ.** Our listfind is a rewrite (the paper does not print it). The lattice strategy asks fewer implications than C2BP's 4412 prover calls (calls plus cache hits) and answers most of them from the counter-models of earlier queries. The exact strategy enumerates the valuations of each cone instead of asking one implication per cube. Time: milliseconds here (the *Solver* tab), not pinned.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "reverse",
        title: "reverse: mark with h/hnext (C2BP Fig. 3)",
        mode: Mode::Abstract,
        description: "C2BP §6.2 in its paper form: mark instrumented with h and hnext, the paper's 7 predicates, h->next == hnext asserted.\nThe paper proves it; here the boolean program reaches the error: the lab note says where.",
        source: REVERSE,
        predicates: REVERSE_PREDICATES,
        lab_note: "## reverse: mark with h/hnext (C2BP Fig. 3, Table 2)\n\n**Settings.** Abstract mode, strategy *exact* (the default), the paper's 7 predicates (`tests/abstraction/reverse.preds`): `h == 0`, `prev == h`, `this == h`, `this->next == hnext`, `prev == this`, `h->next == hnext`, `hnext->next == h`.\n\n**The program.** Table 2's reverse is Fig. 3's `mark` (\"a simplified version of a mark-and-sweep garbage collector. We show the program in Figure 3\"), with the paper's instrumentation: `h` walks from `list` a nondeterministic number of steps (any non-null cell), `hnext = h->next`, and the property `h->next == hnext` is asserted at the end.\n\n**Predict.** The paper: \"BEBOP shows that at the end of the mark procedure, h->next = hnext holds.\" On the way back, `this->next = tmp` restores `h->next` when `this == h`. What must hold of `tmp` then, and is it one of the 7 predicates?\n\n**Click.** *Run*, read the abstract counterexample, then hover `this = list` (line 20) and `this->next = tmp` (line 36). Then set the precision to *boolean* (Settings) and run again.\n\n**Observe.** The error is reachable in the boolean program: UNKNOWN. We do not reproduce the paper's result. Three statements lose what the proof needs:\n\n- `this = list` (line 20) becomes `{this == h}, {this->next == hnext}, {prev == this} := *, *, *`: after the walk no predicate relates `list` and `h`.\n- `while (prev != 0)` (line 32) becomes `assume({h == NULL} => !{prev == h})`: no predicate says `prev == 0`, so the back loop may run on.\n- `this->next = tmp` (line 36) assigns `{h->next == hnext}` the value `choose(!{this == h} & {h->next == hnext}, !{this == h} & !{h->next == hnext})`: when `this == h` the result depends on `tmp == hnext`, which no predicate states.\n\nThe boolean (non-cartesian) precision gives the same UNKNOWN, so the loss is in the predicates, not in C2BP's cartesian approximation.\n\n**More predicates.** The step the paper's proof needs at line 36 is `tmp == hnext` whenever `this == h`, i.e. `this == hnext` on the back loop's iteration before (where `prev == h`). Adding `tmp == hnext`, `this == hnext`, `prev == hnext`, `tmp == h`, `prev == 0` and `this == 0` (13 predicates) still leaves the error reachable: the counterexample becomes the list whose first cell is `h` and whose `hnext` is NULL, a case no predicate names (`list == h`, `hnext == NULL`). The CEGAR loop (`predabs check reverse.c --entry mark --techniques cegar --predicates P`) then adds `list == h`, `hnext == NULL` and 6 more in iteration 1, `prev->next == NULL` and `tmp == NULL` in iteration 2, 42 more in iteration 3 (chains such as `list->next->next == hnext`, and `this->mark == 1`), and iteration 4 does not finish model checking 65 predicates within 300 s. From the 7 predicates alone it adds `prev == NULL` first and stops at the 60 s limit after 3 iterations. So with C2BP's statement-by-statement abstraction, the 7 predicates can prove `h->next == hnext` only on paths where `h` is not the first cell, `hnext` is not NULL and the back loop does not start from `prev == 0`: the paper's instrumentation (not printed) must exclude them; which way it does, we cannot tell.\n\n- C2BP, Table 2: 73 lines, 7 predicates, 26769 prover calls, 747 s: h->next == hnext proved.\n- predabs, exact: 37 lines, 7 predicates, 2991 prover calls, 0 cache hits: UNKNOWN.\n- predabs, lattice: 37 lines, 7 predicates, 4302 prover calls, 107450 cache hits: UNKNOWN.\n- predabs, exact, boolean precision: 37 lines, 7 predicates, 4040 prover calls, 0 cache hits: UNKNOWN.\n\n**Why they differ.** Not the bit-precise semantics: the program has no arithmetic (pointer equalities and stores only), and with `--integers ideal` (the papers' integers) the boolean program is the same line for line. Not C2BP's cartesian approximation either: the boolean precision, which abstracts each statement by all valuations of its cone at once, reaches the error too. The loss is in the predicates. At line 36 with `this == h`, `{h->next == hnext}` becomes `tmp == hnext`; `tmp` is the `this` of the iteration before, so the fact needed there is `this == hnext` one back-loop iteration earlier, which none of the 7 predicates (equalities among `h`, `prev`, `this` and the `next` fields of `this`, `h`, `hnext`) states; after the walk, `this = list` likewise leaves every predicate about `this` unknown. So with these 7 predicates our program is not proved even by the most precise abstraction of each statement; the paper's instrumented program, which it does not print, must differ from ours (for instance by choosing `h` during the forward traversal, when `this == h` holds by construction). The prover calls: C2BP §6.2 notes that in reverse \"every pair of pointers could potentially alias\", so the cones are large; the lattice here asks more implications than C2BP's 26769 prover calls (calls plus cache hits) but answers all but 4302 from the counter-models of earlier queries. Time: the *Solver* tab shows milliseconds to a second here (machine-dependent, so not pinned).\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "lock",
        title: "lock discipline",
        mode: Mode::Check,
        description: "SLAM's classic property: a lock is never acquired twice or released while free.\nThe loop's correlation between got and locked must be discovered.",
        source: LOCK,
        predicates: "",
        lab_note: "## lock discipline\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop; opening the example selects it), refinement *wp*.\n\n**Predict.** Which predicates does CEGAR need? (Hint: the loop exits when `got == 0`.)\n\n**Click.** *Run*, then look at the predicates added in each iteration.\n\n**Observe.** `locked != 0` and `got != 0` are discovered; the final invariant at the loop head correlates them.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "driver-state",
        title: "driver state machine (buggy)",
        mode: Mode::Check,
        description: "A request that can be completed twice when retries > 1.\nThe verdict is UNSAFE with a concrete value of retries.",
        source: DRIVER_STATE,
        predicates: "",
        lab_note: "## driver state machine\n\n**Settings.** Techniques: *CEGAR only* (the textbook loop; opening the example selects it), refinement *wp*.\n\n**Predict.** Which value of `retries` reaches the error?\n\n**Click.** *Run*, then read the concrete inputs and the C trace.\n\n**Observe.** The solver's model gives `retries` a value greater than 1; the interpreter replays it to `reach_error()`.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "boolean-program",
        title: "a boolean program",
        mode: Mode::BooleanProgram,
        description: "Boolean programs are a language of their own: recursion, globals, nondeterminism.\nModel check it and read the trace: how deep is the recursion?",
        source: BOOLEAN_PROGRAM,
        predicates: "",
        lab_note: "## a boolean program\n\n**Predict.** `g` flips at every level of recursion. For which depths does the assertion fail?\n\n**Click.** *Run* in Boolean program mode; read the trace with the valuations.\n\n**Observe.** The shortest counterexample recurses once: the summary of `rec` is computed once and reused at every call site.\n",
        techniques: PORTFOLIO,
        refine: RefineMethod::Wp,
    },
    // ---- Hide mode (abC variable hiding): `predicates` is the abstraction file ----
    Example {
        id: "hide-appendix",
        title: "abC: NamedPoint (appendix)",
        mode: Mode::Hide,
        description: "abC's appendix program: hide move's parameter d and infer what else must go.\nPress Step four times and read the log; then look at the NONDET program.",
        source: HIDE_APPENDIX,
        predicates: "move d\n",
        lab_note: "## abC: NamedPoint (appendix)\n\n**Settings.** Abstraction file `move d` (opening the example sets it); footnote 4 off.\n\n**Predict.** `d` is hidden. Which stores read `*d` (rule 1a), and which binding stores a pointer into `d` (rule 2a)? Write down step 1 before pressing Step.\n\n**Click.** *Step* once: the log shows `iteration 1` with three rows, `move xx` and `move yy` (line 6, rule 1a) and `(global) i` (line 16, rule 2a: `d = &i` with `d` hidden). Click a row's line to select it in the program. Press *Step* until the set is closed: four steps infer something, the fifth says `(closed: no new inferences)`; 11 variables are hidden.\n\n**Observe.** Click `(global) nametab` for why(v): it goes back through line 8 to `(global) i` and to `d` in the initial file. The warning on line 18 is the paper's: `printf` has no body. Open *Transformed program*: the stores into hidden variables are gone and abstract tests and values read `NONDET`.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "hide-tr-fragment",
        title: "abC: the tr fragment",
        mode: Mode::Hide,
        description: "The paper's example of the transformation tr with a, m and n hidden.\nPredict the output, then compare with the transformed program.",
        source: HIDE_TR_FRAGMENT,
        predicates: "(global) a\n(global) m\nfragment n\n",
        lab_note: "## abC: the tr fragment\n\n**Settings.** Abstraction file `(global) a`, `(global) m`, `fragment n`.\n\n**Predict.** What does `tr` make of `if (k < m) { int n; a[i++] = b[j++] = ( n = k++, k ); }`? Which side effects must stay?\n\n**Click.** *To closure* (one step: nothing more is inferred), then *Transformed program*.\n\n**Observe.** The paper's result: `if (NONDET) { (i++, b[j++] = (k++, k)); }`. The test `k < m` reads the hidden `m`, so it becomes `NONDET`; the store into `a` is removed but `i++` stays; `n` is removed with its store and `k++` stays.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "hide-spurious",
        title: "abC: hiding the property's variable",
        mode: Mode::Hide,
        description: "Hiding a, the variable the assertion reads: the hidden program can fail, the original cannot.\nRun the check of both programs and read the replay.",
        source: HIDE_SPURIOUS,
        predicates: "main a\n",
        lab_note: "## abC: hiding the property's variable\n\n**Settings.** Abstraction file `main a`; tick *check both programs*.\n\n**Predict.** `a` is 0 or 1, so `a > 1` never holds. What happens to that test when `a` is hidden?\n\n**Click.** *To closure* with *check both programs* ticked.\n\n**Observe.** The original is SAFE, the hidden program UNSAFE: its test became `NONDET`. The hidden counterexample's inputs replayed on the original do not reach the error: the bug is an artefact of hiding. Hiding names what to forget; forgetting the property's own variable forgets the proof (predicate abstraction, the dual, names what to keep).\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "hide-pointer-chain",
        title: "abC: a pointer chain",
        mode: Mode::Hide,
        description: "Hiding secret hides every pointer that may hold its address, and what is read through them.\nWhy do other and s stay concrete?",
        source: HIDE_POINTER_CHAIN,
        predicates: "(global) secret\n",
        lab_note: "## abC: a pointer chain\n\n**Settings.** Abstraction file `(global) secret`.\n\n**Predict.** `p = &secret; q = p; r = *q + 1;` Which variables must be hidden, and in which step each?\n\n**Click.** *Step* until closed (three steps infer something, the fourth closes the set).\n\n**Observe.** Step 1 hides `main p` (line 9, rule 1a: `&secret` is an abstract value), step 2 `main q`, step 3 `(global) r`. Click `main q`: it may point to `(global) secret` only. `t = &other` never sees secret's address, so `other`, `s` and `t` stay concrete and the check of `s` is kept in the transformed program.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "hide-driver",
        title: "abC: a small driver",
        mode: Mode::Hide,
        description: "Hiding the loop's bookkeeping (requests, budget) and the mode the error depends on.\nWhich of the two verdicts is real?",
        source: HIDE_DRIVER,
        predicates: "(global) requests\n(global) budget\nmain mode\n",
        lab_note: "## abC: a small driver\n\n**Settings.** Abstraction file `(global) requests`, `(global) budget`, `main mode`; tick *check both programs*.\n\n**Predict.** The error needs `status != 0`, and `status` is copied from `mode`. What does hiding `mode` do to that test?\n\n**Click.** *To closure* with *check both programs* ticked.\n\n**Observe.** Step 1 hides `handle req` (line 20) and `main status` (line 25); the set closes at step 2. The original is SAFE; the hidden program is UNSAFE, and its counterexample does not replay on the original: a spurious result. Remove `main mode` from the file and check again: the hidden program is SAFE too, with `requests` and `budget` still hidden (`predabs hide --refine-hiding` finds this file by itself).\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    // ---- Shape mode (shape analysis by iterated WP): settings in `shape::EXAMPLES` ----
    Example {
        id: "shape-insert",
        title: "shape: list insertion (Fig. 1)",
        mode: Mode::Shape,
        description: "Dams-Namjoshi's list insertion: every cell reachable from x before is reachable after.\nStep through the 4 rounds and read the WPs.",
        source: SHAPE_INSERT,
        predicates: "",
        lab_note: "## shape: list insertion (Fig. 1)\n\n**Settings.** Procedure `insert`, property `forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne`, no hints, bound 40.\n\n**Predict.** Go backwards from `ne`: what is the WP of `reach[;n](x,k)` over `x = t`? Over `t->n = x`? Over `t = malloc(...)`?\n\n**Click.** *Analyse*, then step through the rounds with *round* and click each new predicate to read its WP derivation (the store as `M[i <- c]`, the alias cases, the Fig 5 row, the rewrites).\n\n**Observe.** SAFE after 4 rounds with the 4 predicates of the paper: `reach[;n](x,k)`, `reach[;n](t,k)`, `reach[{&(t->n)};n](x,k)` and `k == t`. *Abstract program* shows Fig 2's actions; *Promela* exports it for SPIN.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "shape-reverse",
        title: "shape: in-place reversal (Fig. 6)",
        mode: Mode::Shape,
        description: "Reversing an acyclic list gives an acyclic list.\nWatch the families of predicates grow at n4 and n5; then remove the precondition.",
        source: SHAPE_REVERSE,
        predicates: "",
        lab_note: "## shape: in-place reversal (Fig. 6)\n\n**Settings.** Procedure `reverse`, property `!cyclic[n](y)@n8`, precondition `!cyclic[n](x)@n1`, no hints, bound 12.\n\n**Predict.** Why does the WP of `cyclic` over `x = x->n` give predicates with ever longer `x->n->n...`?\n\n**Click.** *Analyse*: UNKNOWN at the bound, with growing families at n2 to n5 (Families and WP). Then the paper's hints: type `reach[{&(y->n), &(x->n->n)};n](t,x->n)@n5 -> if !dshared[n](t,x) then false else T` into the hints, set the bound to 20, *Analyse*, and add the hint suggested for the family `x == x->n` at n4 (`if !cyclic[n](x) ...`): SAFE. Click a *hinted* pair at n4: its hint's condition reduced it (`reach[{&(x->n)};n](t,x)` is `reach[;n](t,x)` when x is acyclic). Or tick *auto-hints* with no hints, bound 40 (several seconds).\n\n**Observe.** The two conditions, `dshared(t,x)` and `cyclic(x)`, stop the reach and cyclic families; the equalities `x->n->n... == NULL` (the loop guard carried backwards) keep growing but do not matter for the property. With auto-hints every family is cut by the paper's kind of approximation (`dshared`, `cyclic`), each hint checked on small heaps first, and the run converges. Finally delete the precondition, untick auto-hints, bound 12, *Analyse*: UNSAFE, with a cyclic list replayed in the interpreter.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "shape-traverse",
        title: "shape: list traversal",
        mode: Mode::Shape,
        description: "Walking a list with a cursor changes nothing: every cell stays reachable from x.\nWhich predicates does the loop need?",
        source: SHAPE_TRAVERSE,
        predicates: "",
        lab_note: "## shape: list traversal\n\n**Settings.** Procedure `length`, property `forall k: reach[;n](x,k)@n1 => reach[;n](x,k)@ne`, bound 10.\n\n**Predict.** The loop only reads the list. Which predicate carries the property around the loop?\n\n**Click.** *Analyse* and read the pairs of each round.\n\n**Observe.** SAFE: `reach[;n](x,k)` is preserved by every edge, since nothing writes a field. The bound is reached by a family of `p->n == NULL` predicates that the property does not need: their booleans are over-approximated by `*` and the proof still goes through.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
    Example {
        id: "shape-push-cycle",
        title: "shape: pushing the head onto itself",
        mode: Mode::Shape,
        description: "A new cell t points to x, and x->n is set back to t: the list becomes cyclic.\nThe verdict is UNSAFE with a concrete heap.",
        source: SHAPE_PUSH_CYCLE,
        predicates: "",
        lab_note: "## shape: pushing the head onto itself\n\n**Settings.** Procedure `push_self`, property `!cyclic[n](t)@ne`, precondition `!cyclic[n](x)@n1`, bound 40.\n\n**Predict.** After `t->n = x; x->n = t;` is the list from `t` cyclic? For which inputs?\n\n**Click.** *Analyse*.\n\n**Observe.** UNSAFE: a concrete heap (a one-cell list `x = c0`) replayed in the interpreter violates the property at `ne`. The abstraction converges in 4 rounds; the model checker finds the violation and the C harness confirms it.\n",
        techniques: TEXTBOOK,
        refine: RefineMethod::Wp,
    },
];

/// Looks an example up by id.
pub fn by_id(id: &str) -> Option<&'static Example> {
    ALL.iter().find(|e| e.id == id)
}
