/* tunnel-options: see tunnel-options.h. */
#include <config.h>
#include "tunnel-options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

/* What each tunnel type is.  The datapath port prefixes are 3.1's: they
 * are kept short so that "_PORT" still fits in an interface name. */
struct tunnel_type {
    const char *type;
    const char *dpif_prefix;
    uint16_t udp_port;          /* Default UDP port; 0: not over UDP. */
    bool has_csum;              /* Takes options:csum. */
    bool has_seq;               /* Takes options:seq. */
    bool l2, l3;                /* Can carry Ethernet frames, IP packets. */
};

static const struct tunnel_type tunnel_types[] = {
    { "gre",       "gre_sys",       0,    true,  true,  true,  true  },
    { "ip6gre",    "ip6gre_sys",    0,    true,  true,  true,  false },
    { "erspan",    "erspan_sys",    0,    false, false, true,  false },
    { "ip6erspan", "ip6erspan_sys", 0,    false, false, true,  false },
    { "vxlan",     "vxlan_sys",     4789, true,  false, true,  false },
    { "geneve",    "genev_sys",     6081, true,  false, true,  false },
    { "lisp",      "lisp_sys",      4341, false, false, false, true  },
    { "stt",       "stt_sys",       7471, true,  false, true,  false },
    { "gtpu",      "gtpu_sys",      2152, false, false, false, true  },
};

static const struct tunnel_type *
tunnel_type_find(const char *type)
{
    for (size_t i = 0; i < ARRAY_SIZE(tunnel_types); i++) {
        if (type && !strcmp(tunnel_types[i].type, type)) {
            return &tunnel_types[i];
        }
    }
    return NULL;
}

bool
tunnel_type_is_known(const char *type)
{
    return tunnel_type_find(type) != NULL;
}

bool
tunnel_type_is_udp(const char *type)
{
    const struct tunnel_type *tt = tunnel_type_find(type);
    return tt && tt->udp_port;
}

uint16_t
tunnel_type_default_port(const char *type)
{
    const struct tunnel_type *tt = tunnel_type_find(type);
    return tt ? tt->udp_port : 0;
}

const char *
tunnel_dpif_port_name(const char *type, uint16_t dst_port, char *buf,
                      size_t size)
{
    const struct tunnel_type *tt = tunnel_type_find(type);
    if (!tt) {
        return NULL;
    }
    if (tt->udp_port) {
        snprintf(buf, size, "%s_%"PRIu16, tt->dpif_prefix, dst_port);
    } else {
        snprintf(buf, size, "%s", tt->dpif_prefix);
    }
    return buf;
}

uint32_t
tunnel_in6_get_mapped_ipv4(const struct in6_addr *a)
{
    static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };
    if (memcmp(a->s6_addr, prefix, sizeof prefix)) {
        return 0;
    }
    uint32_t ip;
    memcpy(&ip, &a->s6_addr[12], 4);
    return ip;
}

void
tunnel_in6_set_mapped_ipv4(struct in6_addr *a, uint32_t be_ip)
{
    memset(a, 0, sizeof *a);
    a->s6_addr[10] = a->s6_addr[11] = 0xff;
    memcpy(&a->s6_addr[12], &be_ip, 4);
}

/* Parses an address option: "flow", IPv4 or IPv6.  Returns 0, ENOENT for
 * a value that is no address, EINVAL for a multicast one when
 * !ACCEPT_MCAST.  *FAMILY becomes AF_INET or AF_INET6 (0 for "flow"). */
static int
parse_tunnel_ip(const char *value, bool accept_mcast, bool *flow,
                struct in6_addr *addr, int *family)
{
    if (!strcmp(value, "flow")) {
        *flow = true;
        *family = 0;
        return 0;
    }
    if (strchr(value, ':')) {
        if (inet_pton(AF_INET6, value, addr) != 1) {
            return ENOENT;
        }
        if (!accept_mcast && addr->s6_addr[0] == 0xff) {
            return EINVAL;
        }
        *family = AF_INET6;
    } else {
        struct in_addr ip;
        if (inet_pton(AF_INET, value, &ip) != 1) {
            return ENOENT;
        }
        if (!accept_mcast && (ntohl(ip.s_addr) & 0xf0000000) == 0xe0000000) {
            return EINVAL;
        }
        tunnel_in6_set_mapped_ipv4(addr, ip.s_addr);
        *family = AF_INET;
    }
    return 0;
}

/* in_key/out_key: the specific option, else "key"; absent, "flow" or a
 * number (decimal, 0x hex or 0 octal, as strtoull takes it). */
static ovs_be64
parse_key(const struct smap *options, const char *name, bool *present,
          bool *flow)
{
    const char *s = smap_get(options, name);
    if (!s) {
        s = smap_get(options, "key");
    }
    *present = s != NULL;
    *flow = s && !strcmp(s, "flow");
    return s && !*flow ? htonll(strtoull(s, NULL, 0)) : 0;
}

