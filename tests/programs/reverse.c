// C2BP Fig 3 (section 6.2): list traversal with back pointers, with h/hnext.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
struct node {
  int mark;
  struct node *next;
};

void mark(struct node *list) {
  struct node *this, *tmp, *prev, *h, *hnext;
  h = list;
  __VERIFIER_assume(h != 0);
  while (__VERIFIER_nondet_int()) {
    if (h->next == 0)
      break;
    h = h->next;
  }
  hnext = h->next;
  prev = 0;
  this = list;
  /* traverse list and mark, setting back pointers */
  while (this != 0) {
    if (this->mark == 1)
      break;
    this->mark = 1;
    tmp = prev;
    prev = this;
    this = this->next;
    prev->next = tmp;
  }
  /* traverse back, resetting the pointers */
  while (prev != 0) {
    tmp = this;
    this = prev;
    prev = prev->next;
    this->next = tmp;
  }
  assert(h->next == hnext);
}
