/* Nested calls: main passes &k to step, which passes its pointer on to bump. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct counter { int value; int limit; };
void bump(struct counter *c, int d) {
  if (c->value + d <= c->limit) {
    c->value = c->value + d;
  }
}
void step(struct counter *s) {
  int d = __VERIFIER_nondet_int();
  if (d >= 1 && d <= 5) bump(s, d);
}
int main(void) {
  struct counter k;
  k.value = 0;
  k.limit = 10;
  while (__VERIFIER_nondet_int()) {
    step(&k);
  }
  if (k.value > k.limit) reach_error();
  return 0;
}
