// A small driver for localization refinement: the error depends on `status`, which is
// copied from `mode`; `requests` and `budget` are irrelevant and stay hidden.
int requests, budget;

int handle(int req)
{
  if (req > 100) {
    return 1;
  }
  return 0;
}

int main(void)
{
  int mode = 0;
  int status;
  requests = __VERIFIER_nondet_int();
  budget = 10;
  while (budget > 0) {
    if (handle(requests) != 0) {
      requests = requests - 1;
    }
    budget = budget - 1;
  }
  status = mode;
  if (status != 0) {
    reach_error();
  }
  return 0;
}
