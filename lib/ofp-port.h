/* ofp-port: OpenFlow port numbers, their names, and name maps.
 *
 * Inside the program a port number is a uint32_t holding the OpenFlow 1.0
 * numbering: ordinary ports 1..0xfeff, the reserved ports IN_PORT
 * (0xfff8), TABLE, NORMAL, FLOOD, ALL, CONTROLLER, LOCAL (0xfffe) and
 * ANY/NONE (0xffff).  OpenFlow 1.1+ numbers its reserved ports
 * 0xfffffff8..0xffffffff; ofputil_port_from_ofp11() and
 * ofputil_port_to_ofp11() convert, and refuse 1.1 numbers that 1.0
 * cannot express.
 *
 * Text: a port is written as its number or as its reserved name in
 * capitals ("LOCAL"); with a port map (ovs-ofctl --names), ports that
 * have a name are written by name, in double quotes if the name could be
 * mistaken for something else.  Parsing accepts numbers, reserved names
 * in any case, and names from the map, quoted or not.
 *
 * A port map is owned by its creator, who frees it with
 * ofputil_port_map_destroy().  Threads: no shared state. */
#ifndef OFP_PORT_H
#define OFP_PORT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hmap.h"
#include "ofp-errors.h"
#include "openflow.h"

struct ds;

/* Reserved ports in the internal (1.0) numbering. */
#define OFPP_FIRST_RESV OFPP_IN_PORT
#define OFPP_LAST_RESV OFPP_NONE
#define OFPP_ANY OFPP_NONE

/* 1.1+ wire value <-> internal.  from_ofp11() returns an error for
 * numbers in 0xffff..0xfffffeff, which 1.0 cannot carry. */
enum ofperr ofputil_port_from_ofp11(ovs_be32 ofp11_port, uint32_t *port);
ovs_be32 ofputil_port_to_ofp11(uint32_t port);

/* Whether PORT may appear as an output port (an ordinary port or one of
 * the reserved ports that mean somewhere to send). */
bool ofputil_port_is_valid_output(uint32_t port);

/* A map between port numbers and names. */
struct ofputil_port_map {
    struct hmap by_name;
    struct hmap by_number;
};
#define OFPUTIL_PORT_MAP_INITIALIZER(MAP) \
    { HMAP_INITIALIZER(&(MAP)->by_name), HMAP_INITIALIZER(&(MAP)->by_number) }
void ofputil_port_map_init(struct ofputil_port_map *);
/* Adds PORT named NAME.  A name or number seen twice is remembered as
 * ambiguous and then neither prints nor parses. */
void ofputil_port_map_put(struct ofputil_port_map *, uint32_t port,
                          const char *name);
const char *ofputil_port_map_get_name(const struct ofputil_port_map *,
                                      uint32_t port);
uint32_t ofputil_port_map_get_number(const struct ofputil_port_map *,
                                     const char *name);
void ofputil_port_map_destroy(struct ofputil_port_map *);

/* Parses S into *PORT.  Accepts decimal numbers 0..0xffff (with the
 * warnings Open vSwitch gives for reserved numbers) and 0xffffff00 and up
 * (1.1 numbering), reserved names, and names in PORT_MAP.  Returns false
 * if S is none of those. */
bool ofputil_port_from_string(const char *s,
                              const struct ofputil_port_map *port_map,
                              uint32_t *port);
/* Appends PORT's text: its name from PORT_MAP, its reserved name, or its
 * number. */
void ofputil_format_port(uint32_t port,
                         const struct ofputil_port_map *port_map,
                         struct ds *);
/* The reserved name of PORT, or NULL. */
const char *ofputil_port_reserved_name(uint32_t port);
/* Appends NAME as ovs-ofctl writes a port name: bare if it is safe to
 * read back, else in double quotes with backslash escapes. */
void ofputil_put_port_name(const char *name, struct ds *);

/* Table names work the same way (table=NAME), with their own map. */
struct ofputil_table_map {
    struct hmap by_name;
    struct hmap by_number;
};
void ofputil_table_map_init(struct ofputil_table_map *);
void ofputil_table_map_put(struct ofputil_table_map *, uint8_t table,
                           const char *name);
void ofputil_table_map_destroy(struct ofputil_table_map *);
bool ofputil_table_from_string(const char *,
                               const struct ofputil_table_map *,
                               uint8_t *table);
void ofputil_format_table(uint8_t table, const struct ofputil_table_map *,
                          struct ds *);

#endif /* ofp-port.h */
