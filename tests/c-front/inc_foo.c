/* Polymorphic predicate abstraction (Ball, Millstein, Rajamani), Figure 1: foo calls inc twice. */
int inc(int x) {
  int r;
  r = x + 1;
  return r;
}

void foo(int a) {
  int b, c;
  b = inc(a);
  c = inc(b);
  if (a == 2) {
    if (c != 4) {
      reach_error();
    }
  }
}
