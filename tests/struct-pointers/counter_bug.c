/* The buggy variant: bump checks the old value, not the new one, so value can pass limit. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct counter { int value; int limit; };
void bump(struct counter *c, int d) {
  if (c->value < c->limit) {
    c->value = c->value + d;
  }
}
int main(void) {
  struct counter k;
  k.value = 0;
  k.limit = 10;
  while (__VERIFIER_nondet_int()) {
    int d = __VERIFIER_nondet_int();
    if (d < 1 || d > 5) return 0;
    bump(&k, d);
  }
  if (k.value > k.limit) reach_error();
  return 0;
}
