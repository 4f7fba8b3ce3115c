/* tunnel-options: an Interface's tunnel "options" to and from a struct
 * tunnel_config (tunnel-config.h), and what each tunnel type is.
 *
 * The parser takes the options as the database has them and says, in
 * Open vSwitch 3.1's words, what is wrong: some mistakes are only warned
 * about (an unknown key, a bad 'local_ip'; the rest of the options still
 * apply), others refuse the whole configuration (no 'remote_ip', a bad
 * erspan or packet_type value, mixed address families).  The formatter is
 * the reverse, used by dpif/show: only what differs from the type's
 * defaults, so `options:dst_port=4789` on a vxlan port shows nothing.
 *
 * Threads: pure functions of their arguments; any thread.  Memory: the
 * caller owns everything it passes and gets back (*ERRP is malloc'd). */
#ifndef TUNNEL_OPTIONS_H
#define TUNNEL_OPTIONS_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tunnel-config.h"

struct ds;
struct smap;

/* Whether TYPE (an Interface type) is a tunnel type we know. */
bool tunnel_type_is_known(const char *type);
/* Whether TYPE carries its payload in UDP (and so takes 'dst_port'). */
bool tunnel_type_is_udp(const char *type);
/* The default UDP destination port of TYPE, 0 for types without UDP. */
uint16_t tunnel_type_default_port(const char *type);
/* The name of the datapath port that all tunnels of TYPE to DST_PORT
 * share (host order), as 3.1 names them: "gre_sys", "vxlan_sys_4789",
 * "genev_sys_6081", ...  Writes into BUF (at least 32 bytes) and returns
 * it, or NULL for a type that is no tunnel. */
const char *tunnel_dpif_port_name(const char *type, uint16_t dst_port,
                                  char *buf, size_t size);

/* Parses OPTIONS of the interface NAME of tunnel TYPE into *CFG (filled
 * whole, defaults included).  Warnings for mistakes that do not refuse
 * the configuration are appended to WARNINGS, one per line.  Returns 0,
 * or EINVAL with *ERRP set to the message that refused it (also to go to
 * the Interface's error column). */
int tunnel_options_parse(const char *type, const char *name,
                         const struct smap *options, struct tunnel_config *,
                         struct ds *warnings, char **errp);

/* Adds to OUT the options of CFG that differ from TYPE's defaults, as
 * 3.1's dpif/show lists them (keys are added unsorted). */
void tunnel_options_format(const char *type, const struct tunnel_config *,
                           struct smap *out);

/* The IPv4 address of an IPv4-mapped IPv6 address, else 0. */
uint32_t tunnel_in6_get_mapped_ipv4(const struct in6_addr *);
void tunnel_in6_set_mapped_ipv4(struct in6_addr *, uint32_t be_ip);

#endif /* tunnel-options.h */
