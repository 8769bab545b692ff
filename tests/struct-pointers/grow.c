/* A struct initialised through a pointer, two fields related: init makes lo == hi, grow moves
   hi up (never past 100, so hi + 1 cannot overflow), and lo <= hi is checked in the caller. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct pair { int lo; int hi; };
void init(struct pair *p, int a) {
  p->lo = a;
  p->hi = a;
}
void grow(struct pair *p) {
  if (p->hi < 100) p->hi = p->hi + 1;
}
int main(void) {
  struct pair q;
  int a = __VERIFIER_nondet_int();
  if (a < 0 || a > 100) return 0;
  init(&q, a);
  while (__VERIFIER_nondet_int()) {
    grow(&q);
  }
  if (q.lo > q.hi) reach_error();
  return 0;
}
