int a[4];

int main(void)
{
  int i = __VERIFIER_nondet_int();
  int v = 3;
  int w;
  a[i & 3] = v;
  w = a[0];
  if (w > 3) {
    reach_error();
  }
  return 0;
}
