extern void abort(void);
void reach_error() { abort(); }

int main(void) {
  int i = 0;
  while (i < 10) {
    i++;
  }
  if (i != 10) {
    reach_error();
  }
  return 0;
}
