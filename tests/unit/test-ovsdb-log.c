#include <config.h>
#include "log.h"

#include <check.h>
#include "check-util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovsdb-error.h"
#include "util.h"
#include "vlog.h"

/* Every test works in a fresh private directory. */
static char tmpdir[64];
static char *db_name;

static void
setup(void)
{
    strcpy(tmpdir, "/tmp/test-ovsdb-log.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    db_name = xasprintf("%s/db", tmpdir);
}

static void
teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(db_name);
    db_name = NULL;
}

/* Returns the error's string and frees it. */
static char *
error_string(struct ovsdb_error *error)
{
    ck_assert_ptr_nonnull(error);
    return ovsdb_error_to_string_free(error);
}

static json_t *
record(int i)
{
    return json_pack("{s:i, s:s, s:[i, b]}", "n", i, "text",
                     "caf\xc3\xa9 \"quoted\"\n", "list", i * 2, i & 1);
}

static struct ovsdb_log *
open_log(enum ovsdb_log_open_mode mode)
{
    struct ovsdb_log *log;
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, mode, -1, &log));
    return log;
}

static void
write_records(struct ovsdb_log *log, int from, int to)
{
    for (int i = from; i < to; i++) {
        json_t *json = record(i);
        check_ovsdb_ok(ovsdb_log_write(log, json));
        json_decref(json);
    }
}

/* Reads the log to its end and checks that it holds exactly the records
 * numbered N[0..N_N). */
static void
expect_records(struct ovsdb_log *log, const int *n, size_t n_n)
{
    for (size_t i = 0; i < n_n; i++) {
        json_t *json, *expected = record(n[i]);
        check_ovsdb_ok(ovsdb_log_read(log, &json));
        ck_assert_msg(json != NULL, "record %zu missing", i);
        ck_assert_msg(json_equal(json, expected), "record %zu differs", i);
        json_decref(json);
        json_decref(expected);
    }
    json_t *json;
    check_ovsdb_ok(ovsdb_log_read(log, &json));
    ck_assert_ptr_null(json);
}

static off_t
file_size(const char *name)
{
    struct stat st;
    ck_assert_int_eq(stat(name, &st), 0);
    return st.st_size;
}

static char *
read_file(const char *name, size_t *sizep)
{
    FILE *f = fopen(name, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = xmalloc(1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = '\0';
    fclose(f);
    if (sizep) {
        *sizep = n;
    }
    return buf;
}

static void
append_bytes(const char *name, const char *bytes, size_t n)
{
    FILE *f = fopen(name, "ab");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* Opens a private log file so that warnings can be checked. */
static char *
start_capturing_log(void)
{
    char *name = xasprintf("%s/vlog", tmpdir);
    ck_assert_int_eq(vlog_set_log_file(name), 0);
    return name;
}

/* Stops capturing and returns how many lines of the captured log contain
 * every one of the N_WORDS strings WORDS. */
static int
count_log_lines(char *log_name, const char *const *words, size_t n_words)
{
    vlog_close_log_file();
    char *text = read_file(log_name, NULL);
    int count = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t i;
        for (i = 0; i < n_words; i++) {
            if (!strstr(line, words[i])) {
                break;
            }
        }
        count += i == n_words;
    }
    free(text);
    free(log_name);
    return count;
}

/* Framing. */

START_TEST(test_framing_matches_open_vswitch)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    json_t *json = json_pack("{s:i}", "a", 1);
    check_ovsdb_ok(ovsdb_log_write(log, json));
    json_decref(json);
    check_ovsdb_ok(ovsdb_log_commit_block(log));
    ovsdb_log_close(log);

    /* The SHA-1 covers the body including its final newline. */
    static const char expected[] =
        "OVSDB JSON 8 8a3d961f7fe8ef7b41d461059884a9461be85059\n"
        "{\"a\":1}\n";
    size_t size;
    char *contents = read_file(db_name, &size);
    ck_assert_uint_eq(size, strlen(expected));
    ck_assert_str_eq(contents, expected);
    free(contents);
}
END_TEST

START_TEST(test_round_trip)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 50);
    check_ovsdb_ok(ovsdb_log_commit_block(log));
    off_t end = ovsdb_log_get_offset(log);
    ck_assert_int_eq(end, file_size(db_name));
    ovsdb_log_close(log);

    int n[50];
    for (int i = 0; i < 50; i++) {
        n[i] = i;
    }
    log = open_log(OVSDB_LOG_READ_ONLY);
    ck_assert_str_eq(ovsdb_log_get_magic(log), OVSDB_MAGIC);
    expect_records(log, n, 50);
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ck_assert_int_eq(ovsdb_log_get_offset(log), end);
    ovsdb_log_close(log);

    /* Appending after reading everything continues the same log. */
    log = open_log(OVSDB_LOG_READ_WRITE);
    expect_records(log, n, 50);
    write_records(log, 50, 51);
    ovsdb_log_close(log);
    log = open_log(OVSDB_LOG_READ_ONLY);
    int m[51];
    for (int i = 0; i < 51; i++) {
        m[i] = i;
    }
    expect_records(log, m, 51);
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_empty_file_has_no_records)
{
    close(open(db_name, O_CREAT | O_WRONLY, 0600));
    struct ovsdb_log *log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, NULL, 0);
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);
}
END_TEST

