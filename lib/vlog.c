/* vlog: see vlog.h. */
#include <config.h>
#include "vlog.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "timeval.h"
#include "unixctl.h"

VLOG_DEFINE_THIS_MODULE(vlog);

/* Levels. */

static const char *const level_names[VLL_N_LEVELS] = {
    [VLL_OFF] = "OFF",
    [VLL_EMER] = "EMER",
    [VLL_ERR] = "ERR",
    [VLL_WARN] = "WARN",
    [VLL_INFO] = "INFO",
    [VLL_DBG] = "DBG",
};

/* syslog(3) severity of each level.  EMER maps to LOG_ALERT, not LOG_EMERG,
 * because LOG_EMERG is broadcast to every terminal, which one daemon giving
 * up must not do; INFO maps to LOG_NOTICE so it passes default filters. */
static const int syslog_severity[VLL_N_LEVELS] = {
    [VLL_OFF] = LOG_DEBUG,
    [VLL_EMER] = LOG_ALERT,
    [VLL_ERR] = LOG_ERR,
    [VLL_WARN] = LOG_WARNING,
    [VLL_INFO] = LOG_NOTICE,
    [VLL_DBG] = LOG_DEBUG,
};

const char *
vlog_get_level_name(enum vlog_level level)
{
    return level < VLL_N_LEVELS ? level_names[level] : "UNKNOWN";
}

enum vlog_level
vlog_get_level_val(const char *name)
{
    for (int i = 0; i < VLL_N_LEVELS; i++) {
        if (!strcasecmp(name, level_names[i])) {
            return i;
        }
    }
    return VLL_N_LEVELS;
}

/* Destinations. */

static const char *const destination_names[VLF_N_DESTINATIONS] = {
    [VLF_CONSOLE] = "console",
    [VLF_SYSLOG] = "syslog",
    [VLF_FILE] = "file",
};

/* The default line formats, as Open vSwitch prints them. */
static const char *const default_patterns[VLF_N_DESTINATIONS] = {
    [VLF_CONSOLE] = "%D{%Y-%m-%dT%H:%M:%SZ}|%05N|%c%T|%p|%m",
    [VLF_SYSLOG] = "ovs|%05N|%c%T|%p|%m",
    [VLF_FILE] = "%D{%Y-%m-%dT%H:%M:%S.###Z}|%05N|%c%T|%p|%m",
};

/* The prefix of each message sent to a --syslog-target, which has no local
 * syslog daemon to add one: an RFC 5424 header. */
static const char syslog_target_prefix[]
    = "<%B>1 %D{%Y-%m-%dT%H:%M:%S.###Z} %E %A %P - - ";

const char *
vlog_get_destination_name(enum vlog_destination destination)
{
    return (destination < VLF_N_DESTINATIONS
            ? destination_names[destination] : "any");
}

enum vlog_destination
vlog_get_destination_val(const char *name)
{
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        if (!strcasecmp(name, destination_names[i])) {
            return i;
        }
    }
    return !strcasecmp(name, "any") ? VLF_ANY_DESTINATION
                                    : VLF_INVALID_DESTINATION;
}

/* Syslog facilities, by the names syslog.conf uses. */
struct facility {
    const char *name;
    int value;
};
static const struct facility facilities[] = {
    { "kern", 0 << 3 }, { "user", 1 << 3 }, { "mail", 2 << 3 },
    { "daemon", 3 << 3 }, { "auth", 4 << 3 }, { "syslog", 5 << 3 },
    { "lpr", 6 << 3 }, { "news", 7 << 3 }, { "uucp", 8 << 3 },
    { "clock", 9 << 3 }, { "authpriv", 10 << 3 }, { "ftp", 11 << 3 },
    { "ntp", 12 << 3 }, { "audit", 13 << 3 }, { "alert", 14 << 3 },
    { "clock2", 15 << 3 }, { "local0", 16 << 3 }, { "local1", 17 << 3 },
    { "local2", 18 << 3 }, { "local3", 19 << 3 }, { "local4", 20 << 3 },
    { "local5", 21 << 3 }, { "local6", 22 << 3 }, { "local7", 23 << 3 },
};

static bool
facility_from_name(const char *name, int *value)
{
    for (size_t i = 0; i < ARRAY_SIZE(facilities); i++) {
        if (!strcasecmp(name, facilities[i].name)) {
            *value = facilities[i].value;
            return true;
        }
    }
    return false;
}

/* Global state.
 *
 * 'modules', 'default_levels' and every module's levels change under
 * 'levels_mutex'; module levels and min_level are also read without it, with
 * relaxed atomics (a reader racing with vlog/set may see the old level for
 * one message, which is harmless).
 *
 * 'output_mutex' covers everything that writing a message reads: the
 * patterns, the log file and the syslog target.  Lock order: levels_mutex
 * before output_mutex. */
