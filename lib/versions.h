/* versions: the version numbers that make a batch of table changes appear
 * at once.
 *
 * A table whose readers must never see half of a batch (an OpenFlow bundle,
 * a flow_mod that deletes a hundred rules) stamps every entry with the range
 * of versions in which it exists: [add_version, remove_version).  A writer
 * adds the batch's new entries at version N+1 and marks the entries it
 * removes as gone from N+1, while readers keep looking up at version N and
 * see none of it.  Publishing N+1 (one atomic store of the number the
 * readers use) then makes the whole batch visible at once.  An entry is
 * physically taken out of the table only after no reader can still be
 * looking it up at a version that sees it (see ovs-rcu.h).
 *
 * Versions are plain numbers; this header only fixes their type and the
 * bounds.  Nothing here allocates or locks. */
#ifndef VERSIONS_H
#define VERSIONS_H 1

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t ovs_version_t;

#define OVS_VERSION_MIN 0                  /* The first version. */
#define OVS_VERSION_MAX (UINT64_MAX - 1)   /* Sees everything not removed. */
#define OVS_VERSION_NOT_REMOVED UINT64_MAX /* remove_version of a live entry. */

/* Whether an entry that exists in [ADDED, REMOVED) is seen at VERSION. */
static inline bool
ovs_version_visible(ovs_version_t added, ovs_version_t removed,
                    ovs_version_t version)
{
    return added <= version && version < removed;
}

#endif /* versions.h */
