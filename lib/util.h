/* util: allocation that never returns NULL, fatal-error exits, the program's
 * name, and the handful of macros every module uses.
 *
 * Allocation failure is not a condition any caller can recover from in a
 * daemon like ours, so x*() functions abort with a message instead of
 * returning NULL; callers own what they get back and release it with free().
 */
#ifndef UTIL_H
#define UTIL_H 1

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#define ARRAY_SIZE(ARRAY) (sizeof (ARRAY) / sizeof (ARRAY)[0])
#define MIN(A, B) ((A) < (B) ? (A) : (B))
#define MAX(A, B) ((A) > (B) ? (A) : (B))
#define DIV_ROUND_UP(X, Y) (((X) + ((Y) - 1)) / (Y))
#define ROUND_UP(X, Y) (DIV_ROUND_UP(X, Y) * (Y))

/* Given POINTER to member MEMBER of a STRUCT, returns the STRUCT. */
#define CONTAINER_OF(POINTER, STRUCT, MEMBER)                           \
    ((STRUCT *) (void *) ((char *) (POINTER) - offsetof(STRUCT, MEMBER)))

/* Like CONTAINER_OF, but takes the type from OBJECT (which need not be
 * initialized), so iteration macros can be written without naming types. */
#define OBJECT_OFFSETOF(OBJECT, MEMBER) offsetof(__typeof__(*(OBJECT)), MEMBER)
#define OBJECT_CONTAINING(POINTER, OBJECT, MEMBER)                      \
    ((__typeof__(OBJECT)) (void *) ((char *) (POINTER)                  \
                                    - OBJECT_OFFSETOF(OBJECT, MEMBER)))
#define ASSIGN_CONTAINER(OBJECT, POINTER, MEMBER)                       \
    ((OBJECT) = OBJECT_CONTAINING(POINTER, OBJECT, MEMBER), (void) 0)
#define INIT_CONTAINER(OBJECT, POINTER, MEMBER)                         \
    ((OBJECT) = NULL, ASSIGN_CONTAINER(OBJECT, POINTER, MEMBER))

#define OVS_PRINTF_FORMAT(FMT, ARG1) __attribute__((format(printf, FMT, ARG1)))
/* "file.c:123", for messages that say where a wake-up or lock came from. */
#define OVS_STRINGIZE_(ARG) #ARG
#define OVS_STRINGIZE(ARG) OVS_STRINGIZE_(ARG)
#define OVS_SOURCE_LOCATOR __FILE__ ":" OVS_STRINGIZE(__LINE__)
#define OVS_UNUSED __attribute__((unused))
#define OVS_WARN_UNUSED_RESULT __attribute__((warn_unused_result))
#define OVS_LIKELY(C) __builtin_expect(!!(C), 1)
#define OVS_UNLIKELY(C) __builtin_expect(!!(C), 0)

/* Checks an invariant that must hold whatever the input; a failure is a bug,
 * so it aborts with the location even in release builds. */
#define ovs_assert(CONDITION)                                           \
    (OVS_LIKELY(CONDITION) ? (void) 0                                   \
     : ovs_assert_failure(__FILE__, __LINE__, #CONDITION))
noreturn void ovs_assert_failure(const char *file, int line,
                                 const char *condition);

void *xmalloc(size_t);
void *xcalloc(size_t, size_t);
void *xzalloc(size_t);
void *xrealloc(void *, size_t);
void *xmemdup(const void *, size_t);
char *xstrdup(const char *);
char *xmemdup0(const char *, size_t);
char *xasprintf(const char *format, ...) OVS_PRINTF_FORMAT(1, 2);
char *xvasprintf(const char *format, va_list);
/* Grows *N (the allocated element count of P) so that at least one more
 * element fits, doubling to keep appends amortized O(1). */
void *x2nrealloc(void *p, size_t *n, size_t s);

/* Print "PROGRAM: MESSAGE[: strerror(ERR_NO)]" to stderr and exit(1).
 * ERR_NO of 0 omits the error text. */
noreturn void ovs_fatal(int err_no, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
noreturn void ovs_fatal_valist(int err_no, const char *format, va_list)
    OVS_PRINTF_FORMAT(2, 0);
/* Like ovs_fatal() but calls abort(), for conditions worth a core dump. */
noreturn void ovs_abort(int err_no, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
/* Prints "PROGRAM: MESSAGE[: strerror(ERR_NO)]" to stderr and returns. */
void ovs_error(int err_no, const char *format, ...) OVS_PRINTF_FORMAT(2, 3);
void ovs_error_valist(int err_no, const char *format, va_list)
    OVS_PRINTF_FORMAT(2, 0);

/* The program's short name ("ovs-appctl"), set once from main() with
 * set_program_name(argv[0]). */
extern const char *program_name;
void set_program_name(const char *argv0);
/* Versions.  Tools in the field recognize an Open vSwitch program by the
 * first line of its --version output and start banner, "PROGRAM (Open
 * vSwitch) X.Y.Z", and read the version they may rely on from it; so we
 * print the Open vSwitch version we are compatible with there, and our own
 * name and version on a line after it:
 *
 *     ovsdb-server (Open vSwitch) 3.1.0
 *     Open vSwitch NG 0.1.0
 *
 * ovs_version_string() is the compatible version ("3.1.0", also what
 * ovs-vswitchd writes to Open_vSwitch:ovs_version); ovs_ng_version_string()
 * is ours (PACKAGE_VERSION). */
#define OVS_COMPAT_VERSION "3.1.0"
const char *ovs_version_string(void);
const char *ovs_ng_version_string(void);
/* The two lines above for the running program, each ending in a newline.
 * The caller frees the result. */
char *ovs_version_text(void);
/* Prints ovs_version_text() to stdout. */
void ovs_print_version(void);

/* strerror() that is thread-safe and copes with EOF (returns "End of file"). */
const char *ovs_strerror(int error);
/* ovs_retval_to_string(0) is "Success". */
const char *ovs_retval_to_string(int retval);

/* The value of hex digit C (either case), or -1 if C is not one. */
int hexit_value(int c);

bool str_to_int(const char *, int base, int *);
bool str_to_llong(const char *, int base, long long int *);
bool str_to_uint(const char *, int base, unsigned int *);
bool str_to_double(const char *, double *);
bool string_ends_with(const char *, const char *suffix);
/* xstrdup(S), or NULL if S is NULL. */
char *nullable_xstrdup(const char *s);
/* Copies SRC into DST, a SIZE-byte buffer (SIZE > 0), cut to fit and
 * always NUL-terminated.  (Not snprintf(): GCC's truncation warning fires
 * wherever the source may be longer, which is the point here.) */
void ovs_strzcpy(char *dst, const char *src, size_t size);

/* The file that NAME finally names once every symbolic link on the way is
 * followed, even if that file does not exist yet (a dangling link names
 * the file to create).  Only the last component is followed at each step,
 * as open() would; a relative link target is taken relative to the link's
 * directory.  Gives up after 40 links (a loop) and returns NAME then.  The
 * caller frees the result. */
char *follow_symlinks(const char *name);
bool string_starts_with(const char *, const char *prefix);

/* Returns the directory part of FILE_NAME / its final component, both
 * newly allocated. */
char *dir_name(const char *file_name);
char *base_name(const char *file_name);
/* Returns FILE_NAME if absolute, otherwise DIR/FILE_NAME (newly allocated). */
char *abs_file_name(const char *dir, const char *file_name);

#endif /* util.h */
