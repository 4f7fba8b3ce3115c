#include <config.h>
#include "connectivity.h"

#include <stddef.h>

#include "ovs-thread.h"
#include "seq.h"

struct seq *
connectivity_seq_get(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    static struct seq *connectivity_seq;

    if (ovsthread_once_start(&once)) {
        connectivity_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return connectivity_seq;
}