/* Damaged tails. */

START_TEST(test_torn_tail_truncated_then_append)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 2);
    off_t good = ovsdb_log_get_offset(log);
    write_records(log, 2, 3);
    ovsdb_log_close(log);

    /* A crash in the middle of writing record 2. */
    off_t size = file_size(db_name);
    ck_assert_int_eq(truncate(db_name, size - 5), 0);

    char *vlog = start_capturing_log();
    log = open_log(OVSDB_LOG_READ_WRITE);
    expect_records(log, (int[]) { 0, 1 }, 2);
    /* Reading on past the end keeps saying "end", without more warnings. */
    expect_records(log, NULL, 0);
    ck_assert(ovsdb_log_has_damaged_tail(log));
    ck_assert_int_eq(ovsdb_log_get_offset(log), good);
    ck_assert_int_eq(ovsdb_log_get_tail_bytes(log), size - 5 - good);

    char *offset = xasprintf("offset %lld", (long long int) good);
    const char *words[] = { "WARN", db_name, offset };
    ck_assert_int_eq(count_log_lines(vlog, words, ARRAY_SIZE(words)), 1);
    free(offset);

    /* The next write replaces the torn record. */
    write_records(log, 3, 4);
    check_ovsdb_ok(ovsdb_log_commit_block(log));
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);

    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 0, 1, 3 }, 3);
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ck_assert_int_eq(ovsdb_log_get_offset(log), file_size(db_name));
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_read_only_leaves_damaged_tail_alone)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 1);
    ovsdb_log_close(log);
    append_bytes(db_name, "OVSDB JSON 99", 13);
    off_t size = file_size(db_name);

    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 0 }, 1);
    ck_assert(ovsdb_log_has_damaged_tail(log));
    struct ovsdb_error *error = ovsdb_log_write(log, json_null());
    free(error_string(error));
    ovsdb_log_close(log);
    ck_assert_int_eq(file_size(db_name), size);
}
END_TEST