static struct ovs_mutex levels_mutex = OVS_MUTEX_INITIALIZER;
static struct vlog_module *modules;     /* Sorted by name. */
static int default_levels[VLF_N_DESTINATIONS] = {
    [VLF_CONSOLE] = VLL_INFO,
    [VLF_SYSLOG] = VLL_INFO,
    [VLF_FILE] = VLL_INFO,
};

static struct ovs_mutex output_mutex = OVS_MUTEX_INITIALIZER;
static char *patterns[VLF_N_DESTINATIONS];  /* NULL: default_patterns. */
static char *log_file_name;
static int log_fd = -1;
static atomic_bool log_file_open;   /* log_fd >= 0, readable lock-free. */
static atomic_bool syslog_enabled = true;   /* False for --syslog-method=null. */
static atomic_int syslog_facility = LOG_DAEMON;
static int syslog_target_fd = -1;

/* Sequence number of the latest message (%N). */
static atomic_uint msg_num;

/* Per-thread name for %t and %T. */
static __thread char thread_name[32];

static int
read_level(const int *level)
{
    return __atomic_load_n(level, __ATOMIC_RELAXED);
}

/* Recomputes MODULE's min_level; the caller holds levels_mutex. */
static void
update_min_level(struct vlog_module *module)
{
    int min_level = VLL_OFF;

    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        if (i == VLF_FILE && !atomic_load(&log_file_open)) {
            continue;
        }
        if (i == VLF_SYSLOG && !atomic_load(&syslog_enabled)) {
            continue;
        }
        min_level = MAX(min_level, module->levels[i]);
    }
    __atomic_store_n(&module->min_level, min_level, __ATOMIC_RELAXED);
}

static void
update_all_min_levels(void)
{
    ovs_mutex_lock(&levels_mutex);
    for (struct vlog_module *m = modules; m; m = m->next) {
        update_min_level(m);
    }
    ovs_mutex_unlock(&levels_mutex);
}

void
vlog_insert_module(struct vlog_module *module)
{
    ovs_mutex_lock(&levels_mutex);
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        __atomic_store_n(&module->levels[i], default_levels[i],
                         __ATOMIC_RELAXED);
    }
    update_min_level(module);

    struct vlog_module **pos = &modules;
    while (*pos && strcmp((*pos)->name, module->name) < 0) {
        pos = &(*pos)->next;
    }
    module->next = *pos;
    *pos = module;
    ovs_mutex_unlock(&levels_mutex);
}

/* Open vSwitch module names that one of our modules covers under another
 * name (see vlog.h), sorted by alias. */
static const struct vlog_alias {
    const char *alias;
    const char *module;
} vlog_aliases[] = {
    { "daemon_unix", "daemon" },
    { "socket_util_unix", "socket_util" },
    { "stream_tcp", "stream_fd" },
    { "stream_unix", "stream_fd" },
};

static struct vlog_module *
module_from_name__(const char *name)
{
    for (struct vlog_module *m = modules; m; m = m->next) {
        if (!strcasecmp(m->name, name)) {
            return m;
        }
    }
    return NULL;
}

struct vlog_module *
vlog_module_from_name(const char *name)
{
    ovs_mutex_lock(&levels_mutex);
    struct vlog_module *found = module_from_name__(name);
    for (size_t i = 0; !found && i < ARRAY_SIZE(vlog_aliases); i++) {
        if (!strcasecmp(vlog_aliases[i].alias, name)) {
            found = module_from_name__(vlog_aliases[i].module);
        }
    }
    ovs_mutex_unlock(&levels_mutex);
    return found;
}

const char *
vlog_get_module_name(const struct vlog_module *module)
{
    return module->name;
}

enum vlog_level
vlog_get_level(const struct vlog_module *module,
               enum vlog_destination destination)
{
    ovs_assert(destination < VLF_N_DESTINATIONS);
    return read_level(&module->levels[destination]);
}

static void
set_module_levels(struct vlog_module *module,
                  enum vlog_destination destination, enum vlog_level level)
{
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        if (destination == VLF_ANY_DESTINATION || destination == i) {
            __atomic_store_n(&module->levels[i], (int) level,
                             __ATOMIC_RELAXED);
        }
    }
    update_min_level(module);
}

void
vlog_set_levels(struct vlog_module *module,
                enum vlog_destination destination, enum vlog_level level)
{
    ovs_assert(destination <= VLF_ANY_DESTINATION);
    ovs_assert(level < VLL_N_LEVELS);

