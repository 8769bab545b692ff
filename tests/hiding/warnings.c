int buf[8];
int twice(int v) { return 2 * v; }
int puts(const char *s);

int main(void)
{
  int (*op)(int) = twice;
  int k = 1, *p = buf;
  p = p + 2;
  p++;
  long addr = (long)p;
  k = op(k);
  puts("done");
  return k + (int)addr;
}
