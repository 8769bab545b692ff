extern void abort(void);
void reach_error() { abort(); }

int n;

/* the loop is the function's first statement: its head is where the function starts */
void count(void) {
  while (n < 10) {
    n++;
  }
}

int main(void) {
  n = 0;
  count();
  if (n != 10) {
    reach_error();
  }
  return 0;
}
