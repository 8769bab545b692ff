/* The entry procedure need not be main (predabs check --entry scale): scale then runs in an
   open environment, its argument and the globals hold any value. From main (v = 7) the error
   is unreachable; from scale it is reached with v > 100. clamp is safe from anywhere. */
extern void reach_error(void);
int limit;
int clamp(int v) {
  if (limit < 0) limit = 0;
  int r = v;
  if (r > limit) r = limit;
  if (r > limit) reach_error();
  return r;
}
int scale(int v) {
  if (v > 100) reach_error();
  return clamp(v * 2);
}
int main(void) {
  limit = 5;
  return scale(7) - 5;
}