static bool
type_is_erspan(const char *type)
{
    return !strcmp(type, "erspan") || !strcmp(type, "ip6erspan");
}

#define ERSPAN_IDX_MASK 0xfffff
#define ERSPAN_HWID_MAX 0x3f
#define IP_DSCP_BITS 0xfc

int
tunnel_options_parse(const char *type, const char *name,
                     const struct smap *options, struct tunnel_config *cfg,
                     struct ds *warnings, char **errp)
{
    const struct tunnel_type *tt = tunnel_type_find(type);
    int src_family = 0, dst_family = 0;

    *errp = NULL;
    memset(cfg, 0, sizeof *cfg);
    if (!tt) {
        *errp = xasprintf("%s: %s is not a tunnel type", name, type);
        return EINVAL;
    }
    cfg->dst_port = htons(tt->udp_port);
    cfg->dont_fragment = true;

    const struct smap_node **sorted = smap_sort(options);
    size_t n = smap_count(options);
    int error = 0;
    for (size_t i = 0; i < n && !error; i++) {
        const char *key = sorted[i]->key;
        const char *value = sorted[i]->value;
        int retval;

        if (!strcmp(key, "remote_ip")) {
            retval = parse_tunnel_ip(value, false, &cfg->ip_dst_flow,
                                     &cfg->ipv6_dst, &dst_family);
            if (retval == ENOENT) {
                ds_put_format(warnings, "%s: bad %s 'remote_ip'\n",
                              name, type);
            } else if (retval == EINVAL) {
                *errp = xasprintf("%s: multicast remote_ip=%s not allowed",
                                  name, value);
                error = EINVAL;
            }
        } else if (!strcmp(key, "local_ip")) {
            retval = parse_tunnel_ip(value, true, &cfg->ip_src_flow,
                                     &cfg->ipv6_src, &src_family);
            if (retval) {
                ds_put_format(warnings, "%s: bad %s 'local_ip'\n",
                              name, type);
            }
        } else if (!strcmp(key, "tos")) {
            char *end;
            long tos;
            if (!strcmp(value, "inherit")) {
                cfg->tos_inherit = true;
            } else if (tos = strtol(value, &end, 0),
                       *value && !*end && tos == (tos & IP_DSCP_BITS)) {
                cfg->tos = tos;
            } else {
                ds_put_format(warnings, "%s: invalid TOS %s\n", name, value);
            }
        } else if (!strcmp(key, "ttl")) {
            if (!strcmp(value, "inherit")) {
                cfg->ttl_inherit = true;
            } else {
                cfg->ttl = atoi(value);
            }
        } else if (!strcmp(key, "dst_port") && tt->udp_port) {
            cfg->dst_port = htons(atoi(value));
        } else if (!strcmp(key, "csum") && tt->has_csum) {
            cfg->csum = !strcmp(value, "true");
        } else if (!strcmp(key, "seq") && tt->has_seq) {
            cfg->set_seq = !strcmp(value, "true");
        } else if (!strcmp(key, "df_default")) {
            cfg->dont_fragment = strcmp(value, "false") != 0;
        } else if (!strcmp(key, "key") || !strcmp(key, "in_key")
                   || !strcmp(key, "out_key")
                   || !strcmp(key, "packet_type")) {
            /* Below: they depend on each other. */
        } else if (!strcmp(key, "exts") && !strcmp(type, "vxlan")) {
            char *copy = xstrdup(value), *save = NULL;
            for (char *ext = strtok_r(copy, ",", &save); ext;
                 ext = strtok_r(NULL, ",", &save)) {
                if (!strcmp(ext, "gbp")) {
                    cfg->exts |= TUNNEL_EXT_VXLAN_GBP;
                } else if (!strcmp(ext, "gpe")) {
                    cfg->exts |= TUNNEL_EXT_VXLAN_GPE;
                } else {
                    ds_put_format(warnings, "%s: unknown extension '%s'\n",
                                  name, ext);
                }
            }
            free(copy);
        } else if (!strcmp(key, "egress_pkt_mark")) {
            cfg->egress_pkt_mark = strtoul(value, NULL, 10);
            cfg->set_egress_pkt_mark = true;
        } else if (!strcmp(key, "erspan_idx")) {
            if (!strcmp(value, "flow")) {
                cfg->erspan_idx_flow = true;
            } else {
                cfg->erspan_idx = strtoul(value, NULL, 16);
                if (cfg->erspan_idx & ~ERSPAN_IDX_MASK) {
                    *errp = xasprintf("%s: invalid erspan index: %s",
                                      name, value);
                    error = EINVAL;
                }
            }
        } else if (!strcmp(key, "erspan_ver")) {
            if (!strcmp(value, "flow")) {
                /* The version decides which other fields exist. */
                cfg->erspan_ver_flow = cfg->erspan_idx_flow = true;
                cfg->erspan_dir_flow = cfg->erspan_hwid_flow = true;
            } else {
                int ver = atoi(value);
                cfg->erspan_ver = ver;
                if (ver != 1 && ver != 2) {
                    *errp = xasprintf("%s: invalid erspan version: %s",
                                      name, value);
                    error = EINVAL;
                }
            }
        } else if (!strcmp(key, "erspan_dir")) {
            if (!strcmp(value, "flow")) {
                cfg->erspan_dir_flow = true;
            } else {
                int dir = atoi(value);
                cfg->erspan_dir = dir;
                if (dir != 0 && dir != 1) {
                    *errp = xasprintf("%s: invalid erspan direction: %s",
                                      name, value);
                    error = EINVAL;
                }
            }
        } else if (!strcmp(key, "erspan_hwid")) {
            if (!strcmp(value, "flow")) {
                cfg->erspan_hwid_flow = true;
            } else {
                unsigned long hwid = strtoul(value, NULL, 16);
                cfg->erspan_hwid = hwid;
                if (hwid > ERSPAN_HWID_MAX) {
                    *errp = xasprintf("%s: invalid erspan hardware ID: %s",
                                      name, value);
                    error = EINVAL;
                }
            }
        } else if (!strcmp(key, "remote_cert") || !strcmp(key, "remote_name")
                   || !strcmp(key, "psk")) {
            /* For an IPsec monitor, not for the switch. */
        } else {
            ds_put_format(warnings, "%s: unknown %s argument '%s'\n",
                          name, type, key);
        }
    }
    free(sorted);
    if (error) {
        return error;
    }

