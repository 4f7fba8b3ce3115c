/* vlog: leveled, per-module logging to the console, syslog and a log file.
 *
 * Every source file that logs names its module once, at file scope:
 *
 *     VLOG_DEFINE_THIS_MODULE(bridge);
 *
 * and then logs with printf-style macros:
 *
 *     VLOG_INFO("%s: added interface %s", br->name, iface->name);
 *     VLOG_WARN_RL(&rl, "%s: bad packet", name);   // rate-limited
 *
 * A module registers itself before main() runs, so `ovs-appctl vlog/list`
 * always shows every module linked into the program, whether or not it has
 * logged yet.  A module name may be defined only once per program (a second
 * definition is a link error).
 *
 * Levels and destinations
 * -----------------------
 *
 * Levels, from most to least severe: emer, err, warn, info, dbg; "off"
 * disables a destination.  Each module has one level per destination: the
 * console (stderr), syslog, and the log file.  A message is written to every
 * destination whose level is at least as verbose as the message.  Defaults,
 * as in Open vSwitch: info everywhere (the file is only
 * written once a log file has been configured with --log-file).
 *
 * Levels are changed with a "spec" (vlog_set_levels_from_string(), -v/
 * --verbose=SPEC, `ovs-appctl vlog/set SPEC`): words separated by spaces,
 * commas or colons, each a module name, a destination (console, syslog, file,
 * any) or a level, e.g. "dbg", "vconn:file:dbg", "console:off".  Omitted
 * parts mean "all modules", "any destination" and "dbg".  Two special forms
 * set a destination's line format, "PATTERN:console:%p|%m", and the syslog
 * facility, "FACILITY:local3".
 *
 * Patterns (line formats)
 * -----------------------
 *
 *     %A program name          %c module name        %d{FMT} local time
 *     %D{FMT} UTC time          %E host name          %m message
 *     %N message sequence no.  %n newline            %p level (ERR, WARN...)
 *     %P process id            %r ms since start     %t thread name
 *     %T "(thread name)" in threads other than main, else nothing
 *     %B syslog priority (RFC 5424 <PRI> value)      %% a percent sign
 *
 * FMT is strftime() syntax; "###" in it becomes milliseconds.  Each escape
 * may take a flag "-" (left justify), "0" (zero pad) and a width: "%05N".
 *
 * Threads
 * -------
 *
 * Any thread may log at any time.  Whether a level is enabled is a single
 * relaxed atomic load, so disabled debug logging costs next to nothing; a
 * mutex serializes the writing of enabled messages so lines never interleave.
 * Threads started by ovs_thread_create() call vlog_set_thread_name() so that
 * their messages carry the thread's name (%T, %t).
 *
 * Memory
 * ------
 *
 * Functions returning char * (vlog_get_levels(), the error strings of
 * vlog_set_levels_from_string(), ...) hand ownership to the caller, who
 * frees them with free().  struct vlog_module and struct vlog_rate_limit are
 * statically allocated by the macros below and never freed.
 */
#ifndef VLOG_H
#define VLOG_H 1

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <time.h>
#include "ovs-thread.h"
#include "util.h"

/* Logging levels, most severe first.  The numeric order matters: a message at
 * LEVEL is written where the configured level is >= LEVEL. */
enum vlog_level {
    VLL_OFF,
    VLL_EMER,
    VLL_ERR,
    VLL_WARN,
    VLL_INFO,
    VLL_DBG,
    VLL_N_LEVELS
};

/* "OFF", "EMER", "ERR", "WARN", "INFO", "DBG" (as printed in log lines). */
const char *vlog_get_level_name(enum vlog_level);
/* Parses a level name case-insensitively; VLL_N_LEVELS if unknown. */
enum vlog_level vlog_get_level_val(const char *name);

enum vlog_destination {
    VLF_CONSOLE,
    VLF_SYSLOG,
    VLF_FILE,
    VLF_N_DESTINATIONS,
    VLF_ANY_DESTINATION = VLF_N_DESTINATIONS
};
/* Short alias used by callers that mean "every destination". */
#define VLF_ANY VLF_ANY_DESTINATION

