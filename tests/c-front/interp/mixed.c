/* static locals, global pointer initialisers, 2D arrays, _Bool, unions, goto, pointer walks */
extern int __VERIFIER_nondet_int(void);
void out(long v);

int data[3][4];
int *cursor = &data[1][0];
union bits { unsigned int word; unsigned char bytes[4]; };

int counter(void) { static int calls = 10; return ++calls; }

int sum_until_zero(const int *p) { int s = 0; int v; while ((v = *p++) != 0) s += v; return s; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      data[i][j] = i * 10 + j + (n & 3);
  out(*cursor + cursor[3]);
  out(counter()); out(counter());
  _Bool b = n;
  b += 2;
  out(b);
  _Bool nb = !n;
  out(nb + b);
  union bits u;
  u.word = (unsigned int)n;
  out(u.bytes[0] + u.bytes[3] * 1000);
  int list[6] = { 4, n & 7, 9, -1, 0, 5 };
  out(sum_until_zero(list));
  int k = 0;
again:
  k += 3;
  if (k < 10 + (n & 1)) goto again;
  out(k);
  int *q = &data[2][3];
  out(q - &data[0][0]);
  out(*(q - 5));
  long big = (long)n * n;
  out(big > 1000000000L);
  return 0;
}
