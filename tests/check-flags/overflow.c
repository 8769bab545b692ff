/* Safe over the papers' integers, unsafe with wrap-around: x + 1 overflows when x is INT_MAX
   (predabs check --integers ideal proves it, --integers wrap finds x = 2147483647). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) {
    int y = x + 1;
    if (y < 0) reach_error();
  }
  return 0;
}
