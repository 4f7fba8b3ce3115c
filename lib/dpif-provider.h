/* dpif-provider: what dpif.c asks of each type of datapath.
 *
 * Private to lib/dpif*.c.  A provider is a struct dpif_class of function
 * pointers in one file (dpif-netdev.c: "netdev").  dpif.c dispatches,
 * validates arguments and logs; a provider implements the semantics
 * described in dpif.h, with the same thread rules.
 *
 * Memory: a provider embeds struct dpif in its handle struct, allocated
 * by open() and freed by close(); dpif.c fills in nothing but reads the
 * common part. */
#ifndef DPIF_PROVIDER_H
#define DPIF_PROVIDER_H 1

#include "dpif.h"

struct dpif {
    const struct dpif_class *dpif_class;
    char *base_name;            /* "TYPE@NAME" (owned). */
    char *name;                 /* Owned. */
};

/* A provider's dump and dump thread structs begin with these, so dpif.c
 * can find the class. */
struct dpif_flow_dump {
    const struct dpif *dpif;
    /* dpif_flow_dump_set_terse()'s window; a provider may ignore it. */
    long long int terse_idle_before, terse_quiet_before;
    bool given_keys;            /* dpif_flow_dump_set_given_keys(). */
};

struct dpif_flow_dump_thread {
    struct dpif_flow_dump *dump;
};

struct dpif_class {
    const char *type;
    /* Numbers ports after their names and opens "internal" ports as
     * "dummy-internal" devices: the test datapath (dpif_enable_dummy()). */
    bool dummy;

    /* Adds the names of this class's datapaths to NAMES. */
    void (*enumerate)(const struct dpif_class *, struct sset *names);
    /* CREATE: make it (EEXIST if it exists); else open it (ENODEV if it
     * does not; EINVAL if a datapath of another class has NAME). */
    int (*open)(const struct dpif_class *, const char *name, bool create,
                struct dpif **);
    void (*close)(struct dpif *);
    int (*destroy)(struct dpif *);      /* Destroys; the handle stays. */
    void (*run)(struct dpif *);
    void (*wait)(struct dpif *);

    int (*set_n_rx_threads)(struct dpif *, unsigned int);
    unsigned int (*get_n_rx_threads)(const struct dpif *);
    int (*get_stats)(const struct dpif *, struct dpif_dp_stats *);

    int (*port_add)(struct dpif *, struct netdev *, uint32_t *port_nop);
    int (*port_del)(struct dpif *, uint32_t port_no);
    int (*port_query_by_number)(const struct dpif *, uint32_t,
                                struct dpif_port *);
    int (*port_query_by_name)(const struct dpif *, const char *,
                              struct dpif_port *);
    void (*port_list)(const struct dpif *, struct dpif_port **, size_t *);
    int (*port_get_stats)(const struct dpif *, uint32_t,
                          struct dpif_port_stats *);

    int (*flow_put)(struct dpif *, enum dpif_flow_put_flags,
                    const struct flow *, const struct flow_wildcards *,
                    const struct nlattr *, size_t,
                    struct dpif_flow_stats *);
    int (*flow_del)(struct dpif *, const struct flow *,
                    const struct flow_wildcards *, struct dpif_flow_stats *);
    int (*flow_flush)(struct dpif *);
    int (*flow_get)(const struct dpif *, const struct flow *,
                    const struct flow_wildcards *, struct dpif_flow *,
                    void **actions_buf);
    struct dpif_flow_dump *(*flow_dump_create)(const struct dpif *);
    struct dpif_flow_dump_thread *(*flow_dump_thread_create)(
        struct dpif_flow_dump *);
    int (*flow_dump_next)(struct dpif_flow_dump_thread *,
                          struct dpif_flow *, int max);
    void (*flow_dump_thread_destroy)(struct dpif_flow_dump_thread *);
    int (*flow_dump_destroy)(struct dpif_flow_dump *);

    int (*execute)(struct dpif *, struct dp_packet_batch *,
                   const struct nlattr *, size_t);
    /* Optional: NULL makes dpif.c run the ops one by one. */
    void (*operate)(struct dpif *, struct dpif_op **, size_t n_ops);

    /* Optional: NULL means no meters (EOPNOTSUPP). */
    int (*meter_set)(struct dpif *, uint32_t meter_id,
                     const struct dpif_meter_config *);
    int (*meter_get)(const struct dpif *, uint32_t meter_id,
                     struct dpif_meter_stats *);
    int (*meter_del)(struct dpif *, uint32_t meter_id,
                     struct dpif_meter_stats *);

    /* Optional: NULL means no lb_output bonds (EOPNOTSUPP). */
    int (*bond_add)(struct dpif *, uint32_t bond_id,
                    const uint32_t ports[DPIF_BOND_N_BUCKETS]);
    int (*bond_del)(struct dpif *, uint32_t bond_id);
    int (*bond_stats_get)(const struct dpif *, uint32_t bond_id,
                          uint64_t n_bytes[DPIF_BOND_N_BUCKETS]);

    int (*handlers_set)(struct dpif *, uint32_t n);
    size_t (*recv)(struct dpif *, uint32_t handler_id,
                   struct dpif_upcall *, size_t max);
    void (*recv_release)(struct dpif *, uint32_t handler_id);
    void (*recv_wait)(struct dpif *, uint32_t handler_id);

    /* dpif_set_control_sink(); NULL if the provider offers no sink. */
    void (*set_control_sink)(struct dpif *, dpif_control_sink_cb *,
                             void *aux);

    /* dpif_conntrack(); NULL if the provider tracks no connections. */
    struct conntrack *(*conntrack)(const struct dpif *);
    /* dpif_ipf(); NULL if the provider reassembles no fragments. */
    struct ipf *(*ipf)(const struct dpif *);
};

extern const struct dpif_class dpif_netdev_class;
/* The same datapath under the type "dummy", for tests (dpif_enable_dummy()):
 * it numbers a port after the digits in its name, as Open vSwitch's dummy
 * datapath does, so tests can predict datapath port numbers. */
extern const struct dpif_class dpif_dummy_class;
/* The same again under the type "system", which has no kernel datapath
 * behind it here: with --enable-dummy=system or =override, Open vSwitch
 * serves its "system" type with a dummy datapath too. */
extern const struct dpif_class dpif_system_dummy_class;

#endif /* dpif-provider.h */
