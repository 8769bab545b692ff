struct node {
  int mark;
  struct node *next;
};

void mark(struct node *list) {
  struct node *this, *tmp, *prev;
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
}
