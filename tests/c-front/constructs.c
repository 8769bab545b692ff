/* One of each lowering construct: the conventions of c-front in one golden file. */
#include <stdlib.h>
#define LIMIT 3

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void);

struct pair { int a; int b; };
int counter;
int table[LIMIT] = { 1, 2 };

int next(int step) { counter += step; return counter; }

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x < 100);
  struct pair p = { x, 0 };
  int *q = &p.b;
  for (int i = 0; i < LIMIT; i++) {
    if (i == 1) continue;
    *q += table[i];
  }
  while (x > 0 && next(1) < 10) x--;
  int y = x > 5 ? next(2) : 0;
  switch (y) {
    case 0: y = 1;
    case 2: y++; break;
    default: y = -1;
  }
  do { y <<= 1; } while (y < 16);
  unsigned char c = (unsigned char)y;
  struct pair *h = malloc(sizeof(struct pair));
  if (h == NULL) abort();
  *h = p;
  h->a = c + p.b;
  free(h);
  if (counter > 100 || y == 7) reach_error();
  return y;
}
