#! /bin/bash
# bench/switching.sh: ovs-vswitchd as a switch, ours against Open vSwitch
# 3.1's ovs-vswitchd with datapath_type=netdev (its userspace datapath), set
# up the same way in one run.  Each side runs its own ovsdb-server,
# ovs-vsctl and ovs-vswitchd in a run directory of its own under /tmp; the
# system's Open vSwitch services are never touched.  Prints, never judges.
#
# usage: bench/switching.sh [--smoke] [BUILD_DIR]
#
#   (a) forwarding: two network namespaces talk through br0 (NORMAL, no
#       flows) over two system (veth) ports, the switch in a third
#       namespace: 64-byte UDP frames delivered per second (udp-blast
#       for SECS seconds, counted by the receiver's kernel), and TCP
#       throughput (one connection, MB/s).  Needs root.
#   (d) idle cost: N dummy ports (5,000) on br0, then SECS2 seconds (20)
#       of nothing: CPU of the main thread and of the whole process (% of
#       one core), RSS (kB) and descriptors held.
#   (b) flow setup and (c) fairness need flows that examine the L4 ports,
#       i.e. an OpenFlow tool for our switch; they are not measured here
#       yet (see docs/ofproto.md).
#
# Each line reads "FIGURE: ours X theirs Y ratio R", R being how many
# times better ours is (ours/theirs for rates, theirs/ours for costs), or
# "theirs -" when Open vSwitch 3.1 is not installed.  --smoke runs short
# and small, to check that everything works.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then
    secs=1 tcp_bytes=2000000 n_idle=50 secs_idle=1
else
    secs=5 tcp_bytes=200000000 n_idle=5000 secs_idle=20
fi

have_theirs=no
if [ -x /usr/sbin/ovs-vswitchd ] && [ -x /usr/sbin/ovsdb-server ] \
   && [ -x /usr/bin/ovs-vsctl ]; then
    have_theirs=yes
fi
sides=ours
[ $have_theirs = yes ] && sides="ours theirs"

