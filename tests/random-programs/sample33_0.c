// inputs: -6..=0
// a sample of the generator (seed 33, program 0), kept as a regression check
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
struct node {
  int h;
  int v;
  struct node *next;
};
int g = 0;
int h(int p, int q) {
  int r = 0;
  return ((q) >> ((p) & 7));
}
int main(void) {
  int x0 = __VERIFIER_nondet_int();
  if (x0 < -6 || x0 > 0) return 0;
  int a = 5;
  int b = 1;
  unsigned char c = 3;
  struct node *head = 0;
  if ((((-3) / (((head != 0 ? head->h : -1)) | 1)) < 2) && (((((head != 0 ? head->v : 0)) % (((~((head != 0 ? head->h : -1)))) | 1)) > a) || (7 > ((a) == (2))))) {
    g = h(((((a) & ((head != 0 ? head->h : -1)))) / -2), (((head != 0 ? head->v : 1)) % ((b) == 0 ? 1 : (b))));
    c = ((2) ? (4) : (4));
  } else {
    {
      struct node *t = malloc(sizeof(struct node));
      if (t == 0) return 0;
      t->h = ((((2) / ((x0) | 1))) + (((1) % ((b) | 1))));
      t->v = ((7) < (((b) ? ((head != 0 ? head->v : 1)) : (c))));
      t->next = head;
      head = t;
    }
  }
  if ((((((int)(b))) ? (((7) - (0))) : (b)) < ((((a) / 9)) << ((b) & 7))) && ((c > 9) && (b > ((a) == (x0))))) {
  } else {
  }
  if (x0 <= 1) {
    if (!((b <= 2) && (((a) - (3)) != (-((head != 0 ? head->v : 1)))))) {
      ++x0;
      g--;
    } else {
    }
    c = h(b, ((-3) / ((x0) | 1)));
  }
  if ((!(x0 >= 8)) && (((a) | ((head != 0 ? head->h : -1))) > ((g) ? ((head != 0 ? head->v : 1)) : (9)))) {
  } else {
    if (((g == -1) && (x0 > 9)) && (!(x0 <= 7))) {
      c = h(x0, ((b) && (g)));
    } else {
      b = (((head != 0 ? head->v : 2)) | (7));
    }
  }
  if ((((x0) ^ ((head != 0 ? head->h : -1))) == ((4) - ((head != 0 ? head->v : 1)))) && (x0 == 9)) reach_error();
  return 0;
}