    ovs_mutex_lock(&levels_mutex);
    if (module) {
        set_module_levels(module, destination, level);
    } else {
        for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
            if (destination == VLF_ANY_DESTINATION || destination == i) {
                default_levels[i] = level;
            }
        }
        for (struct vlog_module *m = modules; m; m = m->next) {
            set_module_levels(m, destination, level);
        }
    }
    ovs_mutex_unlock(&levels_mutex);
}

void
vlog_enable_rate_limit(struct vlog_module *module, bool enable)
{
    ovs_mutex_lock(&levels_mutex);
    for (struct vlog_module *m = modules; m; m = m->next) {
        if (!module || m == module) {
            __atomic_store_n(&m->honor_rate_limits, enable, __ATOMIC_RELAXED);
        }
    }
    ovs_mutex_unlock(&levels_mutex);
}

/* Patterns. */

void
vlog_set_pattern(enum vlog_destination destination, const char *pattern)
{
    ovs_assert(destination <= VLF_ANY_DESTINATION);

    ovs_mutex_lock(&output_mutex);
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        if (destination == VLF_ANY_DESTINATION || destination == i) {
            free(patterns[i]);
            patterns[i] = pattern ? xstrdup(pattern) : NULL;
        }
    }
    ovs_mutex_unlock(&output_mutex);
}

/* The caller holds output_mutex. */
static const char *
get_pattern(enum vlog_destination destination)
{
    return (patterns[destination] ? patterns[destination]
            : default_patterns[destination]);
}

/* Parsing level specs. */

static bool
is_spec_delimiter(char c)
{
    return c == ' ' || c == ',' || c == ':' || c == '\t';
}

/* Splits the next word off *S (skipping leading delimiters); returns NULL at
 * the end.  The word is NUL-terminated in place and *S points past the one
 * delimiter that ended it. */
static char *
next_spec_word(char **s)
{
    char *p = *s;

    while (*p && is_spec_delimiter(*p)) {
        p++;
    }
    if (!*p) {
        *s = p;
        return NULL;
    }

    char *word = p;
    while (*p && !is_spec_delimiter(*p)) {
        p++;
    }
    if (*p) {
        *p++ = '\0';
    }
    *s = p;
    return word;
}

/* "PATTERN:destination:pattern"; REST follows the keyword. */
static char *
parse_pattern_spec(char *rest)
{
    char *word = next_spec_word(&rest);
    if (!word) {
        return xstrdup("missing destination");
    }

    enum vlog_destination destination = vlog_get_destination_val(word);
    if (destination == VLF_INVALID_DESTINATION) {
        return xasprintf("unknown destination \"%s\"", word);
    }
    if (!*rest) {
        return xstrdup("missing pattern");
    }
    vlog_set_pattern(destination, rest);
    return NULL;
}

static char *
parse_facility_spec(char *rest)
{
    char *word = next_spec_word(&rest);
    if (!word || !vlog_set_syslog_facility(word)) {
        return xstrdup("invalid facility");
    }
    return NULL;
}

static char *
parse_level_spec(char *rest)
{
    struct vlog_module *module = NULL;
    enum vlog_destination destination = VLF_N_DESTINATIONS;
    enum vlog_level level = VLL_N_LEVELS;
    char *word;

    while ((word = next_spec_word(&rest)) != NULL) {
        enum vlog_destination d;
        enum vlog_level l;
        struct vlog_module *m;

        if (!strcasecmp(word, "any")) {
            /* "any" means "don't restrict" for both modules and
             * destinations, which is the default anyway. */
            continue;
        } else if ((d = vlog_get_destination_val(word))
                   != VLF_INVALID_DESTINATION) {
            if (destination != VLF_N_DESTINATIONS) {
                return xstrdup("cannot specify multiple destinations");
            }
            destination = d;
        } else if ((l = vlog_get_level_val(word)) != VLL_N_LEVELS) {
            if (level != VLL_N_LEVELS) {
                return xstrdup("cannot specify multiple levels");
            }
            level = l;
        } else if ((m = vlog_module_from_name(word)) != NULL) {
            if (module) {
                return xstrdup("cannot specify multiple modules");
            }
            module = m;
        } else {
            return xasprintf("no destination, level, or module \"%s\"", word);
        }
    }

    vlog_set_levels(module,
                    (destination == VLF_N_DESTINATIONS
                     ? VLF_ANY_DESTINATION : destination),
                    level == VLL_N_LEVELS ? VLL_DBG : level);
    return NULL;
}

char *
vlog_set_levels_from_string(const char *spec)
{
    char *copy = xstrdup(spec);
    char *rest = copy;
    char *first = next_spec_word(&rest);
    char *error;

    if (first && !strcasecmp(first, "PATTERN")) {
        error = parse_pattern_spec(rest);
    } else if (first && !strcasecmp(first, "FACILITY")) {
        error = parse_facility_spec(rest);
    } else {
        /* Not a keyword: the first word is part of the level spec. */
        strcpy(copy, spec);
        error = parse_level_spec(copy);
    }
    free(copy);
    return error;
}

