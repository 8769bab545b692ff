// BOOP Figs 3.2-3.3: the testdev driver's open/release and a client that opens twice.
#define TRUE 1
#define FALSE 0
#define MINORBITS 8
#define MAJOR(dev) ((dev) >> MINORBITS)
#define ENODEV 19
#define MOD_INC_USE_COUNT  (usecount = usecount + 1)
#define MOD_DEC_USE_COUNT  (usecount = usecount - 1)
#define MOD_IN_USE        (usecount != 0)

struct inode { int i_rdev; };
struct file { int f_flags; };

int major;
int locked;
int usecount;

void register_chrdev(void) { usecount = 0; locked = FALSE; major = 42; }

int testdev_open(struct inode *inode, struct file *filp) {
    assert(MAJOR(inode->i_rdev) == major);
    MOD_INC_USE_COUNT;
    if (locked)
        return -ENODEV;
    locked = TRUE;
    return 0; /* success */
}

void testdev_release(struct inode *inode, struct file *filp) {
    MOD_DEC_USE_COUNT;
    locked = FALSE;
}

void unregister_chrdev(void) {
    if (MOD_IN_USE)
        reach_error();
}

int main(void) {
    struct inode inode;
    struct file my_file;
    int rval;
    register_chrdev();
    inode.i_rdev = major << MINORBITS;
A:  testdev_open(&inode, &my_file);
B:  rval = testdev_open(&inode, &my_file);
    if (rval == 0) {
C:      testdev_release(&inode, &my_file);
    }
D:  testdev_release(&inode, &my_file);
E:  unregister_chrdev();
    return 0;
}
