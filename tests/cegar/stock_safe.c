/* A producer fills a stock, a consumer empties it: the check needs the relation
   stock + consumed == produced and consumed >= 0, which no single unrolling shows. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int produced = 0;
  int stock = 0;
  while (__VERIFIER_nondet_int() && produced < 1000) {
    produced = produced + 1;
    stock = stock + 1;
  }
  int consumed = 0;
  while (consumed < produced) {
    if (stock <= 0) reach_error();
    stock = stock - 1;
    consumed = consumed + 1;
  }
  return 0;
}