void
vlog_set_levels_from_string_assert(const char *spec)
{
    char *error = vlog_set_levels_from_string(spec);
    if (error) {
        ovs_abort(0, "%s: %s", spec, error);
    }
}

void
vlog_set_verbosity(const char *arg)
{
    if (arg) {
        char *error = vlog_set_levels_from_string(arg);
        if (error) {
            ovs_fatal(0, "processing \"%s\": %s", arg, error);
        }
    } else {
        vlog_set_levels(NULL, VLF_ANY_DESTINATION, VLL_DBG);
    }
}

/* Reports. */

char *
vlog_get_levels(void)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ds_put_cstr(&s, "                 console    syslog    file\n");
    ds_put_cstr(&s, "                 -------    ------    ------\n");

    /* Modules and aliases (of linked modules) merged in name order. */
    ovs_mutex_lock(&levels_mutex);
    const struct vlog_module *m = modules;
    size_t a = 0;
    for (;;) {
        const struct vlog_module *alias_of = NULL;
        while (a < ARRAY_SIZE(vlog_aliases)
               && !(alias_of = module_from_name__(vlog_aliases[a].module))) {
            a++;
        }
        const char *name;
        const struct vlog_module *levels;
        if (alias_of && (!m || strcmp(vlog_aliases[a].alias, m->name) < 0)) {
            name = vlog_aliases[a++].alias;
            levels = alias_of;
        } else if (m) {
            name = m->name;
            levels = m;
            m = m->next;
        } else {
            break;
        }
        ds_put_format(&s, "%-16s  %4s       %4s       %4s\n", name,
                      level_names[read_level(&levels->levels[VLF_CONSOLE])],
                      level_names[read_level(&levels->levels[VLF_SYSLOG])],
                      level_names[read_level(&levels->levels[VLF_FILE])]);
    }
    ovs_mutex_unlock(&levels_mutex);

    return ds_steal_cstr(&s);
}

char *
vlog_get_patterns(void)
{
    struct ds s = DS_EMPTY_INITIALIZER;

    ovs_mutex_lock(&output_mutex);
    ds_put_format(&s, "%-7s  %-32s  %s\n", "", "prefix", "format");
    ds_put_format(&s, "%-7s  %-32s  %s\n", "", "------", "------");
    for (int i = 0; i < VLF_N_DESTINATIONS; i++) {
        const char *prefix = "none";
        if (i == VLF_SYSLOG && syslog_target_fd >= 0) {
            prefix = syslog_target_prefix;
        }
        ds_put_format(&s, "%-7s  %-32s  %s\n",
                      destination_names[i], prefix, get_pattern(i));
    }
    ovs_mutex_unlock(&output_mutex);

    return ds_steal_cstr(&s);
}

/* Syslog. */

bool
vlog_set_syslog_facility(const char *name)
{
    int value;

    if (!facility_from_name(name, &value)) {
        return false;
    }
    atomic_store(&syslog_facility, value);
    return true;
}

void
vlog_set_syslog_method(const char *method)
{
    if (!strcmp(method, "libc")) {
        atomic_store(&syslog_enabled, true);
    } else if (!strcmp(method, "null")) {
        atomic_store(&syslog_enabled, false);
    } else {
        ovs_fatal(0, "unsupported syslog method \"%s\" (use \"libc\" or "
                  "\"null\")", method);
    }
    update_all_min_levels();
}

void
vlog_set_syslog_target(const char *target)
{
    /* HOST:PORT, where HOST may be a bracketed IPv6 address. */
    char *copy = xstrdup(target);
    char *host = copy;
    char *port;

    if (host[0] == '[') {
        char *end = strchr(host, ']');
        if (!end || end[1] != ':') {
            ovs_fatal(0, "%s: syslog target must be HOST:PORT", target);
        }
        *end = '\0';
        host++;
        port = end + 2;
    } else {
        port = strrchr(host, ':');
        if (!port) {
            ovs_fatal(0, "%s: syslog target must be HOST:PORT", target);
        }
        *port++ = '\0';
    }

    struct addrinfo hints = { .ai_socktype = SOCK_DGRAM };
    struct addrinfo *ai;
    int error = getaddrinfo(host, port, &hints, &ai);
    if (error) {
        ovs_fatal(0, "%s: %s", target, gai_strerror(error));
    }
    int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen)) {
        ovs_fatal(errno, "%s: could not connect", target);
    }
    freeaddrinfo(ai);
    free(copy);

    ovs_mutex_lock(&output_mutex);
    if (syslog_target_fd >= 0) {
        close(syslog_target_fd);
    }
    syslog_target_fd = fd;
    ovs_mutex_unlock(&output_mutex);
}

