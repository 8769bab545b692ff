/* A driver state machine with a missed transition: can the request complete twice? */
#define IDLE 0
#define PENDING 1
#define DONE 2

int state = IDLE;

void start(void) {
  if (state != IDLE) reach_error();
  state = PENDING;
}

void complete(void) {
  if (state != PENDING) reach_error();
  state = DONE;
}

int main(void) {
  int retries = __VERIFIER_nondet_int();
  start();
  if (retries > 0) {
    complete();
  }
  if (retries > 1) {
    complete();   /* bug: the second completion happens in state DONE */
  }
  return 0;
}
