/* BOOP §7.4: each refinement learns one more value of i. */
#define K 4

int main(void) {
  int i = 0;
  while (i < K)
    i = i + 1;
  assert(i == K);
  return 0;
}
