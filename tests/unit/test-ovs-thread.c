/* Unit tests for ovs-thread: named threads, error-checking mutexes,
 * once-only initialization. */
#include <config.h>
#include "ovs-thread.h"

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vlog.h"

struct names {
    char kernel[32];
    char *vlog;
    bool is_main;
    unsigned int id;
};

static void *
names_main(void *names_)
{
    struct names *names = names_;

    pthread_getname_np(pthread_self(), names->kernel, sizeof names->kernel);
    names->vlog = xstrdup(vlog_get_thread_name());
    names->is_main = ovs_thread_is_main();
    names->id = ovsthread_id_self();
    return names;
}

START_TEST(test_thread_create_names_thread)
{
    struct names names;
    pthread_t thread = ovs_thread_create("revalidator12", names_main, &names);
    void *ret;
    xpthread_join(thread, &ret);

    ck_assert_ptr_eq(ret, &names);
    ck_assert_str_eq(names.kernel, "revalidator12");
    ck_assert_str_eq(names.vlog, "revalidator12");
    ck_assert(!names.is_main);
    ck_assert_uint_ne(names.id, 0);
    free(names.vlog);
}
END_TEST

START_TEST(test_long_name_truncated_for_kernel_only)
{
    const char *name = "a-rather-long-thread-name";
    struct names names;
    xpthread_join(ovs_thread_create(name, names_main, &names), NULL);

    /* The kernel keeps 15 characters; logs keep the full name. */
    ck_assert_str_eq(names.kernel, "a-rather-long-t");
    ck_assert_str_eq(names.vlog, name);
    free(names.vlog);
}
END_TEST

START_TEST(test_main_thread)
{
    ck_assert(ovs_thread_is_main());
    ck_assert_uint_eq(ovsthread_id_self(), 0);
}
END_TEST

START_TEST(test_ids_are_distinct)
{
    struct names a, b;
    pthread_t ta = ovs_thread_create("a", names_main, &a);
    pthread_t tb = ovs_thread_create("b", names_main, &b);
    xpthread_join(ta, NULL);
    xpthread_join(tb, NULL);

    ck_assert_uint_ne(a.id, b.id);
    ck_assert_uint_ne(a.id, 0);
    ck_assert_uint_ne(b.id, 0);
    free(a.vlog);
    free(b.vlog);
}
END_TEST

START_TEST(test_count_cpu_cores)
{
    ck_assert_int_ge(count_cpu_cores(), 1);
}
END_TEST

/* Mutexes. */

struct shared_counter {
    struct ovs_mutex mutex;
    long long int value;
};

static void *
increment_main(void *counter_)
{
    struct shared_counter *counter = counter_;
    for (int i = 0; i < 10000; i++) {
        ovs_mutex_lock(&counter->mutex);
        counter->value++;
        ovs_mutex_unlock(&counter->mutex);
    }
    return NULL;
}

START_TEST(test_mutex_excludes)
{
    struct shared_counter counter = { .value = 0 };
    ovs_mutex_init(&counter.mutex);

    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        threads[i] = ovs_thread_create("incr", increment_main, &counter);
    }
    for (int i = 0; i < 4; i++) {
        xpthread_join(threads[i], NULL);
    }
    ck_assert_int_eq(counter.value, 40000);
    ovs_mutex_destroy(&counter.mutex);
}
END_TEST

static void *
trylock_main(void *mutex)
{
    return (void *) (intptr_t) ovs_mutex_trylock(mutex);
}

START_TEST(test_trylock_busy_in_other_thread)
{
    static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;

    ovs_mutex_lock(&mutex);
    void *ret;
    xpthread_join(ovs_thread_create("try", trylock_main, &mutex), &ret);
    ck_assert_int_eq((intptr_t) ret, EBUSY);
    ovs_mutex_unlock(&mutex);

    ck_assert_int_eq(ovs_mutex_trylock(&mutex), 0);
    ovs_mutex_unlock(&mutex);
}
END_TEST

