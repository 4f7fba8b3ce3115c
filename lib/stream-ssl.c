#include <config.h>
#include "stream-ssl.h"

#include <errno.h>
#include <fcntl.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_ssl);

/* One configured file, with what it looked like when the context was built,
 * so that a replaced certificate is picked up by the next connection. */
struct ssl_file {
    char *name;
    struct timespec mtime;
    off_t size;
};

/* Everything below is guarded by 'mutex': streams on any thread build TLS
 * objects from the shared context. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ssl_file private_key;
static struct ssl_file certificate;
static struct ssl_file ca_cert;
static struct ssl_file peer_ca_cert;
static bool ca_cert_bootstrap;  /* --bootstrap-ca-cert: see stream-ssl.h. */
static bool ctx_bootstrapping;  /* 'ctx' was built without a CA file, to
                                 * bootstrap it from the first server. */
static char *protocols;
static char *ciphers;
static SSL_CTX *ctx;            /* NULL until built, or after a change. */

static void
ssl_file_set(struct ssl_file *file, const char *name)
{
    if (!file->name || strcmp(file->name, name)) {
        free(file->name);
        file->name = xstrdup(name);
        memset(&file->mtime, 0, sizeof file->mtime);
        file->size = -1;
    }
}

/* True if FILE is set and changed on disk since ssl_file_stamp(). */
static bool
ssl_file_changed(const struct ssl_file *file)
{
    struct stat st;
    if (!file->name || stat(file->name, &st)) {
        return false;
    }
    return (st.st_mtim.tv_sec != file->mtime.tv_sec
            || st.st_mtim.tv_nsec != file->mtime.tv_nsec
            || st.st_size != file->size);
}

static void
ssl_file_stamp(struct ssl_file *file)
{
    struct stat st;
    if (file->name && !stat(file->name, &st)) {
        file->mtime = st.st_mtim;
        file->size = st.st_size;
    }
}

static void
invalidate_ctx(void)
{
    SSL_CTX_free(ctx);
    ctx = NULL;
}

bool
stream_ssl_is_configured(void)
{
    pthread_mutex_lock(&mutex);
    bool configured = private_key.name && certificate.name && ca_cert.name;
    pthread_mutex_unlock(&mutex);
    return configured;
}

