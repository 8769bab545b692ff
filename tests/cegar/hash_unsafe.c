// No input: the loop computes a hash whose final value is 3984959978 (as compiled by gcc). The refinement only
// unrolls the loop, so the verdict comes from the program's single execution.
void reach_error(void);

int main(void) {
    unsigned h = 17;
    for (int i = 0; i < 50; i++) {
        h = h * 31u + (unsigned)i;
    }
    if (h == 3984959978u) {
        reach_error();
    }
    return 0;
}
