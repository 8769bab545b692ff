/* BOOP thesis, chapter 3: a (strongly simplified) Linux device driver. */
#define TRUE 1
#define FALSE 0
#define ENODEV 19
#define MINORBITS 8
#define MAJOR(dev) ((dev) >> MINORBITS)
#define BUF_SIZE 16

#define MOD_INC_USE_COUNT  (usecount = usecount + 1)
#define MOD_DEC_USE_COUNT  (usecount = usecount - 1)
#define MOD_IN_USE         (usecount != 0)

struct inode { int i_rdev; };
struct file { int f_pos; };

int usecount;
int locked;
int major;

int register_chrdev(int requested) {
  usecount = 0;
  return 42;
}

void unregister_chrdev(int m) {
  if (MOD_IN_USE) {
ERROR: reach_error();
  }
}

int testdev_open(struct inode *inode, struct file *filp) {
  assert(MAJOR(inode->i_rdev) == major);
  MOD_INC_USE_COUNT;

  if (locked)
    return -ENODEV;
  locked = TRUE;
  return 0; /* success */
}

int testdev_read(struct file *filp, char *buffer, int count) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= count);
  return n;
}

int testdev_release(struct inode *inode, struct file *filp) {
  MOD_DEC_USE_COUNT;
  locked = FALSE;
  return 0;
}

int main(void) {
  struct inode inode;
  struct file my_file;
  char buffer[BUF_SIZE];
  int rval, count;

  locked = FALSE;
  major = register_chrdev(0);
  inode.i_rdev = major << MINORBITS;

A: testdev_open(&inode, &my_file);
  do {
B:  rval = testdev_open(&inode, &my_file);
    if (rval == 0) {
C:    count = testdev_read(&my_file, buffer, BUF_SIZE);
      testdev_release(&inode, &my_file);
    } else
      count = 0;
  } while (count != 0);
D: testdev_release(&inode, &my_file);
E: unregister_chrdev(major);
  return 0;
}
