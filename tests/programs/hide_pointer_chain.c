// A pointer chain: hiding `secret` hides every pointer that may hold its address
// (rule 1a on p = &secret, then q = p), and what is read through them (r);
// `other` and `s` never see secret's address and stay concrete.
int secret, other, r, s;

int main(void)
{
  int *p, *q, *t;
  p = &secret;
  q = p;
  r = *q + 1;
  t = &other;
  *t = 2;
  s = other + 1;
  if (s != 3) {
    reach_error();
  }
  return 0;
}
