/* BOOP's input convention: reaching the label ERROR is the error (predabs check --error-label ERROR). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 10) {
    y = x - 10;
  }
  if (y < 0) {
  ERROR:
    return 1;
  }
  if (x == 42) {
  BUG:
    return 2;
  }
  return 0;
}
