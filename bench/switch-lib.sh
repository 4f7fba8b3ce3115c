# bench/switch-lib.sh: what the switch benchmarks share, sourced by them
# (bench/switching.sh, bench/ofctl.sh).  The caller sets TOP, BUILD's
# directory in $build and runs under `set -euo pipefail`.  Provides: side
# NAME (the programs of "ours" or "theirs"), start/stop of a side's daemons
# in a run directory of its own under $work, vsctl, line (one figure line
# with its ratio), hosts/unhosts (network namespaces cabled to br0),
# rx_packets and with_namespaces.  Everything it starts is killed and
# removed by its EXIT trap.

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

# /proc/PID/stat fields 14 and 15 (utime, stime) in clock ticks.
ticks() { awk '{print $14 + $15}' "$1"; }

# cpu_over PID SECS: sleeps SECS seconds and sets CPU_MAIN and CPU_PROC,
# the % of one core PID's main thread and whole process used meanwhile.
cpu_over() {
    local pid=$1 secs=$2 hz m0 p0 m1 p1 t
    local -A t0
    hz=$(getconf CLK_TCK)
    m0=$(ticks /proc/$pid/task/$pid/stat)
    p0=$(ticks /proc/$pid/stat)
    if [ -n "${BENCH_THREADS:-}" ]; then
        for t in /proc/$pid/task/*; do t0[$t]=$(ticks $t/stat); done
    fi
    sleep $secs
    m1=$(ticks /proc/$pid/task/$pid/stat)
    p1=$(ticks /proc/$pid/stat)
    if [ -n "${BENCH_THREADS:-}" ]; then
        # BENCH_THREADS=1: where the process's time went, per thread.
        for t in /proc/$pid/task/*; do
            [ -n "${t0[$t]:-}" ] || continue
            echo "  thread $(cat $t/comm): $(( $(ticks $t/stat) - t0[$t] )) ticks" >&2
        done
    fi
    CPU_MAIN=$(awk -v d=$((m1 - m0)) -v hz=$hz -v s=$secs 'BEGIN { printf "%.2f", 100 * d / hz / s }')
    CPU_PROC=$(awk -v d=$((p1 - p0)) -v hz=$hz -v s=$secs 'BEGIN { printf "%.2f", 100 * d / hz / s }')
}

# side NAME: the programs of "ours" or "theirs".
side() {
    if [ "$1" = ours ]; then
        SERVER=$build/ovsdb/ovsdb-server TOOL=$build/ovsdb/ovsdb-tool
        VSCTL=$build/utilities/ovs-vsctl APPCTL=$build/utilities/ovs-appctl
        VSWITCHD=$build/vswitchd/ovs-vswitchd
        SCHEMA=$top/vswitchd/vswitch.ovsschema EXTRA=
        OFCTL=$build/utilities/ovs-ofctl
    else
        SERVER=/usr/sbin/ovsdb-server TOOL=/usr/bin/ovsdb-tool
        VSCTL=/usr/bin/ovs-vsctl APPCTL=/usr/bin/ovs-appctl
        VSWITCHD=/usr/sbin/ovs-vswitchd
        SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
        OFCTL=/usr/bin/ovs-ofctl
        # Their kernel datapath stays out of it.
        EXTRA=--disable-system
    fi
}

# start NAME [NETNS] [DUMMY]: the side's daemons in $work/NAME (its
# ovs-vswitchd inside NETNS if given; DUMMY=yes makes every device dummy,
# DUMMY=plain adds the dummy type beside the system ones); sets DIR, DB
# and PID (ovs-vswitchd's).
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
    [ "$dummy" = plain ] && args+=(--enable-dummy)
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

# both ONCE VAR...: runs ONCE ours, then ONCE theirs if Open vSwitch 3.1 is
# installed; each VAR that ONCE sets is then in OURS_VAR and THEIRS_VAR
# (empty without 3.1), ready for line.
both() {
    local once=$1 v
    shift
    "$once" ours
    for v in "$@"; do
        printf -v "OURS_$v" '%s' "${!v}"
        printf -v "THEIRS_$v" '%s' ''
    done
    if [ $have_theirs = yes ]; then
        "$once" theirs
        for v in "$@"; do printf -v "THEIRS_$v" '%s' "${!v}"; done
    fi
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

# hosts N NAME: namespaces for the switch (SW) and N hosts (HOST[1..N],
# 10.9.1.I on eth0, cabled by veth to switch port vI), then NAME's daemons
# in SW with br0 over v1..vN, every host's MAC learned; sets MAC[1..N].
hosts() {
    local n=$1 name=$2 i
    SW=ovsng-ssw-$id
    ip netns add $SW
    namespaces=$SW
    ip netns exec $SW sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 || true
    HOST=() MAC=()
    for ((i = 1; i <= n; i++)); do
        HOST[$i]=ovsng-sh$i-$id
        ip netns add ${HOST[$i]}
        namespaces="$namespaces ${HOST[$i]}"
        # No IPv6: its neighbour discovery would add frames the receivers
        # count.
        ip netns exec ${HOST[$i]} sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 || true
        ip -n $SW link add v$i type veth peer name eth0 netns ${HOST[$i]}
        ip -n ${HOST[$i]} addr add 10.9.1.$i/24 dev eth0
        # The userspace datapaths neither segment nor complete checksums.
        ip netns exec ${HOST[$i]} ethtool -K eth0 tx off tso off gso off gro off >/dev/null 2>&1 || true
        ip netns exec $SW ethtool -K v$i tx off gro off >/dev/null 2>&1 || true
        ip -n ${HOST[$i]} link set eth0 up
        ip -n ${HOST[$i]} link set lo up
        ip -n $SW link set v$i up
        MAC[$i]=$(ip netns exec ${HOST[$i]} cat /sys/class/net/eth0/address)
    done
    start "$name" $SW
    local args=(add-br br0 -- set Bridge br0 datapath_type=netdev
                other_config:mac-table-size=4000000)
    for ((i = 1; i <= n; i++)); do args+=(-- add-port br0 v$i); done
    vsctl "${args[@]}"
    for ((i = 2; i <= n; i++)); do
        for _ in $(seq 30); do
            ip netns exec ${HOST[1]} ping -c 1 -W 1 10.9.1.$i >/dev/null 2>&1 && break
        done
    done
}

unhosts() {
    stop
    for ns in $namespaces; do ip netns del $ns; done
    namespaces=""
}

rx_packets() { ip netns exec $1 cat /sys/class/net/eth0/statistics/rx_packets; }

with_namespaces() {
    if ! ip netns add ovsng-probe-$id 2>/dev/null; then
        return 1
    fi
    ip netns del ovsng-probe-$id
}

