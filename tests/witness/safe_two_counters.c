extern void abort(void);
void reach_error() { abort(); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = 0;
  int y = 0;
  while (__VERIFIER_nondet_int()) {
    x++;
    y++;
  }
  if (x != y) {
    reach_error();
  }
  return 0;
}
