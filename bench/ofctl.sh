#! /bin/bash
# bench/ofctl.sh: OpenFlow work in ovs-vswitchd, ours against Open vSwitch
# 3.1's (datapath_type=netdev), set up the same way in one run.  Each side
# uses its own ovs-ofctl against its own switch, over the bridge's
# management socket.  Prints figures, never judges.
#
# usage: bench/ofctl.sh [--smoke] [BUILD_DIR]
#
#   flow_mods: N_MODS (10,000) distinct rules in one add-flows file, sent
#       over one connection with a barrier at the end: rules installed per
#       second (the add-flows command's wall time).
#   dump-flows: the time to dump N_DUMP (100,000) rules to /dev/null.
#   packet-ins: one host in a network namespace sends 64-byte frames of
#       one UDP flow as fast as it can into br0 (bench/eth-blast), whose
#       only rule sends everything to the controller (bench/ofp-sink,
#       counting): packet-ins received per second.  Needs root.
#
# Each line reads "FIGURE: ours X theirs Y ratio R", R being how many
# times better ours is, or "theirs -" when Open vSwitch 3.1 is missing.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then
    n_mods=200 n_dump=1000 secs=1
else
    n_mods=10000 n_dump=100000 secs=5
fi

. "$top/bench/switch-lib.sh"

# flows N FILE: N distinct rules, each matching its own UDP port pair.
flows() {
    awk -v n=$1 'BEGIN {
        for (i = 0; i < n; i++)
            printf "table=0,priority=100,udp,in_port=1,nw_src=10.%d.%d.%d,tp_src=%d,tp_dst=%d,actions=output:2\n",
                   int(i / 65536) % 256, int(i / 256) % 256, i % 256, 1024 + i % 60000, 1 + int(i / 60000)
    }' > "$2"
}

bridge() {
    vsctl add-br br0 -- set Bridge br0 datapath_type=netdev fail_mode=secure \
        -- add-port br0 p1 -- set Interface p1 type=dummy ofport_request=1 \
        -- add-port br0 p2 -- set Interface p2 type=dummy ofport_request=2
}

ofctl() { OVS_RUNDIR=$DIR "$OFCTL" "$@"; }

# Runs "$@" and sets SECS_TAKEN to its wall time in seconds.
timed() {
    local t0 t1
    t0=$(now_ms)
    "$@"
    t1=$(now_ms)
    SECS_TAKEN=$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.3f", ms / 1000 }')
}

flow_mods_once() {
    start "$1" "" yes
    bridge
    flows $n_mods "$work/mods.txt"
    timed ofctl add-flows br0 "$work/mods.txt"
    local s=$SECS_TAKEN
    local n
    n=$(ofctl dump-aggregate br0 | sed -n 's/.*flow_count=\([0-9]*\).*/\1/p')
    [ "$n" = "$n_mods" ] || { echo "$1: $n rules installed, not $n_mods" >&2; exit 1; }
    MODS_RATE=$(awk -v n=$n_mods -v s=$s 'BEGIN { printf "%.0f", (s > 0 ? n / s : 0) }')

    flows $n_dump "$work/dump.txt"
    ofctl del-flows br0
    ofctl add-flows br0 "$work/dump.txt"
    timed ofctl dump-flows br0 > "$work/dump.out"
    DUMP_SECS=$SECS_TAKEN
    local lines
    lines=$(grep -c priority=100 "$work/dump.out" || true)
    [ "$lines" = "$n_dump" ] || { echo "$1: dumped $lines rules, not $n_dump" >&2; exit 1; }
    stop
}

flow_mods() {
    both flow_mods_once MODS_RATE DUMP_SECS
    line "flow_mods installed per second ($n_mods rules, one connection, barrier at the end)" "$OURS_MODS_RATE" "$THEIRS_MODS_RATE" rate
    line "dump-flows of $n_dump rules, seconds" "$OURS_DUMP_SECS" "$THEIRS_DUMP_SECS" cost
}

packet_ins_once() {
    hosts 1 "$1"
    # The sink listens on the switch namespace's loopback.
    ip -n $SW link set lo up
    rm -f "$work/sink.port"
    ip netns exec $SW "$build/bench/ofp-sink" ptcp:0:127.0.0.1 "$work/sink.port" $secs > "$work/sink.out" &
    local sink=$!
    for _ in $(seq 50); do [ -s "$work/sink.port" ] && break; sleep 0.1; done
    vsctl set-fail-mode br0 secure -- set-controller br0 "tcp:127.0.0.1:$(cat "$work/sink.port")"
    ofctl add-flow br0 "priority=0,actions=CONTROLLER:65535"
    # Raw frames of one flow to a MAC nobody has, as fast as the socket
    # takes them: about 550k a second here, where a UDP sender going
    # through the host's IP stack topped out near 250k and held both
    # switches to its own rate.
    ip netns exec ${HOST[1]} "$build/bench/eth-blast" eth0 02:00:00:00:00:99 \
        $((secs + 3)) 0 ${MAC[1]} 1 > /dev/null &
    local blast=$!
    wait $sink
    wait $blast || true
    PIN_RATE=$(( $(cat "$work/sink.out") / secs ))
    unhosts
}

packet_ins() {
    if ! with_namespaces; then
        echo "packet-ins received per second: skipped (network namespaces need root)"
        return
    fi
    both packet_ins_once PIN_RATE
    line "packet-ins received per second (64-byte UDP, one controller)" "$OURS_PIN_RATE" "$THEIRS_PIN_RATE" rate
}

flow_mods
packet_ins
