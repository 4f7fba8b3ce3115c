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
#   (b) flow setup: one host sends 64-byte UDP frames as fast as it can to
#       a second host, each with a new UDP port pair (bench/eth-blast with
#       a fixed source MAC), into br0 whose one rule besides NORMAL reads
#       both ports (moves them into registers, then NORMAL): every frame
#       needs an upcall and a megaflow of its own.  Frames delivered per
#       second (each one set up by a handler) and the share of the frames
#       sent that were delivered rather than dropped.
#   (c) fairness: a first host floods new flows (a new source MAC and
#       port pair each, under NORMAL) while a third host sends one new flow
#       every 10 ms to a fourth: the share of the third host's frames
#       delivered.
#   (d) idle cost: N dummy ports (5,000) on br0, then SECS2 seconds (20)
#       of nothing: CPU of the main thread and of the whole process (% of
#       one core), RSS (kB) and descriptors held.
#
# (c) varies the source MAC: NORMAL's megaflows ignore L4 ports (as Open
# vSwitch's do).  The MAC table is made large enough on both sides that the
# receivers' addresses are never evicted.
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

. "$top/bench/switch-lib.sh"

# (a) Forwarding through br0 between two namespaces.
forward_once() {
    hosts 2 "$1"
    local a=${HOST[1]} b=${HOST[2]}
    local rx0 rx1 sent
    rx0=$(rx_packets $b)
    sent=$(ip netns exec $a "$build/bench/udp-blast" 10.9.1.2 9 $secs)
    sleep 0.5
    rx1=$(rx_packets $b)
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
    unhosts
}

# (b) New flows from one port: every frame a new UDP port pair from the same
# host, and a rule that reads both ports (moving them into registers), so
# that each pair needs an upcall and a megaflow of its own.
setup_once() {
    hosts 2 "$1"
    OVS_RUNDIR=$DIR "$OFCTL" add-flow br0 \
        "priority=10,udp,actions=move:NXM_OF_UDP_SRC[]->NXM_NX_REG0[0..15],move:NXM_OF_UDP_DST[]->NXM_NX_REG0[16..31],NORMAL"
    local rx0 rx1 sent
    rx0=$(rx_packets ${HOST[2]})
    sent=$(ip netns exec ${HOST[1]} "$build/bench/eth-blast" eth0 ${MAC[2]} $secs 0 ${MAC[1]} 4000000000)
    sleep 0.5
    rx1=$(rx_packets ${HOST[2]})
    SETUP_RATE=$(( (rx1 - rx0) / secs ))
    SETUP_SHARE=$(awk -v d=$((rx1 - rx0)) -v s=$sent 'BEGIN { printf "%.1f", s ? 100 * d / s : 0 }')
    unhosts
}

# (c) A flooding port and a quiet one.
fairness_once() {
    hosts 4 "$1"
    local rx0 rx1 quiet flood
    rx0=$(rx_packets ${HOST[4]})
    ip netns exec ${HOST[1]} "$build/bench/eth-blast" eth0 ${MAC[2]} $secs > "$work/flood.out" &
    flood=$!
    quiet=$(ip netns exec ${HOST[3]} "$build/bench/eth-blast" eth0 ${MAC[4]} $secs 10000)
    wait $flood || true
    sleep 0.5
    rx1=$(rx_packets ${HOST[4]})
    FAIR_SHARE=$(awk -v d=$((rx1 - rx0)) -v s=$quiet 'BEGIN { printf "%.1f", s ? 100 * d / s : 0 }')
    unhosts
}

forwarding() {
    if ! with_namespaces; then
        echo "(a) 64-byte UDP delivered, pps: skipped (network namespaces need root)"
        echo "(a) TCP, one connection both ways, MB/s: skipped"
        return
    fi
    both forward_once UDP_PPS UDP_OFFERED TCP_MBPS
    line "(a) 64-byte UDP delivered, pps (offered: ours $OURS_UDP_OFFERED theirs ${THEIRS_UDP_OFFERED:--})" "$OURS_UDP_PPS" "$THEIRS_UDP_PPS" rate
    line "(a) TCP, one connection both ways, MB/s" "$OURS_TCP_MBPS" "$THEIRS_TCP_MBPS" rate
}

flow_setup() {
    if ! with_namespaces; then
        echo "(b) new flows delivered per second, one port: skipped (network namespaces need root)"
        echo "(b) share of new-flow frames delivered, %: skipped"
        return
    fi
    both setup_once SETUP_RATE SETUP_SHARE
    line "(b) new flows delivered per second, one port" "$OURS_SETUP_RATE" "$THEIRS_SETUP_RATE" rate
    line "(b) share of new-flow frames delivered, %" "$OURS_SETUP_SHARE" "$THEIRS_SETUP_SHARE" rate
}

fairness() {
    if ! with_namespaces; then
        echo "(c) quiet port's new flows delivered while another floods, %: skipped (network namespaces need root)"
        return
    fi
    both fairness_once FAIR_SHARE
    line "(c) quiet port's new flows delivered while another floods, %" "$OURS_FAIR_SHARE" "$THEIRS_FAIR_SHARE" rate
}

idle_once() {
    local name=$1
    start "$name" "" yes
    local args=(add-br br0 -- set Bridge br0 datapath_type=netdev) i
    for ((i = 1; i <= n_idle; i++)); do args+=(-- add-port br0 "p$i"); done
    vsctl "${args[@]}"
    # Past the first statistics pass (at most 5 s away), which writes every
    # new interface's counters once on both sides: idle cost is what comes
    # after the setup.
    sleep 6
    cpu_over $PID $secs_idle
    IDLE_MAIN=$CPU_MAIN IDLE_PROC=$CPU_PROC
    IDLE_RSS=$(awk '/^VmRSS/ {print $2}' /proc/$PID/status)
    IDLE_FDS=$(ls /proc/$PID/fd | wc -l)
    stop
}

idle() {
    both idle_once IDLE_MAIN IDLE_PROC IDLE_RSS IDLE_FDS
    local what="$n_idle ports, ${secs_idle} s idle"
    line "(d) $what, main-thread CPU %" "$OURS_IDLE_MAIN" "$THEIRS_IDLE_MAIN" cost
    line "(d) $what, process CPU %" "$OURS_IDLE_PROC" "$THEIRS_IDLE_PROC" cost
    line "(d) $what, RSS kB" "$OURS_IDLE_RSS" "$THEIRS_IDLE_RSS" cost
    line "(d) $what, descriptors" "$OURS_IDLE_FDS" "$THEIRS_IDLE_FDS" cost
}

forwarding
flow_setup
fairness
idle
