int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x == 2);
  x = x + 1;
  assert(x < 5);
  return 0;
}
