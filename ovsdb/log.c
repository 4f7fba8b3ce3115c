#include <config.h>
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "list.h"
#include "ovs-thread.h"
#include "ovsdb-error.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ovsdb_log);

/* A header line is "MAGIC LENGTH SHA1\n": the longest magic we know, 20
 * digits, 40 hex digits and three separators fit well within this. */
#define MAX_HEADER_LEN 128

/* ovsdb_log_grew_lots() thresholds. */
#define GREW_LOTS_MIN_BYTES (10 * 1024 * 1024)

/* A lock held on a ".NAME.~lock~" file.
 *
 * POSIX record locks belong to the process, and closing ANY descriptor of
 * the locked file drops them, so a second attempt to lock a file this
 * process already holds must be refused without ever opening the file
 * again.  held_locks remembers every lock file we hold by device and inode
 * for exactly that check. */
struct log_lock {
    struct ovs_list node;       /* In held_locks. */
    char *name;
    int fd;
    dev_t dev;
    ino_t ino;
};

static struct ovs_mutex held_locks_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list held_locks = OVS_LIST_INITIALIZER(&held_locks);

enum log_state {
    LOG_READ,                   /* Reading; more records may follow. */
    LOG_READ_END,               /* Read everything up to a clean end. */
    LOG_READ_DAMAGED,           /* Reading stopped at a damaged tail. */
    LOG_WRITE,                  /* Appending. */
    LOG_ERROR                   /* Sticky I/O failure in 'error'. */
};

struct ovsdb_log {
    char *name;
    char *magic;                /* The file's magic. */
    enum ovsdb_log_open_mode mode;
    struct log_lock *lock;      /* NULL if not locked. */
    int fd;
    enum log_state state;
    struct ovsdb_error *error;  /* For LOG_ERROR. */
    off_t offset;               /* End of the last good record. */
    off_t prev_offset;          /* Start of the last record read. */
    off_t tail_bytes;           /* Size of a damaged tail. */
    off_t base;                 /* For ovsdb_log_grew_lots(). */
};

static struct ovsdb_error *log_lock_acquire(const char *name,
                                            struct log_lock **)
    OVS_WARN_UNUSED_RESULT;
static void log_lock_release(struct log_lock *);
static void fsync_parent_dir(const char *name);

void
ovsdb_log_sha1_hex(const void *data, size_t len, char hex[41])
{
    /* Fetching the algorithm is a provider lookup that costs as much as
     * hashing a small record, and every commit hashes one: do it once. */
    static EVP_MD *sha1;
    if (!sha1) {
        sha1 = EVP_MD_fetch(NULL, "SHA1", NULL);
        if (!sha1) {
            ovs_abort(0, "SHA-1 is not available from OpenSSL");
        }
    }

    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_len = 0;
    if (!EVP_Digest(data, len, digest, &digest_len, sha1, NULL)
        || digest_len != 20) {
        ovs_abort(0, "SHA-1 computation failed");
    }
    for (unsigned int i = 0; i < digest_len; i++) {
        static const char xdigits[] = "0123456789abcdef";
        hex[i * 2] = xdigits[digest[i] >> 4];
        hex[i * 2 + 1] = xdigits[digest[i] & 15];
    }
    hex[40] = '\0';
}

char *
ovsdb_log_lockfile_name(const char *name)
{
    /* Lock the real file, not a symlink to it, so that every path to one
     * database agrees on the lock, even a dangling link to a database about
     * to be created. */
    char *real = follow_symlinks(name);
    const char *target = real;

    const char *slash = strrchr(target, '/');
    char *lockname = (slash
                      ? xasprintf("%.*s.%s.~lock~", (int) (slash - target + 1),
                                  target, slash + 1)
                      : xasprintf(".%s.~lock~", target));
    free(real);
    return lockname;
}

/* Opening. */

static bool
magic_matches(const char *accepted, const char *header, size_t header_len,
              char **magicp)
{
    /* ACCEPTED is "A|B|C"; HEADER must start with one of them and a
     * space. */
    const char *p = accepted;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t) (bar - p) : strlen(p);
        if (len && len < header_len && !memcmp(header, p, len)
            && header[len] == ' ') {
            *magicp = xmemdup0(p, len);
            return true;
        }
        if (!bar) {
            return false;
        }
        p = bar + 1;
    }
}

