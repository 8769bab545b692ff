/* A lock passed by address (polymorphic predicate abstraction §4.4.3, §5.4; C2BP §4.5.3):
   after `acquire(&held)` the caller's predicate `held == 1` is the callee's return predicate
   `*'l == 1` with `'l` bound to `&held`, i.e. `*&held == 1`. The same for a lock that is a
   struct field reached through a pointer, and a global. */
void reach_error(void);
struct dev { int busy; int lock; };
int glock;

void acquire(int *l)
{
    if (*l == 1)
        reach_error();
    *l = 1;
}

void release(int *u)
{
    if (*u != 1)
        reach_error();
    *u = 0;
}

int main(void)
{
    int held;
    struct dev d;
    struct dev *pd;
    held = 0;
    acquire(&held);
    release(&held);
    pd = &d;
    pd->lock = 0;
    acquire(&pd->lock);
    release(&d.lock);
    glock = 0;
    acquire(&glock);
    release(&glock);
    return 0;
}