    /* Which packets it carries. */
    bool l2 = tt->l2, l3 = tt->l3;
    if (!strcmp(type, "vxlan") && cfg->exts & TUNNEL_EXT_VXLAN_GPE) {
        l3 = true;
    }
    const char *full_type = (strcmp(type, "vxlan") ? type
                             : cfg->exts & TUNNEL_EXT_VXLAN_GPE
                             ? "VXLAN-GPE" : "VXLAN (without GPE)");
    const char *pt = smap_get(options, "packet_type");
    if (!pt) {
        cfg->pt_mode = l3 && !l2 ? TUNNEL_PT_LEGACY_L3 : TUNNEL_PT_LEGACY_L2;
    } else if (!strcmp(pt, "legacy_l2")) {
        cfg->pt_mode = TUNNEL_PT_LEGACY_L2;
        if (!l2) {
            *errp = xasprintf("%s: legacy_l2 configured on %s tunnel that "
                              "cannot carry L2 traffic", name, full_type);
            return EINVAL;
        }
    } else if (!strcmp(pt, "legacy_l3")) {
        cfg->pt_mode = TUNNEL_PT_LEGACY_L3;
        if (!l3) {
            *errp = xasprintf("%s: legacy_l3 configured on %s tunnel that "
                              "cannot carry L3 traffic", name, full_type);
            return EINVAL;
        }
    } else if (!strcmp(pt, "ptap")) {
        cfg->pt_mode = TUNNEL_PT_PTAP;
    } else {
        *errp = xasprintf("%s: unknown packet_type '%s'", name, pt);
        return EINVAL;
    }

    static const struct in6_addr any = IN6ADDR_ANY_INIT;
    if (!memcmp(&cfg->ipv6_dst, &any, sizeof any) && !cfg->ip_dst_flow) {
        *errp = xasprintf("%s: %s type requires valid 'remote_ip' argument",
                          name, type);
        return EINVAL;
    }
    if (cfg->ip_src_flow && !cfg->ip_dst_flow) {
        *errp = xasprintf("%s: %s type requires 'remote_ip=flow' with "
                          "'local_ip=flow'", name, type);
        return EINVAL;
    }
    if (src_family && dst_family && src_family != dst_family) {
        *errp = xasprintf("%s: 'remote_ip' and 'local_ip' has to be of the "
                          "same address family", name);
        return EINVAL;
    }
    if (!cfg->ttl) {
        cfg->ttl = 64;
    }
    cfg->in_key = parse_key(options, "in_key", &cfg->in_key_present,
                            &cfg->in_key_flow);
    cfg->out_key = parse_key(options, "out_key", &cfg->out_key_present,
                             &cfg->out_key_flow);
    return 0;
}

static void
add_addr(struct smap *out, const char *key, const struct in6_addr *a)
{
    char buf[INET6_ADDRSTRLEN];
    uint32_t ip = tunnel_in6_get_mapped_ipv4(a);
    if (ip) {
        inet_ntop(AF_INET, &ip, buf, sizeof buf);
    } else {
        inet_ntop(AF_INET6, a, buf, sizeof buf);
    }
    smap_add(out, key, buf);
}