void
stream_ssl_set_private_key_file(const char *file_name)
{
    pthread_mutex_lock(&mutex);
    ssl_file_set(&private_key, file_name);
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_set_certificate_file(const char *file_name)
{
    pthread_mutex_lock(&mutex);
    ssl_file_set(&certificate, file_name);
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_set_key_and_cert(const char *private_key_file,
                            const char *certificate_file)
{
    stream_ssl_set_private_key_file(private_key_file);
    stream_ssl_set_certificate_file(certificate_file);
}

void
stream_ssl_set_ca_cert_file(const char *file_name, bool bootstrap)
{
    pthread_mutex_lock(&mutex);
    ssl_file_set(&ca_cert, file_name);
    ca_cert_bootstrap = bootstrap;
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_set_peer_ca_cert_file(const char *file_name)
{
    pthread_mutex_lock(&mutex);
    ssl_file_set(&peer_ca_cert, file_name);
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_set_protocols(const char *list)
{
    pthread_mutex_lock(&mutex);
    free(protocols);
    protocols = list ? xstrdup(list) : NULL;
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_set_ciphers(const char *list)
{
    pthread_mutex_lock(&mutex);
    free(ciphers);
    ciphers = list ? xstrdup(list) : NULL;
    invalidate_ctx();
    pthread_mutex_unlock(&mutex);
}

void
stream_ssl_cleanup(void)
{
    pthread_mutex_lock(&mutex);
    invalidate_ctx();
    struct ssl_file *files[] = { &private_key, &certificate, &ca_cert,
                                 &peer_ca_cert };
    for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
        free(files[i]->name);
        memset(files[i], 0, sizeof *files[i]);
    }
    free(protocols);
    protocols = NULL;
    free(ciphers);
    ciphers = NULL;
    ca_cert_bootstrap = false;
    pthread_mutex_unlock(&mutex);
}

/* Logs every error in OpenSSL's queue for this thread, prefixed by WHAT. */
static void
log_openssl_errors(const char *what)
{
    unsigned long int code;
    bool any = false;

    while ((code = ERR_get_error()) != 0) {
        char buf[256];
        ERR_error_string_n(code, buf, sizeof buf);
        VLOG_ERR("%s: %s", what, buf);
        any = true;
    }
    if (!any) {
        VLOG_ERR("%s: failed", what);
    }
}

/* Turns 'protocols' into a version range: the lowest and the highest
 * version listed (OpenSSL enables a range; a version left out between two
 * listed ones is enabled too).  Open vSwitch 3.1 knows TLSv1 to TLSv1.3;
 * which of them OpenSSL then really allows (its security level refuses
 * TLSv1 and TLSv1.1 by default) is OpenSSL's business.  Returns false,
 * after logging why, for a list that is empty or names anything else: the
 * caller then uses the default, as Open vSwitch does with such a list. */
static bool
parse_protocols(const char *list, int *minp, int *maxp)
{
    static const struct {
        const char *name;
        int version;
    } known[] = {
        { "TLSv1", TLS1_VERSION },
        { "TLSv1.1", TLS1_1_VERSION },
        { "TLSv1.2", TLS1_2_VERSION },
        { "TLSv1.3", TLS1_3_VERSION },
    };
    char *copy = xstrdup(list);
    char *save = NULL;
    int min = 0, max = 0;
    bool ok = true;

    for (char *tok = strtok_r(copy, ", \t", &save); tok && ok;
         tok = strtok_r(NULL, ", \t", &save)) {
        int version = 0;
        for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
            if (!strcmp(tok, known[i].name)) {
                version = known[i].version;
            }
        }
        if (!version) {
            VLOG_ERR("%s: SSL protocol not recognized", tok);
            ok = false;
            break;
        }
        min = !min || version < min ? version : min;
        max = version > max ? version : max;
    }
    free(copy);
    if (ok && !min) {
        VLOG_ERR("SSL protocol settings invalid");
        ok = false;
    }
    *minp = min;
    *maxp = max;
    return ok;
}

static X509 *
read_cert(const char *file_name)
{
    FILE *f = fopen(file_name, "r");
    if (!f) {
        VLOG_ERR("%s: could not open (%s)", file_name, ovs_strerror(errno));
        return NULL;
    }
    X509 *cert = PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    if (!cert) {
        char *what = xasprintf("%s: reading certificate", file_name);
        log_openssl_errors(what);
        free(what);
    }
    return cert;
}

/* Builds 'ctx' from the settings.  Called with 'mutex' held, once all three
 * mandatory files are known to be set.  Returns 0 or EINVAL (logged). */
static int
build_ctx(void)
{
    SSL_CTX *new_ctx = SSL_CTX_new(TLS_method());
    char *what = NULL;

    if (!new_ctx) {
        log_openssl_errors("SSL_CTX_new");
        return ENOMEM;
    }

    /* Dirty shutdowns are how most peers hang up; with OpenSSL 3 they would
     * otherwise surface as protocol errors instead of end of file. */
    SSL_CTX_set_options(new_ctx, SSL_OP_NO_COMPRESSION
                        | SSL_OP_IGNORE_UNEXPECTED_EOF
                        | SSL_OP_NO_RENEGOTIATION);

    int min = TLS1_2_VERSION, max = TLS1_3_VERSION;
    if (protocols && !parse_protocols(protocols, &min, &max)) {
        min = TLS1_2_VERSION;
        max = TLS1_3_VERSION;
    }
    SSL_CTX_set_min_proto_version(new_ctx, min);
    SSL_CTX_set_max_proto_version(new_ctx, max);

    const char *cipher_list = ciphers ? ciphers : "HIGH:!aNULL:!MD5";
    if (!SSL_CTX_set_cipher_list(new_ctx, cipher_list)) {
        what = xasprintf("SSL ciphers \"%s\"", cipher_list);
        goto error;
    }

    if (SSL_CTX_use_certificate_chain_file(new_ctx, certificate.name) != 1) {
        what = xasprintf("%s: loading certificate", certificate.name);
        goto error;
    }
    if (SSL_CTX_use_PrivateKey_file(new_ctx, private_key.name,
                                    SSL_FILETYPE_PEM) != 1) {
        what = xasprintf("%s: loading private key", private_key.name);
        goto error;
    }
    if (SSL_CTX_check_private_key(new_ctx) != 1) {
        what = xasprintf("%s: private key does not match certificate %s",
                         private_key.name, certificate.name);
        goto error;
    }
    /* Without a CA file yet, a --bootstrap-ca-cert client takes it from
     * the first server it talks to (see bootstrap_verify_cb()). */
    bool bootstrapping = (ca_cert_bootstrap && access(ca_cert.name, F_OK)
                          && errno == ENOENT);
    if (!bootstrapping) {
        if (SSL_CTX_load_verify_locations(new_ctx, ca_cert.name,
                                          NULL) != 1) {
            what = xasprintf("%s: loading CA certificate", ca_cert.name);
            goto error;
        }

        /* Tell clients which CAs we accept, so one with several
         * certificates can pick the right one. */
        STACK_OF(X509_NAME) *ca_names
            = SSL_load_client_CA_file(ca_cert.name);
        if (ca_names) {
            SSL_CTX_set_client_CA_list(new_ctx, ca_names);
        }
    }
    ERR_clear_error();

    if (peer_ca_cert.name) {
        X509 *cert = read_cert(peer_ca_cert.name);
        if (!cert) {
            SSL_CTX_free(new_ctx);
            return EINVAL;
        }
        if (SSL_CTX_add_extra_chain_cert(new_ctx, cert) != 1) {
            X509_free(cert);
            what = xasprintf("%s: adding peer CA certificate",
                             peer_ca_cert.name);
            goto error;
        }
    }

    /* Both directions: a server must reject clients without a certificate
     * from our CA just as a client rejects such servers. */
    SSL_CTX_set_verify(new_ctx,
                       SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       NULL);

    ssl_file_stamp(&private_key);
    ssl_file_stamp(&certificate);
    ssl_file_stamp(&ca_cert);
    ssl_file_stamp(&peer_ca_cert);
    ctx = new_ctx;
    ctx_bootstrapping = bootstrapping;
    return 0;

error:
    log_openssl_errors(what);
    free(what);
    SSL_CTX_free(new_ctx);
    return EINVAL;
}

/* Bootstrapping the CA certificate. */

/* The SSL ex_data index that marks a connection dropped right after its
 * peer's CA certificate was saved (so that its failure is reported as
 * that, not as a verification error). */
static int bootstrap_ex_index = -1;

static void
bootstrap_ex_index_init(void)
{
    bootstrap_ex_index = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

static bool
connection_did_bootstrap(SSL *ssl)
{
    return bootstrap_ex_index >= 0
           && SSL_get_ex_data(ssl, bootstrap_ex_index) != NULL;
}

/* Whether CERT signed itself: a CA certificate at the top of a chain. */
static bool
cert_is_self_signed(X509 *cert)
{
    EVP_PKEY *key = X509_get0_pubkey(cert);
    bool self_signed = (X509_check_issued(cert, cert) == X509_V_OK
                        && key && X509_verify(cert, key) == 1);
    ERR_clear_error();
    return self_signed;
}

/* Writes CERT to FILE_NAME, which must not exist.  Returns 0, EEXIST if it
 * exists by now (another process bootstrapped first), or another errno
 * value (logged). */
static int
save_ca_cert(const char *file_name, X509 *cert)
{
    int fd = open(file_name, O_WRONLY | O_CREAT | O_EXCL, 0444);
    if (fd < 0) {
        if (errno != EEXIST) {
            VLOG_ERR("%s: could not create CA certificate file (%s)",
                     file_name, ovs_strerror(errno));
        }
        return errno;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int error = errno;
        close(fd);
        unlink(file_name);
        return error;
    }
    bool ok = PEM_write_X509(f, cert) == 1;
    ok = !fclose(f) && ok;
    if (!ok) {
        VLOG_ERR("%s: could not write CA certificate file", file_name);
        unlink(file_name);
        ERR_clear_error();
        return EIO;
    }
    return 0;
}

/* The certificate verification callback of a client connection while the
 * CA file does not exist yet (--bootstrap-ca-cert).  Saves the
 * certificate at the top of the chain that the server sent, if it is a CA
 * certificate (one that signed itself), and then fails the handshake
 * either way: nothing is sent over a connection whose peer was never
 * verified.  The next connection trusts the saved CA and verifies the
 * server against it. */
static int
bootstrap_verify_cb(int preverify_ok OVS_UNUSED, X509_STORE_CTX *store)
{
    SSL *ssl = X509_STORE_CTX_get_ex_data(
        store, SSL_get_ex_data_X509_STORE_CTX_idx());
    STACK_OF(X509) *chain = X509_STORE_CTX_get0_untrusted(store);
    X509 *top = (chain && sk_X509_num(chain)
                 ? sk_X509_value(chain, sk_X509_num(chain) - 1)
                 : X509_STORE_CTX_get0_cert(store));

    pthread_mutex_lock(&mutex);
    char *file_name = ca_cert.name ? xstrdup(ca_cert.name) : NULL;
    pthread_mutex_unlock(&mutex);
    if (!file_name || !top) {
        free(file_name);
        return 0;
    }

    char subject[256];
    X509_NAME_oneline(X509_get_subject_name(top), subject, sizeof subject);
    if (!cert_is_self_signed(top)) {
        VLOG_ERR("%s: cannot bootstrap the CA certificate: the peer's "
                 "certificate chain ends in \"%s\", which is not a "
                 "self-signed CA certificate (the peer should send its CA "
                 "certificate, e.g. with --peer-ca-cert)",
                 file_name, subject);
        free(file_name);
        return 0;
    }

    int error = save_ca_cert(file_name, top);
    if (!error || error == EEXIST) {
        if (!error) {
            unsigned char digest[EVP_MAX_MD_SIZE];
            unsigned int len = 0;
            char hex[2 * EVP_MAX_MD_SIZE + 1] = "";
            if (X509_digest(top, EVP_sha1(), digest, &len)) {
                for (unsigned int i = 0; i < len; i++) {
                    snprintf(&hex[2 * i], 3, "%02x", digest[i]);
                }
            }
            VLOG_INFO("%s: saved the peer's CA certificate \"%s\" (SHA-1 "
                      "fingerprint %s); trusting it from now on",
                      file_name, subject, hex);
        }
        if (ssl && bootstrap_ex_index >= 0) {
            SSL_set_ex_data(ssl, bootstrap_ex_index, (void *) 1);
        }
        /* The next connection builds a context that loads the file. */
        pthread_mutex_lock(&mutex);
        invalidate_ctx();
        pthread_mutex_unlock(&mutex);
    }
    free(file_name);
    return 0;
}

int
stream_ssl_check_config(const char *name OVS_UNUSED)
{
    /* Every missing piece is logged, in 3.1's words, and the error is
     * 3.1's too ("Protocol not available"), as tools print it. */
    pthread_mutex_lock(&mutex);
    bool no_key = !private_key.name;
    bool no_cert = !certificate.name;
    bool no_ca_cert = !ca_cert.name;
    pthread_mutex_unlock(&mutex);

    if (no_key) {
        VLOG_ERR("Private key must be configured to use SSL");
    }
    if (no_cert) {
        VLOG_ERR("Certificate must be configured to use SSL");
    }
    if (no_ca_cert) {
        VLOG_ERR("CA certificate must be configured to use SSL");
    }
    return no_key || no_cert || no_ca_cert ? ENOPROTOOPT : 0;
}

int
stream_ssl_bufferevent_new(const char *name, struct event_base *base, int fd,
                           bool server, struct bufferevent **bevp)
{
    *bevp = NULL;
    int error = stream_ssl_check_config(name);
    if (error) {
        return error;
    }

    pthread_mutex_lock(&mutex);
    if (ctx && (ssl_file_changed(&private_key)
                || ssl_file_changed(&certificate)
                || ssl_file_changed(&ca_cert)
                || ssl_file_changed(&peer_ca_cert))) {
        VLOG_INFO("TLS key or certificate files changed, reloading");
        invalidate_ctx();
    }
    if (!ctx) {
        error = build_ctx();
    }
    bool bootstrapping = !error && ctx_bootstrapping;
    if (bootstrapping && server) {
        /* There is no CA yet to check clients against. */
        VLOG_ERR("%s: cannot accept TLS connections before the CA "
                 "certificate %s has been bootstrapped from a server",
                 name, ca_cert.name);
        error = EINVAL;
    }
    SSL *ssl = error ? NULL : SSL_new(ctx);
    pthread_mutex_unlock(&mutex);

    if (error) {
        return error;
    }
    if (!ssl) {
        log_openssl_errors("SSL_new");
        return ENOMEM;
    }
    if (bootstrapping) {
        static pthread_once_t once = PTHREAD_ONCE_INIT;
        pthread_once(&once, bootstrap_ex_index_init);
        SSL_set_verify(ssl, SSL_VERIFY_PEER, bootstrap_verify_cb);
    }

    struct bufferevent *bev = bufferevent_openssl_socket_new(
        base, fd, ssl,
        server ? BUFFEREVENT_SSL_ACCEPTING : BUFFEREVENT_SSL_CONNECTING,
        BEV_OPT_CLOSE_ON_FREE);
    if (!bev) {
        VLOG_ERR("%s: could not create TLS bufferevent", name);
        SSL_free(ssl);
        return ENOMEM;
    }
    bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    *bevp = bev;
    return 0;
}

int
stream_ssl_report_errors(const char *name, struct bufferevent *bev)
{
    unsigned long int code;
    bool any = false;

    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    if (ssl && connection_did_bootstrap(ssl)) {
        while (bufferevent_get_openssl_error(bev)) {
            continue;
        }
        VLOG_INFO("%s: closing the connection that bootstrapped the CA "
                  "certificate; connections from now on verify the peer",
                  name);
        return EPROTO;
    }
    long int verify = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
    if (verify != X509_V_OK) {
        VLOG_WARN("%s: peer certificate verification failed (%s)",
                  name, X509_verify_cert_error_string(verify));
        any = true;
    }
    while ((code = bufferevent_get_openssl_error(bev)) != 0) {
        if (!ERR_GET_LIB(code)) {
            /* libevent's own marker for a system call failure, whose errno
             * the caller reports; OpenSSL has no text for it. */
            continue;
        }
        char buf[256];
        ERR_error_string_n(code, buf, sizeof buf);
        VLOG_WARN("%s: TLS error: %s", name, buf);
        any = true;
    }
    return any ? EPROTO : 0;
}

void
stream_ssl_shutdown(struct bufferevent *bev)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    if (!ssl || !SSL_is_init_finished(ssl)) {
        return;
    }

    /* Best effort, never blocking: push out what is still queued (say, a
     * reply just sent), then close_notify if everything went. */
    struct evbuffer *output = bufferevent_get_output(bev);
    size_t n;
    evbuffer_unfreeze(output, 1);
    while ((n = evbuffer_get_length(output)) > 0) {
        size_t chunk = MIN(n, 16384);
        int retval = SSL_write(ssl, evbuffer_pullup(output, chunk), chunk);
        if (retval <= 0 || evbuffer_drain(output, retval)) {
            break;
        }
    }
    if (!evbuffer_get_length(output)) {
        SSL_shutdown(ssl);
    }
    ERR_clear_error();
}

char *
stream_ssl_get_peer_common_name(struct bufferevent *bev)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    X509 *cert = ssl ? SSL_get1_peer_certificate(ssl) : NULL;
    if (!cert) {
        return NULL;
    }

    char *cn = NULL;
    X509_NAME *subject = X509_get_subject_name(cert);
    int i = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
    X509_NAME_ENTRY *entry = i >= 0 ? X509_NAME_get_entry(subject, i) : NULL;
    unsigned char *utf8;
    int len = entry ? ASN1_STRING_to_UTF8(&utf8,
                                          X509_NAME_ENTRY_get_data(entry))
                    : -1;
    if (len >= 0) {
        /* A name with a NUL inside could pass for a shorter one. */
        if (!memchr(utf8, '\0', len)) {
            cn = xmemdup0((const char *) utf8, len);
        }
        OPENSSL_free(utf8);
    }
    X509_free(cert);
    return cn;
}
