/* Own example: walking a list with a cursor changes nothing (every member stays reachable). */
#include <stdlib.h>

typedef struct node {struct node *n; int data;} Node;
typedef Node *List;

int length(List x) {
  List p; int len;
  n1: p = x; len = 0;
  n2: while (p != NULL) {
  n3:   p = p->n; len = len + 1; };
  ne: return len;
}
