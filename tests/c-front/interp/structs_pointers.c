/* struct copies, pointer aliasing, arrays inside structs */
extern int __VERIFIER_nondet_int(void);
void out(long v);

struct inner { short s; long l; };
struct outer { int a; struct inner in; int arr[3]; struct outer *self; };

void bump(int *p, int *q) { *p = *p + 1; *q = *q * 2; }

struct outer make(int v) {
  struct outer o;
  o.a = v; o.in.s = (short)(v * 1000); o.in.l = (long)v << 20;
  o.arr[0] = v; o.arr[1] = v + 1; o.arr[2] = v + 2; o.self = 0;
  return o;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  struct outer o1 = make(x);
  struct outer o2 = o1;
  o2.a = y;
  o2.in = o1.in;
  o2.in.s = 7;
  out(o1.a); out(o1.in.s); out(o1.in.l); out(o2.a); out(o2.in.s); out(o2.in.l);
  out(o1.arr[2] + o2.arr[1]);
  int *p = &o1.arr[0];
  int *q = &o1.arr[0];
  bump(p, q);
  out(o1.arr[0]);
  bump(&x, &y);
  out(x); out(y);
  o1.self = &o1;
  o1.self->self->a = 99;
  out(o1.a);
  int *r = o1.arr;
  r[1] = 5; *(r + 2) = 6;
  out(o1.arr[1] * 10 + o1.arr[2]);
  out(&o1.arr[2] - r);
  return 0;
}
