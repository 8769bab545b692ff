/* Buggy: withdraw checks the amount against the account's limit instead of its balance, so
   the balance can go below zero (any amount from 11 to 20). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct account { int balance; int limit; };
void withdraw(struct account *a, int amount) {
  if (amount <= a->limit) {
    a->balance = a->balance - amount;
  }
}
int main(void) {
  struct account acct;
  acct.balance = 10;
  acct.limit = 20;
  int amount = __VERIFIER_nondet_int();
  if (amount < 0 || amount > 20) return 0;
  withdraw(&acct, amount);
  if (acct.balance < 0) reach_error();
  return 0;
}