START_TEST(test_checksum_mismatch_detected)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 1);
    off_t second = ovsdb_log_get_offset(log);
    write_records(log, 1, 3);
    ovsdb_log_close(log);

    /* Flip one byte inside record 1's body (after its header line), keeping
     * the JSON valid: only the checksum can tell. */
    size_t size;
    char *contents = read_file(db_name, &size);
    char *body = strchr(contents + second, '\n') + 1;
    char *digit = strstr(body, "\"n\":1");
    ck_assert_ptr_nonnull(digit);
    digit[4] = '7';
    FILE *f = fopen(db_name, "wb");
    ck_assert_uint_eq(fwrite(contents, 1, size, f), size);
    fclose(f);
    free(contents);

    char *vlog = start_capturing_log();
    log = open_log(OVSDB_LOG_READ_WRITE);
    expect_records(log, (int[]) { 0 }, 1);
    ck_assert(ovsdb_log_has_damaged_tail(log));
    const char *words[] = { "WARN", db_name, "SHA-1" };
    ck_assert_int_eq(count_log_lines(vlog, words, ARRAY_SIZE(words)), 1);

    /* Everything from the damaged record on is discarded by a write. */
    write_records(log, 5, 6);
    ovsdb_log_close(log);
    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 0, 5 }, 2);
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_bad_header_detected)
{
    static const char *const garbage[] = {
        "garbage\n",
        "OVSDB JSON x 8a3d961f7fe8ef7b41d461059884a9461be85059\n{\"a\":1}\n",
        "OVSDB JSON 8 8a3d961f7fe8\n{\"a\":1}\n",
        "OVSDB JSON 99999999999999999999999 "
        "8a3d961f7fe8ef7b41d461059884a9461be85059\n",
        "OVSDB JSON 80000000000 8a3d961f7fe8ef7b41d461059884a9461be85059\n",
        "OVSDB JSON 8 8a3d961f7fe8ef7b41d461059884a9461be85059",
    };
    for (size_t i = 0; i < ARRAY_SIZE(garbage); i++) {
        unlink(db_name);
        struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
        write_records(log, 0, 2);
        ovsdb_log_close(log);
        append_bytes(db_name, garbage[i], strlen(garbage[i]));

        log = open_log(OVSDB_LOG_READ_ONLY);
        expect_records(log, (int[]) { 0, 1 }, 2);
        ck_assert_msg(ovsdb_log_has_damaged_tail(log), "garbage %zu", i);
        ck_assert_int_eq(ovsdb_log_get_tail_bytes(log), strlen(garbage[i]));
        ovsdb_log_close(log);
    }
}
END_TEST

START_TEST(test_bad_json_with_good_checksum_detected)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 1);
    check_ovsdb_ok(ovsdb_log_write_raw(log, "{not json\n", 10));
    write_records(log, 1, 2);
    ovsdb_log_close(log);

    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 0 }, 1);
    ck_assert(ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_other_magic_rejected)
{
    append_bytes(db_name, "NOT A DATABASE\n", 15);
    struct ovsdb_log *log;
    char *s = error_string(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                          OVSDB_LOG_READ_ONLY, -1, &log));
    ck_assert_ptr_null(log);
    ck_assert_ptr_nonnull(strstr(s, "unexpected file format"));
    free(s);

    /* A clustered file is named as such. */
    unlink(db_name);
    append_bytes(db_name, "OVSDB CLUSTER 2 x\n", 18);
    s = error_string(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                    OVSDB_LOG_READ_ONLY, -1, &log));
    ck_assert_ptr_nonnull(strstr(s, "clustered"));
    free(s);

    /* ...and accepted when the caller accepts both kinds. */
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC "|" RAFT_MAGIC,
                            OVSDB_LOG_READ_ONLY, -1, &log));
    ck_assert_str_eq(ovsdb_log_get_magic(log), RAFT_MAGIC);
    ovsdb_log_close(log);
}
END_TEST

/* Opening modes. */

START_TEST(test_create_excl_refuses_existing)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 1);
    ovsdb_log_close(log);

    char *s = error_string(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                          OVSDB_LOG_CREATE_EXCL, -1, &log));
    char *expected = xasprintf("I/O error: %s: create failed (%s)", db_name,
                               strerror(EEXIST));
    ck_assert_str_eq(s, expected);
    free(expected);
    free(s);

    /* CREATE truncates. */
    log = open_log(OVSDB_LOG_CREATE);
    expect_records(log, NULL, 0);
    ovsdb_log_close(log);
    ck_assert_int_eq(file_size(db_name), 0);
}
END_TEST

START_TEST(test_open_missing_file)
{
    struct ovsdb_log *log;
    char *s = error_string(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                          OVSDB_LOG_READ_ONLY, -1, &log));
    char *expected = xasprintf("I/O error: %s: open failed (%s)", db_name,
                               strerror(ENOENT));
    ck_assert_str_eq(s, expected);
    free(expected);
    free(s);
}
END_TEST

/* Locking. */

