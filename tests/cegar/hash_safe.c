// No input: the loop computes a hash whose final value is never 12345. The refinement only
// unrolls the loop, so the verdict comes from the program's single execution.
void reach_error(void);

int main(void) {
    unsigned h = 17;
    for (int i = 0; i < 50; i++) {
        h = h * 31u + (unsigned)i;
    }
    if (h == 12345u) {
        reach_error();
    }
    return 0;
}
