// Calls through function pointers: `run` calls whatever handler it is given. The handler
// chosen for positive inputs always returns more than its argument, the other one less, so
// the first check holds; the second fails for inputs above 10.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int up(int x) { return x + 1; }
int down(int x) { return x - 1; }

int run(int (*handler)(int), int value) {
  return handler(value);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 100 || n < -100) {
    return 0;
  }
  int (*pick)(int);
  if (n > 0) {
    pick = up;
  } else {
    pick = &down;
  }
  int r = run(pick, n);
  if (n > 0 && r <= n) {
    reach_error();
  }
  if (r > 11) {
    reach_error();
  }
  return 0;
}