START_TEST(test_lock_excludes_second_writer_in_process)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    struct ovsdb_log *log2;

    char *s = error_string(ovsdb_log_open(db_name, OVSDB_MAGIC,
                                          OVSDB_LOG_READ_WRITE, -1, &log2));
    ck_assert_ptr_null(log2);
    ck_assert_ptr_nonnull(strstr(s, "failed to lock lockfile"));
    free(s);

    /* Readers need no lock. */
    check_ovsdb_ok(ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_READ_ONLY, -1,
                            &log2));
    ovsdb_log_close(log2);

    /* The refused attempt must not have dropped the first lock. */
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (!pid) {
        /* (Everything is freed so that valgrind, which follows the child,
         * has nothing to report.) */
        struct ovsdb_log *child;
        struct ovsdb_error *error = ovsdb_log_open(db_name, OVSDB_MAGIC,
                                                   OVSDB_LOG_READ_WRITE, -1,
                                                   &child);
        bool refused = error != NULL;
        ovsdb_error_destroy(error);
        ovsdb_log_close(child);
        ovsdb_log_close(log);
        free(db_name);
        _exit(refused ? 0 : 1);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    ovsdb_log_close(log);

    /* Once closed, the file can be opened for writing again. */
    log = open_log(OVSDB_LOG_READ_WRITE);
    ovsdb_log_close(log);

    char *lockname = ovsdb_log_lockfile_name(db_name);
    char *expected = xasprintf("%s/.db.~lock~", tmpdir);
    ck_assert_str_eq(lockname, expected);
    free(expected);
    free(lockname);

    lockname = ovsdb_log_lockfile_name("conf.db");
    ck_assert_str_eq(lockname, ".conf.db.~lock~");
    free(lockname);
}
END_TEST

START_TEST(test_lock_excludes_other_process)
{
    int ready[2], done[2];
    ck_assert_int_eq(pipe(ready), 0);
    ck_assert_int_eq(pipe(done), 0);

    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (!pid) {
        struct ovsdb_log *child;
        char c = 'x';
        if (ovsdb_log_open(db_name, OVSDB_MAGIC, OVSDB_LOG_CREATE_EXCL, -1,
                           &child)) {
            _exit(1);
        }
        bool ok = write(ready[1], &c, 1) == 1 && read(done[0], &c, 1) == 1;
        ovsdb_log_close(child);
        free(db_name);
        _exit(ok ? 0 : 1);
    }
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);

    struct ovsdb_log *log;
    struct ovsdb_error *error = ovsdb_log_open(db_name, OVSDB_MAGIC,
                                               OVSDB_LOG_READ_WRITE, -1,
                                               &log);
    char *s = error_string(error);
    ck_assert_ptr_nonnull(strstr(s, "failed to lock lockfile"));
    free(s);

    ck_assert_int_eq(write(done[1], &c, 1), 1);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* The lock died with its process. */
    log = open_log(OVSDB_LOG_READ_WRITE);
    ovsdb_log_close(log);
    close(ready[0]);
    close(ready[1]);
    close(done[0]);
    close(done[1]);
}
END_TEST

/* Durability and failures. */

START_TEST(test_commit_block_makes_records_visible_to_others)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 3);
    check_ovsdb_ok(ovsdb_log_commit_block(log));

    /* A reader opened while the writer is still running sees every
     * committed record. */
    struct ovsdb_log *reader = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(reader, (int[]) { 0, 1, 2 }, 3);
    ovsdb_log_close(reader);
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_failed_write_leaves_no_torn_record)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 1);
    off_t size = file_size(db_name);

    /* Exceeding the file size limit makes write() fail half way. */
    struct rlimit old, small;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = size + 100;
    char big[1000];
    memset(big, 'x', sizeof big);
    json_t *json = json_stringn(big, sizeof big);

    /* No ck_assert between the two setrlimit() calls: Check itself writes
     * to a file and would trip over the limit. */
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    int retval1 = setrlimit(RLIMIT_FSIZE, &small);
    struct ovsdb_error *error = ovsdb_log_write(log, json);
    int retval2 = setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);
    json_decref(json);
    ck_assert_int_eq(retval1, 0);
    ck_assert_int_eq(retval2, 0);

    free(error_string(error));
    ck_assert_int_eq(file_size(db_name), size);
    ck_assert_int_eq(ovsdb_log_get_offset(log), size);

    /* The log goes on working. */
    write_records(log, 1, 2);
    ovsdb_log_close(log);
    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 0, 1 }, 2);
    ck_assert(!ovsdb_log_has_damaged_tail(log));
    ovsdb_log_close(log);
}
END_TEST