/* "console", "syslog", "file". */
const char *vlog_get_destination_name(enum vlog_destination);
/* Parses a destination name case-insensitively ("any" gives
 * VLF_ANY_DESTINATION); VLF_N_DESTINATIONS + 1 if unknown. */
enum vlog_destination vlog_get_destination_val(const char *name);
#define VLF_INVALID_DESTINATION (VLF_N_DESTINATIONS + 1)

/* One logging module.  Defined by VLOG_DEFINE_MODULE; the fields are private
 * to vlog.c except that the macros below read min_level. */
struct vlog_module {
    struct vlog_module *next;       /* In vlog.c's list of all modules. */
    const char *name;
    int levels[VLF_N_DESTINATIONS]; /* enum vlog_level per destination. */
    int min_level;                  /* Most verbose of levels[], or of
                                     * console and syslog when no log file is
                                     * open.  Read with relaxed atomics. */
    bool honor_rate_limits;
};

/* Adds MODULE to the global list (done by the constructor that
 * VLOG_DEFINE_MODULE emits; not normally called directly). */
void vlog_insert_module(struct vlog_module *);

/* Defines a module named MODULE as the global "VLM_MODULE" and registers it at
 * start-up. */
#define VLOG_DEFINE_MODULE(MODULE)                                          \
    extern struct vlog_module VLM_##MODULE;                                 \
    struct vlog_module VLM_##MODULE = {                                     \
        .next = NULL,                                                       \
        .name = #MODULE,                                                    \
        .levels = { VLL_INFO, VLL_ERR, VLL_INFO },                          \
        .min_level = VLL_INFO,                                              \
        .honor_rate_limits = true,                                          \
    };                                                                      \
    static void vlog_register_module_##MODULE(void)                         \
        __attribute__((constructor));                                       \
    static void                                                             \
    vlog_register_module_##MODULE(void)                                     \
    {                                                                       \
        vlog_insert_module(&VLM_##MODULE);                                  \
    }                                                                       \
    struct vlog_module_define_dummy_##MODULE /* swallows the semicolon */

/* Defines MODULE and makes it the module that VLOG_*() in this file log to. */
#define VLOG_DEFINE_THIS_MODULE(MODULE)                                     \
    VLOG_DEFINE_MODULE(MODULE);                                             \
    static struct vlog_module *const this_module OVS_UNUSED = &VLM_##MODULE

/* Makes VLOG_*() in this file log to MODULE, which another file defines
 * (for a module whose messages come from more than one file). */
#define VLOG_USE_MODULE(MODULE)                                             \
    extern struct vlog_module VLM_##MODULE;                                 \
    static struct vlog_module *const this_module OVS_UNUSED = &VLM_##MODULE

/* The module of the current file, for calling the functions directly. */
#define THIS_MODULE this_module

/* Looks up a module by name (case-insensitive); NULL if none. */
struct vlog_module *vlog_module_from_name(const char *name);
const char *vlog_get_module_name(const struct vlog_module *);

/* Level of MODULE for DESTINATION. */
enum vlog_level vlog_get_level(const struct vlog_module *,
                               enum vlog_destination);

/* True if a message at LEVEL from MODULE would be written anywhere. */
static inline bool
vlog_is_enabled(const struct vlog_module *module, enum vlog_level level)
{
    return __atomic_load_n(&module->min_level, __ATOMIC_RELAXED) >= (int) level;
}

/* Sets MODULE's (NULL: every module's) level for DESTINATION (or
 * VLF_ANY_DESTINATION) to LEVEL.  Setting all modules also sets the level
 * that modules registered later start with. */
void vlog_set_levels(struct vlog_module *, enum vlog_destination,
                     enum vlog_level);

/* Applies the spec S (see above).  Returns NULL on success, otherwise an
 * error message that the caller must free (nothing is changed then). */
char *vlog_set_levels_from_string(const char *s) OVS_WARN_UNUSED_RESULT;
/* As above, aborting on error (for specs fixed in the source). */
void vlog_set_levels_from_string_assert(const char *s);

/* Handles -v/--verbose[=SPEC]: without SPEC sets every module and
 * destination to dbg; with an invalid SPEC exits with an error. */
void vlog_set_verbosity(const char *arg);

/* The `vlog/list` table (header plus one line per module, sorted by name).
 * Caller frees. */
char *vlog_get_levels(void);
/* The `vlog/list-pattern` table.  Caller frees. */
char *vlog_get_patterns(void);

/* Sets DESTINATION's (or every destination's) line format; NULL restores
 * the default. */
void vlog_set_pattern(enum vlog_destination, const char *pattern);

/* Sets the syslog facility by name ("daemon", "local0"...); false if the
 * name is not a facility. */
bool vlog_set_syslog_facility(const char *facility);
/* --syslog-method: "libc" (default) or "null" (discard syslog output).
 * Exits with an error for anything else. */
void vlog_set_syslog_method(const char *method);
/* --syslog-target=HOST:PORT: also sends every syslog message as a UDP
 * datagram to HOST:PORT.  Exits with an error if HOST:PORT is invalid. */
void vlog_set_syslog_target(const char *target);

/* Log file.
 *
 * vlog_set_log_file() starts logging to FILE_NAME (NULL means
 * <logdir>/<program>.log), closing any previous log file.  A relative name is
 * taken relative to the current directory at the time of the call.  Returns
 * 0 or a positive errno value (then the previous log file, if any, stays in
 * use).  vlog_reopen_log_file() reopens the same name (for logrotate); it
 * returns 0 or an errno value.  vlog_close_log_file() stops file logging. */
int vlog_set_log_file(const char *file_name);
int vlog_reopen_log_file(void);
void vlog_close_log_file(void);
/* The current log file's name (owned by vlog; NULL if none).  Valid until
 * the log file is changed or closed; for the main thread's use only. */
const char *vlog_get_log_file(void);

/* Names the calling thread in its log messages (%t, %T).  NAME is copied.
 * NULL forgets the name. */
void vlog_set_thread_name(const char *name);
/* The calling thread's name: the one set above, "main" for the process's
 * initial thread, otherwise "thread". */
const char *vlog_get_thread_name(void);

/* Registers vlog/set, vlog/list, vlog/list-pattern, vlog/reopen, vlog/close,
 * vlog/disable-rate-limit and vlog/enable-rate-limit with unixctl. */
void vlog_register_unixctl(void);

/* Enables or disables rate limiting for MODULE (NULL: every module). */
void vlog_enable_rate_limit(struct vlog_module *, bool enable);

/* Writes the message to every destination whose level permits LEVEL. */
void vlog(const struct vlog_module *, enum vlog_level, const char *format,
          ...) OVS_PRINTF_FORMAT(3, 4);
void vlog_valist(const struct vlog_module *, enum vlog_level,
                 const char *format, va_list) OVS_PRINTF_FORMAT(3, 0);

/* Logs the program's version at INFO, in the two lines of
 * ovs_version_text() (util.h): what a daemon says first once it runs. */
void vlog_log_start_banner(const struct vlog_module *);

/* Fatal errors: log MESSAGE at EMER to syslog and the log file, print
 * "PROGRAM: MESSAGE" to stderr (once: not also as a console log line, so a
 * failing command says why in one line, as Open vSwitch's do), then exit(1)
 * or abort(). */
noreturn void vlog_fatal(const struct vlog_module *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
noreturn void vlog_fatal_valist(const struct vlog_module *,
                                const char *format, va_list)
    OVS_PRINTF_FORMAT(2, 0);
noreturn void vlog_abort(const struct vlog_module *, const char *format, ...)
    OVS_PRINTF_FORMAT(2, 3);
noreturn void vlog_abort_valist(const struct vlog_module *,
                                const char *format, va_list)
    OVS_PRINTF_FORMAT(2, 0);

/* Rate limiting.
 *
 * A token bucket: each message costs VLOG_MSG_TOKENS tokens and the bucket
 * gains RATE tokens per millisecond, so RATE is the sustained number of
 * messages per minute; up to BURST messages may be logged back to back.
 * Messages over the limit are counted, and the next message that gets
 * through is preceded by "Dropped N log messages in last S seconds (most
 * recently, T seconds ago) due to excessive rate".
 *
 *     static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);
 *     VLOG_WARN_RL(&rl, "...");
 */
#define VLOG_MSG_TOKENS (60 * 1000)

struct vlog_rate_limit {
    unsigned int rate;          /* Tokens gained per millisecond. */
    unsigned int burst;         /* Bucket capacity in tokens. */
    unsigned int tokens;        /* Tokens in the bucket now. */
    long long int last_fill;    /* time_msec() of last refill; LLONG_MIN:
                                 * never, so the bucket starts full. */
    time_t first_dropped;       /* time_now() of first drop in this run. */
    time_t last_dropped;        /* time_now() of the latest drop. */
    unsigned int n_dropped;     /* Messages dropped since last report. */
    struct ovs_mutex mutex;
};

#define VLOG_RATE_LIMIT_INIT(RATE, BURST)                                   \
    {                                                                       \
        .rate = (RATE),                                                     \
        .burst = ((BURST) < UINT_MAX / VLOG_MSG_TOKENS                      \
                  ? (BURST) * VLOG_MSG_TOKENS : UINT_MAX),                  \
        .tokens = 0,                                                        \
        .last_fill = LLONG_MIN,                                             \
        .first_dropped = 0,                                                 \
        .last_dropped = 0,                                                  \
        .n_dropped = 0,                                                     \
        .mutex = OVS_MUTEX_INITIALIZER,                                     \
    }

/* True if a message at LEVEL should be dropped, either because LEVEL is
 * disabled or because RL is over its rate.  (Consumes a token otherwise.) */
bool vlog_should_drop(const struct vlog_module *, enum vlog_level,
                      struct vlog_rate_limit *);
void vlog_rate_limit(const struct vlog_module *, enum vlog_level,
                     struct vlog_rate_limit *, const char *, ...)
    OVS_PRINTF_FORMAT(4, 5);

/* Convenience macros, logging to THIS_MODULE.  The arguments are evaluated
 * only when the level is enabled. */
#define VLOG_FATAL(...) vlog_fatal(THIS_MODULE, __VA_ARGS__)
#define VLOG_ABORT(...) vlog_abort(THIS_MODULE, __VA_ARGS__)
#define VLOG_EMER(...) VLOG(VLL_EMER, __VA_ARGS__)
#define VLOG_ERR(...) VLOG(VLL_ERR, __VA_ARGS__)
#define VLOG_WARN(...) VLOG(VLL_WARN, __VA_ARGS__)
#define VLOG_INFO(...) VLOG(VLL_INFO, __VA_ARGS__)
#define VLOG_DBG(...) VLOG(VLL_DBG, __VA_ARGS__)

#define VLOG_IS_EMER_ENABLED() vlog_is_enabled(THIS_MODULE, VLL_EMER)
#define VLOG_IS_ERR_ENABLED() vlog_is_enabled(THIS_MODULE, VLL_ERR)
#define VLOG_IS_WARN_ENABLED() vlog_is_enabled(THIS_MODULE, VLL_WARN)
#define VLOG_IS_INFO_ENABLED() vlog_is_enabled(THIS_MODULE, VLL_INFO)
#define VLOG_IS_DBG_ENABLED() vlog_is_enabled(THIS_MODULE, VLL_DBG)
#define VLOG_IS_ENABLED(LEVEL) vlog_is_enabled(THIS_MODULE, LEVEL)

#define VLOG_ERR_RL(RL, ...) VLOG_RL(RL, VLL_ERR, __VA_ARGS__)
#define VLOG_WARN_RL(RL, ...) VLOG_RL(RL, VLL_WARN, __VA_ARGS__)
#define VLOG_INFO_RL(RL, ...) VLOG_RL(RL, VLL_INFO, __VA_ARGS__)
#define VLOG_DBG_RL(RL, ...) VLOG_RL(RL, VLL_DBG, __VA_ARGS__)

/* True if a message should be dropped; use to skip expensive formatting:
 *     if (!VLOG_DROP_DBG(&rl)) { ...build string...; VLOG_DBG("%s", s); } */
#define VLOG_DROP_ERR(RL) vlog_should_drop(THIS_MODULE, VLL_ERR, RL)
#define VLOG_DROP_WARN(RL) vlog_should_drop(THIS_MODULE, VLL_WARN, RL)
#define VLOG_DROP_INFO(RL) vlog_should_drop(THIS_MODULE, VLL_INFO, RL)
#define VLOG_DROP_DBG(RL) vlog_should_drop(THIS_MODULE, VLL_DBG, RL)

/* Logs once per process lifetime (per call site). */
#define VLOG_ONCE(LEVEL, ...)                                               \
    do {                                                                    \
        static atomic_bool logged__ = false;                                \
        if (!atomic_exchange_explicit(&logged__, true,                      \
                                      memory_order_relaxed)) {              \
            VLOG(LEVEL, __VA_ARGS__);                                       \
        }                                                                   \
    } while (0)
#define VLOG_WARN_ONCE(...) VLOG_ONCE(VLL_WARN, __VA_ARGS__)
#define VLOG_INFO_ONCE(...) VLOG_ONCE(VLL_INFO, __VA_ARGS__)

/* Implementation details of the macros above. */
#define VLOG(LEVEL, ...)                                                    \
    do {                                                                    \
        enum vlog_level vlog_level__ = (LEVEL);                             \
        if (vlog_is_enabled(THIS_MODULE, vlog_level__)) {                   \
            vlog(THIS_MODULE, vlog_level__, __VA_ARGS__);                   \
        }                                                                   \
    } while (0)
#define VLOG_RL(RL, LEVEL, ...)                                             \
    do {                                                                    \
        enum vlog_level vlog_level__ = (LEVEL);                             \
        if (vlog_is_enabled(THIS_MODULE, vlog_level__)) {                   \
            vlog_rate_limit(THIS_MODULE, vlog_level__, RL, __VA_ARGS__);    \
        }                                                                   \
    } while (0)

/* Command-line options.  In a program's option table:
 *
 *     enum { ..., VLOG_OPTION_ENUMS };
 *     static const struct option long_options[] = { ..., VLOG_LONG_OPTIONS };
 *     switch (c) { ... VLOG_OPTION_HANDLERS ... }
 *
 * and call vlog_usage() from the program's --help. */
#define VLOG_OPTION_ENUMS                       \
    OPT_LOG_FILE,                               \
    OPT_SYSLOG_IMPL,                            \
    OPT_SYSLOG_TARGET,                          \
    OPT_SYSLOG_FACILITY

#define VLOG_LONG_OPTIONS                                               \
    {"verbose",         optional_argument, NULL, 'v'},                  \
    {"log-file",        optional_argument, NULL, OPT_LOG_FILE},         \
    {"syslog-method",   required_argument, NULL, OPT_SYSLOG_IMPL},      \
    {"syslog-target",   required_argument, NULL, OPT_SYSLOG_TARGET},    \
    {"syslog-facility", required_argument, NULL, OPT_SYSLOG_FACILITY}

#define VLOG_OPTION_HANDLERS                                            \
    case 'v':                                                           \
        vlog_set_verbosity(optarg);                                     \
        break;                                                          \
    case OPT_LOG_FILE:                                                  \
        /* As in Open vSwitch, a log file that cannot be opened is      \
         * reported (as a warning) but does not stop the program. */    \
        (void) vlog_set_log_file(optarg);                               \
        break;                                                          \
    case OPT_SYSLOG_IMPL:                                               \
        vlog_set_syslog_method(optarg);                                 \
        break;                                                          \
    case OPT_SYSLOG_TARGET:                                             \
        vlog_set_syslog_target(optarg);                                 \
        break;                                                          \
    case OPT_SYSLOG_FACILITY:                                           \
        if (!vlog_set_syslog_facility(optarg)) {                        \
            ovs_fatal(0, "%s: unknown syslog facility", optarg);        \
        }                                                               \
        break;

/* vlog_set_log_file() that exits with an error message on failure, for
 * programs that cannot do without their log. */
void vlog_set_log_file_or_die(const char *file_name);

/* Prints the logging options' help text to stdout. */
void vlog_usage(void);

#endif /* vlog.h */
