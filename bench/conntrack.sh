#! /bin/bash
# bench/conntrack.sh: connection tracking in ovs-vswitchd, ours against
# Open vSwitch 3.1's with datapath_type=netdev (its userspace tracker), set
# up the same way and with the same rules in one run (bench/switch-lib.sh:
# each side's own ovsdb-server and ovs-vswitchd in a run directory of its
# own, the switch in a network namespace, hosts in others cabled by veth).
# Needs root.  Prints, never judges.
#
# usage: bench/conntrack.sh [--smoke] [BUILD_DIR]
#
#   (a) connection setup through a firewall: host 1 may open TCP
#       connections to host 2 (ct(commit) of new ones from port v1), only
#       established traffic goes back.  bench/tcp-crr keeps PARALLEL
#       connections in flight for SECS seconds, each connect, a 32-byte
#       request, a 64-byte response, close: connections completed per
#       second.
#   (b) the same through DNAT: host 1 connects to a VIP (10.9.1.100) that
#       ct(commit,nat(dst=...)) translates to host 2's address.
#   (c) one established UDP flow through the same firewall (host 2 has
#       answered once, so it is +est both ways): 64-byte frames
#       (bench/udp-blast) delivered per second.
#   (d) memory per tracked connection: bench/eth-blast sends UDP frames
#       each of a new port pair from host 1 through ct(commit) until the
#       tracker holds N_CONNS connections (maxconns raised to exactly
#       that), then (RSS after - RSS before) / dpctl/ct-get-nconns, in
#       bytes, and how long filling took.
#
# Each line reads "FIGURE: ours X theirs Y ratio R", R being how many
# times better ours is (ours/theirs for rates, theirs/ours for costs), or
# "theirs -" when Open vSwitch 3.1 is not installed.  --smoke runs short
# and small, to check that everything works.  With BENCH_PERF=DIR, each
# side's ovs-vswitchd is profiled (perf record -g) during (a), (b) and (c)
# into DIR/FIGURE-SIDE.data.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then
    secs=1 parallel=16 n_conns=20000 fill_secs=20
else
    secs=10 parallel=128 n_conns=1000000 fill_secs=300
fi

. "$top/bench/switch-lib.sh"

VIP=10.9.1.100

ofctl() { OVS_RUNDIR=$DIR "$OFCTL" "$@"; }
appctl() { "$APPCTL" -t "$DIR/ovs-vswitchd.$PID.ctl" "$@"; }
rss_kb() { awk '/^VmRSS/ {print $2}' /proc/$PID/status; }

# profile NAME: with BENCH_PERF set, starts perf on this side's
# ovs-vswitchd for SECS seconds (in the background: the caller then runs
# the load).
profile() {
    [ -n "${BENCH_PERF:-}" ] || return 0
    mkdir -p "$BENCH_PERF"
    perf record -q -g -o "$BENCH_PERF/$1-$side_name.data" -p $PID -- sleep $secs >/dev/null 2>&1 &
}

# The firewall: ARP passes; IP goes through ct; new connections only from
# v1 (committed), established ones both ways, nothing else.
firewall() {
    ofctl add-flows br0 - <<EOF
table=0,priority=100,arp,actions=NORMAL
table=0,priority=10,ip,actions=ct(table=1)
table=1,priority=10,ip,in_port=v1,ct_state=+trk+new,actions=ct(commit),NORMAL
table=1,priority=10,ip,ct_state=+trk+est,actions=NORMAL
table=1,priority=0,actions=drop
EOF
}

# The same through DNAT: host 1's connections to VIP:5001 go to host 2
# (the reply direction is translated back by ct(nat) in table 0).
dnat_firewall() {
    ofctl add-flows br0 - <<EOF
table=0,priority=100,arp,actions=NORMAL
table=0,priority=10,ip,actions=ct(table=1,nat)
table=1,priority=10,tcp,in_port=v1,nw_dst=$VIP,tp_dst=5001,ct_state=+trk+new,actions=ct(commit,nat(dst=10.9.1.2:5001)),NORMAL
table=1,priority=10,ip,ct_state=+trk+est,actions=NORMAL
table=1,priority=0,actions=drop
EOF
}

# The client makes many short connections: every local port usable, and
# ports in TIME_WAIT reused.
client_sysctls() {
    ip netns exec $1 sysctl -qw net.ipv4.ip_local_port_range="1024 65000" \
        net.ipv4.tcp_tw_reuse=1
}

