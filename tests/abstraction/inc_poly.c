// Polymorphic predicate abstraction Fig 1: foo calls inc twice.
int inc(int x) {
    x = x + 1;
    return x;
}

void foo(int a) {
    int b, c;
    b = inc(a);
    c = inc(b);
}
