extern void __VERIFIER_assume(int); extern int __VERIFIER_nondet_predabs_s32(void);
extern void abort(void);
void reach_error() { abort(); }

int main(void) {
  int i;
  int s = 0;
  { i = 0; if (!(s == 2 * i)) reach_error(); if (!(i <= 5)) reach_error(); s = __VERIFIER_nondet_predabs_s32(); i = __VERIFIER_nondet_predabs_s32(); __VERIFIER_assume(s == 2 * i); __VERIFIER_assume(i <= 5); for (int __predabs_k = 0; ; __predabs_k = 1,  i++) if (__predabs_k) { if (!(s == 2 * i)) reach_error(); if (!(i <= 5)) reach_error(); __VERIFIER_assume(0); } else if (!( i < 5)) break; else {
    s = s + 2;
  } }
  if (s != 10) {
    reach_error();
  }
  return 0;
}