/* Thread names. */

void
vlog_set_thread_name(const char *name)
{
    snprintf(thread_name, sizeof thread_name, "%s", name ? name : "");
}

static bool
is_main_thread(void)
{
    return gettid() == getpid();
}

const char *
vlog_get_thread_name(void)
{
    return (thread_name[0] ? thread_name
            : is_main_thread() ? "main"
            : "thread");
}

/* Formatting a line. */

static void
put_host_name(struct ds *s)
{
    char host[256];

    if (gethostname(host, sizeof host)) {
        ds_put_cstr(s, "-");
    } else {
        host[sizeof host - 1] = '\0';
        ds_put_cstr(s, host);
    }
}

/* Appends MESSAGE, as logged by MODULE at LEVEL with sequence number
 * MSG_NUM, to S in the format PATTERN. */
static void
format_log_message(const struct vlog_module *module, enum vlog_level level,
                   const char *pattern, const char *message,
                   unsigned int msg_num, struct ds *s)
{
    for (const char *p = pattern; *p; ) {
        if (*p != '%') {
            ds_put_char(s, *p++);
            continue;
        }
        p++;

        /* Flags and width. */
        bool left = false, zero = false;
        for (; *p == '-' || *p == '0'; p++) {
            if (*p == '-') {
                left = true;
            } else {
                zero = true;
            }
        }
        unsigned int width = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            width = MIN(width * 10 + (*p - '0'), 1024);
        }

        size_t start = s->length;
        char c = *p ? *p++ : '%';
        switch (c) {
        case 'A':
            ds_put_cstr(s, program_name);
            break;
        case 'B':
            ds_put_format(s, "%d", (atomic_load(&syslog_facility)
                                    | syslog_severity[level]));
            break;
        case 'c':
            ds_put_cstr(s, module->name);
            break;
        case 'd':
        case 'D': {
            const char *format = "%Y-%m-%d %H:%M:%S";
            char *custom = NULL;
            if (*p == '{') {
                const char *end = strchr(p, '}');
                if (end) {
                    custom = xmemdup0(p + 1, end - p - 1);
                    format = custom;
                    p = end + 1;
                }
            }
            ds_put_strftime_msec(s, format, time_wall_msec(), c == 'D');
            free(custom);
            break;
        }
        case 'E':
            put_host_name(s);
            break;
        case 'm':
            ds_put_cstr(s, message);
            break;
        case 'N':
            ds_put_format(s, "%u", msg_num);
            break;
        case 'n':
            ds_put_char(s, '\n');
            break;
        case 'p':
            ds_put_cstr(s, level_names[level]);
            break;
        case 'P':
            ds_put_format(s, "%ld", (long int) getpid());
            break;
        case 'r':
            ds_put_format(s, "%lld", time_msec() - time_boot_msec());
            break;
        case 't':
            ds_put_cstr(s, vlog_get_thread_name());
            break;
        case 'T':
            if (!is_main_thread()) {
                ds_put_format(s, "(%s)", vlog_get_thread_name());
            }
            break;
        case '%':
            ds_put_char(s, '%');
            break;
        default:
            /* Unknown escapes are copied through, so a typo is visible in
             * the output instead of silently vanishing. */
            ds_put_char(s, '%');
            ds_put_char(s, c);
            break;
        }

        size_t field_len = s->length - start;
        if (field_len < width) {
            size_t pad = width - field_len;
            if (left) {
                ds_put_char_multiple(s, ' ', pad);
            } else {
                /* Insert padding before the field. */
                ds_put_char_multiple(s, ' ', pad);
                memmove(&s->string[start + pad], &s->string[start],
                        field_len);
                memset(&s->string[start], zero ? '0' : ' ', pad);
            }
        }
    }
}

/* Writing. */

static void
write_fully(int fd, const char *data, size_t n)
{
    while (n > 0) {
        ssize_t retval = write(fd, data, n);
        if (retval < 0) {
            if (errno == EINTR) {
                continue;
            }
            /* Nowhere to report a failure to log; drop the line. */
            return;
        }
        data += retval;
        n -= retval;
    }
}

/* Writes the message to the destinations whose level permits LEVEL; to the
 * console only if TO_CONSOLE_OK. */
