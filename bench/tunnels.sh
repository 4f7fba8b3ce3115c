#! /bin/bash
# bench/tunnels.sh: thousands of tunnels watched by BFD, ours against Open
# vSwitch 3.1's ovs-vswitchd (datapath_type=netdev, its userspace datapath
# and native tunneling), set up the same way in one run.  Prints, never
# judges.  Needs root (network namespaces).
#
# usage: bench/tunnels.sh [--smoke] [BUILD_DIR]
#
# Two switches of the same side, A and B, each in a network namespace of
# its own, are joined by an underlay veth pair: br-phy holds the veth, its
# internal port has the underlay address (172.31.0.1 on A, .2 on B), and
# br-int holds the tunnels.  Both switches are ours, or both are 3.1's.
#
#   (a) scale: A's br-int also holds P dummy ports (5,000); B and then A
#       get N vxlan tunnels to each other (options:key=1..N, BFD on with
#       min_rx=min_tx=500), added 1,000 per ovs-vsctl call, for N = 50,
#       1,000, 5,000 and 10,000.  Figures for A: the time to configure its
#       N tunnels, the BFD sessions up once they settle (at most 60 s
#       later), then over SECS (20) seconds the CPU of its main thread and
#       of the whole process (% of one core), its RSS (kB) and descriptors.
#       A side whose configuration takes longer than LIMIT (900 s) stops
#       there: its larger N are reported "-".
#   (b) churn: with N = 1,000, B turns BFD off and on again on one tunnel
#       every 150 ms for SECS seconds, so that A's session for it flips:
#       A's main-thread and process CPU.
#   (c) encapsulated forwarding: a host namespace cabled to each br-int
#       (10.9.2.1 and .2), br-int joined by one vxlan (then one geneve)
#       tunnel, NORMAL: 64-byte UDP frames delivered per second and one
#       TCP connection's MB/s (host MTU 1400, under the underlay's 1500).
#
# Each line reads "FIGURE: ours X theirs Y ratio R", R being how many
# times better ours is (ours/theirs for rates, theirs/ours for costs), or
# "theirs -" when Open vSwitch 3.1 is not installed or did not get there.
# --smoke runs short and small, to check that everything works; PARTS
# (environment) runs only some of (a), (b), (c): PARTS="churn forward".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then
    n_ports=20 scales="10 50" churn_n=10 secs=2 settle=20 limit=120
    udp_secs=1 tcp_bytes=2000000
else
    n_ports=5000 scales="50 1000 5000 10000" churn_n=1000 secs=20
    settle=60 limit=900 udp_secs=5 tcp_bytes=100000000
fi
secs=${BENCH_SECS:-$secs}       # Measurement length, for looking closer.

. "$top/bench/switch-lib.sh"

if ! with_namespaces; then
    echo "bench/tunnels.sh: needs network namespaces (root)" >&2
    exit 1
fi

# The switches' namespaces and daemons.  A_* and B_* keep what start()
# sets (DIR, DB, PID) for each.
underlay() {
    local name=$1
    UA=ovsng-tua-$id UB=ovsng-tub-$id
    ip netns add $UA
    ip netns add $UB
    namespaces="$namespaces $UA $UB"
    ip -n $UA link add ua type veth peer name ub netns $UB
    for ns in $UA $UB; do
        ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
            net.ipv6.conf.default.disable_ipv6=1 || true
        ip -n $ns link set lo up
    done
    ip netns exec $UA ethtool -K ua tx off tso off gso off gro off >/dev/null 2>&1 || true
    ip netns exec $UB ethtool -K ub tx off tso off gso off gro off >/dev/null 2>&1 || true
    ip -n $UA link set ua up
    ip -n $UB link set ub up

    start "$name" $UB plain
    B_DIR=$DIR B_DB=$DB B_PID=$PID
    start "$name" $UA plain
    A_DIR=$DIR A_DB=$DB A_PID=$PID
    local side ns dev addr
    for side in A B; do
        if [ $side = A ]; then ns=$UA dev=ua addr=172.31.0.1
        else ns=$UB dev=ub addr=172.31.0.2; fi
        on $side add-br br-phy -- set Bridge br-phy datapath_type=netdev \
            -- add-port br-phy $dev \
            -- add-br br-int -- set Bridge br-int datapath_type=netdev
        ip -n $ns addr add $addr/24 dev br-phy
        ip -n $ns link set br-phy up
    done
}

# on A|B ARGS...: ovs-vsctl on that switch.
on() {
    local side=$1
    shift
    local db
    if [ $side = A ]; then db=$A_DB; else db=$B_DB; fi
    "$VSCTL" --db="$db" --timeout=$limit "$@"
}

