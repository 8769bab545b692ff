// Polymorphic predicate abstraction Fig 5: swap through pointers, with the symbolic
// constants '*p and '*q (the values of *p and *q at entry, §5.3).
void swap(int *p, int *q) {
    int t;
    t = *p;
    *p = *q;
    *q = t;
}

int main(void) {
    int x, y;
    x = 4;
    y = 5;
    swap(&x, &y);
    if (!(x == 5 && y == 4))
        reach_error();
    return 0;
}
