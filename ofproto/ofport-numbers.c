/* ofport-numbers: see ofport-numbers.h. */
#include <config.h>

#include "ofport-numbers.h"

#include <stdlib.h>

#include "bitmap.h"
#include "hash.h"
#include "util.h"

struct ofport_holder {
    struct hmap_node node;      /* In ofport_numbers->holders. */
    int ofport;
    void *holder;
};

void
ofport_numbers_init(struct ofport_numbers *numbers)
{
    hmap_init(&numbers->holders);
    numbers->in_use = bitmap_allocate(OFPP_MAX);
    numbers->next = 1;
}

void
ofport_numbers_destroy(struct ofport_numbers *numbers)
{
    struct ofport_holder *h;
    HMAP_FOR_EACH_POP (h, node, &numbers->holders) {
        free(h);
    }
    hmap_destroy(&numbers->holders);
    bitmap_free(numbers->in_use);
}

bool
ofport_is_switch_port(int64_t ofport)
{
    return ofport >= 1 && ofport < OFPP_MAX;
}

static struct ofport_holder *
find_holder(const struct ofport_numbers *numbers, int ofport)
{
    struct ofport_holder *h;
    HMAP_FOR_EACH_WITH_HASH (h, node, hash_int(ofport, 0),
                             &numbers->holders) {
        if (h->ofport == ofport) {
            return h;
        }
    }
    return NULL;
}

void *
ofport_numbers_holder(const struct ofport_numbers *numbers, int ofport)
{
    if (!ofport_is_switch_port(ofport)
        || !bitmap_is_set(numbers->in_use, ofport)) {
        return NULL;
    }
    return find_holder(numbers, ofport)->holder;
}

void
ofport_numbers_take(struct ofport_numbers *numbers, int ofport,
                    void *holder)
{
    ovs_assert(ofport_is_switch_port(ofport)
               && !bitmap_is_set(numbers->in_use, ofport));
    struct ofport_holder *h = xmalloc(sizeof *h);
    h->ofport = ofport;
    h->holder = holder;
    hmap_insert(&numbers->holders, &h->node, hash_int(ofport, 0));
    bitmap_set1(numbers->in_use, ofport);
}

void
ofport_numbers_release(struct ofport_numbers *numbers, int ofport)
{
    if (ofport_is_switch_port(ofport)
        && bitmap_is_set(numbers->in_use, ofport)) {
        struct ofport_holder *h = find_holder(numbers, ofport);
        hmap_remove(&numbers->holders, &h->node);
        free(h);
        bitmap_set0(numbers->in_use, ofport);
    }
}

int
ofport_numbers_next_free(struct ofport_numbers *numbers)
{
    for (int i = 1; i < OFPP_MAX; i++) {
        int candidate = numbers->next;
        numbers->next = candidate + 1 < OFPP_MAX ? candidate + 1 : 1;
        if (!bitmap_is_set(numbers->in_use, candidate)) {
            return candidate;
        }
    }
    return -1;
}
