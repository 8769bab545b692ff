/* A struct initialised through a pointer (returned by pointer), then updated through another
   call: make sets both fields, bump keeps value within limit. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct counter { int value; int limit; };
void make(struct counter *out, int limit) {
  out->value = 0;
  out->limit = limit;
}
void bump(struct counter *c, int d) {
  if (c->value + d <= c->limit) {
    c->value = c->value + d;
  }
}
int main(void) {
  struct counter k;
  make(&k, 10);
  while (__VERIFIER_nondet_int()) {
    int d = __VERIFIER_nondet_int();
    if (d < 1 || d > 5) return 0;
    bump(&k, d);
  }
  if (k.value > k.limit) reach_error();
  return 0;
}
