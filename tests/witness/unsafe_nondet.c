extern void abort(void);
void reach_error() { abort(); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (x == 42) {
    if (y > x) {
      reach_error();
    }
  }
  return 0;
}