stop_underlay() {
    DIR=$B_DIR PID=$B_PID stop
    DIR=$A_DIR PID=$A_PID stop
    for ns in $namespaces; do ip netns del $ns 2>/dev/null || true; done
    namespaces=""
}

# add_tunnels SIDE FROM TO REMOTE [TYPE]: tunnels t<FROM>..t<TO> on
# SIDE's br-int, 1,000 per call.  Fails if a call exceeds the limit.
add_tunnels() {
    local side=$1 from=$2 to=$3 remote=$4 type=${5:-vxlan} i args
    while [ $from -le $to ]; do
        args=()
        for ((i = from; i <= to && i < from + 1000; i++)); do
            args+=(-- add-port br-int t$i -- set Interface t$i type=$type
                   options:remote_ip=$remote options:key=$i
                   bfd:enable=true bfd:min_rx=500 bfd:min_tx=500)
        done
        on $side "${args[@]}" || return 1
        from=$i
    done
}

# sessions_up SIDE: how many of SIDE's interfaces have BFD up.
sessions_up() {
    on $1 --bare --columns=name find Interface 'bfd_status:state=up' \
        | grep -c . || true
}

# (a) One side, every N in turn on the same pair of switches (tunnels are
# added on top of those of the previous N).  Sets SCALE_<FIGURE>_<N>.
scale_once() {
    local name=$1 have=0 n i args t0 t1 up
    underlay "$name"
    args=()
    for ((i = 1; i <= n_ports; i++)); do
        args+=(-- add-port br-int p$i -- set Interface p$i type=dummy)
        if [ ${#args[@]} -ge 4000 ] || [ $i = $n_ports ]; then
            on A "${args[@]}"
            args=()
        fi
    done
    for n in $scales; do
        for fig in CONF UP MAIN PROC RSS FDS; do
            printf -v "SCALE_${fig}_$n" '%s' ''
        done
    done
    local failed=no
    for n in $scales; do
        [ $failed = yes ] && break
        add_tunnels B $((have + 1)) $n 172.31.0.1 || { failed=yes; break; }
        t0=$(now_ms)
        add_tunnels A $((have + 1)) $n 172.31.0.2 || { failed=yes; break; }
        t1=$(now_ms)
        have=$n
        printf -v "SCALE_CONF_$n" '%s' "$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.1f", ms / 1000 }')"
        for ((i = 0; i < settle; i++)); do
            up=$(sessions_up A)
            [ "$up" -ge $n ] && break
            sleep 1
        done
        printf -v "SCALE_UP_$n" '%s' "$up"
        sleep 6
        cpu_over $A_PID $secs
        printf -v "SCALE_MAIN_$n" '%s' "$CPU_MAIN"
        printf -v "SCALE_PROC_$n" '%s' "$CPU_PROC"
        printf -v "SCALE_RSS_$n" '%s' "$(awk '/^VmRSS/ {print $2}' /proc/$A_PID/status)"
        printf -v "SCALE_FDS_$n" '%s' "$(ls /proc/$A_PID/fd | wc -l)"
    done
    stop_underlay
}

scale() {
    local vars=() n
    for n in $scales; do
        vars+=(SCALE_CONF_$n SCALE_UP_$n SCALE_MAIN_$n SCALE_PROC_$n
               SCALE_RSS_$n SCALE_FDS_$n)
    done
    both scale_once "${vars[@]}"
    local o t
    for n in $scales; do
        local what="(a) $n_ports ports + $n vxlan tunnels with BFD"
        for fig in CONF:"configuration s":cost UP:"BFD sessions up":rate \
                   MAIN:"main-thread CPU %":cost PROC:"process CPU %":cost \
                   RSS:"RSS kB":cost FDS:"descriptors":cost; do
            local f=${fig%%:*} rest=${fig#*:}
            local label=${rest%%:*} kind=${rest#*:}
            o=OURS_SCALE_${f}_$n t=THEIRS_SCALE_${f}_$n
            if [ -z "${!o}" ]; then
                echo "$what, $label: ours - theirs ${!t:--}"
            else
                line "$what, $label" "${!o}" "${!t}" $kind
            fi
        done
    done
}

# (b) One BFD session flipping every 150 ms.
churn_once() {
    local name=$1 i
    underlay "$name"
    add_tunnels B 1 $churn_n 172.31.0.1
    add_tunnels A 1 $churn_n 172.31.0.2
    for ((i = 0; i < settle; i++)); do
        [ "$(sessions_up A)" -ge $churn_n ] && break
        sleep 1
    done
    (
        while :; do
            on B --no-wait set Interface t1 bfd:enable=false
            sleep 0.15
            on B --no-wait set Interface t1 bfd:enable=true
            sleep 0.15
        done
    ) &
    local flipper=$!
    sleep 2
    cpu_over $A_PID $secs
    kill $flipper
    wait $flipper 2>/dev/null || true
    CHURN_MAIN=$CPU_MAIN CHURN_PROC=$CPU_PROC
    stop_underlay
}

churn() {
    both churn_once CHURN_MAIN CHURN_PROC
    local what="(b) $churn_n tunnels, one BFD session flipping every 150 ms"
    line "$what, main-thread CPU %" "$OURS_CHURN_MAIN" "$THEIRS_CHURN_MAIN" cost
    line "$what, process CPU %" "$OURS_CHURN_PROC" "$THEIRS_CHURN_PROC" cost
}

# (c) Forwarding between two hosts through one tunnel of TYPE.
forward_once() {
    local name=$1 type=$FORWARD_TYPE
    underlay "$name"
    H1=ovsng-th1-$id H2=ovsng-th2-$id
    ip netns add $H1
    ip netns add $H2
    namespaces="$namespaces $H1 $H2"
    local h ns sw peer addr
    for h in 1 2; do
        if [ $h = 1 ]; then ns=$H1 sw=$UA; else ns=$H2 sw=$UB; fi
        addr=10.9.2.$h
        ip netns exec $ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
            net.ipv6.conf.default.disable_ipv6=1 || true
        ip -n $sw link add vh$h type veth peer name eth0 netns $ns
        ip -n $ns addr add $addr/24 dev eth0
        ip -n $ns link set eth0 mtu 1400
        ip netns exec $ns ethtool -K eth0 tx off tso off gso off gro off >/dev/null 2>&1 || true
        ip netns exec $sw ethtool -K vh$h tx off gro off >/dev/null 2>&1 || true
        ip -n $ns link set eth0 up
        ip -n $ns link set lo up
        ip -n $sw link set vh$h up
    done
    on A add-port br-int vh1 -- add-port br-int tun -- set Interface tun \
        type=$type options:remote_ip=172.31.0.2
    on B add-port br-int vh2 -- add-port br-int tun -- set Interface tun \
        type=$type options:remote_ip=172.31.0.1
    for _ in $(seq 30); do
        ip netns exec $H1 ping -c 1 -W 1 10.9.2.2 >/dev/null 2>&1 && break
    done
    local rx0 rx1
    rx0=$(ip netns exec $H2 cat /sys/class/net/eth0/statistics/rx_packets)
    ip netns exec $H1 "$build/bench/udp-blast" 10.9.2.2 9 $udp_secs >/dev/null
    sleep 0.5
    rx1=$(ip netns exec $H2 cat /sys/class/net/eth0/statistics/rx_packets)
    FWD_PPS=$(( (rx1 - rx0) / udp_secs ))

    ip netns exec $H2 python3 "$top/tests/tcp-transfer.py" server 10.9.2.2 5001 >/dev/null &
    local server=$!
    for _ in $(seq 50); do
        ip netns exec $H2 ss -ltn | grep -q 10.9.2.2:5001 && break
        sleep 0.1
    done
    local t0 t1
    t0=$(now_ms)
    ip netns exec $H1 python3 "$top/tests/tcp-transfer.py" client 10.9.2.2 5001 $tcp_bytes >/dev/null || true
    t1=$(now_ms)
    wait $server || true
    FWD_MBPS=$(awk -v b=$tcp_bytes -v ms=$((t1 - t0)) 'BEGIN { printf "%.1f", 2 * b / 1e6 / (ms / 1000) }')
    stop_underlay
}

forward() {
    for FORWARD_TYPE in vxlan geneve; do
        both forward_once FWD_PPS FWD_MBPS
        line "(c) $FORWARD_TYPE, 64-byte UDP frames delivered per second" "$OURS_FWD_PPS" "$THEIRS_FWD_PPS" rate
        line "(c) $FORWARD_TYPE, TCP MB/s" "$OURS_FWD_MBPS" "$THEIRS_FWD_MBPS" rate
    done
}

# PARTS (environment) picks some of them: "scale churn forward".
for part in ${PARTS:-scale churn forward}; do
    case $part in
        scale|churn|forward) $part ;;
        *) echo "bench/tunnels.sh: unknown part $part" >&2; exit 1 ;;
    esac
done
