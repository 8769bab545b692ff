/* Shape analysis through predicate abstraction: list insertion (Fig. 1) and reversal (Fig. 6). */
#include <stdlib.h>

typedef struct node {struct node *n; int data;} Node;
typedef Node *List;

List insert(List x, int a) {
  List t;
  n1: t=(List) malloc(sizeof(Node));
  n2: t->data=a;
  n3: t->n=x;
  n4: x=t;
  ne: return x;
}

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
