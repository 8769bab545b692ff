int inc(int x) {
  x = x + 1;
  return x;
}

void foo(int a) {
  int b, c;
  b = inc(a);
  c = inc(b);
  assert(a != 2 || c == 4);
}

int main(void) {
  foo(2);
  return 0;
}
