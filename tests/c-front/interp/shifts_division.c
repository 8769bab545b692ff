/* shifts, division and modulo of negative numbers (C truncation) */
extern int __VERIFIER_nondet_int(void);
void out(long v);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  unsigned int k = (unsigned int)b % 31u;
  out(a >> 3);
  out(a << 2);
  out((unsigned int)a >> k);
  out(a >> (k % 8));
  if (b != 0 && !(a == -2147483647 - 1 && b == -1)) {
    out(a / b);
    out(a % b);
  }
  out(-7 / 2);
  out(-7 % 2);
  out(7 % -2);
  out(a & b);
  out(a | b);
  out(a ^ b);
  out((a & 0xff) << 24);
  long l = a;
  out(l << 33);
  out(l >> 40);
  out((a > b) + (a >= b) * 2 + (a == b) * 4 + (a != b) * 8);
  return 0;
}