work=$(mktemp -d /tmp/sw-bench.XXXXXX)
id=$$
namespaces=""
cleanup() {
    for pidfile in "$work"/*/*.pid; do
        [ -e "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    for ns in $namespaces; do ip netns del "$ns" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }

# side NAME: the programs of "ours" or "theirs".
side() {
    if [ "$1" = ours ]; then
        SERVER=$build/ovsdb/ovsdb-server TOOL=$build/ovsdb/ovsdb-tool
        VSCTL=$build/utilities/ovs-vsctl APPCTL=$build/utilities/ovs-appctl
        VSWITCHD=$build/vswitchd/ovs-vswitchd
        SCHEMA=$top/vswitchd/vswitch.ovsschema EXTRA=
    else
        SERVER=/usr/sbin/ovsdb-server TOOL=/usr/bin/ovsdb-tool
        VSCTL=/usr/bin/ovs-vsctl APPCTL=/usr/bin/ovs-appctl
        VSWITCHD=/usr/sbin/ovs-vswitchd
        SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
        # Their kernel datapath stays out of it.
        EXTRA=--disable-system
    fi
}

# start NAME [NETNS] [DUMMY]: the side's daemons in $work/NAME (its
# ovs-vswitchd inside NETNS if given, with dummy devices if DUMMY=yes);
# sets DIR, DB and PID (ovs-vswitchd's).
start() {
    local name=$1 netns=${2:-} dummy=${3:-no}
    side "$name"
    DIR=$work/$name.$RANDOM
    mkdir -p "$DIR"
    "$TOOL" create "$DIR/conf.db" "$SCHEMA"
    OVS_RUNDIR=$DIR "$SERVER" --detach --no-chdir --pidfile="$DIR/server.pid" \
        --unixctl="$DIR/server.ctl" -vconsole:off --log-file="$DIR/server.log" \
        --remote=punix:"$DIR/db.sock" "$DIR/conf.db"
    DB=unix:$DIR/db.sock
    "$VSCTL" --db="$DB" --no-wait init
    local args=(--detach --no-chdir --pidfile="$DIR/vswitchd.pid"
                -vconsole:off --log-file="$DIR/vswitchd.log" $EXTRA)
    [ "$dummy" = yes ] && args+=(--enable-dummy=override)
    if [ -n "$netns" ]; then
        ip netns exec "$netns" env OVS_RUNDIR="$DIR" OVS_LOGDIR="$DIR" \
            "$VSWITCHD" "${args[@]}" "$DB"
    else
        OVS_RUNDIR=$DIR OVS_LOGDIR=$DIR "$VSWITCHD" "${args[@]}" "$DB"
    fi
    PID=$(cat "$DIR/vswitchd.pid")
}

stop() {
    "$APPCTL" -t "$DIR/ovs-vswitchd.$PID.ctl" exit >/dev/null 2>&1 || true
    "$APPCTL" -t "$DIR/server.ctl" exit >/dev/null 2>&1 || true
    for _ in $(seq 50); do
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
}

vsctl() { "$VSCTL" --db="$DB" --timeout=600 "$@"; }

# line FIGURE OURS THEIRS rate|cost
line() {
    awk -v f="$1" -v o="$2" -v t="$3" -v kind="$4" 'BEGIN {
        if (t == "") { printf "%s: ours %s theirs -\n", f, o; exit }
        if (kind == "rate") { r = t > 0 ? o / t : 0 }
        else { r = o > 0 ? t / o : (t > 0 ? 999 : 1) }
        printf "%s: ours %s theirs %s ratio %.2f\n", f, o, t, r }'
}

# (a) Forwarding through br0 between two namespaces.
forward_once() {
    local name=$1 sw=ovsng-fsw-$id a=ovsng-fa-$id b=ovsng-fb-$id
    ip netns add $sw
    namespaces="$sw $a $b"
    ip netns add $a
    ip netns add $b
    local pair
    for pair in "$a va 10.9.1.1" "$b vb 10.9.1.2"; do
        set -- $pair
        ip -n $sw link add $2 type veth peer name eth0 netns $1
        ip -n $1 addr add $3/24 dev eth0
        # The userspace datapaths neither segment nor complete checksums.
        ip netns exec $1 ethtool -K eth0 tx off tso off gso off gro off >/dev/null 2>&1 || true
        ip netns exec $sw ethtool -K $2 tx off gro off >/dev/null 2>&1 || true
        ip -n $1 link set eth0 up
        ip -n $1 link set lo up
        ip -n $sw link set $2 up
    done
    start "$name" $sw
    vsctl add-br br0 -- set Bridge br0 datapath_type=netdev \
        -- add-port br0 va -- add-port br0 vb
    # Both MACs learned (and the ports up) before measuring.
    for _ in $(seq 50); do
        ip netns exec $a ping -c 1 -W 1 10.9.1.2 >/dev/null 2>&1 && break
    done
    ip netns exec $b ping -c 1 -W 1 10.9.1.1 >/dev/null 2>&1 || true

    local rx0 rx1 sent
    rx0=$(ip netns exec $b cat /sys/class/net/eth0/statistics/rx_packets)
    sent=$(ip netns exec $a "$build/bench/udp-blast" 10.9.1.2 9 $secs)
    sleep 0.5
    rx1=$(ip netns exec $b cat /sys/class/net/eth0/statistics/rx_packets)
    UDP_PPS=$(( (rx1 - rx0) / secs ))
    UDP_OFFERED=$(( sent / secs ))

    ip netns exec $b python3 "$top/tests/tcp-transfer.py" server 10.9.1.2 5001 >/dev/null &
    local server=$!
    for _ in $(seq 50); do
        ip netns exec $b ss -ltn | grep -q 10.9.1.2:5001 && break
        sleep 0.1
    done
    local t0 t1
    t0=$(now_ms)
    ip netns exec $a python3 "$top/tests/tcp-transfer.py" client 10.9.1.2 5001 $tcp_bytes >/dev/null
    t1=$(now_ms)
    wait $server || true
    # Both directions carried tcp_bytes.
    TCP_MBPS=$(awk -v b=$tcp_bytes -v ms=$((t1 - t0)) 'BEGIN { printf "%.1f", 2 * b / 1e6 / (ms / 1000) }')

    stop
    for ns in $namespaces; do ip netns del $ns; done
    namespaces=""
}

forwarding() {
    if ! ip netns add ovsng-probe-$id 2>/dev/null; then
        echo "(a) forwarding: skipped (network namespaces need root)"
        return
    fi
    ip netns del ovsng-probe-$id
    local o_pps o_off o_tcp t_pps= t_off= t_tcp=
    forward_once ours
    o_pps=$UDP_PPS o_off=$UDP_OFFERED o_tcp=$TCP_MBPS
    if [ $have_theirs = yes ]; then
        forward_once theirs
        t_pps=$UDP_PPS t_off=$UDP_OFFERED t_tcp=$TCP_MBPS
    fi
    line "(a) 64-byte UDP delivered, pps (offered: ours $o_off theirs ${t_off:--})" "$o_pps" "$t_pps" rate
    line "(a) TCP, one connection both ways, MB/s" "$o_tcp" "$t_tcp" rate
}

# /proc/PID/stat fields 14 and 15 (utime, stime) in clock ticks.
ticks() { awk '{print $14 + $15}' "$1"; }

idle_once() {
    local name=$1
    start "$name" "" yes
    local args=(add-br br0 -- set Bridge br0 datapath_type=netdev) i
    for ((i = 1; i <= n_idle; i++)); do args+=(-- add-port br0 "p$i"); done
    vsctl "${args[@]}"
    sleep 2
    local hz m0 p0 m1 p1
    hz=$(getconf CLK_TCK)
    m0=$(ticks /proc/$PID/task/$PID/stat)
    p0=$(ticks /proc/$PID/stat)
    sleep $secs_idle
    m1=$(ticks /proc/$PID/task/$PID/stat)
    p1=$(ticks /proc/$PID/stat)
    IDLE_MAIN=$(awk -v d=$((m1 - m0)) -v hz=$hz -v s=$secs_idle 'BEGIN { printf "%.2f", 100 * d / hz / s }')
    IDLE_PROC=$(awk -v d=$((p1 - p0)) -v hz=$hz -v s=$secs_idle 'BEGIN { printf "%.2f", 100 * d / hz / s }')
    IDLE_RSS=$(awk '/^VmRSS/ {print $2}' /proc/$PID/status)
    IDLE_FDS=$(ls /proc/$PID/fd | wc -l)
    stop
}

idle() {
    local om op or of tm= tp= tr= tf=
    idle_once ours
    om=$IDLE_MAIN op=$IDLE_PROC or=$IDLE_RSS of=$IDLE_FDS
    if [ $have_theirs = yes ]; then
        idle_once theirs
        tm=$IDLE_MAIN tp=$IDLE_PROC tr=$IDLE_RSS tf=$IDLE_FDS
    fi
    local what="$n_idle ports, ${secs_idle} s idle"
    line "(d) $what, main-thread CPU %" "$om" "$tm" cost
    line "(d) $what, process CPU %" "$op" "$tp" cost
    line "(d) $what, RSS kB" "$or" "$tr" cost
    line "(d) $what, descriptors" "$of" "$tf" cost
}

forwarding
idle
