extern void abort(void);
void reach_error() { abort(); }

int main(void) {
  int i;
  int s = 0;
  for (i = 0; i < 5; i++) {
    s = s + 2;
  }
  if (s != 10) {
    reach_error();
  }
  return 0;
}
