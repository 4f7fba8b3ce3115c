/* stream-ssl: process-wide TLS settings for ssl: and pssl: streams.
 *
 * Both ends of every TLS connection prove who they are: each side presents
 * the certificate in --certificate (with the key in --private-key) and
 * accepts the peer only if the peer's certificate chains to the CA in
 * --ca-cert.  A peer that presents no certificate, or one signed by another
 * CA, is refused during the handshake and the failure is logged.  Opening an
 * ssl: or pssl: stream before all three files are set fails with
 * ENOPROTOOPT and a log message for each one missing (3.1's error and
 * words).
 *
 * The settings are global to the process and usually set once from the
 * command line with the option helpers below:
 *
 *     enum { ..., STREAM_SSL_OPTION_ENUMS };
 *     static const struct option long_options[] = {
 *         ..., STREAM_SSL_LONG_OPTIONS, ...
 *     };
 *     switch (c) {
 *     ...
 *     STREAM_SSL_OPTION_HANDLERS
 *     }
 *
 * giving --private-key=FILE (-p), --certificate=FILE (-c), --ca-cert=FILE
 * (-C), --ssl-protocols=LIST and --ssl-ciphers=LIST.  Files are read when
 * the next ssl:/pssl: stream is opened after a change; calling a setter again
 * with a new path (or the same path, after the file changed) takes effect for
 * connections opened afterwards.
 *
 * Bootstrapping the CA certificate (--bootstrap-ca-cert, that is
 * stream_ssl_set_ca_cert_file() with BOOTSTRAP true): while the CA file
 * does not exist, a client connection accepts the server's certificate
 * chain without verifying it, saves the certificate at its top to the file
 * if it is a self-signed CA certificate (a server sends its CA with
 * --peer-ca-cert, see stream_ssl_set_peer_ca_cert_file(); a self-signed
 * server certificate is its own CA), logs its fingerprint, and then drops
 * the connection (EPROTO) without sending anything over it.  Connections
 * from then on trust that CA and verify the server as usual.  Until the
 * file exists, TLS connections cannot be accepted (no CA to check clients
 * against).  Trusting the first server met is the user's choice: the file
 * is created only if it does not exist (O_EXCL), never replaced.
 *
 * The setters copy their arguments.  The settings are guarded by a mutex;
 * the verification callback that bootstraps runs on whichever thread drives
 * the handshake and takes the same mutex.
 */
#ifndef STREAM_SSL_H
#define STREAM_SSL_H 1

#include <stdbool.h>

/* True once a private key, a certificate and a CA certificate are set. */
bool stream_ssl_is_configured(void);

void stream_ssl_set_private_key_file(const char *file_name);
void stream_ssl_set_certificate_file(const char *file_name);
void stream_ssl_set_key_and_cert(const char *private_key_file,
                                 const char *certificate_file);
void stream_ssl_set_ca_cert_file(const char *file_name, bool bootstrap);
/* A CA certificate sent to peers along with our own certificate, so that a
 * peer can see the chain up to a CA it knows. */
void stream_ssl_set_peer_ca_cert_file(const char *file_name);
/* LIST is a comma- or space-separated subset of "TLSv1", "TLSv1.1",
 * "TLSv1.2" and "TLSv1.3" (default: TLSv1.2,TLSv1.3); the range from the
 * lowest to the highest listed is enabled, as far as OpenSSL's own
 * configuration allows.  A list that is empty or names anything else is
 * logged and the default used. */
void stream_ssl_set_protocols(const char *list);
/* LIST is an OpenSSL cipher list for TLS 1.2 (default "HIGH:!aNULL:!MD5"). */
void stream_ssl_set_ciphers(const char *list);

/* Frees the global TLS state; for leak checkers at exit. */
void stream_ssl_cleanup(void);

#define STREAM_SSL_OPTION_ENUMS                 \
        OPT_SSL_PROTOCOLS,                      \
        OPT_SSL_CIPHERS
/* The name Open vSwitch programs use for the same list. */
#define SSL_OPTION_ENUMS STREAM_SSL_OPTION_ENUMS

#define STREAM_SSL_LONG_OPTIONS                                         \
        {"private-key",   required_argument, NULL, 'p'},                \
        {"certificate",   required_argument, NULL, 'c'},                \
        {"ca-cert",       required_argument, NULL, 'C'},                \
        {"ssl-protocols", required_argument, NULL, OPT_SSL_PROTOCOLS},  \
        {"ssl-ciphers",   required_argument, NULL, OPT_SSL_CIPHERS}

#define STREAM_SSL_OPTION_HANDLERS                      \
        case 'p':                                       \
            stream_ssl_set_private_key_file(optarg);    \
            break;                                      \
                                                        \
        case 'c':                                       \
            stream_ssl_set_certificate_file(optarg);    \
            break;                                      \
                                                        \
        case 'C':                                       \
            stream_ssl_set_ca_cert_file(optarg, false); \
            break;                                      \
                                                        \
        case OPT_SSL_PROTOCOLS:                         \
            stream_ssl_set_protocols(optarg);           \
            break;                                      \
                                                        \
        case OPT_SSL_CIPHERS:                           \
            stream_ssl_set_ciphers(optarg);             \
            break;

#endif /* stream-ssl.h */
