// inputs: 2..=6, 3..=6, -127..=-125, 4..=6
// a sample of the generator (seed 33, program 1), kept as a regression check
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
extern void abort(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
  ERROR: {reach_error();abort();}
  }
  return;
}
struct pair {
  int f;
  int s;
};
int g = 1;
int main(void) {
  char x0 = __VERIFIER_nondet_char();
  if (x0 < 2 || x0 > 6) return 0;
  unsigned char x1 = __VERIFIER_nondet_uchar();
  if (x1 < 3 || x1 > 6) return 0;
  char x2 = __VERIFIER_nondet_char();
  if (x2 < -127 || x2 > -125) return 0;
  unsigned char x3 = __VERIFIER_nondet_uchar();
  if (x3 < 4 || x3 > 6) return 0;
  int a = -2;
  int b = -2;
  char c = 3;
  int arr[4] = {1, 0, -3, 3};
  int *p = &a;
  struct pair st = {0, -3};
  struct pair st2 = {3, 1};
  struct pair *ps = &st;
  {
    int i0 = 0;
    do {
      for (int i1 = 0; i1 < 1; i1++) {
        b++;
        st2 = st;
      }
      i0++;
    } while (i0 < ((((st.f) % ((ps->f) == 0 ? 1 : (ps->f)))) & 3));
  }
  if (!(x1 != -2)) {
    if ((!(x3 <= 1)) || ((b <= 0) || (((x0) - (arr[3])) >= ((unsigned int)(x0))))) {
      x1 = ((8) ? ((*p)) : (b));
    }
    if (((((*p)) && (x3)) <= ((arr[3]) >> ((b) & 7))) || ((((*p)) && (-1)) >= arr[(arr[3]) & 3])) {
    } else {
      arr[0] = (-(((st.s) == (x2))));
    }
  } else {
    c = b;
  }
  a = ((x2) << ((((g) / ((x3) | 1))) & 7));
  __VERIFIER_assert(!(!(x1 < -2)));
  return 0;
}
