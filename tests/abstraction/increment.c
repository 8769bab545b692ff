// Polymorphic predicate abstraction section 4.3 / C2BP section 4.1: x = x + 1 under {x<5, x==2}.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    x = x + 1;
    if (x < 2)
        x = 0;
    return 0;
}
