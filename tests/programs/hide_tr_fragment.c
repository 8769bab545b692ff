int a[10], b[10], i, j, k, m;

void fragment(void)
{
  if (k < m) { int n; a[i++] = b[j++] = ( n = k++, k ); }
}

int main(void)
{
  fragment();
  return 0;
}
