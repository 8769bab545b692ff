/* loops, switch, recursion, short-circuit side effects, reach_error */
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
void out(long v);

int calls;
int f(int n) { calls++; return n > 0; }
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
int collatz(unsigned int n) { int steps = 0; while (n != 1 && steps < 200) { n = (n % 2) ? 3 * n + 1 : n / 2; steps++; } return steps; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  int r = 0;
  if (f(n) && f(m)) r = 1;
  if (f(n) || f(m)) r += 2;
  out(r); out(calls);
  switch (n & 7) {
    case 0: r = 10;
    case 1: r += 1; break;
    case 5: case 6: r = 50; break;
    default: r = -1;
  }
  out(r);
  out(fib((n & 15) + 1));
  out(collatz((unsigned int)(m & 1023) + 1));
  int i, acc = 0;
  for (i = 0; i < 100; i++) {
    if (i % 3 == 0) continue;
    if (acc > 200 + (n & 31)) break;
    acc += i;
  }
  out(acc); out(i);
  do { acc -= 17; } while (acc > 0);
  out(acc);
  if (n == 12345) reach_error();
  return 0;
}