static void
vlog_emit(const struct vlog_module *module, enum vlog_level level,
          bool to_console_ok, const char *format, va_list args)
{
    if (level == VLL_OFF || level >= VLL_N_LEVELS) {
        return;
    }

    bool to_console = (to_console_ok
                       && read_level(&module->levels[VLF_CONSOLE]) >= (int) level);
    bool to_syslog = (read_level(&module->levels[VLF_SYSLOG]) >= (int) level
                      && atomic_load(&syslog_enabled));
    bool to_file = (read_level(&module->levels[VLF_FILE]) >= (int) level
                    && atomic_load(&log_file_open));
    if (!to_console && !to_syslog && !to_file) {
        return;
    }

    struct ds message = DS_EMPTY_INITIALIZER;
    ds_put_format_valist(&message, format, args);
    /* Messages are one line by convention; a trailing newline would leave
     * a blank line in every destination. */
    ds_chomp(&message, '\n');

    unsigned int num = atomic_fetch_add(&msg_num, 1) + 1;
    struct ds line = DS_EMPTY_INITIALIZER;
    const char *text = ds_cstr(&message);

    ovs_mutex_lock(&output_mutex);
    if (to_console) {
        format_log_message(module, level, get_pattern(VLF_CONSOLE), text,
                           num, &line);
        ds_put_char(&line, '\n');
        write_fully(STDERR_FILENO, line.string, line.length);
        ds_clear(&line);
    }
    if (to_syslog) {
        format_log_message(module, level, get_pattern(VLF_SYSLOG), text,
                           num, &line);
        syslog(atomic_load(&syslog_facility) | syslog_severity[level],
               "%s", ds_cstr(&line));
        if (syslog_target_fd >= 0) {
            struct ds packet = DS_EMPTY_INITIALIZER;
            format_log_message(module, level, syslog_target_prefix, text,
                               num, &packet);
            ds_put_buffer(&packet, line.string, line.length);
            if (send(syslog_target_fd, packet.string, packet.length,
                     MSG_DONTWAIT) < 0) {
                /* UDP to a log host is best effort by nature. */
            }
            ds_destroy(&packet);
        }
        ds_clear(&line);
    }
    if (to_file && log_fd >= 0) {
        format_log_message(module, level, get_pattern(VLF_FILE), text,
                           num, &line);
        ds_put_char(&line, '\n');
        write_fully(log_fd, line.string, line.length);
    }
    ovs_mutex_unlock(&output_mutex);

    ds_destroy(&line);
    ds_destroy(&message);
}

void
vlog_valist(const struct vlog_module *module, enum vlog_level level,
            const char *format, va_list args)
{
    vlog_emit(module, level, true, format, args);
}

void
vlog(const struct vlog_module *module, enum vlog_level level,
     const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_valist(module, level, format, args);
    va_end(args);
}

void
vlog_log_start_banner(const struct vlog_module *module)
{
    vlog(module, VLL_INFO, "%s (Open vSwitch) %s", program_name,
         ovs_version_string());
    vlog(module, VLL_INFO, "Open vSwitch NG %s", ovs_ng_version_string());
}

/* Logs to syslog and the file, then prints the message to stderr. */
static void
vlog_fatal_message(const struct vlog_module *module, const char *format,
                   va_list args)
{
    va_list args2;
    va_copy(args2, args);
    vlog_emit(module, VLL_EMER, false, format, args);
    ovs_error_valist(0, format, args2);
    va_end(args2);
}

void
vlog_fatal_valist(const struct vlog_module *module, const char *format,
                  va_list args)
{
    vlog_fatal_message(module, format, args);
    exit(EXIT_FAILURE);
}

void
vlog_fatal(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_fatal_valist(module, format, args);
}

void
vlog_abort_valist(const struct vlog_module *module, const char *format,
                  va_list args)
{
    vlog_fatal_message(module, format, args);
    abort();
}

void
vlog_abort(const struct vlog_module *module, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    vlog_abort_valist(module, format, args);
}

/* Rate limiting. */

/* Adds the tokens earned since the last fill; the caller holds RL's mutex. */
static void
refill_tokens(struct vlog_rate_limit *rl, long long int now)
{
    if (rl->last_fill == LLONG_MIN) {
        rl->tokens = rl->burst;
        rl->last_fill = now;
    } else if (now > rl->last_fill && rl->rate) {
        unsigned long long int elapsed = now - rl->last_fill;
        unsigned int room = rl->burst - rl->tokens;

        /* Compare by division so that a long idle period cannot overflow. */
        rl->tokens = (elapsed >= room / rl->rate + 1
                      ? rl->burst : rl->tokens + elapsed * rl->rate);
        rl->last_fill = now;
    }
}

bool
vlog_should_drop(const struct vlog_module *module, enum vlog_level level,
                 struct vlog_rate_limit *rl)
{
    if (!vlog_is_enabled(module, level)) {
        return true;
    }
    if (!__atomic_load_n(&module->honor_rate_limits, __ATOMIC_RELAXED)) {
        return false;
    }

