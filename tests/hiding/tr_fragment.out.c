int b[10], i, j, k;
void fragment(void)
{
    if (NONDET) {
        (i++, b[j++] = (k++, k));
    }
}
int main(void)
{
    fragment();
    return 0;
}
