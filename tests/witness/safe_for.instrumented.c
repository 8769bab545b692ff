extern void abort(void);
void reach_error() { abort(); }

int main(void) {
  int i;
  int s = 0;
  for (i = 0; ;  i++) { if (!(s == 2 * i)) reach_error(); if (!(i <= 5)) reach_error(); if (!( i < 5)) break;  {
    s = s + 2;
  } }
  if (s != 10) {
    reach_error();
  }
  return 0;
}