static struct ovsdb_error *
read_fully(int fd, void *buf_, size_t n, off_t offset, size_t *n_readp)
{
    char *buf = buf_;
    size_t done = 0;
    while (done < n) {
        ssize_t retval = pread(fd, buf + done, n - done, offset + done);
        if (retval < 0) {
            if (errno == EINTR) {
                continue;
            }
            *n_readp = done;
            return ovsdb_io_error(errno, "read failed");
        } else if (retval == 0) {
            break;
        }
        done += retval;
    }
    *n_readp = done;
    return NULL;
}

struct ovsdb_error *
ovsdb_log_open(const char *name, const char *magic,
               enum ovsdb_log_open_mode mode, int locking,
               struct ovsdb_log **logp)
{
    struct log_lock *lock = NULL;
    struct ovsdb_error *error;
    int fd = -1;

    *logp = NULL;
    ovs_assert(magic && *magic);

    /* Work on the file a symbolic link names, so that creating a database
     * through a dangling link creates the link's target (O_EXCL would
     * refuse the link itself) and compaction replaces the target, keeping
     * the link. */
    char *target = follow_symlinks(name);

    if (locking < 0) {
        locking = mode != OVSDB_LOG_READ_ONLY;
    }
    if (locking) {
        error = log_lock_acquire(target, &lock);
        if (error) {
            free(target);
            return error;
        }
    }

    int flags;
    switch (mode) {
    case OVSDB_LOG_READ_ONLY:
        flags = O_RDONLY;
        break;
    case OVSDB_LOG_READ_WRITE:
        flags = O_RDWR;
        break;
    case OVSDB_LOG_CREATE_EXCL:
        flags = O_RDWR | O_CREAT | O_EXCL;
        break;
    case OVSDB_LOG_CREATE:
        flags = O_RDWR | O_CREAT | O_TRUNC;
        break;
    default:
        ovs_abort(0, "bad log open mode %d", (int) mode);
    }
    fd = open(target, flags | O_CLOEXEC, 0640);
    if (fd < 0) {
        bool creating = (mode == OVSDB_LOG_CREATE_EXCL
                         || mode == OVSDB_LOG_CREATE);
        error = ovsdb_io_error(errno, "%s: %s failed", name,
                               creating ? "create" : "open");
        goto error;
    }
    if (flags & O_CREAT) {
        /* The new directory entry must survive a crash as surely as the
         * records we are about to write into it. */
        fsync_parent_dir(target);
    }

    struct stat st;
    if (fstat(fd, &st)) {
        error = ovsdb_io_error(errno, "%s: stat failed", name);
        goto error;
    }
    if (S_ISDIR(st.st_mode)) {
        error = ovsdb_io_error(EISDIR, "%s: open failed", name);
        goto error;
    }

    /* Work out the file's magic from its first header. */
    char *file_magic = NULL;
    char header[MAX_HEADER_LEN];
    size_t n_read = 0;
    if (st.st_size > 0) {
        error = read_fully(fd, header, sizeof header, 0, &n_read);
        if (error) {
            error = ovsdb_wrap_error(error, "%s", name);
            goto error;
        }
    }
    if (n_read > 0) {
        if (!magic_matches(magic, header, n_read, &file_magic)) {
            /* Maybe it is a valid log of another kind: say so. */
            char *other = NULL;
            if (magic_matches(OVSDB_MAGIC "|" RAFT_MAGIC, header, n_read,
                              &other)) {
                error = ovsdb_error("ovsdb error", "%s: %s database file "
                                    "where %s was expected", name,
                                    !strcmp(other, RAFT_MAGIC)
                                    ? "clustered" : "standalone",
                                    !strcmp(other, RAFT_MAGIC)
                                    ? "standalone" : "clustered");
                free(other);
            } else {
                error = ovsdb_error("ovsdb error",
                                    "%s: unexpected file format", name);
            }
            goto error;
        }
    } else {
        /* An empty file has no records, but it is a log of the first
         * accepted kind as far as anyone can tell (and becomes one when we
         * write to it). */
        file_magic = xmemdup0(magic, strcspn(magic, "|"));
    }