void
tunnel_options_format(const char *type, const struct tunnel_config *cfg,
                      struct smap *out)
{
    static const struct in6_addr any = IN6ADDR_ANY_INIT;

    if (memcmp(&cfg->ipv6_dst, &any, sizeof any)) {
        add_addr(out, "remote_ip", &cfg->ipv6_dst);
    } else if (cfg->ip_dst_flow) {
        smap_add(out, "remote_ip", "flow");
    }
    if (memcmp(&cfg->ipv6_src, &any, sizeof any)) {
        add_addr(out, "local_ip", &cfg->ipv6_src);
    } else if (cfg->ip_src_flow) {
        smap_add(out, "local_ip", "flow");
    }

    if (cfg->in_key_flow && cfg->out_key_flow) {
        smap_add(out, "key", "flow");
    } else if (cfg->in_key_present && cfg->out_key_present
               && !cfg->in_key_flow && !cfg->out_key_flow
               && cfg->in_key == cfg->out_key) {
        smap_add_format(out, "key", "%"PRIu64, ntohll(cfg->in_key));
    } else {
        if (cfg->in_key_flow) {
            smap_add(out, "in_key", "flow");
        } else if (cfg->in_key_present) {
            smap_add_format(out, "in_key", "%"PRIu64, ntohll(cfg->in_key));
        }
        if (cfg->out_key_flow) {
            smap_add(out, "out_key", "flow");
        } else if (cfg->out_key_present) {
            smap_add_format(out, "out_key", "%"PRIu64, ntohll(cfg->out_key));
        }
    }

    if (cfg->ttl_inherit) {
        smap_add(out, "ttl", "inherit");
    } else if (cfg->ttl != 64) {
        smap_add_format(out, "ttl", "%d", cfg->ttl);
    }
    if (cfg->tos_inherit) {
        smap_add(out, "tos", "inherit");
    } else if (cfg->tos) {
        smap_add_format(out, "tos", "0x%x", cfg->tos);
    }

    uint16_t def_port = tunnel_type_default_port(type);
    if (def_port && ntohs(cfg->dst_port) != def_port) {
        smap_add_format(out, "dst_port", "%d", ntohs(cfg->dst_port));
    }
    if (cfg->csum) {
        smap_add(out, "csum", "true");
    }
    if (cfg->set_seq) {
        smap_add(out, "seq", "true");
    }

    const struct tunnel_type *tt = tunnel_type_find(type);
    if (tt) {
        bool l2 = tt->l2;
        bool l3 = tt->l3 || (!strcmp(type, "vxlan")
                             && cfg->exts & TUNNEL_EXT_VXLAN_GPE);
        enum tunnel_pt_mode def = (l3 && !l2 ? TUNNEL_PT_LEGACY_L3
                                   : TUNNEL_PT_LEGACY_L2);
        if (cfg->pt_mode != def) {
            smap_add(out, "packet_type",
                     cfg->pt_mode == TUNNEL_PT_LEGACY_L2 ? "legacy_l2"
                     : cfg->pt_mode == TUNNEL_PT_LEGACY_L3 ? "legacy_l3"
                     : "ptap");
        }
    }
    if (!cfg->dont_fragment) {
        smap_add(out, "df_default", "false");
    }
    if (cfg->set_egress_pkt_mark) {
        smap_add_format(out, "egress_pkt_mark", "%"PRIu32,
                        cfg->egress_pkt_mark);
    }

    if (type_is_erspan(type)) {
        if (cfg->erspan_ver_flow) {
            smap_add(out, "erspan_ver", "flow");
            smap_add(out, "erspan_idx", "flow");
            smap_add(out, "erspan_dir", "flow");
            smap_add(out, "erspan_hwid", "flow");
        } else {
            smap_add_format(out, "erspan_ver", "%d", cfg->erspan_ver);
            if (cfg->erspan_ver == 1) {
                if (cfg->erspan_idx_flow) {
                    smap_add(out, "erspan_idx", "flow");
                } else {
                    smap_add_format(out, "erspan_idx", "0x%"PRIx32,
                                    cfg->erspan_idx);
                }
            } else if (cfg->erspan_ver == 2) {
                if (cfg->erspan_dir_flow) {
                    smap_add(out, "erspan_dir", "flow");
                } else {
                    smap_add_format(out, "erspan_dir", "%d", cfg->erspan_dir);
                }
                if (cfg->erspan_hwid_flow) {
                    smap_add(out, "erspan_hwid", "flow");
                } else {
                    smap_add_format(out, "erspan_hwid", "0x%x",
                                    cfg->erspan_hwid);
                }
            }
        }
    }
}
