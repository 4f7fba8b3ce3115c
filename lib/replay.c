#include <config.h>
#include "replay.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ovs-thread.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovs_replay);

#define REPLAY_MAGIC "OVSNG-REPLAY 1"

/* Bytes of a record before its data: tag, value, length. */
#define RECORD_HEADER_LEN (1 + 8 + 4)

static enum replay_mode mode = REPLAY_OFF;
static char *replay_dir;            /* Absolute. */

/* Numbers files in the order the program opens them; and the random
 * bytes.  Streams live on any thread. */
static struct ovs_mutex replay_mutex = OVS_MUTEX_INITIALIZER;
static long long int next_number;
static int random_fd = -1;              /* Recording. */
static struct replay_file *random_file; /* Replaying. */
static bool random_used_up;             /* Replaying, and it ran out. */

struct replay_file {
    char *file_name;
    long long int number;
    int fd;                     /* Recording, -1 once writing failed. */
    uint8_t *buf;               /* Replaying: the whole file. */
    size_t size, pos;
};

void
replay_set_mode(enum replay_mode new_mode, const char *dir)
{
    const char *where = dir && dir[0] ? dir : ".";
    char *real = realpath(where, NULL);
    struct stat st;

    if (!real || stat(real, &st) || !S_ISDIR(st.st_mode)) {
        ovs_fatal(real ? ENOTDIR : errno,
                  "%s: cannot use as the replay directory", where);
    }
    ovs_mutex_lock(&replay_mutex);
    free(replay_dir);
    replay_dir = real;
    mode = new_mode;

    /* A new recording or replay starts from the beginning. */
    next_number = 0;
    if (random_fd >= 0) {
        close(random_fd);
    }
    random_fd = -1;
    replay_file_close(random_file);
    random_file = NULL;
    random_used_up = false;
    ovs_mutex_unlock(&replay_mutex);
}

enum replay_mode
replay_get_mode(void)
{
    return mode;
}

bool
replay_is_active(void)
{
    return mode != REPLAY_OFF;
}

void
replay_usage(void)
{
    printf("\nReplay options:\n"
           "  --record[=DIR]          record every stream's traffic and "
           "other inputs\n"
           "                          into replay files in DIR (default: "
           "current directory)\n"
           "  --replay[=DIR]          replay a recording from DIR instead "
           "of using the network\n");
}

static char *
file_name_for(const char *kind, long long int n)
{
    if (n < 0) {
        return xasprintf("%s/%s.%s", replay_dir, program_name, kind);
    }
    return xasprintf("%s/%s.%lld.%s", replay_dir, program_name, n, kind);
}

static bool
write_fully(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        ssize_t retval = write(fd, p, n);
        if (retval < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        p += retval;
        n -= retval;
    }
    return true;
}

/* Creates FILE_NAME with the header line for KIND and NAME.  Returns the
 * fd or -1 after logging. */