    struct ovsdb_log *log = xzalloc(sizeof *log);
    log->name = target;
    log->magic = file_magic;
    log->mode = mode;
    log->lock = lock;
    log->fd = fd;
    log->state = LOG_READ;
    log->offset = 0;
    log->base = st.st_size;
    *logp = log;
    return NULL;

error:
    if (fd >= 0) {
        close(fd);
    }
    log_lock_release(lock);
    free(target);
    return error;
}

void
ovsdb_log_close(struct ovsdb_log *log)
{
    if (log) {
        close(log->fd);
        log_lock_release(log->lock);
        ovsdb_error_destroy(log->error);
        free(log->magic);
        free(log->name);
        free(log);
    }
}

const char *
ovsdb_log_get_name(const struct ovsdb_log *log)
{
    return log->name;
}

const char *
ovsdb_log_get_magic(const struct ovsdb_log *log)
{
    return log->magic;
}

/* Reading. */

/* Parses HEADER (without its LF) as "MAGIC LENGTH SHA1".  Returns false if
 * it is malformed. */
static bool
parse_header(const struct ovsdb_log *log, const char *header,
             unsigned long long *lengthp, char sha1[41])
{
    size_t magic_len = strlen(log->magic);
    if (strncmp(header, log->magic, magic_len) || header[magic_len] != ' ') {
        return false;
    }
    const char *p = header + magic_len + 1;

    unsigned long long length = 0;
    if (*p < '0' || *p > '9') {
        return false;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        if (length > (ULLONG_MAX - 9) / 10) {
            return false;
        }
        length = length * 10 + (*p - '0');
    }
    if (*p++ != ' ') {
        return false;
    }
    for (int i = 0; i < 40; i++) {
        char c = p[i];
        if (c >= 'A' && c <= 'F') {
            c += 'a' - 'A';
        } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
        sha1[i] = c;
    }
    sha1[40] = '\0';
    if (p[40] != '\0') {
        return false;
    }
    *lengthp = length;
    return true;
}

/* Records that reading stopped at a damaged tail starting at log->offset,
 * for the reason in PROBLEM (which this function frees), an error of KIND
 * ("syntax error", "I/O error"). */
static void
mark_damaged(struct ovsdb_log *log, const char *kind, char *problem)
{
    struct stat st;
    off_t size = !fstat(log->fd, &st) ? st.st_size : log->offset;

    log->state = LOG_READ_DAMAGED;
    log->tail_bytes = size > log->offset ? size - log->offset : 0;
    /* "KIND: FILE: PROBLEM" is how Open vSwitch reports the same damage,
     * and what monitoring scripts look for. */
    VLOG_WARN("%s: %s: %s; the log ends at offset %lld, %s the %lld bytes "
              "after it", kind, log->name, problem,
              (long long int) log->offset,
              log->mode == OVSDB_LOG_READ_ONLY ? "ignoring" : "discarding",
              (long long int) log->tail_bytes);
    free(problem);
}

