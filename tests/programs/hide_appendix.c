char *nametab[2][2] = { { "(none)", "(none)" }, { "pi2", "xxxxxxxx" } };
typedef struct { float x; float y; char *name; } NamedPoint;
short i = 1;

NamedPoint move(NamedPoint q, short *d)
{ float xx = q.x+*d, yy = q.y+*d;
  NamedPoint r = { xx, yy };
  r.name = nametab[i][i];
  return r;
}

int main(void)
{ char *nullstr = "";
  NamedPoint newp, p = { 3.1415F, 3.1415F, nametab[i][0] };
  nametab[i][i] = "movedpi2";
  newp = move(p,&i);
  p.name = nullstr;
  printf("%s: (%f,%f)\n", newp.name, newp.x, newp.y);
}
