/* Recursion: every call instance gets its own copies of n; the error needs f(x) == 2, i.e. x == 2. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int f(int n) {
    if (n <= 0) return 0;
    return f(n - 1) + 1;
}
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 3 || x < 0) return 0;
    if (f(x) == 2) reach_error();
    return 0;
}
