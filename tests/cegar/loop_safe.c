/* BOOP section 7.4's loop with a check that holds: after the loop i equals K. */
#define K 3
extern void reach_error(void);
int main(void) {
    int i = 0;
    while (i < K) {
        i = i + 1;
    }
    if (i != K) reach_error();
    return 0;
}
