/* Unit tests for vlog: level specs, per-destination levels, line formats, the
 * log file and rate limiting.  Every test that changes global logging state
 * puts it back, so the suite also passes with CK_FORK=no (one process). */
#include <config.h>
#include "vlog.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dynamic-string.h"
#include "timeval.h"
#include "util.h"

VLOG_DEFINE_THIS_MODULE(test_vlog);
VLOG_DEFINE_MODULE(test_vlog_other);

static char tmpdir[64];

static void
setup(void)
{
    strcpy(tmpdir, "/tmp/test-vlog.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    /* Keep the host's syslog free of test messages. */
    vlog_set_syslog_method("null");
}

static void
teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    vlog_close_log_file();
    vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_INFO);
    vlog_set_pattern(VLF_ANY_DESTINATION, NULL);
    vlog_enable_rate_limit(NULL, true);
}

static char *
tmp_file(const char *name)
{
    return xasprintf("%s/%s", tmpdir, name);
}

/* Returns the contents of FILE_NAME (empty if it does not exist). */
static char *
read_file(const char *file_name)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    FILE *f = fopen(file_name, "r");
    if (f) {
        int c;
        while ((c = getc(f)) != EOF) {
            ds_put_char(&s, c);
        }
        fclose(f);
    }
    ds_put_cstr(&s, "");
    return ds_steal_cstr(&s);
}

