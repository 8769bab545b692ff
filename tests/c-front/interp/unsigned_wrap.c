/* unsigned wrap-around, signed/unsigned comparison, integer conversions */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void out(long v);

int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  int s = __VERIFIER_nondet_int();
  unsigned char c = (unsigned char)s;
  signed char sc = (signed char)u;
  unsigned short us = (unsigned short)(u * 3u);
  out(u + 1u);
  out(u - 5u);
  out(u * 2654435761u);
  out(s < u);
  out(-1 < 0u);
  out(s + 1);
  out(c);
  out(sc);
  out(us);
  out((long)s * 3);
  out((unsigned long)s);
  out(c + sc);
  out(~u);
  out(-u);
  out((unsigned long long)u << 20);
  unsigned long ul = (unsigned long)u * u;
  out(ul % 1000003u);
  return 0;
}
