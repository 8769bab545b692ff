/* char arithmetic, string literals, array initialisers, globals */
extern int __VERIFIER_nondet_int(void);
void out(long v);

char msg[] = "hello";
int table[5] = { 3, 1, 4 };
struct pair { char tag; int value; } pairs[2] = { { 'a', 1 }, { 'b', -2 } };

int length(const char *s) { int n = 0; while (s[n] != 0) n++; return n; }

int main(void) {
  int k = __VERIFIER_nondet_int();
  char c = (char)k;
  out(c + 1);
  out((char)(c + 200));
  out(length(msg));
  out(length("predabs"));
  out(msg[1] - 'a');
  msg[0] = 'j';
  out(msg[0]);
  out(table[2] + table[4]);
  out(pairs[1].tag * 100 + pairs[1].value);
  out(sizeof(msg) + sizeof(table) + sizeof(pairs));
  const char *p = "xyz";
  out(p[2]);
  return 0;
}