static int
count_substrings(const char *haystack, const char *needle)
{
    int n = 0;
    for (const char *p = haystack; (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

/* True if some line of TEXT matches the extended regex PATTERN. */
static bool
has_matching_line(const char *text, const char *pattern)
{
    regex_t re;
    ck_assert_int_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE |
                             REG_NOSUB), 0);
    bool match = !regexec(&re, text, 0, NULL, 0);
    regfree(&re);
    return match;
}

/* Opens a fresh log file in the temporary directory; returns its name. */
static char *
start_log_file(const char *name)
{
    char *file_name = tmp_file(name);
    ck_assert_int_eq(vlog_set_log_file(file_name), 0);
    ck_assert_str_eq(vlog_get_log_file(), file_name);
    return file_name;
}

/* Names and defaults. */

START_TEST(test_default_levels)
{
    /* As `ovs-appctl vlog/list` shows on a freshly started Open vSwitch. */
    struct vlog_module *m = vlog_module_from_name("test_vlog");
    ck_assert_ptr_eq(m, THIS_MODULE);
    ck_assert_int_eq(vlog_get_level(m, VLF_CONSOLE), VLL_INFO);
    ck_assert_int_eq(vlog_get_level(m, VLF_SYSLOG), VLL_INFO);
    ck_assert_int_eq(vlog_get_level(m, VLF_FILE), VLL_INFO);
    ck_assert(VLOG_IS_INFO_ENABLED());
    ck_assert(!VLOG_IS_DBG_ENABLED());
}
END_TEST

START_TEST(test_level_and_destination_names)
{
    static const char *names[] = { "OFF", "EMER", "ERR", "WARN", "INFO",
                                   "DBG" };
    for (int i = 0; i < VLL_N_LEVELS; i++) {
        ck_assert_str_eq(vlog_get_level_name(i), names[i]);
        ck_assert_int_eq(vlog_get_level_val(names[i]), i);
    }
    ck_assert_int_eq(vlog_get_level_val("dbg"), VLL_DBG);
    ck_assert_int_eq(vlog_get_level_val("Warn"), VLL_WARN);
    ck_assert_int_eq(vlog_get_level_val("debug2"), VLL_N_LEVELS);

    ck_assert_int_eq(vlog_get_destination_val("console"), VLF_CONSOLE);
    ck_assert_int_eq(vlog_get_destination_val("SYSLOG"), VLF_SYSLOG);
    ck_assert_int_eq(vlog_get_destination_val("file"), VLF_FILE);
    ck_assert_int_eq(vlog_get_destination_val("any"), VLF_ANY_DESTINATION);
    ck_assert_int_eq(vlog_get_destination_val("disk"),
                     VLF_INVALID_DESTINATION);
    ck_assert_str_eq(vlog_get_destination_name(VLF_SYSLOG), "syslog");

    ck_assert_ptr_null(vlog_module_from_name("no_such_module"));
    ck_assert_ptr_eq(vlog_module_from_name("TEST_VLOG_OTHER"),
                     &VLM_test_vlog_other);
    ck_assert_str_eq(vlog_get_module_name(&VLM_test_vlog_other),
                     "test_vlog_other");
}
END_TEST

/* Level specs. */

static void
assert_levels(const struct vlog_module *m, enum vlog_level console,
              enum vlog_level syslog, enum vlog_level file)
{
    ck_assert_str_eq(vlog_get_level_name(vlog_get_level(m, VLF_CONSOLE)),
                     vlog_get_level_name(console));
    ck_assert_str_eq(vlog_get_level_name(vlog_get_level(m, VLF_SYSLOG)),
                     vlog_get_level_name(syslog));
    ck_assert_str_eq(vlog_get_level_name(vlog_get_level(m, VLF_FILE)),
                     vlog_get_level_name(file));
}

static void
set_ok(const char *spec)
{
    char *error = vlog_set_levels_from_string(spec);
    ck_assert_msg(!error, "\"%s\": %s", spec, error);
}

static void
set_fails(const char *spec, const char *expected_error)
{
    char *error = vlog_set_levels_from_string(spec);
    ck_assert_ptr_nonnull(error);
    ck_assert_str_eq(error, expected_error);
    free(error);
}

START_TEST(test_spec_module_destination_level)
{
    struct vlog_module *other = &VLM_test_vlog_other;

    set_ok("test_vlog:file:dbg");
    assert_levels(THIS_MODULE, VLL_INFO, VLL_INFO, VLL_DBG);
    assert_levels(other, VLL_INFO, VLL_INFO, VLL_INFO);

    /* Any order, any of the separators. */
    set_ok("warn, console test_vlog_other");
    assert_levels(other, VLL_WARN, VLL_INFO, VLL_INFO);
    assert_levels(THIS_MODULE, VLL_INFO, VLL_INFO, VLL_DBG);

    /* No module: every module.  No level: dbg.  No destination: all. */
    set_ok("syslog:off");
    assert_levels(THIS_MODULE, VLL_INFO, VLL_OFF, VLL_DBG);
    assert_levels(other, VLL_WARN, VLL_OFF, VLL_INFO);
    set_ok("test_vlog_other");
    assert_levels(other, VLL_DBG, VLL_DBG, VLL_DBG);
    set_ok("ANY:any:emer");
    assert_levels(THIS_MODULE, VLL_EMER, VLL_EMER, VLL_EMER);
    assert_levels(other, VLL_EMER, VLL_EMER, VLL_EMER);
}
END_TEST

START_TEST(test_spec_applies_to_modules_registered_later)
{
    static struct vlog_module late = {
        .name = "test_vlog_late",
        .levels = { VLL_INFO, VLL_INFO, VLL_INFO },
        .min_level = VLL_INFO,
        .honor_rate_limits = true,
    };

    set_ok("console:warn");
    vlog_insert_module(&late);
    ck_assert_ptr_eq(vlog_module_from_name("test_vlog_late"), &late);
    assert_levels(&late, VLL_WARN, VLL_INFO, VLL_INFO);
}
END_TEST

START_TEST(test_spec_errors_change_nothing)
{
    set_fails("nonexistent",
              "no destination, level, or module \"nonexistent\"");
    set_fails("test_vlog:console:file",
              "cannot specify multiple destinations");
    set_fails("test_vlog:dbg:warn", "cannot specify multiple levels");
    set_fails("test_vlog:test_vlog_other", "cannot specify multiple modules");
    set_fails("test_vlog:console:bogus",
              "no destination, level, or module \"bogus\"");
    set_fails("PATTERN", "missing destination");
    set_fails("PATTERN:disk:%m", "unknown destination \"disk\"");
    set_fails("PATTERN:console", "missing pattern");
    set_fails("FACILITY:bogus", "invalid facility");
    set_fails("FACILITY", "invalid facility");

    assert_levels(THIS_MODULE, VLL_INFO, VLL_INFO, VLL_INFO);
    assert_levels(&VLM_test_vlog_other, VLL_INFO, VLL_INFO, VLL_INFO);

    set_ok("FACILITY:local3");
}
END_TEST

START_TEST(test_verbosity_without_arg_enables_debugging)
{
    vlog_set_verbosity(NULL);
    assert_levels(THIS_MODULE, VLL_DBG, VLL_DBG, VLL_DBG);
    ck_assert(VLOG_IS_DBG_ENABLED());

    vlog_set_verbosity("console:warn");
    assert_levels(THIS_MODULE, VLL_WARN, VLL_DBG, VLL_DBG);
}
END_TEST

START_TEST(test_enabled_ignores_file_without_log_file)
{
    set_ok("console:off");
    set_ok("syslog:off");
    set_ok("file:dbg");
    /* No log file is open, so nothing would be written anywhere. */
    ck_assert(!vlog_is_enabled(THIS_MODULE, VLL_EMER));
    ck_assert(!VLOG_IS_DBG_ENABLED());

    char *file_name = start_log_file("enabled.log");
    ck_assert(VLOG_IS_DBG_ENABLED());
    vlog_close_log_file();
    ck_assert(!VLOG_IS_DBG_ENABLED());
    ck_assert_ptr_null(vlog_get_log_file());
    free(file_name);
}
END_TEST

/* vlog/list and vlog/list-pattern. */

START_TEST(test_list_layout)
{
    set_ok("test_vlog:console:dbg");
    set_ok("test_vlog:syslog:off");
    set_ok("test_vlog_other:file:warn");

    char *list = vlog_get_levels();
    const char *header =
        "                 console    syslog    file\n"
        "                 -------    ------    ------\n";
    ck_assert_int_eq(strncmp(list, header, strlen(header)), 0);
    ck_assert_ptr_nonnull(strstr(list,
        "\ntest_vlog          DBG        OFF       INFO\n"));
    ck_assert_ptr_nonnull(strstr(list,
        "\ntest_vlog_other   INFO       INFO       WARN\n"));
    ck_assert_ptr_nonnull(strstr(list,
        "\nvlog              INFO       INFO       INFO\n"));

    /* One line per module, sorted by name. */
    char *prev = NULL;
    char *save_ptr = NULL;
    int n_lines = 0;
    for (char *line = strtok_r(list + strlen(header), "\n", &save_ptr); line;
         line = strtok_r(NULL, "\n", &save_ptr)) {
        ck_assert_int_eq(strlen(line), 16 + 2 + 4 + 7 + 4 + 7 + 4);
        if (prev) {
            ck_assert_int_lt(strcmp(prev, line), 0);
        }
        prev = line;
        n_lines++;
    }
    ck_assert_int_ge(n_lines, 3);
    free(list);
}
END_TEST

START_TEST(test_list_patterns)
{
    char *patterns = vlog_get_patterns();
    ck_assert(has_matching_line(patterns,
        "^console +none +%D\\{%Y-%m-%dT%H:%M:%SZ\\}\\|%05N\\|%c%T\\|%p\\|%m$"));
    ck_assert(has_matching_line(patterns,
        "^syslog +none +ovs\\|%05N\\|%c%T\\|%p\\|%m$"));
    ck_assert(has_matching_line(patterns,
        "^file +none +%D\\{%Y-%m-%dT%H:%M:%S\\.###Z\\}\\|%05N\\|%c%T\\|%p\\|%m$"));
    free(patterns);

    set_ok("PATTERN:file:%c: %m");
    patterns = vlog_get_patterns();
    ck_assert(has_matching_line(patterns, "^file +none +%c: %m$"));
    free(patterns);
}
END_TEST

/* Output. */

START_TEST(test_file_line_format)
{
    char *file_name = start_log_file("format.log");

    VLOG_INFO("hello %d", 42);
    VLOG_DBG("not at info level");
    vlog(&VLM_test_vlog_other, VLL_WARN, "from the other module\n");

    char *text = read_file(file_name);
    ck_assert(has_matching_line(text,
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"
        "\\|[0-9]{5}\\|vlog\\|INFO\\|opened log file .*/format\\.log$"));
    ck_assert(has_matching_line(text,
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"
        "\\|[0-9]{5}\\|test_vlog\\|INFO\\|hello 42$"));
    /* A trailing newline in the message does not add a blank line. */
    ck_assert(has_matching_line(text,
        "\\|test_vlog_other\\|WARN\\|from the other module$"));
    ck_assert_ptr_null(strstr(text, "\n\n"));
    ck_assert_ptr_null(strstr(text, "not at info level"));
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_sequence_numbers_increase)
{
    char *file_name = start_log_file("seq.log");
    set_ok("PATTERN:file:%N %m");

    VLOG_INFO("first");
    VLOG_INFO("second");

    char *text = read_file(file_name);
    unsigned int first, second;
    char *p = strstr(text, "first");
    ck_assert_ptr_nonnull(p);
    while (p > text && p[-1] != '\n') {
        p--;
    }
    ck_assert_int_eq(sscanf(p, "%u first\n%u second", &first, &second), 2);
    ck_assert_uint_eq(second, first + 1);
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_per_destination_levels)
{
    char *file_name = start_log_file("levels.log");
    set_ok("test_vlog:file:warn");

    VLOG_INFO("info message");
    VLOG_WARN("warn message");
    VLOG_ERR("err message");

    char *text = read_file(file_name);
    ck_assert_ptr_null(strstr(text, "info message"));
    ck_assert(has_matching_line(text, "\\|test_vlog\\|WARN\\|warn message$"));
    ck_assert(has_matching_line(text, "\\|test_vlog\\|ERR\\|err message$"));
    free(text);

    set_ok("test_vlog:file:off");
    VLOG_EMER("emer message");
    text = read_file(file_name);
    ck_assert_ptr_null(strstr(text, "emer message"));
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_pattern_escapes)
{
    char *file_name = start_log_file("pattern.log");
    set_ok("PATTERN:file:[%-6p][%6p][%05N][%c][%t][%T][%A][%P][%%][%m]");

    VLOG_WARN("msg");

    char *text = read_file(file_name);
    char *expected_tail = xasprintf("[%s][%ld][%%][msg]", program_name,
                                    (long int) getpid());
    char *pattern = xasprintf("^\\[WARN  \\]\\[  WARN\\]\\[[0-9]{5}\\]"
                              "\\[test_vlog\\]\\[main\\]\\[\\]");
    ck_assert(has_matching_line(text, pattern));
    ck_assert_ptr_nonnull(strstr(text, expected_tail));
    free(pattern);
    free(expected_tail);
    free(text);
    free(file_name);
}
END_TEST

static void *
named_thread(void *aux OVS_UNUSED)
{
    vlog_set_thread_name("worker7");
    ck_assert_str_eq(vlog_get_thread_name(), "worker7");
    VLOG_INFO("from a thread");
    vlog_set_thread_name(NULL);
    ck_assert_str_eq(vlog_get_thread_name(), "thread");
    return NULL;
}

START_TEST(test_thread_name_in_file)
{
    char *file_name = start_log_file("thread.log");
    pthread_t thread;

    ck_assert_str_eq(vlog_get_thread_name(), "main");
    ck_assert_int_eq(pthread_create(&thread, NULL, named_thread, NULL), 0);
    pthread_join(thread, NULL);
    VLOG_INFO("from main");

    char *text = read_file(file_name);
    ck_assert(has_matching_line(text,
        "\\|test_vlog\\(worker7\\)\\|INFO\\|from a thread$"));
    ck_assert(has_matching_line(text, "\\|test_vlog\\|INFO\\|from main$"));
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_console_goes_to_stderr)
{
    char *file_name = tmp_file("stderr.txt");
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *f = fopen(file_name, "w");
    ck_assert_ptr_nonnull(f);
    dup2(fileno(f), STDERR_FILENO);

    VLOG_WARN("to the console");
    VLOG_DBG("hidden");

    dup2(saved, STDERR_FILENO);
    close(saved);
    fclose(f);

    char *text = read_file(file_name);
    ck_assert(has_matching_line(text,
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"
        "\\|[0-9]{5}\\|test_vlog\\|WARN\\|to the console$"));
    ck_assert_ptr_null(strstr(text, "hidden"));
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_reopen_after_rotation)
{
    char *file_name = start_log_file("rotate.log");
    char *rotated = tmp_file("rotate.log.1");

    VLOG_INFO("before rotation");
    ck_assert_int_eq(rename(file_name, rotated), 0);
    VLOG_INFO("after rename");      /* Still goes to the renamed file. */
    ck_assert_int_eq(vlog_reopen_log_file(), 0);
    VLOG_INFO("after reopen");

    char *old_text = read_file(rotated);
    char *new_text = read_file(file_name);
    ck_assert_ptr_nonnull(strstr(old_text, "before rotation"));
    ck_assert_ptr_nonnull(strstr(old_text, "after rename"));
    ck_assert_ptr_null(strstr(old_text, "after reopen"));
    ck_assert_ptr_nonnull(strstr(new_text, "after reopen"));
    free(old_text);
    free(new_text);

    /* Reopening a file that was not moved keeps appending to it. */
    ck_assert_int_eq(vlog_reopen_log_file(), 0);
    VLOG_INFO("second reopen");
    new_text = read_file(file_name);
    ck_assert_ptr_nonnull(strstr(new_text, "after reopen"));
    ck_assert_ptr_nonnull(strstr(new_text, "second reopen"));
    free(new_text);

    /* After close, nothing more is written. */
    vlog_close_log_file();
    VLOG_INFO("after close");
    new_text = read_file(file_name);
    ck_assert_ptr_null(strstr(new_text, "after close"));
    free(new_text);

    free(rotated);
    free(file_name);
}
END_TEST

START_TEST(test_log_file_open_failure)
{
    char *file_name = start_log_file("good.log");
    char *bad = tmp_file("no/such/dir/bad.log");

    ck_assert_int_eq(vlog_set_log_file(bad), ENOENT);
    /* The previous log file stays in use. */
    ck_assert_str_eq(vlog_get_log_file(), file_name);
    VLOG_INFO("still logging");
    char *text = read_file(file_name);
    ck_assert_ptr_nonnull(strstr(text, "still logging"));
    free(text);
    free(bad);
    free(file_name);
}
END_TEST

START_TEST(test_relative_log_file_name)
{
    char *cwd = getcwd(NULL, 0);
    ck_assert_int_eq(chdir(tmpdir), 0);
    ck_assert_int_eq(vlog_set_log_file("relative.log"), 0);
    ck_assert_int_eq(chdir(cwd), 0);

    char *expected = tmp_file("relative.log");
    ck_assert_str_eq(vlog_get_log_file(), expected);
    VLOG_INFO("relative");
    char *text = read_file(expected);
    ck_assert_ptr_nonnull(strstr(text, "relative"));
    free(text);
    free(expected);
    free(cwd);
}
END_TEST

/* Rate limiting. */

START_TEST(test_rate_limit_drops_after_burst)
{
    /* 60 per minute is one per second, after a burst of 3. */
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(60, 3);
    char *file_name = start_log_file("rate.log");

    time_stop();
    for (int i = 0; i < 10; i++) {
        VLOG_WARN_RL(&rl, "limited %d", i);
    }
    char *text = read_file(file_name);
    ck_assert_int_eq(count_substrings(text, "limited "), 3);
    ck_assert_ptr_nonnull(strstr(text, "limited 2\n"));
    ck_assert_ptr_null(strstr(text, "Dropped"));
    free(text);

    /* One second later there is room for one message, which first reports
     * what was dropped. */
    time_warp(1000);
    VLOG_WARN_RL(&rl, "limited again");
    VLOG_WARN_RL(&rl, "dropped again");
    text = read_file(file_name);
    ck_assert(has_matching_line(text,
        "\\|test_vlog\\|WARN\\|Dropped 7 log messages in last 1 seconds "
        "\\(most recently, 1 seconds ago\\) due to excessive rate$"));
    char *report = strstr(text, "Dropped 7");
    ck_assert_ptr_nonnull(report);
    ck_assert_ptr_nonnull(strstr(report, "limited again"));
    ck_assert_ptr_null(strstr(text, "dropped again"));
    free(text);

    /* A long quiet period refills only up to the burst. */
    time_warp(3600 * 1000);
    for (int i = 0; i < 10; i++) {
        VLOG_WARN_RL(&rl, "refilled %d", i);
    }
    text = read_file(file_name);
    ck_assert_int_eq(count_substrings(text, "refilled "), 3);
    ck_assert(has_matching_line(text, "Dropped 1 log messages in last 3600 "
                                "seconds \\(most recently, 3600 seconds ago\\)"));
    free(text);
    free(file_name);
}
END_TEST

START_TEST(test_rate_limit_disabled)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 1);
    char *file_name = start_log_file("norate.log");

    time_stop();
    vlog_enable_rate_limit(THIS_MODULE, false);
    for (int i = 0; i < 5; i++) {
        VLOG_INFO_RL(&rl, "unlimited");
    }
    vlog_enable_rate_limit(THIS_MODULE, true);
    VLOG_INFO_RL(&rl, "limited");
    VLOG_INFO_RL(&rl, "limited");

    char *text = read_file(file_name);
    ck_assert_int_eq(count_substrings(text, "unlimited"), 5);
    ck_assert_int_eq(count_substrings(text, "|limited"), 1);
    free(text);

    /* A disabled level is always "dropped", without using a token. */
    ck_assert(VLOG_DROP_DBG(&rl));
    free(file_name);
}
END_TEST

