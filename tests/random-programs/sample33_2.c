// inputs: -4..=-2, 3..=7, 2..=10
// a sample of the generator (seed 33, program 2), kept as a regression check
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern short __VERIFIER_nondet_short(void);
extern void reach_error(void);
int g = 3;
int main(void) {
  int x0 = __VERIFIER_nondet_int();
  if (x0 < -4 || x0 > -2) return 0;
  unsigned int x1 = __VERIFIER_nondet_uint();
  if (x1 < 3u || x1 > 7u) return 0;
  short x2 = __VERIFIER_nondet_short();
  if (x2 < 2 || x2 > 10) return 0;
  int a = 5;
  int b = 2;
  int c = 1;
  if ((x2 > 5) || (!(c <= 3))) {
    if (!(((((x2) ^ (3))) * (b)) > ((g) / ((x2) | 1)))) {
    }
  } else {
    {
      int i0 = 0;
      do {
        b = b + (((x2) % ((b) | 1)));
        c = a;
        i0++;
      } while (i0 < 2);
    }
  }
  if ((int)(((b) % ((a) | 1))) < 1) reach_error();
  return 0;
}