struct ovsdb_error *
ovsdb_log_read(struct ovsdb_log *log, json_t **jsonp)
{
    *jsonp = NULL;
    switch (log->state) {
    case LOG_READ:
        break;
    case LOG_READ_END:
    case LOG_READ_DAMAGED:
    case LOG_WRITE:
        return NULL;
    case LOG_ERROR:
        return ovsdb_error_clone(log->error);
    }

    /* Header. */
    char header[MAX_HEADER_LEN];
    size_t n_read;
    struct ovsdb_error *error = read_fully(log->fd, header, sizeof header,
                                           log->offset, &n_read);
    if (error) {
        goto io_error;
    }
    if (n_read == 0) {
        log->state = LOG_READ_END;
        return NULL;
    }
    char *lf = memchr(header, '\n', n_read);
    if (!lf) {
        mark_damaged(log, "syntax error",
                     (n_read < sizeof header
                           ? xasprintf("record header at offset %lld is "
                                       "truncated",
                                       (long long int) log->offset)
                           : xasprintf("record header at offset %lld is "
                                       "too long",
                                       (long long int) log->offset)));
        return NULL;
    }
    *lf = '\0';
    size_t header_len = lf - header + 1;

    unsigned long long length;
    char expected_sha1[41];
    if (memchr(header, '\0', header_len - 1)
        || !parse_header(log, header, &length, expected_sha1)) {
        mark_damaged(log, "syntax error",
                     xasprintf("parse error at offset %lld in header "
                               "line \"%.*s\"",
                               (long long int) log->offset,
                               (int) MIN(header_len - 1, 80), header));
        return NULL;
    }

    /* Body.  Check the length against the file's size before allocating:
     * a damaged length field must not make us allocate gigabytes. */
    off_t body_offset = log->offset + header_len;
    struct stat st;
    if (fstat(log->fd, &st)) {
        error = ovsdb_io_error(errno, "stat failed");
        goto io_error;
    }
    if (st.st_size < body_offset
        || length > (unsigned long long) (st.st_size - body_offset)) {
        mark_damaged(log, "I/O error",
                     xasprintf("error reading %llu bytes starting at "
                               "offset %lld (End of file)", length,
                               (long long int) body_offset));
        return NULL;
    }

    char *body = xmalloc(length + 1);
    error = read_fully(log->fd, body, length, body_offset, &n_read);
    if (error) {
        free(body);
        goto io_error;
    }
    if (n_read < length) {
        /* The file shrank under us. */
        free(body);
        mark_damaged(log, "I/O error",
                     xasprintf("error reading %llu bytes starting at "
                               "offset %lld (End of file)", length,
                               (long long int) body_offset));
        return NULL;
    }
    body[length] = '\0';

    char actual_sha1[41];
    ovsdb_log_sha1_hex(body, length, actual_sha1);
    if (strcmp(actual_sha1, expected_sha1)) {
        free(body);
        mark_damaged(log, "syntax error",
                     xasprintf("%llu bytes starting at offset %lld "
                               "have SHA-1 hash %s but should have "
                               "hash %s", length,
                               (long long int) body_offset,
                               actual_sha1, expected_sha1));
        return NULL;
    }

    json_error_t jerror;
    json_t *json = json_loadb(body, length, JSON_DECODE_ANY, &jerror);
    free(body);
    if (!json) {
        mark_damaged(log, "syntax error",
                     xasprintf("%llu bytes starting at offset %lld are "
                               "not valid JSON (%s)", length,
                               (long long int) body_offset,
                               jerror.text));
        return NULL;
    }

    log->prev_offset = log->offset;
    log->offset = body_offset + length;
    *jsonp = json;
    return NULL;

io_error:
    error = ovsdb_wrap_error(error, "%s", log->name);
    log->state = LOG_ERROR;
    log->error = ovsdb_error_clone(error);
    return error;
}

void
ovsdb_log_unread(struct ovsdb_log *log, const struct ovsdb_error *why)
{
    ovs_assert(log->state == LOG_READ && log->offset > log->prev_offset);
    log->offset = log->prev_offset;
    char *s = ovsdb_error_to_string(why);
    mark_damaged(log, "ovsdb error", s);
}

bool
ovsdb_log_has_damaged_tail(const struct ovsdb_log *log)
{
    return log->state == LOG_READ_DAMAGED;
}

off_t
ovsdb_log_get_tail_bytes(const struct ovsdb_log *log)
{
    return log->state == LOG_READ_DAMAGED ? log->tail_bytes : 0;
}

off_t
ovsdb_log_get_offset(const struct ovsdb_log *log)
{
    return log->offset;
}

/* Writing. */

static struct ovsdb_error *
write_fully(int fd, const void *buf_, size_t n, off_t offset)
{
    const char *buf = buf_;
    size_t done = 0;
    while (done < n) {
        ssize_t retval = pwrite(fd, buf + done, n - done, offset + done);
        if (retval < 0) {
            if (errno == EINTR) {
                continue;
            }
            return ovsdb_io_error(errno, "write failed");
        } else if (retval == 0) {
            return ovsdb_io_error(ENOSPC, "write failed");
        }
        done += retval;
    }
    return NULL;
}

/* Gets LOG ready to append at log->offset: whatever follows the last good
 * record (a damaged tail, or records the caller chose not to read) goes. */
