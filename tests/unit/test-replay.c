/* Unit tests for replay.h and the stream layer's record/replay: a recorded
 * conversation over a real Unix socket, then the same calls again with
 * --replay semantics, answered from the files alone. */
#include <config.h>
#include "replay.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "poll-loop.h"
#include "stream.h"
#include "util.h"

static char tmpdir[64];

static void
setup(void)
{
    strcpy(tmpdir, "/tmp/test-replay-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown(void)
{
    replay_set_mode(REPLAY_OFF, tmpdir);
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

START_TEST(test_records_round_trip)
{
    replay_set_mode(REPLAY_RECORD, tmpdir);
    ck_assert(replay_is_active());
    struct replay_file *f = replay_file_create("stream", "unix:x");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(replay_file_number(f), 0);
    replay_write(f, 'R', 5, "hello", 5);
    replay_write(f, 'R', -EAGAIN, NULL, 0);
    replay_write(f, 'B', 1LL << 40, NULL, 0);
    char big[1000];
    memset(big, 'x', sizeof big);
    replay_write(f, 'R', sizeof big, big, sizeof big);
    replay_file_close(f);

    replay_set_mode(REPLAY_REPLAY, tmpdir);
    ck_assert_int_eq(replay_file_open("stream", -1, &f), 0);
    char tag;
    long long int value;
    const void *data;
    size_t n;
    ck_assert(replay_read(f, &tag, &value, &data, &n));
    ck_assert_int_eq(tag, 'R');
    ck_assert_int_eq(value, 5);
    ck_assert_uint_eq(n, 5);
    ck_assert(!memcmp(data, "hello", 5));
    ck_assert(replay_read(f, &tag, &value, &data, &n));
    ck_assert_int_eq(value, -EAGAIN);
    ck_assert_uint_eq(n, 0);
    ck_assert(replay_read(f, &tag, &value, &data, &n));
    ck_assert_int_eq(tag, 'B');
    ck_assert(value == 1LL << 40);
    ck_assert(replay_read(f, &tag, &value, &data, &n));
    ck_assert_uint_eq(n, sizeof big);
    ck_assert(!memcmp(data, big, sizeof big));
    ck_assert(!replay_has_more(f));
    ck_assert(!replay_read(f, &tag, &value, &data, &n));
    replay_file_close(f);

    /* A pstream file is not a stream file, and a missing one is an
     * error, not a crash. */
    ck_assert_int_eq(replay_file_open("pstream", 0, &f), ENOENT);
    char *name = xasprintf("%s/%s.0.stream", tmpdir, program_name);
    char *other = xasprintf("%s/%s.1.pstream", tmpdir, program_name);
    ck_assert_int_eq(rename(name, other), 0);
    ck_assert_int_eq(replay_file_open("pstream", 1, &f), EINVAL);
    free(name);
    free(other);
}
END_TEST

START_TEST(test_truncated_record)
{
    replay_set_mode(REPLAY_RECORD, tmpdir);
    struct replay_file *f = replay_file_create("stream", "unix:x");
    replay_write(f, 'R', 3, "abc", 3);
    replay_write(f, 'R', 10, "0123456789", 10);
    char *name = xstrdup(replay_file_name(f));
    replay_file_close(f);

    /* Cut the last record in the middle of its data, as a program killed
     * while writing would leave it. */
    FILE *stream = fopen(name, "r+");
    ck_assert_ptr_nonnull(stream);
    ck_assert_int_eq(fseek(stream, 0, SEEK_END), 0);
    long int size = ftell(stream);
    fclose(stream);
    ck_assert_int_eq(truncate(name, size - 4), 0);
    free(name);

    replay_set_mode(REPLAY_REPLAY, tmpdir);
    ck_assert_int_eq(replay_file_open("stream", 0, &f), 0);
    char tag;
    long long int value;
    const void *data;
    size_t n;
    ck_assert(replay_read(f, &tag, &value, &data, &n));
    ck_assert_uint_eq(n, 3);
    ck_assert(!replay_read(f, &tag, &value, &data, &n));
    replay_file_close(f);
}
END_TEST

/* What one run of the conversation saw. */
struct conversation {
    char *listen_name;
    char *accepted_name;
    char received[64];
    int eof;                    /* Server's recv after the client closed. */
};

static void
converse(const char *sock, struct conversation *c)
{
    char *pname = xasprintf("punix:%s", sock);
    char *aname = xasprintf("unix:%s", sock);
    struct pstream *listener;
    struct stream *client, *server = NULL;

    ck_assert_int_eq(pstream_open(pname, &listener, 0), 0);
    c->listen_name = xstrdup(pstream_get_name(listener));
    ck_assert_int_eq(stream_open_block(stream_open(aname, &client, 0), -1,
                                       &client), 0);
    ck_assert_int_eq(pstream_accept_block(listener, &server), 0);
    c->accepted_name = xstrdup(stream_get_name(server));

    ck_assert_int_eq(stream_send(client, "ping", 4), 4);
    size_t got = 0;
    while (got < 4) {
        int retval = stream_recv(server, c->received + got,
                                 sizeof c->received - got - 1);
        if (retval == -EAGAIN) {
            stream_recv_wait(server);
            poll_block();
            continue;
        }
        ck_assert_int_gt(retval, 0);
        got += retval;
    }
    c->received[got] = '\0';

    stream_close(client);
    int retval;
    while ((retval = stream_recv(server, c->received + got, 8)) == -EAGAIN) {
        stream_recv_wait(server);
        poll_block();
    }
    c->eof = retval;

    stream_close(server);
    pstream_close(listener);
    free(pname);
    free(aname);
}

START_TEST(test_stream_record_and_replay)
{
    char *sock = xasprintf("%s/sock", tmpdir);
    struct conversation recorded, replayed;
    memset(&recorded, 0, sizeof recorded);
    memset(&replayed, 0, sizeof replayed);

    replay_set_mode(REPLAY_RECORD, tmpdir);
    converse(sock, &recorded);
    ck_assert_str_eq(recorded.received, "ping");
    ck_assert_int_eq(recorded.eof, 0);

    replay_set_mode(REPLAY_REPLAY, tmpdir);
    converse(sock, &replayed);
    ck_assert_str_eq(replayed.listen_name, recorded.listen_name);
    ck_assert_str_eq(replayed.accepted_name, recorded.accepted_name);
    ck_assert_str_eq(replayed.received, "ping");
    ck_assert_int_eq(replayed.eof, 0);
    /* No socket was made: replay touches no network. */
    ck_assert_int_ne(access(sock, F_OK), 0);

    /* A program that asks what the recording never answered. */
    replay_set_mode(REPLAY_REPLAY, tmpdir);
    char *pname = xasprintf("punix:%s", sock);
    struct pstream *listener;
    struct stream *client;
    ck_assert_int_eq(pstream_open(pname, &listener, 0), 0);
    ck_assert_int_eq(stream_open(pname + 1, &client, 0), 0);
    /* The recording's client connected, then sent: not received. */
    char buf[8];
    ck_assert_int_eq(stream_connect(client), 0);
    ck_assert_int_eq(stream_recv(client, buf, sizeof buf), -EPROTO);
    ck_assert_int_eq(stream_get_error(client), EPROTO);
    stream_close(client);
    pstream_close(listener);

    free(pname);
    free(recorded.listen_name);
    free(recorded.accepted_name);
    free(replayed.listen_name);
    free(replayed.accepted_name);
    free(sock);
}
END_TEST

START_TEST(test_failed_open_is_replayed)
{
    char *name = xasprintf("unix:%s/nobody-listens", tmpdir);
    struct stream *s;

    replay_set_mode(REPLAY_RECORD, tmpdir);
    ck_assert_int_eq(stream_open(name, &s, 0), ENOENT);
    ck_assert_ptr_null(s);

    /* The replay fails the same way even where someone now listens. */
    replay_set_mode(REPLAY_REPLAY, tmpdir);
    ck_assert_int_eq(stream_open(name, &s, 0), ENOENT);
    ck_assert_ptr_null(s);
    free(name);
}
END_TEST

START_TEST(test_random_bytes)
{
    uint8_t drawn[32], again[32];
    for (size_t i = 0; i < sizeof drawn; i++) {
        drawn[i] = i * 7;
    }

    replay_set_mode(REPLAY_RECORD, tmpdir);
    ck_assert(!replay_take_random(again, sizeof again));
    replay_put_random(drawn, sizeof drawn);

    replay_set_mode(REPLAY_REPLAY, tmpdir);
    ck_assert(replay_take_random(again, 16));
    ck_assert(replay_take_random(again + 16, 16));
    ck_assert(!memcmp(drawn, again, sizeof drawn));
    /* Used up: the caller draws its own. */
    ck_assert(!replay_take_random(again, 1));
}
END_TEST

static Suite *
replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *tc = tcase_create("replay");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_records_round_trip);
    tcase_add_test(tc, test_truncated_record);
    tcase_add_test(tc, test_stream_record_and_replay);
    tcase_add_test(tc, test_failed_open_is_replayed);
    tcase_add_test(tc, test_random_bytes);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    SRunner *sr = srunner_create(replay_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
