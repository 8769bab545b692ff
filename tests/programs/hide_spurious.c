// Hiding the property's own variable: the hidden program fails, the original cannot.
int main(void)
{
  int n = __VERIFIER_nondet_int();
  int a = 0;
  if (n > 0) {
    a = 1;
  }
  if (a > 1) {
    reach_error();
  }
  return 0;
}
