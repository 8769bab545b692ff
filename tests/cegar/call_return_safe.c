/* Return values related to arguments (symbolic constants 'x): inc returns x + 1. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int inc(int x) { return x + 1; }
int main(void) {
    int a = __VERIFIER_nondet_int();
    if (a > 100 || a < -100) return 0;
    int b = inc(a);
    if (b != a + 1) reach_error();
    return 0;
}
