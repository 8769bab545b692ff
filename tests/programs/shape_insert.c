/* List insertion (Dams–Namjoshi Fig 1). */
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
