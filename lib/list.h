/* list: intrusive, circular, doubly linked lists.
 *
 * A list is a "struct ovs_list" head; each element embeds its own
 * "struct ovs_list" member.  The head and all elements form one ring, so an
 * empty list is a head whose prev and next point to itself, and no operation
 * ever tests for NULL.  Because the links live inside the elements, putting
 * an element on a list never allocates, and an element can be removed in
 * O(1) given only a pointer to it.
 *
 * Memory: the list owns nothing.  The caller allocates and frees the head and
 * the elements; remove an element before freeing it (LIST_FOR_EACH_POP and
 * LIST_FOR_EACH_SAFE make "drain and free" loops easy).
 *
 * A head or element that is copied to a new address must be fixed up with
 * ovs_list_moved(), since its neighbours still point at the old address.
 *
 * Usage:
 *     struct item { int x; struct ovs_list node; };
 *     struct ovs_list items = OVS_LIST_INITIALIZER(&items);
 *     ovs_list_push_back(&items, &item->node);
 *     LIST_FOR_EACH (item, node, &items) { ... }
 */
#ifndef LIST_H
#define LIST_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct ovs_list {
    struct ovs_list *prev;
    struct ovs_list *next;
};

#define OVS_LIST_INITIALIZER(LIST) { LIST, LIST }

/* Pointer values that are never valid, stored in a removed element so that
 * use-after-remove crashes loudly instead of corrupting a list. */
#define OVS_LIST_POISON ((struct ovs_list *) (uintptr_t) 0xccccccccccccccccULL)
#define OVS_LIST_POISON_INITIALIZER { OVS_LIST_POISON, OVS_LIST_POISON }

static inline void
ovs_list_init(struct ovs_list *list)
{
    list->next = list->prev = list;
}

static inline void
ovs_list_poison(struct ovs_list *elem)
{
    elem->prev = elem->next = OVS_LIST_POISON;
}

/* Inserts ELEM just before BEFORE (BEFORE may be the head, to append). */
static inline void
ovs_list_insert(struct ovs_list *before, struct ovs_list *elem)
{
    elem->prev = before->prev;
    elem->next = before;
    before->prev->next = elem;
    before->prev = elem;
}

/* Moves the elements FIRST up to but not including LAST from whatever list
 * they are on to just before BEFORE. */
static inline void
ovs_list_splice(struct ovs_list *before, struct ovs_list *first,
                struct ovs_list *last)
{
    if (first == last) {
        return;
    }
    last = last->prev;

    /* Unlink [first, last] from its old list. */
    first->prev->next = last->next;
    last->next->prev = first->prev;

    /* Link it in before BEFORE. */
    first->prev = before->prev;
    last->next = before;
    before->prev->next = first;
    before->prev = last;
}

static inline void
ovs_list_push_front(struct ovs_list *list, struct ovs_list *elem)
{
    ovs_list_insert(list->next, elem);
}

static inline void
ovs_list_push_back(struct ovs_list *list, struct ovs_list *elem)
{
    ovs_list_insert(list, elem);
}

/* Puts ELEM in POSITION's place on POSITION's list.  POSITION's own links
 * are left stale. */
static inline void
ovs_list_replace(struct ovs_list *elem, const struct ovs_list *position)
{
    elem->next = position->next;
    elem->next->prev = elem;
    elem->prev = position->prev;
    elem->prev->next = elem;
}

/* Fixes up the neighbours of LIST after its memory was copied elsewhere
 * (e.g. by realloc).  An empty list cannot be recognized from its stale
 * contents, so the caller says whether it was empty via ORIG: pass the old
 * address. */
static inline void
ovs_list_moved(struct ovs_list *list, const struct ovs_list *orig)
{
    if (list->next == orig) {
        ovs_list_init(list);
    } else {
        list->prev->next = list->next->prev = list;
    }
}

/* Moves all of SRC's elements to the end of DST, leaving SRC empty. */
static inline void
ovs_list_push_back_all(struct ovs_list *dst, struct ovs_list *src)
{
    ovs_list_splice(dst, src->next, src);
}

/* Removes ELEM from its list and returns the element that followed it.
 * ELEM's own links are left stale. */
static inline struct ovs_list *
ovs_list_remove(struct ovs_list *elem)
{
    elem->prev->next = elem->next;
    elem->next->prev = elem->prev;
    return elem->next;
}

static inline bool
ovs_list_is_empty(const struct ovs_list *list)
{
    return list->next == list;
}

/* Whether LIST has exactly one element. */
static inline bool
ovs_list_is_singleton(const struct ovs_list *list)
{
    return list->next != list && list->next == list->prev;
}

/* Whether LIST has zero or one element. */
static inline bool
ovs_list_is_short(const struct ovs_list *list)
{
    return list->next == list->prev;
}

