// Hiding a variable the bug does not depend on: both programs fail, and the replay on the
// original confirms the bug.
int junk;

int main(void)
{
  int x = __VERIFIER_nondet_int();
  junk = __VERIFIER_nondet_int();
  if (junk > 10) {
    junk = junk - 1;
  }
  if (x == 5) {
    reach_error();
  }
  return 0;
}
