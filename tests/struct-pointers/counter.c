/* Issue 30: a struct local passed by address to a function that updates a field under a
   condition, then checked in the caller. Refinement names c->value and c->limit in bump. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct counter { int value; int limit; };
void bump(struct counter *c, int d) {
  if (c->value + d <= c->limit) {
    c->value = c->value + d;
  }
}
int main(void) {
  struct counter k;
  k.value = 0;
  k.limit = 10;
  int n = __VERIFIER_nondet_int();
  int i = 0;
  while (i < n) {
    int d = __VERIFIER_nondet_int();
    if (d < 1 || d > 5) return 0;
    bump(&k, d);
    i = i + 1;
  }
  if (k.value > k.limit) reach_error();
  return 0;
}