/* Removes and returns the first element; LIST must not be empty. */
static inline struct ovs_list *
ovs_list_pop_front(struct ovs_list *list)
{
    struct ovs_list *front = list->next;
    ovs_assert(front != list);
    ovs_list_remove(front);
    return front;
}

/* Removes and returns the last element; LIST must not be empty. */
static inline struct ovs_list *
ovs_list_pop_back(struct ovs_list *list)
{
    struct ovs_list *back = list->prev;
    ovs_assert(back != list);
    ovs_list_remove(back);
    return back;
}

/* First element; LIST must not be empty. */
static inline struct ovs_list *
ovs_list_front(const struct ovs_list *list)
{
    ovs_assert(!ovs_list_is_empty(list));
    return list->next;
}

/* Last element; LIST must not be empty. */
static inline struct ovs_list *
ovs_list_back(const struct ovs_list *list)
{
    ovs_assert(!ovs_list_is_empty(list));
    return list->prev;
}

/* Number of elements; O(n). */
static inline size_t
ovs_list_size(const struct ovs_list *list)
{
    size_t n = 0;
    for (const struct ovs_list *e = list->next; e != list; e = e->next) {
        n++;
    }
    return n;
}

/* Iteration.  ITER is a pointer to the element type; MEMBER names its
 * struct ovs_list member; LIST is the head.
 *
 * The plain forms must not remove ITER.  LIST_FOR_EACH_SAFE may remove (and
 * free) ITER, because it fetches the next element before the body runs.
 * LIST_FOR_EACH_POP removes each element before the body runs, so the body
 * usually frees it.
 *
 * On normal loop exit ITER does not point to a valid element. */
#define LIST_FOR_EACH(ITER, MEMBER, LIST)                               \
    for (INIT_CONTAINER(ITER, (LIST)->next, MEMBER);                    \
         &(ITER)->MEMBER != (LIST);                                     \
         ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.next, MEMBER))

/* Continues from the element after ITER. */
#define LIST_FOR_EACH_CONTINUE(ITER, MEMBER, LIST)                      \
    for (ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.next, MEMBER);           \
         &(ITER)->MEMBER != (LIST);                                     \
         ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.next, MEMBER))

#define LIST_FOR_EACH_REVERSE(ITER, MEMBER, LIST)                       \
    for (INIT_CONTAINER(ITER, (LIST)->prev, MEMBER);                    \
         &(ITER)->MEMBER != (LIST);                                     \
         ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.prev, MEMBER))

/* Continues backwards from the element before ITER. */
#define LIST_FOR_EACH_REVERSE_CONTINUE(ITER, MEMBER, LIST)              \
    for (ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.prev, MEMBER);           \
         &(ITER)->MEMBER != (LIST);                                     \
         ASSIGN_CONTAINER(ITER, (ITER)->MEMBER.prev, MEMBER))

/* Two forms, as in Open vSwitch:
 *     LIST_FOR_EACH_SAFE (ITER, MEMBER, LIST)        next link kept hidden
 *     LIST_FOR_EACH_SAFE (ITER, NEXT, MEMBER, LIST)  next element in NEXT
 * The hidden variable is named after the iterator, so nested loops need
 * different iterator names (they would anyway). */
#define LIST_SAFE_NEXT__(ITER) ITER##__list_next
#define LIST_FOR_EACH_SAFE_SHORT__(ITER, MEMBER, LIST)                  \
    for (struct ovs_list *LIST_SAFE_NEXT__(ITER)                        \
             = (INIT_CONTAINER(ITER, (LIST)->next, MEMBER),             \
                (LIST)->next->next);                                    \
         &(ITER)->MEMBER != (LIST);                                     \
         ASSIGN_CONTAINER(ITER, LIST_SAFE_NEXT__(ITER), MEMBER),        \
         LIST_SAFE_NEXT__(ITER) = LIST_SAFE_NEXT__(ITER)->next)
#define LIST_FOR_EACH_SAFE_LONG__(ITER, NEXT, MEMBER, LIST)             \
    for (INIT_CONTAINER(ITER, (LIST)->next, MEMBER);                    \
         &(ITER)->MEMBER != (LIST)                                      \
         && (INIT_CONTAINER(NEXT, (ITER)->MEMBER.next, MEMBER), 1);     \
         (ITER) = (NEXT))
#define LIST_PICK_4__(A1, A2, A3, A4, NAME, ...) NAME
#define LIST_FOR_EACH_SAFE(...)                                         \
    LIST_PICK_4__(__VA_ARGS__, LIST_FOR_EACH_SAFE_LONG__,               \
                  LIST_FOR_EACH_SAFE_SHORT__, unused)(__VA_ARGS__)

#define LIST_FOR_EACH_POP(ITER, MEMBER, LIST)                           \
    while (!ovs_list_is_empty(LIST)                                     \
           && (INIT_CONTAINER(ITER, ovs_list_pop_front(LIST), MEMBER), 1))

#endif /* list.h */