static struct ovsdb_error *
start_writing(struct ovsdb_log *log)
{
    if (log->state == LOG_WRITE) {
        return NULL;
    } else if (log->state == LOG_ERROR) {
        return ovsdb_error_clone(log->error);
    } else if (log->mode == OVSDB_LOG_READ_ONLY) {
        return ovsdb_error("ovsdb error",
                           "%s: cannot write to a log opened read-only",
                           log->name);
    }

    struct stat st;
    if (fstat(log->fd, &st)) {
        return ovsdb_io_error(errno, "%s: stat failed", log->name);
    }
    if (st.st_size > log->offset) {
        if (log->state == LOG_READ_DAMAGED) {
            VLOG_INFO("%s: truncating damaged tail of %lld bytes at offset "
                      "%lld", log->name, (long long int) log->tail_bytes,
                      (long long int) log->offset);
        }
        if (ftruncate(log->fd, log->offset)) {
            return ovsdb_io_error(errno, "%s: cannot truncate to length "
                                  "%lld", log->name,
                                  (long long int) log->offset);
        }
    }
    log->tail_bytes = 0;
    log->state = LOG_WRITE;
    return NULL;
}

struct ovsdb_error *
ovsdb_log_write_raw(struct ovsdb_log *log, const char *body, size_t len)
{
    struct ovsdb_error *error = start_writing(log);
    if (error) {
        return error;
    }

    char sha1[41];
    ovsdb_log_sha1_hex(body, len, sha1);
    char *header = xasprintf("%s %zu %s\n", log->magic, len, sha1);
    size_t header_len = strlen(header);

    /* One buffer, one write: the record reaches the file as a unit as far
     * as the kernel allows. */
    char *record = xmalloc(header_len + len);
    memcpy(record, header, header_len);
    memcpy(record + header_len, body, len);
    free(header);

    error = write_fully(log->fd, record, header_len + len, log->offset);
    free(record);
    if (error) {
        /* Take back what did get written, so that a later write (or a
         * reader) does not see a torn record in the middle of the log. */
        if (ftruncate(log->fd, log->offset)) {
            struct ovsdb_error *sticky = ovsdb_io_error(
                errno, "%s: cannot truncate to length %lld after failed "
                "write", log->name, (long long int) log->offset);
            log->state = LOG_ERROR;
            log->error = ovsdb_error_clone(sticky);
            ovsdb_error_destroy(sticky);
        }
        return ovsdb_wrap_error(error, "%s", log->name);
    }
    log->offset += header_len + len;
    return NULL;
}

struct ovsdb_error *
ovsdb_log_write(struct ovsdb_log *log, const json_t *json)
{
    char *text = json_dumps(json, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!text) {
        return ovsdb_error("ovsdb error", "%s: cannot serialize record",
                           log->name);
    }
    size_t len = strlen(text);
    char *body = xmalloc(len + 1);
    memcpy(body, text, len);
    body[len] = '\n';
    free(text);

    struct ovsdb_error *error = ovsdb_log_write_raw(log, body, len + 1);
    free(body);
    return error;
}

struct ovsdb_error *
ovsdb_log_commit_block(struct ovsdb_log *log)
{
    if (log->state == LOG_ERROR) {
        return ovsdb_error_clone(log->error);
    }
    if (log->mode == OVSDB_LOG_READ_ONLY) {
        return NULL;
    }
    while (fdatasync(log->fd)) {
        if (errno != EINTR) {
            /* After a failed fsync the kernel may have dropped the dirty
             * pages: we can no longer tell what is on disk, so refuse to go
             * on rather than acknowledge commits we might lose. */
            struct ovsdb_error *error = ovsdb_io_error(errno, "%s: fsync "
                                                       "failed", log->name);
            log->state = LOG_ERROR;
            log->error = ovsdb_error_clone(error);
            return error;
        }
    }
    return NULL;
}

/* Compaction. */

struct ovsdb_error *
ovsdb_log_replace(struct ovsdb_log *log, json_t **entries, size_t n)
{
    struct ovsdb_error *error = start_writing(log);
    if (error) {
        return error;
    }

    char *tmp_name = xasprintf("%s.tmp", log->name);
    struct ovsdb_log *new;
    error = ovsdb_log_open(tmp_name, log->magic, OVSDB_LOG_CREATE,
                           log->lock != NULL, &new);
    if (error) {
        free(tmp_name);
        return error;
    }

    for (size_t i = 0; !error && i < n; i++) {
        error = ovsdb_log_write(new, entries[i]);
    }
    if (!error) {
        error = ovsdb_log_commit_block(new);
    }
    if (!error && rename(tmp_name, log->name)) {
        error = ovsdb_io_error(errno, "%s: failed to rename to %s",
                               tmp_name, log->name);
    }
    if (error) {
        ovsdb_log_close(new);
        unlink(tmp_name);
        free(tmp_name);
        return error;
    }
    /* The rename is only durable once the directory is. */
    fsync_parent_dir(log->name);
    free(tmp_name);

    /* Continue appending to the new file, still under our own lock. */
    close(log->fd);
    log->fd = new->fd;
    new->fd = -1;
    log->offset = new->offset;
    log->base = new->offset;
    log->state = LOG_WRITE;
    log->tail_bytes = 0;
    log_lock_release(new->lock);
    new->lock = NULL;
    ovsdb_error_destroy(new->error);
    free(new->magic);
    free(new->name);
    free(new);
    return NULL;
}

