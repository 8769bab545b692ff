extern void abort(void);
void reach_error() { abort(); }
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 0, s = 0;
  if (n > 20) return 0;
  while (i < n) {
    s = s + i;
    i++;
  }
  if (s == 21) {
    reach_error();
  }
  return 0;
}
