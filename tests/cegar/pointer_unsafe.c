/* A write through a pointer changes the variable it points to. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
    int x = 0;
    int *p = &x;
    int c = __VERIFIER_nondet_int();
    if (c > 5) {
        *p = 1;
    }
    if (x == 1) reach_error();
    return 0;
}