# crr ADDR FIGURE: runs tcp-crr for SECS seconds from host 1 to host 2's server,
# sets CRR_RATE (completed per second) and CRR_FAILED.
crr() {
    local addr=$1
    ip netns exec ${HOST[2]} "$build/bench/tcp-crr" server 10.9.1.2 5001 &
    local server=$!
    for _ in $(seq 50); do
        ip netns exec ${HOST[2]} ss -ltn | grep -q 10.9.1.2:5001 && break
        sleep 0.1
    done
    local out
    profile $2
    out=$(ip netns exec ${HOST[1]} "$build/bench/tcp-crr" client $addr 5001 $secs $parallel)
    kill $server 2>/dev/null || true
    wait $server 2>/dev/null || true
    CRR_RATE=$(( ${out% *} / secs ))
    CRR_FAILED=${out#* }
}

# (a)
setup_once() {
    side_name=$1
    hosts 2 "$1"
    client_sysctls ${HOST[1]}
    firewall
    crr 10.9.1.2 setup
    SETUP_RATE=$CRR_RATE SETUP_FAILED=$CRR_FAILED
    SETUP_NCONNS=$(appctl dpctl/ct-get-nconns)
    unhosts
}

# (b)
dnat_once() {
    side_name=$1
    hosts 2 "$1"
    client_sysctls ${HOST[1]}
    # Host 1 sends to the VIP by host 2's MAC (nobody answers ARP for it).
    ip -n ${HOST[1]} neigh replace $VIP lladdr ${MAC[2]} dev eth0
    dnat_firewall
    crr $VIP dnat
    DNAT_RATE=$CRR_RATE DNAT_FAILED=$CRR_FAILED
    unhosts
}

# (c)
est_once() {
    side_name=$1
    hosts 2 "$1"
    firewall
    # Host 1's first frames commit the flow, host 2's answer makes it
    # established (as in 3.1, a UDP flow seen one way only stays new); what
    # is counted comes after.
    ip netns exec ${HOST[1]} "$build/bench/udp-blast" 10.9.1.2 9 0.1 7000 >/dev/null
    sleep 0.2
    ip netns exec ${HOST[2]} "$build/bench/udp-blast" 10.9.1.1 7000 0.1 9 >/dev/null
    sleep 0.5
    local rx0 rx1 sent
    rx0=$(rx_packets ${HOST[2]})
    profile est
    sent=$(ip netns exec ${HOST[1]} "$build/bench/udp-blast" 10.9.1.2 9 $secs 7000)
    sleep 0.5
    rx1=$(rx_packets ${HOST[2]})
    EST_PPS=$(( (rx1 - rx0) / secs ))
    EST_OFFERED=$(( sent / secs ))
    unhosts
}

# (d)
memory_once() {
    side_name=$1
    hosts 2 "$1"
    ofctl add-flows br0 - <<EOF
table=0,priority=100,arp,actions=NORMAL
table=0,priority=10,ip,actions=ct(table=1)
table=1,priority=10,ip,ct_state=+trk+new,actions=ct(commit)
table=1,priority=0,actions=drop
EOF
    appctl dpctl/ct-set-maxconns $n_conns >/dev/null
    # The datapath flows and buffers the blast needs exist before the
    # first RSS reading: a short blast of a few flows, then a flush.
    ip netns exec ${HOST[1]} "$build/bench/eth-blast" eth0 ${MAC[2]} 0.5 0 ${MAC[1]} 100 >/dev/null
    sleep 0.5
    appctl dpctl/flush-conntrack >/dev/null
    sleep 1
    local rss0 rss1 t0 t1 n=0
    rss0=$(rss_kb)
    t0=$(now_ms)
    # eth-blast cycles through the N_CONNS port pairs; frames the switch
    # dropped come round again in the next pass.
    while [ $(( $(now_ms) - t0 )) -lt $(( fill_secs * 1000 )) ]; do
        ip netns exec ${HOST[1]} "$build/bench/eth-blast" eth0 ${MAC[2]} 2 0 ${MAC[1]} $n_conns >/dev/null
        n=$(appctl dpctl/ct-get-nconns)
        [ "$n" -ge $n_conns ] && break
    done
    t1=$(now_ms)
    sleep 1
    rss1=$(rss_kb)
    n=$(appctl dpctl/ct-get-nconns)
    MEM_NCONNS=$n
    MEM_BYTES=$(awk -v a=$rss0 -v b=$rss1 -v n=$n 'BEGIN { printf "%.0f", n ? (b - a) * 1024 / n : 0 }')
    MEM_FILL_S=$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.1f", ms / 1000 }')
    unhosts
}

if ! with_namespaces; then
    echo "(a) new TCP connections per second through ct(commit): skipped (network namespaces need root)"
    echo "(b) new TCP connections per second through DNAT: skipped"
    echo "(c) established UDP flow through ct, pps: skipped"
    echo "(d) memory per connection, bytes: skipped"
    exit 0
fi

both setup_once SETUP_RATE SETUP_FAILED SETUP_NCONNS
line "(a) new TCP connections per second through ct(commit), $parallel in parallel (failed: ours $OURS_SETUP_FAILED theirs ${THEIRS_SETUP_FAILED:--}; tracked after: ours $OURS_SETUP_NCONNS theirs ${THEIRS_SETUP_NCONNS:--})" \
     "$OURS_SETUP_RATE" "$THEIRS_SETUP_RATE" rate
both dnat_once DNAT_RATE DNAT_FAILED
line "(b) new TCP connections per second through DNAT, $parallel in parallel (failed: ours $OURS_DNAT_FAILED theirs ${THEIRS_DNAT_FAILED:--})" \
     "$OURS_DNAT_RATE" "$THEIRS_DNAT_RATE" rate
both est_once EST_PPS EST_OFFERED
line "(c) established UDP flow through ct, 64-byte pps delivered (offered: ours $OURS_EST_OFFERED theirs ${THEIRS_EST_OFFERED:--})" \
     "$OURS_EST_PPS" "$THEIRS_EST_PPS" rate
both memory_once MEM_BYTES MEM_NCONNS MEM_FILL_S
line "(d) memory per connection at $n_conns, bytes (tracked: ours $OURS_MEM_NCONNS theirs ${THEIRS_MEM_NCONNS:--}; filled in s: ours $OURS_MEM_FILL_S theirs ${THEIRS_MEM_FILL_S:--})" \
     "$OURS_MEM_BYTES" "$THEIRS_MEM_BYTES" cost
