/* A callee copies one caller variable into another through pointers: the refinement names the
   caller's variables in the callee as *'dst and *'src (polymorphic predicate abstraction), so the
   call's effect on x == y is part of the callee's signature. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void copy_value(int *dst, int *src) {
  *dst = *src;
}

int main(void) {
  int x, y;
  y = __VERIFIER_nondet_int();
  copy_value(&x, &y);
  if (x != y) reach_error();
  return 0;
}
