/* A lock discipline over a nondeterministic loop: lock and unlock alternate, so the error is unreachable. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int locked = 0;
void lock(void) { if (locked) reach_error(); locked = 1; }
void unlock(void) { if (!locked) reach_error(); locked = 0; }
int main(void) {
    int n = __VERIFIER_nondet_int();
    while (__VERIFIER_nondet_int()) {
        lock();
        n = n + 1;
        unlock();
    }
    return 0;
}