static int
create_file(const char *file_name, const char *kind, const char *name)
{
    int fd = open(file_name, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND
                  | O_CLOEXEC, 0644);
    if (fd < 0) {
        VLOG_ERR("%s: cannot create replay file (%s)", file_name,
                 ovs_strerror(errno));
        return -1;
    }
    char *header = xasprintf(REPLAY_MAGIC" %s %s\n", kind, name);
    bool ok = write_fully(fd, header, strlen(header));
    free(header);
    if (!ok) {
        VLOG_ERR("%s: cannot write replay file (%s)", file_name,
                 ovs_strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

struct replay_file *
replay_file_create(const char *kind, const char *name)
{
    ovs_assert(mode == REPLAY_RECORD);

    ovs_mutex_lock(&replay_mutex);
    long long int n = next_number++;
    ovs_mutex_unlock(&replay_mutex);

    char *file_name = file_name_for(kind, n);
    int fd = create_file(file_name, kind, name);
    if (fd < 0) {
        free(file_name);
        return NULL;
    }
    struct replay_file *f = xzalloc(sizeof *f);
    f->file_name = file_name;
    f->number = n;
    f->fd = fd;
    return f;
}

/* Reads all of FILE_NAME into a new replay_file and checks its header
 * line against KIND. */
static int
load_file(const char *file_name, const char *kind, long long int n,
          struct replay_file **filep)
{
    *filep = NULL;
    int fd = open(file_name, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int error = errno;
        VLOG_ERR("%s: cannot open replay file (%s)", file_name,
                 ovs_strerror(error));
        return error;
    }

    size_t size = 0, allocated = 4096;
    uint8_t *buf = xmalloc(allocated);
    for (;;) {
        if (size == allocated) {
            buf = x2nrealloc(buf, &allocated, 1);
        }
        ssize_t retval = read(fd, buf + size, allocated - size);
        if (retval < 0 && errno == EINTR) {
            continue;
        } else if (retval < 0) {
            int error = errno;
            VLOG_ERR("%s: read failed (%s)", file_name, ovs_strerror(error));
            close(fd);
            free(buf);
            return error;
        } else if (!retval) {
            break;
        }
        size += retval;
    }
    close(fd);

    char *expected = xasprintf(REPLAY_MAGIC" %s ", kind);
    size_t len = strlen(expected);
    uint8_t *newline = memchr(buf, '\n', size);
    bool ok = newline && size >= len && !memcmp(buf, expected, len);
    free(expected);
    if (!ok) {
        VLOG_ERR("%s: not a replay file of a %s", file_name, kind);
        free(buf);
        return EINVAL;
    }

    struct replay_file *f = xzalloc(sizeof *f);
    f->file_name = xstrdup(file_name);
    f->number = n;
    f->fd = -1;
    f->buf = buf;
    f->size = size;
    f->pos = newline - buf + 1;
    *filep = f;
    return 0;
}

int
replay_file_open(const char *kind, long long int n, struct replay_file **filep)
{
    ovs_assert(mode == REPLAY_REPLAY);

    ovs_mutex_lock(&replay_mutex);
    if (n < 0) {
        n = next_number++;
    } else if (n >= next_number) {
        next_number = n + 1;
    }
    ovs_mutex_unlock(&replay_mutex);

    char *file_name = file_name_for(kind, n);
    int error = load_file(file_name, kind, n, filep);
    free(file_name);
    return error;
}

long long int
replay_file_number(const struct replay_file *f)
{
    return f->number;
}

const char *
replay_file_name(const struct replay_file *f)
{
    return f->file_name;
}

void
replay_file_close(struct replay_file *f)
{
    if (f) {
        if (f->fd >= 0) {
            close(f->fd);
        }
        free(f->buf);
        free(f->file_name);
        free(f);
    }
}

void
replay_write(struct replay_file *f, char tag, long long int value,
             const void *data, size_t n)
{
    if (!f || f->fd < 0) {
        return;
    }
    ovs_assert(n <= UINT32_MAX);

    /* One write() per record, header and data together, so that a record
     * is never split by a crash and the file is complete up to the last
     * answer even if the program is killed. */
    size_t total = RECORD_HEADER_LEN + n;
    uint8_t stack_buf[RECORD_HEADER_LEN + 256];
    uint8_t *buf = total <= sizeof stack_buf ? stack_buf : xmalloc(total);
    uint64_t v = value;
    buf[0] = tag;
    for (int i = 0; i < 8; i++) {
        buf[1 + i] = v >> (8 * i);
    }
    for (int i = 0; i < 4; i++) {
        buf[9 + i] = (uint64_t) n >> (8 * i);
    }
    if (n) {
        memcpy(buf + RECORD_HEADER_LEN, data, n);
    }
    if (!write_fully(f->fd, buf, total)) {
        VLOG_ERR("%s: write failed, recording of this stream stops (%s)",
                 f->file_name, ovs_strerror(errno));
        close(f->fd);
        f->fd = -1;
    }
    if (buf != stack_buf) {
        free(buf);
    }
}

bool
replay_has_more(const struct replay_file *f)
{
    return f->size - f->pos >= RECORD_HEADER_LEN;
}

bool
replay_read(struct replay_file *f, char *tag, long long int *value,
            const void **data, size_t *n)
{
    if (!replay_has_more(f)) {
        return false;
    }
    const uint8_t *p = f->buf + f->pos;
    uint64_t v = 0;
    uint32_t len = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t) p[1 + i] << (8 * i);
    }
    for (int i = 0; i < 4; i++) {
        len |= (uint32_t) p[9 + i] << (8 * i);
    }
    if (len > f->size - f->pos - RECORD_HEADER_LEN) {
        /* A record cut short: the recording program died while writing
         * it, or the file was damaged.  Either way the records end here. */
        VLOG_WARN("%s: last record is truncated", f->file_name);
        f->pos = f->size;
        return false;
    }
    *tag = p[0];
    *value = (long long int) v;
    *data = p + RECORD_HEADER_LEN;
    *n = len;
    f->pos += RECORD_HEADER_LEN + len;
    return true;
}

/* Random bytes. */

bool
replay_take_random(void *buf, size_t n)
{
    if (mode != REPLAY_REPLAY) {
        return false;
    }

    bool ok = false;
    ovs_mutex_lock(&replay_mutex);
    if (!random_file) {
        char *file_name = file_name_for("random", -1);
        if (load_file(file_name, "random", -1, &random_file)) {
            /* Replay goes on, but with UUIDs of its own. */
            random_file = xzalloc(sizeof *random_file);
            random_file->file_name = xstrdup(file_name);
            random_file->fd = -1;
        }
        free(file_name);
    }
    if (!random_used_up && random_file->size - random_file->pos >= n) {
        memcpy(buf, random_file->buf + random_file->pos, n);
        random_file->pos += n;
        ok = true;
    } else if (!random_used_up) {
        VLOG_WARN("%s: recorded random bytes used up, replay continues "
                  "with new ones", random_file->file_name);
        random_used_up = true;
    }
    ovs_mutex_unlock(&replay_mutex);
    return ok;
}

void
replay_put_random(const void *buf, size_t n)
{
    if (mode != REPLAY_RECORD) {
        return;
    }

    ovs_mutex_lock(&replay_mutex);
    if (random_fd == -1) {
        char *file_name = file_name_for("random", -1);
        random_fd = create_file(file_name, "random", program_name);
        free(file_name);
        if (random_fd < 0) {
            random_fd = -2;     /* Do not try again. */
        }
    }
    if (random_fd >= 0 && !write_fully(random_fd, buf, n)) {
        VLOG_ERR("%s/%s.random: write failed (%s)", replay_dir, program_name,
                 ovs_strerror(errno));
        close(random_fd);
        random_fd = -2;
    }
    ovs_mutex_unlock(&replay_mutex);
}
