//! The examples gallery: small C programs from the seed papers and classic driver-style
//! properties, each with a two-line note on what to look at.

/// One gallery entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// Stable identifier (used in share links and tests).
    pub id: &'static str,
    pub title: &'static str,
    pub note: &'static str,
    pub source: &'static str,
    /// Starting predicates in C2BP's `proc { .. }` syntax (may be empty).
    pub predicates: &'static str,
}

pub const PARTITION: Example = Example {
    id: "partition",
    title: "partition (C2BP Fig. 1)",
    note: "Destructive list partition. With the four predicates on curr/prev, the invariant at L \
           shows that *prev and *curr never alias there.",
    source: r#"#include <stdlib.h>

typedef struct cell {
  int val;
  struct cell* next;
} *list;

list partition(list *l, int v) {
  list curr, prev, newl, nextCurr;

  curr = *l;
  prev = NULL;
  newl = NULL;
  while (curr != NULL) {
    nextCurr = curr->next;
    if (curr->val > v) {
      if (prev != NULL) {
        prev->next = nextCurr;
      }
      if (curr == *l) {
        *l = nextCurr;
      }
      curr->next = newl;
L:    newl = curr;
    } else {
      prev = curr;
    }
    curr = nextCurr;
  }
  return newl;
}
"#,
    predicates: "partition {\n  curr == NULL,\n  prev == NULL,\n  curr->val > v,\n  prev->val > v\n}\n",
};

pub const LOCKING: Example = Example {
    id: "locking",
    title: "lock discipline (SLAM style)",
    note: "A lock must not be acquired twice nor released when free. The loop's correlation \
           between got_lock and the lock state needs a predicate refinement discovers.",
    source: r#"#include <assert.h>

int locked = 0;
extern int __VERIFIER_nondet_int(void);

void lock(void) {
  assert(locked == 0);
  locked = 1;
}

void unlock(void) {
  assert(locked == 1);
  locked = 0;
}

int main(void) {
  int got_lock, old, new;
  new = __VERIFIER_nondet_int();
  do {
    got_lock = 0;
    if (__VERIFIER_nondet_int()) {
      lock();
      got_lock = 1;
    }
    if (got_lock) {
      unlock();
    }
    old = new;
    if (__VERIFIER_nondet_int()) {
      new++;
    }
  } while (new != old);
  return 0;
}
"#,
    predicates: "global {\n  locked == 1\n}\n",
};

pub const COUNTING_LOOP: Example = Example {
    id: "counting",
    title: "counting loop",
    note: "The error is unreachable because i counts up to n exactly; watch refinement add \
           predicates about i and n iteration by iteration.",
    source: r#"#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  if (n < 0) return 0;
  while (i < n) {
    i++;
  }
  assert(i == n);
  return 0;
}
"#,
    predicates: "",
};

pub const ALL: [Example; 3] = [PARTITION, LOCKING, COUNTING_LOOP];

pub fn by_id(id: &str) -> Option<&'static Example> {
    ALL.iter().find(|e| e.id == id)
}

/// What a first visit shows.
pub fn default_example() -> &'static Example {
    &ALL[1]
}

/// The 1-based line of the first line of `source` containing `needle` (for building fixtures).
pub fn line_of(source: &str, needle: &str) -> Option<u32> {
    source.lines().position(|l| l.contains(needle)).map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        for (i, a) in ALL.iter().enumerate() {
            for b in &ALL[i + 1..] {
                assert_ne!(a.id, b.id);
            }
            assert_eq!(by_id(a.id), Some(a));
        }
    }

    #[test]
    fn line_of_is_one_based() {
        assert_eq!(line_of(PARTITION.source, "#include"), Some(1));
        assert_eq!(line_of(PARTITION.source, "L:    newl = curr;"), Some(24));
    }
}
