/* bit-fields wrap at their width; promotions of narrow fields */
extern int __VERIFIER_nondet_int(void);
void out(long v);

struct flags { unsigned int low : 3; signed int mid : 4; unsigned int wide : 20; };

int main(void) {
  int n = __VERIFIER_nondet_int();
  struct flags f;
  f.low = n;
  f.mid = n;
  f.wide = n * 3;
  out(f.low);
  out(f.mid);
  out(f.wide);
  f.low += 7;
  out(f.low);
  out(f.mid - 8 < 0);
  out(f.low * f.mid);
  return 0;
}
