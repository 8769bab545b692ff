extern void abort(void);
void reach_error() { abort(); }

int main(void) {
  int i;
  int s = 0;
  for (i = 0; ;  i++) if (!((s == 2 * i && i <= 5))) reach_error(); else if (!( i < 5)) break; else {
    s = s + 2;
  }
  if (s != 10) {
    reach_error();
  }
  return 0;
}
