// The symbolic constant '*p (the value of *p at entry, polymorphic §5.3) in a small example:
// inc increments *p, so it returns *p == '*p + 1, which the caller reads as x == x_o + 1.
void inc(int *p) {
    *p = *p + 1;
}

int main(void) {
    int x;
    x = 1;
    inc(&x);
    if (x != 2)
        reach_error();
    return 0;
}
