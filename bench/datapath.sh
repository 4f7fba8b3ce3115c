#! /bin/bash
# bench/datapath.sh: the userspace datapath's figures.  Prints, never
# judges.
#
# usage: bench/datapath.sh [--smoke] [BUILD_DIR]
#
#   (a) fast path: 64-byte UDP frames from one network namespace to
#       another through two "system" ports (AF_PACKET rings) of our
#       datapath, with flows installed by ovs-dpctl; packets per second
#       sent and forwarded (flow statistics).  Needs root and network
#       namespaces; says "skipped" otherwise.
#   (b) upcalls: bench/upcall-bench (misses per second through the
#       channels with a trivial handler; the idle port's delivered share
#       while another port floods).
#   (c) descriptors held by ovs-vswitchd with a datapath of 200 and 2,000
#       dummy ports, at 1 and 8 upcall handler threads.
#
# A ratio against Open vSwitch 3.1 comes with the next issue, when both
# switches can be set up the same way (ofproto on both).  --smoke runs
# short and small, to check that everything works.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then secs=1 big=300; else secs=5 big=2000; fi

work=$(mktemp -d /tmp/dp-bench.XXXXXX)
id=$$
namespaces=""
cleanup() {
    for pidfile in "$work"/*.pid; do
        [ -e "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    for ns in $namespaces; do ip netns del "$ns" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

export OVS_RUNDIR=$work OVS_LOGDIR=$work OVS_DBDIR=$work OVS_SYSCONFDIR=$work
export PATH=$build/utilities:$build/vswitchd:$build/ovsdb:$build/bench:$PATH

# Starts ovsdb-server, and ovs-vswitchd (inside namespace $1 if given).
start_daemons() {
    local netns=${1:-}
    ovsdb-tool create "$work/db" "$top/vswitchd/vswitch.ovsschema"
    ovsdb-server -vconsole:off --detach --no-chdir --pidfile --log-file \
        --remote=punix:"$work/db.sock" "$work/db"
    ovs-vsctl --db=unix:"$work/db.sock" --no-wait init
    if [ -n "$netns" ]; then
        ip netns exec "$netns" ovs-vswitchd -vconsole:off --detach --no-chdir --pidfile \
            --log-file unix:"$work/db.sock"
    else
        ovs-vswitchd -vconsole:off --detach --no-chdir --pidfile --log-file \
            --enable-dummy=override unix:"$work/db.sock"
    fi
}

stop_daemons() {
    ovs-appctl -t ovs-vswitchd exit >/dev/null 2>&1 || true
    ovs-appctl -t ovsdb-server exit >/dev/null 2>&1 || true
    sleep 0.2
    rm -f "$work/db" "$work"/.db.~lock~
}

# (a) Fast path between two namespaces.
fast_path() {
    local sw=ovsng-bsw-$id a=ovsng-ba-$id b=ovsng-bb-$id
    if ! ip netns add $sw 2>/dev/null; then
        echo "fast path, 64-byte UDP, 2 system ports: skipped (no network namespaces here)"
        return
    fi
    namespaces="$sw $a $b"
    ip netns add $a && ip netns add $b
    for pair in "$a va 10.9.0.1" "$b vb 10.9.0.2"; do
        set -- $pair
        ip -n $sw link add $2 type veth peer name eth0 netns $1
        ip -n $1 addr add $3/24 dev eth0
        ip netns exec $1 ethtool -K eth0 tx off tso off gso off >/dev/null 2>&1 || true
        ip -n $1 link set eth0 up
        ip -n $sw link set $2 up
    done
    # Static neighbours: only the UDP stream crosses the switch.
    mac_b=$(ip -n $b -o link show eth0 | sed 's/.*link\/ether \([^ ]*\).*/\1/')
    ip -n $a neigh add 10.9.0.2 lladdr $mac_b dev eth0
    start_daemons $sw
    ovs-dpctl add-dp bench va vb
    ovs-dpctl add-flow 'in_port(1)' 2
    ovs-dpctl add-flow 'in_port(2)' 1
    sent=$(ip netns exec $a udp-blast 10.9.0.2 9 $secs)
    sleep 0.5
    fwd=$(ovs-dpctl dump-flows | sed -n 's/^in_port(1).* packets:\([0-9]*\),.*/\1/p')
    awk -v s="$sent" -v f="$fwd" -v t="$secs" 'BEGIN {
        printf "fast path, 64-byte UDP, 2 system ports: ours %.0f pps forwarded (%.0f pps offered, %d s)\n", f / t, s / t, t }'
    stop_daemons
    for ns in $namespaces; do ip netns del $ns; done
    namespaces=""
}

# (c) Descriptors at N ports, 1 and 8 handlers.
fds() {
    start_daemons
    pid=$(cat "$work/ovs-vswitchd.pid")
    ovs-dpctl add-dp fdbench
    for n in 200 $big; do
        have=$(ovs-dpctl show | grep -c '^  port' || true)
        want=$((n + 1))
        args=()
        for i in $(seq $have $((want - 1))); do args+=("p$i,type=dummy"); done
        [ ${#args[@]} -gt 0 ] && ovs-dpctl add-if fdbench "${args[@]}"
        for h in 1 8; do
            ovs-appctl upcall-sink/start fdbench $h
            c=$(ls /proc/$pid/fd | wc -l)
            echo "descriptors, $n ports, $h handler threads: ours $c"
        done
    done
    ovs-appctl upcall-sink/stop fdbench
    stop_daemons
}

fast_path
if [ $smoke = yes ]; then upcall-bench --smoke; else upcall-bench; fi
fds
