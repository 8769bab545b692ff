extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int a[100];

void qsort_partition(int lo, int hi) {
  int i, j, pivot, t;
  __VERIFIER_assume(0 <= lo && lo < hi && hi < 100);
  pivot = a[hi];
  i = lo - 1;
  for (j = lo; j < hi; j++) {
    if (a[j] <= pivot) {
      i = i + 1;
      assert(0 <= i && i < 100);
      t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  t = a[i + 1];
  a[i + 1] = a[hi];
  a[hi] = t;
}
