//! Built-in replacements for the standard headers (`#include <stdlib.h>` and friends): just the
//! declarations and macros that verification tasks use.

/// The text of a built-in standard header, if we have one.
pub fn builtin_header(name: &str) -> Option<&'static str> {
    Some(match name {
        "stdlib.h" => STDLIB,
        "stdio.h" => STDIO,
        "assert.h" => ASSERT,
        "stdbool.h" => STDBOOL,
        "stddef.h" => STDDEF,
        "string.h" | "strings.h" => STRING,
        "limits.h" => LIMITS,
        "stdint.h" | "inttypes.h" => STDINT,
        "stdarg.h" => "#ifndef __PREDABS_STDARG\n#define __PREDABS_STDARG\ntypedef __builtin_va_list va_list;\n#endif\n",
        "math.h" => MATH,
        "ctype.h" => CTYPE,
        "errno.h" => "#ifndef __PREDABS_ERRNO\n#define __PREDABS_ERRNO\nextern int errno;\n#define EINVAL 22\n#define ENOMEM 12\n#endif\n",
        "unistd.h" | "sys/types.h" | "time.h" | "signal.h" | "locale.h" | "float.h" | "stdnoreturn.h" | "stdalign.h" => COMMON,
        "pthread.h" => PTHREAD,
        _ => return None,
    })
}

/// Enough of `pthread.h` to parse threaded programs: creating a thread is then refused with an
/// "unsupported: threads" error (the analyses are sequential).
const PTHREAD: &str = "#ifndef __PREDABS_PTHREAD
#define __PREDABS_PTHREAD
typedef unsigned long pthread_t;
typedef struct { long __opaque[7]; } pthread_attr_t;
typedef struct { long __opaque[5]; } pthread_mutex_t;
typedef struct { long __opaque[6]; } pthread_cond_t;
typedef struct { int __opaque; } pthread_mutexattr_t;
#define PTHREAD_MUTEX_INITIALIZER { { 0 } }
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **result);
void pthread_exit(void *result);
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
#endif
";

const COMMON: &str = "#ifndef __PREDABS_COMMON\n#define __PREDABS_COMMON\ntypedef unsigned long size_t;\ntypedef long ssize_t;\ntypedef long ptrdiff_t;\ntypedef int wchar_t;\n#define NULL ((void*)0)\n#endif\n";

const STDDEF: &str = "#include <sys/types.h>\n#define offsetof(type, member) __builtin_offsetof(type, member)\n";

const STDLIB: &str = "#include <sys/types.h>
#ifndef __PREDABS_STDLIB
#define __PREDABS_STDLIB
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void *alloca(size_t size);
void free(void *ptr);
void abort(void);
void exit(int status);
int abs(int x);
long labs(long x);
int rand(void);
void srand(unsigned int seed);
int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
char *getenv(const char *name);
#endif
";

const STDIO: &str = "#include <sys/types.h>
#ifndef __PREDABS_STDIO
#define __PREDABS_STDIO
#define EOF (-1)
typedef struct __predabs_file FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int sprintf(char *buffer, const char *format, ...);
int snprintf(char *buffer, size_t size, const char *format, ...);
int scanf(const char *format, ...);
int puts(const char *s);
int putchar(int c);
int getchar(void);
int fflush(FILE *stream);
#endif
";

const ASSERT: &str = "#ifndef __PREDABS_ASSERT
#define __PREDABS_ASSERT
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
#endif
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
void assert(int expression);
#endif
";

const STDBOOL: &str = "#ifndef __PREDABS_STDBOOL
#define __PREDABS_STDBOOL
#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
";

const STRING: &str = "#include <sys/types.h>
#ifndef __PREDABS_STRING
#define __PREDABS_STRING
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strchr(const char *s, int c);
char *strdup(const char *s);
#endif
";

const LIMITS: &str = "#ifndef __PREDABS_LIMITS
#define __PREDABS_LIMITS
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN (-128)
#define CHAR_MAX 127
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647-1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295U
#define LONG_MIN (-9223372036854775807L-1L)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL-1LL)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
#endif
";

const STDINT: &str = "#include <sys/types.h>
#include <limits.h>
#ifndef __PREDABS_STDINT
#define __PREDABS_STDINT
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef long intmax_t;
typedef unsigned long uintmax_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647-1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295U
#define INT64_MIN (-9223372036854775807L-1L)
#define INT64_MAX 9223372036854775807L
#define UINT64_MAX 18446744073709551615UL
#define SIZE_MAX 18446744073709551615UL
#endif
";

const MATH: &str = "#ifndef __PREDABS_MATH
#define __PREDABS_MATH
double fabs(double x);
double sqrt(double x);
double floor(double x);
double ceil(double x);
double pow(double x, double y);
#endif
";

const CTYPE: &str = "#ifndef __PREDABS_CTYPE
#define __PREDABS_CTYPE
int isdigit(int c);
int isalpha(int c);
int isspace(int c);
int isupper(int c);
int islower(int c);
int toupper(int c);
int tolower(int c);
#endif
";
