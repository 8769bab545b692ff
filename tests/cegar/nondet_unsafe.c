/* An input-dependent bug: the error needs x == 7 and y > x from the environment. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    int z = 0;
    if (x == 7) {
        z = x + 1;
    }
    if (z == 8 && y > x) {
        reach_error();
    }
    return 0;
}
