/* Own example: pushing the head onto itself makes the list cyclic (UNSAFE for !cyclic). */
#include <stdlib.h>

typedef struct node {struct node *n; int data;} Node;
typedef Node *List;

List push_self(List x) {
  List t;
  n1: t = (List) malloc(sizeof(Node));
  n2: t->n = x;
  n3: if (x != NULL) {
  n4:   x->n = t; }
  ne: return t;
}