START_TEST(test_relock_aborts)
{
    /* An error-checking mutex turns a self-deadlock into an abort. */
    struct ovs_mutex mutex;
    ovs_mutex_init(&mutex);
    ovs_mutex_lock(&mutex);
    ovs_mutex_lock(&mutex);
}
END_TEST

START_TEST(test_unlock_unlocked_aborts)
{
    static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
    ovs_mutex_unlock(&mutex);
}
END_TEST

START_TEST(test_recursive_mutex)
{
    struct ovs_mutex mutex;
    ovs_mutex_init_recursive(&mutex);
    ovs_mutex_lock(&mutex);
    ovs_mutex_lock(&mutex);
    ovs_mutex_unlock(&mutex);
    ovs_mutex_unlock(&mutex);
    ovs_mutex_destroy(&mutex);
}
END_TEST

START_TEST(test_rwlock)
{
    struct ovs_rwlock rw;
    ovs_rwlock_init(&rw);
    ovs_rwlock_rdlock(&rw);
    ovs_rwlock_rdlock(&rw);     /* Readers share. */
    ovs_rwlock_unlock(&rw);
    ovs_rwlock_unlock(&rw);
    ovs_rwlock_wrlock(&rw);
    ovs_rwlock_unlock(&rw);
    ovs_rwlock_destroy(&rw);
}
END_TEST

/* Once. */

struct once_test {
    struct ovsthread_once once;
    atomic_int n_inits;
    atomic_int n_saw_done;
    pthread_barrier_t barrier;
    int value;
};

static void *
once_main(void *t_)
{
    struct once_test *t = t_;

    pthread_barrier_wait(&t->barrier);
    if (ovsthread_once_start(&t->once)) {
        atomic_fetch_add(&t->n_inits, 1);
        t->value = 42;
        ovsthread_once_done(&t->once);
    }
    /* Whoever did not initialize must still see the initialized value. */
    if (t->value == 42) {
        atomic_fetch_add(&t->n_saw_done, 1);
    }
    return NULL;
}

START_TEST(test_once_runs_once)
{
    enum { N = 8 };
    struct once_test t = { .once = OVSTHREAD_ONCE_INITIALIZER };
    pthread_barrier_init(&t.barrier, NULL, N);

    pthread_t threads[N];
    for (int i = 0; i < N; i++) {
        threads[i] = ovs_thread_create("once", once_main, &t);
    }
    for (int i = 0; i < N; i++) {
        xpthread_join(threads[i], NULL);
    }
    ck_assert_int_eq(atomic_load(&t.n_inits), 1);
    ck_assert_int_eq(atomic_load(&t.n_saw_done), N);
    ck_assert(!ovsthread_once_start(&t.once));

    pthread_barrier_destroy(&t.barrier);
}
END_TEST

static Suite *
ovs_thread_suite(void)
{
    Suite *s = suite_create("ovs-thread");

    TCase *tc = tcase_create("threads");
    tcase_add_test(tc, test_thread_create_names_thread);
    tcase_add_test(tc, test_long_name_truncated_for_kernel_only);
    tcase_add_test(tc, test_main_thread);
    tcase_add_test(tc, test_ids_are_distinct);
    tcase_add_test(tc, test_count_cpu_cores);
    suite_add_tcase(s, tc);

    tc = tcase_create("locks");
    tcase_add_test(tc, test_mutex_excludes);
    tcase_add_test(tc, test_trylock_busy_in_other_thread);
    tcase_add_test(tc, test_recursive_mutex);
    tcase_add_test(tc, test_rwlock);
    suite_add_tcase(s, tc);

    /* Aborting tests need a fork per test; skip them under CK_FORK=no. */
    const char *fork_env = getenv("CK_FORK");
    if (!fork_env || strcmp(fork_env, "no")) {
        tc = tcase_create("misuse");
        tcase_add_test_raise_signal(tc, test_relock_aborts, SIGABRT);
        tcase_add_test_raise_signal(tc, test_unlock_unlocked_aborts, SIGABRT);
        suite_add_tcase(s, tc);
    }

    tc = tcase_create("once");
    tcase_add_test(tc, test_once_runs_once);
    suite_add_tcase(s, tc);

    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);

    SRunner *sr = srunner_create(ovs_thread_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
