// Strided counters: `a` moves by multiples of 8, `b` by 4 from 6, and `c` by `b`, which is
// always even. Parity facts (`a % 8 == 0`, `b % 4 == 2`, `c % 2 == 0`) prove the error
// unreachable; unrolling the loop never does.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned int a = 0;
  unsigned int b = 6;
  unsigned int c = 0;
  while (__VERIFIER_nondet_uint()) {
    a = a + 8 * __VERIFIER_nondet_uint();
    b = b + 4;
    c = c + b;
  }
  if (a == 12 || c == 7) {
    reach_error();
  }
  return 0;
}
