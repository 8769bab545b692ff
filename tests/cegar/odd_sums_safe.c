// The sum of the first y odd numbers is y*y: a polynomial invariant. Its weakest
// precondition through the loop body is the same polynomial once products are distributed.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    int k = __VERIFIER_nondet_int();
    long long x = 0;
    long long y = 0;
    int c = 0;
    while (c < k) {
        c = c + 1;
        y = y + 1;
        x = x + 2 * y - 1;
    }
    if (x != y * y) {
        reach_error();
    }
    return 0;
}