    ovs_mutex_lock(&rl->mutex);
    refill_tokens(rl, time_msec());
    if (rl->tokens < VLOG_MSG_TOKENS) {
        time_t now = time_now();
        if (!rl->n_dropped) {
            rl->first_dropped = now;
        }
        rl->last_dropped = now;
        rl->n_dropped++;
        ovs_mutex_unlock(&rl->mutex);
        return true;
    }
    rl->tokens -= VLOG_MSG_TOKENS;

    unsigned int n_dropped = rl->n_dropped;
    time_t first_dropped = rl->first_dropped;
    time_t last_dropped = rl->last_dropped;
    rl->n_dropped = 0;
    ovs_mutex_unlock(&rl->mutex);

    if (n_dropped) {
        time_t now = time_now();
        vlog(module, level, "Dropped %u log messages in last %lld seconds "
             "(most recently, %lld seconds ago) due to excessive rate",
             n_dropped, (long long int) (now - first_dropped),
             (long long int) (now - last_dropped));
    }
    return false;
}

void
vlog_rate_limit(const struct vlog_module *module, enum vlog_level level,
                struct vlog_rate_limit *rl, const char *format, ...)
{
    if (!vlog_should_drop(module, level, rl)) {
        va_list args;

        va_start(args, format);
        vlog_valist(module, level, format, args);
        va_end(args);
    }
}

/* Log file. */

static char *
make_log_file_name(const char *file_name)
{
    if (!file_name) {
        return xasprintf("%s/%s.log", ovs_logdir(), program_name);
    }
    if (file_name[0] == '/') {
        return xstrdup(file_name);
    }

    /* Resolve now: a daemon chdir()s to "/" after this, and vlog/reopen must
     * find the same file. */
    char *cwd = getcwd(NULL, 0);
    char *name = cwd ? xasprintf("%s/%s", cwd, file_name) : xstrdup(file_name);
    free(cwd);
    return name;
}

/* True if FD is open on the file currently named NAME. */
static bool
fd_is_file(int fd, const char *name)
{
    struct stat fd_stat, name_stat;

    return (fd >= 0
            && !fstat(fd, &fd_stat)
            && !stat(name, &name_stat)
            && fd_stat.st_dev == name_stat.st_dev
            && fd_stat.st_ino == name_stat.st_ino);
}

int
vlog_set_log_file(const char *file_name)
{
    char *new_name = make_log_file_name(file_name);

    ovs_mutex_lock(&output_mutex);
    bool unchanged = (log_file_name && !strcmp(new_name, log_file_name)
                      && fd_is_file(log_fd, new_name));
    ovs_mutex_unlock(&output_mutex);
    if (unchanged) {
        free(new_name);
        return 0;
    }

    int new_fd = open(new_name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                      0660);
    if (new_fd < 0) {
        int error = errno;
        VLOG_WARN("failed to open %s for logging: %s",
                  new_name, ovs_strerror(error));
        free(new_name);
        return error;
    }

    ovs_mutex_lock(&output_mutex);
    int old_fd = log_fd;
    free(log_file_name);
    log_file_name = new_name;
    log_fd = new_fd;
    atomic_store(&log_file_open, true);
    ovs_mutex_unlock(&output_mutex);
    if (old_fd >= 0) {
        close(old_fd);
    }
    update_all_min_levels();

    VLOG_INFO("opened log file %s", new_name);
    return 0;
}

void
vlog_set_log_file_or_die(const char *file_name)
{
    int error = vlog_set_log_file(file_name);
    if (error) {
        ovs_fatal(error, "could not open log file");
    }
}

int
vlog_reopen_log_file(void)
{
    ovs_mutex_lock(&output_mutex);
    char *name = log_file_name ? xstrdup(log_file_name) : NULL;
    bool same = name && fd_is_file(log_fd, name);
    ovs_mutex_unlock(&output_mutex);

    /* When the file was not moved away, reopening would be a no-op. */
    int error = name && !same ? vlog_set_log_file(name) : 0;
    free(name);
    return error;
}

void
vlog_close_log_file(void)
{
    ovs_mutex_lock(&output_mutex);
    int old_fd = log_fd;
    log_fd = -1;
    free(log_file_name);
    log_file_name = NULL;
    atomic_store(&log_file_open, false);
    ovs_mutex_unlock(&output_mutex);

    if (old_fd >= 0) {
        close(old_fd);
    }
    update_all_min_levels();
}

const char *
vlog_get_log_file(void)
{
    return log_file_name;
}

/* unixctl commands. */

