/* BOOP thesis (Weissenbacher), ch. 3: the testdev device driver with its usage-count macros. */
#include <assert.h>
#define TRUE 1
#define FALSE 0
#define ENODEV 19
#define MINORBITS 8
#define MAJOR(dev) ((unsigned int) ((dev) >> MINORBITS))
#define BUF_SIZE 16
#define MOD_INC_USE_COUNT  (usecount = usecount + 1)
#define MOD_DEC_USE_COUNT  (usecount = usecount - 1)
#define MOD_IN_USE        (usecount != 0)

extern int __VERIFIER_nondet_int(void);

struct inode { unsigned int i_rdev; };
struct file { int f_flags; };

int usecount;
int locked;
unsigned int major;

int testdev_open (struct inode *inode, struct file *filp)
{
    assert (MAJOR (inode->i_rdev) == major);
    MOD_INC_USE_COUNT;

    if (locked)
        return -ENODEV;
    locked = TRUE;
    return 0; /* success */
}

int testdev_release (struct inode *inode, struct file *filp)
{
    MOD_DEC_USE_COUNT;
    locked = FALSE;
    return 0;
}

int testdev_read (struct file *filp, char *buffer, int count)
{
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > count)
        n = 0;
    return n;
}

int main(void)
{
    struct inode inode;
    struct file my_file;
    char buffer[BUF_SIZE];
    int rval, count;

    major = 42;
    inode.i_rdev = major << MINORBITS;
    testdev_open (&inode, &my_file);
    do
    {
        rval = testdev_open (&inode, &my_file);
        if (rval == 0)
        {
            count = testdev_read (&my_file, buffer, BUF_SIZE);
            testdev_release (&inode, &my_file);
        }
        else
            count = 0;
    }
    while (count != 0);
    testdev_release (&inode, &my_file);
    assert (!MOD_IN_USE);
    return 0;
}