static Suite *
vlog_suite(void)
{
    Suite *s = suite_create("vlog");

    TCase *names = tcase_create("names");
    tcase_add_checked_fixture(names, setup, teardown);
    tcase_add_test(names, test_default_levels);
    tcase_add_test(names, test_level_and_destination_names);
    suite_add_tcase(s, names);

    TCase *specs = tcase_create("specs");
    tcase_add_checked_fixture(specs, setup, teardown);
    tcase_add_test(specs, test_spec_module_destination_level);
    tcase_add_test(specs, test_spec_applies_to_modules_registered_later);
    tcase_add_test(specs, test_spec_errors_change_nothing);
    tcase_add_test(specs, test_verbosity_without_arg_enables_debugging);
    tcase_add_test(specs, test_enabled_ignores_file_without_log_file);
    tcase_add_test(specs, test_list_layout);
    tcase_add_test(specs, test_list_patterns);
    suite_add_tcase(s, specs);

    TCase *output = tcase_create("output");
    tcase_add_checked_fixture(output, setup, teardown);
    tcase_add_test(output, test_file_line_format);
    tcase_add_test(output, test_sequence_numbers_increase);
    tcase_add_test(output, test_per_destination_levels);
    tcase_add_test(output, test_pattern_escapes);
    tcase_add_test(output, test_thread_name_in_file);
    tcase_add_test(output, test_console_goes_to_stderr);
    tcase_add_test(output, test_reopen_after_rotation);
    tcase_add_test(output, test_log_file_open_failure);
    tcase_add_test(output, test_relative_log_file_name);
    suite_add_tcase(s, output);

    TCase *rate = tcase_create("rate limiting");
    tcase_add_checked_fixture(rate, setup, teardown);
    tcase_add_test(rate, test_rate_limit_drops_after_burst);
    tcase_add_test(rate, test_rate_limit_disabled);
    suite_add_tcase(s, rate);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(vlog_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