void
ovsdb_log_mark_base(struct ovsdb_log *log)
{
    log->base = log->offset;
}

bool
ovsdb_log_grew_lots(const struct ovsdb_log *log)
{
    return log->offset >= GREW_LOTS_MIN_BYTES && log->offset / 2 >= log->base;
}

/* Lock files. */

static struct ovsdb_error *
log_lock_acquire(const char *name, struct log_lock **lockp)
{
    char *lockname = ovsdb_log_lockfile_name(name);
    struct ovsdb_error *error = NULL;
    struct stat st;

    *lockp = NULL;
    ovs_mutex_lock(&held_locks_mutex);

    /* Refuse a lock we already hold before opening the file: see the
     * comment on struct log_lock. */
    if (!stat(lockname, &st)) {
        struct log_lock *held;
        LIST_FOR_EACH (held, node, &held_locks) {
            if (held->dev == st.st_dev && held->ino == st.st_ino) {
                VLOG_WARN("%s: cannot lock file because this process has "
                          "already locked it", lockname);
                error = ovsdb_io_error(EDEADLK, "%s: failed to lock lockfile",
                                       name);
                goto out;
            }
        }
    }

    int fd = open(lockname, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
        int err = errno;
        VLOG_WARN("%s: failed to open lock file: %s", lockname,
                  ovs_strerror(err));
        error = ovsdb_io_error(err, "%s: failed to lock lockfile", name);
        goto out;
    }
    if (fstat(fd, &st)) {
        int err = errno;
        close(fd);
        error = ovsdb_io_error(err, "%s: failed to lock lockfile", name);
        goto out;
    }

    struct flock l = {
        .l_type = F_WRLCK,
        .l_whence = SEEK_SET,
        .l_start = 0,
        .l_len = 0,
    };
    int retval;
    do {
        retval = fcntl(fd, F_SETLK, &l);
    } while (retval < 0 && errno == EINTR);
    if (retval < 0) {
        int err = errno == EACCES ? EAGAIN : errno;
        struct flock holder = l;
        if (err == EAGAIN && !fcntl(fd, F_GETLK, &holder)
            && holder.l_type != F_UNLCK) {
            VLOG_WARN("%s: cannot lock file because it is already locked "
                      "by pid %ld", lockname, (long int) holder.l_pid);
        } else {
            VLOG_WARN("%s: failed to lock file: %s", lockname,
                      ovs_strerror(err));
        }
        close(fd);
        error = ovsdb_io_error(err, "%s: failed to lock lockfile", name);
        goto out;
    }

    struct log_lock *lock = xzalloc(sizeof *lock);
    lock->name = lockname;
    lockname = NULL;
    lock->fd = fd;
    lock->dev = st.st_dev;
    lock->ino = st.st_ino;
    ovs_list_push_back(&held_locks, &lock->node);
    *lockp = lock;

out:
    ovs_mutex_unlock(&held_locks_mutex);
    free(lockname);
    return error;
}

static void
log_lock_release(struct log_lock *lock)
{
    if (lock) {
        ovs_mutex_lock(&held_locks_mutex);
        ovs_list_remove(&lock->node);
        ovs_mutex_unlock(&held_locks_mutex);

        /* Closing the descriptor releases the lock.  The lock file itself
         * stays: removing it would race with another process that has just
         * opened it and is about to lock it. */
        close(lock->fd);
        free(lock->name);
        free(lock);
    }
}

static void
fsync_parent_dir(const char *name)
{
    char *dir = dir_name(name);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (fsync(fd) && errno != EINVAL) {
            VLOG_WARN("%s: fsync failed (%s)", dir, ovs_strerror(errno));
        }
        close(fd);
    }
    free(dir);
}
