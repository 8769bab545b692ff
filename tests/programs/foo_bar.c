int bar(int* q, int y) {
  int l1, l2;
  l1 = y;
  l2 = y - 1;
  if (*q > y)
    *q = y;
  return l1;
}

void foo(int* p, int x) {
  int r;
  if (*p <= x)
    *p = x;
  else
    *p = *p + x;
  r = bar(p, x);
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  foo(&a, 0);
  return 0;
}