static void
vlog_unixctl_set(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux OVS_UNUSED)
{
    for (int i = 1; i < argc; i++) {
        char *error = vlog_set_levels_from_string(argv[i]);
        if (error) {
            unixctl_command_reply_error(conn, error);
            free(error);
            return;
        }
    }
    unixctl_command_reply(conn, NULL);
}

static void
vlog_unixctl_list(struct unixctl_conn *conn, int argc OVS_UNUSED,
                  const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    char *levels = vlog_get_levels();
    unixctl_command_reply(conn, levels);
    free(levels);
}

static void
vlog_unixctl_list_pattern(struct unixctl_conn *conn, int argc OVS_UNUSED,
                          const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    char *text = vlog_get_patterns();
    unixctl_command_reply(conn, text);
    free(text);
}

/* The log file vlog/close closed, which vlog/reopen opens again, as
 * 3.1's do (a test moves the file away between them).  Main thread. */
static char *closed_log_file_name;

static void
vlog_unixctl_reopen(struct unixctl_conn *conn, int argc OVS_UNUSED,
                    const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    if (!log_file_name && !closed_log_file_name) {
        unixctl_command_reply_error(conn, "Logging to file not configured");
        return;
    }
    int error;
    if (!log_file_name) {
        error = vlog_set_log_file(closed_log_file_name);
        if (!error) {
            free(closed_log_file_name);
            closed_log_file_name = NULL;
        }
    } else {
        error = vlog_reopen_log_file();
    }
    if (error) {
        unixctl_command_reply_error(conn, ovs_strerror(error));
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
vlog_unixctl_close(struct unixctl_conn *conn, int argc OVS_UNUSED,
                   const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    if (!log_file_name) {
        unixctl_command_reply_error(conn, "Logging to file not configured");
        return;
    }
    free(closed_log_file_name);
    closed_log_file_name = xstrdup(log_file_name);
    vlog_close_log_file();
    unixctl_command_reply(conn, NULL);
}

static void
set_rate_limits(struct unixctl_conn *conn, int argc, const char *argv[],
                bool enable)
{
    if (argc < 2) {
        vlog_enable_rate_limit(NULL, enable);
    } else {
        /* Check every name first so that an error changes nothing. */
        for (int i = 1; i < argc; i++) {
            if (!vlog_module_from_name(argv[i])) {
                char *error = xasprintf("no module named \"%s\"", argv[i]);
                unixctl_command_reply_error(conn, error);
                free(error);
                return;
            }
        }
        for (int i = 1; i < argc; i++) {
            vlog_enable_rate_limit(vlog_module_from_name(argv[i]), enable);
        }
    }
    unixctl_command_reply(conn, NULL);
}

static void
vlog_unixctl_disable_rate_limit(struct unixctl_conn *conn, int argc,
                                const char *argv[], void *aux OVS_UNUSED)
{
    set_rate_limits(conn, argc, argv, false);
}

static void
vlog_unixctl_enable_rate_limit(struct unixctl_conn *conn, int argc,
                               const char *argv[], void *aux OVS_UNUSED)
{
    set_rate_limits(conn, argc, argv, true);
}

void
vlog_register_unixctl(void)
{
    unixctl_command_register("vlog/set",
                             "{spec | PATTERN:destination:pattern}",
                             1, INT_MAX, vlog_unixctl_set, NULL);
    unixctl_command_register("vlog/list", "", 0, 0, vlog_unixctl_list, NULL);
    unixctl_command_register("vlog/list-pattern", "", 0, 0,
                             vlog_unixctl_list_pattern, NULL);
    unixctl_command_register("vlog/reopen", "", 0, 0,
                             vlog_unixctl_reopen, NULL);
    unixctl_command_register("vlog/close", "", 0, 0,
                             vlog_unixctl_close, NULL);
    unixctl_command_register("vlog/disable-rate-limit", "[module]...",
                             0, INT_MAX, vlog_unixctl_disable_rate_limit,
                             NULL);
    unixctl_command_register("vlog/enable-rate-limit", "[module]...",
                             0, INT_MAX, vlog_unixctl_enable_rate_limit,
                             NULL);
}

void
vlog_usage(void)
{
    printf("\nLogging options:\n"
           "  -vSPEC, --verbose=SPEC   set logging levels\n"
           "  -v, --verbose            set maximum verbosity level\n"
           "  --log-file[=FILE]        enable logging to specified FILE\n"
           "                           (default: %s/%s.log)\n"
           "  --syslog-method=(libc|null)\n"
           "                           how to send messages to syslog\n"
           "  --syslog-target=HOST:PORT  also send syslog messages to "
           "HOST:PORT via UDP\n"
           "  --syslog-facility=FACILITY  set syslog facility to FACILITY\n",
           ovs_logdir(), program_name);
}
