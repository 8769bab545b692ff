extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int pat[64];
int str[256];
int next[64];

int kmp(int m, int n) {
  int i, j, k;
  __VERIFIER_assume(m > 0 && m <= 64 && n >= 0 && n <= 256);
  next[0] = -1;
  k = -1;
  for (j = 1; j < m; j++) {
    while (k >= 0 && pat[k + 1] != pat[j])
      k = next[k];
    if (pat[k + 1] == pat[j])
      k = k + 1;
    next[j] = k;
  }
  j = -1;
  for (i = 0; i < n; i++) {
    assert(0 <= i && i < n); /* str[i] is in bounds: n <= 256 */
    while (j >= 0 && pat[j + 1] != str[i])
      j = next[j];
    if (pat[j + 1] == str[i])
      j = j + 1;
    if (j == m - 1)
      return i - m + 1;
  }
  return -1;
}
