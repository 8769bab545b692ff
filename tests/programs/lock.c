/* Lock discipline (SLAM's classic): never acquire a held lock, never release a free one. */
int locked = 0;

void lock(void) {
  if (locked) reach_error();
  locked = 1;
}

void unlock(void) {
  if (!locked) reach_error();
  locked = 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int got;
  do {
    lock();
    got = 0;
    if (__VERIFIER_nondet_int()) {
      unlock();
      n = n + 1;
      got = 1;
    }
  } while (got != 0);
  unlock();
  return 0;
}
