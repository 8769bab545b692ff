#include <stdlib.h>
struct cell {
  int val;
  struct cell *next;
};

struct cell *listfind(struct cell *l, int v) {
  struct cell *curr;
  struct cell *found;
  curr = l;
  found = NULL;
  while (curr != NULL) {
    if (curr->val == v) {
      found = curr;
      break;
    }
    curr = curr->next;
  }
  if (found != NULL) {
    assert(found->val == v);
  }
  return found;
}