/* Compaction. */

START_TEST(test_replace_is_atomic_and_keeps_appending)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 20);

    json_t *entries[2] = { record(100), record(101) };
    check_ovsdb_ok(ovsdb_log_replace(log, entries, 2));
    json_decref(entries[0]);
    json_decref(entries[1]);
    ck_assert_int_eq(ovsdb_log_get_offset(log), file_size(db_name));

    write_records(log, 102, 103);
    check_ovsdb_ok(ovsdb_log_commit_block(log));

    /* Still locked after the swap. */
    struct ovsdb_log *log2;
    struct ovsdb_error *error = ovsdb_log_open(db_name, OVSDB_MAGIC,
                                               OVSDB_LOG_READ_WRITE, -1,
                                               &log2);
    free(error_string(error));
    ovsdb_log_close(log);

    char *tmp = xasprintf("%s.tmp", db_name);
    ck_assert_int_ne(access(tmp, F_OK), 0);
    free(tmp);

    log = open_log(OVSDB_LOG_READ_ONLY);
    expect_records(log, (int[]) { 100, 101, 102 }, 3);
    ovsdb_log_close(log);
}
END_TEST

START_TEST(test_grew_lots)
{
    struct ovsdb_log *log = open_log(OVSDB_LOG_CREATE_EXCL);
    write_records(log, 0, 100);
    /* Small logs never need compacting. */
    ck_assert(!ovsdb_log_grew_lots(log));

    char *big = xmalloc(1 << 20);
    memset(big, 'y', 1 << 20);
    json_t *json = json_stringn(big, 1 << 20);
    free(big);
    for (int i = 0; i < 11; i++) {
        check_ovsdb_ok(ovsdb_log_write(log, json));
    }
    ck_assert(ovsdb_log_grew_lots(log));

    /* Measured from the last snapshot: right after one, no. */
    ovsdb_log_mark_base(log);
    ck_assert(!ovsdb_log_grew_lots(log));
    check_ovsdb_ok(ovsdb_log_write(log, json));
    ck_assert(!ovsdb_log_grew_lots(log));
    json_decref(json);
    ovsdb_log_close(log);
}
END_TEST

static Suite *
ovsdb_log_suite(void)
{
    Suite *s = suite_create("ovsdb-log");

    TCase *tc = tcase_create("format");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_framing_matches_open_vswitch);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_empty_file_has_no_records);
    suite_add_tcase(s, tc);

    tc = tcase_create("damage");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_torn_tail_truncated_then_append);
    tcase_add_test(tc, test_read_only_leaves_damaged_tail_alone);
    tcase_add_test(tc, test_checksum_mismatch_detected);
    tcase_add_test(tc, test_bad_header_detected);
    tcase_add_test(tc, test_bad_json_with_good_checksum_detected);
    tcase_add_test(tc, test_other_magic_rejected);
    suite_add_tcase(s, tc);

    tc = tcase_create("open");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_create_excl_refuses_existing);
    tcase_add_test(tc, test_open_missing_file);
    tcase_add_test(tc, test_lock_excludes_second_writer_in_process);
    tcase_add_test(tc, test_lock_excludes_other_process);
    suite_add_tcase(s, tc);

    tc = tcase_create("durability");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_commit_block_makes_records_visible_to_others);
    tcase_add_test(tc, test_failed_write_leaves_no_torn_record);
    tcase_add_test(tc, test_replace_is_atomic_and_keeps_appending);
    tcase_add_test(tc, test_grew_lots);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    /* Keep the expected warnings off the console. */
    vlog_set_levels(NULL, VLF_CONSOLE, VLL_OFF);

    SRunner *sr = srunner_create(ovsdb_log_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed != 0;
}
