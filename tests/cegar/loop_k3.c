/* BOOP section 7.4: the label after the loop is reachable only after K iterations; every
   refinement adds one predicate !(i + n < K), so the error is confirmed after about K + 1 rounds. */
#define K 3
extern void reach_error(void);
int main(void) {
    int i = 0;
    while (i < K) {
        i = i + 1;
    }
    reach_error();
    return 0;
}
