/* A recursive sum: one unrolling of the recursion per refinement never ends; the proof needs
   the summary add_return == 'm + 'n and r == m + n at the call (affine procedure summaries). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
long long add(long long m, long long n) {
    if (n == 0) return m;
    if (n > 0) return add(m + 1, n - 1);
    return add(m - 1, n + 1);
}
int main(void) {
    int m = __VERIFIER_nondet_int();
    int n = __VERIFIER_nondet_int();
    if (n > 1000 || n < -1000) return 0;
    long long r = add(m, n);
    if (r != (long long)m + n) reach_error();
    return 0;
}
