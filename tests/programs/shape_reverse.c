/* In-place list reversal (Dams–Namjoshi Fig 6). */
#include <stdlib.h>

typedef struct node {struct node *n; int data;} Node;
typedef Node *List;

List reverse(List x) {
  List y, t;
  n1: y = NULL;
  n2: while (x != NULL) {
  n3:   t = y;
  n4:   y = x;
  n5:   x = x->n;
  n6:   y->n = NULL;
  n7:   y->n = t; };
  n8: return y;
}
