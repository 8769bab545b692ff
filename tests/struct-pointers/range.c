/* Two fields related through a pointer: widen keeps lo <= hi whichever end it moves. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct range { int lo; int hi; };
void widen(struct range *r, int d) {
  if (d > 0) {
    if (r->hi < 1000) r->hi = r->hi + d;
  } else {
    if (r->lo > -1000) r->lo = r->lo + d;
  }
}
int main(void) {
  struct range r;
  r.lo = 0;
  r.hi = 0;
  while (__VERIFIER_nondet_int()) {
    int d = __VERIFIER_nondet_int();
    if (d < -5 || d > 5) return 0;
    widen(&r, d);
  }
  if (r.lo > r.hi) reach_error();
  return 0;
}
