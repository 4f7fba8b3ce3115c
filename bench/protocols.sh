#! /bin/bash
# bench/protocols.sh: the per-port protocols at scale, ours against Open
# vSwitch 3.1's ovs-vswitchd (datapath_type=netdev), set up the same way in
# one run.  Prints, never judges.
#
# usage: bench/protocols.sh [--smoke] [BUILD_DIR]
#
# One switch per side, every device a dummy:
#
#   (a) STP: bridge br0 with P (5,000) ports and stp_enable=true (802.1D
#       numbers at most 255 ports: the rest stay out of the tree, on both
#       sides), plus B (500) two-member LACP bonds (lacp=active) on br1
#       whose members are patched to the members of B bonds on br2, so
#       that every bond negotiates.  Figures: the time to configure the
#       ports (1,000 per ovs-vsctl call), the STP ports forwarding and the
#       bonds negotiated once they settle (STP needs two forward delays,
#       30 s), then over SECS (20) seconds the CPU of the main thread and
#       of the whole process (% of one core), its RSS (kB) and descriptors.
#   (b) churn: one bond member turned down and up again (an OpenFlow
#       port_mod) every 150 ms for SECS seconds: main-thread and process
#       CPU.
#   (c) RSTP: a fresh switch, bridge br0 with R (4,000; RSTP numbers up
#       to 4,095 ports) dummy ports and rstp_enable=true.  Figures: the
#       time to configure them, the ports forwarding once settled (each
#       is a designated port with no partner, an edge after 3 s), and
#       over SECS seconds the CPU of the main thread and of the process,
#       RSS and descriptors.
#
# Each line reads "FIGURE: ours X theirs Y ratio R", R being how many
# times better ours is (ours/theirs for counts reached, theirs/ours for
# costs), or "theirs -" when Open vSwitch 3.1 is not installed.  --smoke
# runs short and small, to check that everything works.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-$top/_build}
build=$(cd "$build" && pwd)
if [ $smoke = yes ]; then
    n_ports=300 n_bonds=20 secs=2 settle=40 churn_secs=2 n_rstp=200
else
    n_ports=5000 n_bonds=500 secs=20 settle=120 churn_secs=20 n_rstp=4000
fi
secs=${BENCH_SECS:-$secs}

. "$top/bench/switch-lib.sh"

# add_in_calls ARGS...: runs ovs-vsctl with the "--"-separated commands in
# ARGS, 1,000 commands (ports) per call.
add_in_calls() {
    local args=() n=0 a
    for a in "$@"; do
        if [ "$a" = "--" ] && [ $n -ge 4000 ]; then
            vsctl "${args[@]}"
            args=() n=0
        fi
        args+=("$a")
        n=$((n + 1))
    done
    [ ${#args[@]} = 0 ] || vsctl "${args[@]}"
}

# add_dummy_ports N: dummy ports p1 to pN on br0.
add_dummy_ports() {
    local i args=()
    for ((i = 1; i <= $1; i++)); do
        args+=(-- add-port br0 p$i -- set Interface p$i type=dummy)
    done
    add_in_calls "${args[@]}"
}

# seconds_between T0 T1: the time from T0 to T1 (ms), in seconds.
seconds_between() {
    awk -v d=$(($2 - $1)) 'BEGIN { printf "%.1f", d / 1000 }'
}

# stp_forwarding: how many of br0's ports STP has forwarding.
stp_forwarding() {
    vsctl --bare --columns=name find Port 'status:stp_state=forwarding' \
        | grep -c . || true
}

# bonds_negotiated: how many bonds of br1 say lacp_status negotiated.
bonds_negotiated() {
    "$APPCTL" -t "$DIR/ovs-vswitchd.$PID.ctl" bond/show \
        | grep -c '^lacp_status: negotiated' || true
}

scale_once() {
    local name=$1 i args t0 t1 waited
    start "$name" "" yes
    vsctl add-br br0 -- set Bridge br0 datapath_type=netdev stp_enable=true \
        -- add-br br1 -- set Bridge br1 datapath_type=netdev \
        -- add-br br2 -- set Bridge br2 datapath_type=netdev
    t0=$(now_ms)
    add_dummy_ports $n_ports
    args=()
    for ((i = 1; i <= n_bonds; i++)); do
        local b
        for b in 1 2; do
            local peer=$((3 - b))
            args+=(-- add-bond br$b b$b-$i m$b-$i-a m$b-$i-b lacp=active
                   -- set Interface m$b-$i-a type=patch
                      options:peer=m$peer-$i-a
                   -- set Interface m$b-$i-b type=patch
                      options:peer=m$peer-$i-b)
        done
    done
    add_in_calls "${args[@]}"
    t1=$(now_ms)
    CONFIG=$(seconds_between $t0 $t1)

    # Settle: STP's two forward delays, LACP's negotiation.
    waited=0
    while [ $waited -lt $settle ]; do
        if [ "$(bonds_negotiated)" -ge $((2 * n_bonds)) ] \
           && [ "$(stp_forwarding)" -ge 1 ] && [ $waited -ge 35 ]; then
            break
        fi
        sleep 5
        waited=$((waited + 5))
    done
    FORWARDING=$(stp_forwarding)
    NEGOTIATED=$(bonds_negotiated)

    cpu_over "$PID" "$secs"
    IDLE_MAIN=$CPU_MAIN IDLE_PROC=$CPU_PROC
    RSS=$(awk '/^VmRSS/ {print $2}' /proc/$PID/status)
    FDS=$(ls /proc/$PID/fd | wc -l)

    # (b) Churn: one member down and up every 150 ms.
    local ofctl=("$OFCTL" -O OpenFlow13)
    (
        end=$(( $(now_ms) + churn_secs * 1000 + 2000 ))
        while [ "$(now_ms)" -lt $end ]; do
            "${ofctl[@]}" mod-port "unix:$DIR/br1.mgmt" m1-1-a down \
                2>/dev/null || true
            sleep 0.15
            "${ofctl[@]}" mod-port "unix:$DIR/br1.mgmt" m1-1-a up \
                2>/dev/null || true
            sleep 0.15
        done
    ) &
    local churner=$!
    sleep 1
    cpu_over "$PID" "$churn_secs"
    CHURN_MAIN=$CPU_MAIN CHURN_PROC=$CPU_PROC
    wait $churner || true
    stop
}

# rstp_forwarding: how many of br0's ports RSTP has forwarding.
rstp_forwarding() {
    vsctl --bare --columns=name find Port \
        'rstp_status:rstp_port_state=Forwarding' | grep -c . || true
}

rstp_once() {
    local name=$1 i args t0 t1 waited
    start "$name" "" yes
    vsctl add-br br0 -- set Bridge br0 datapath_type=netdev rstp_enable=true
    t0=$(now_ms)
    add_dummy_ports $n_rstp
    t1=$(now_ms)
    RCONFIG=$(seconds_between $t0 $t1)
    waited=0
    while [ $waited -lt $settle ]; do
        if [ "$(rstp_forwarding)" -ge "$n_rstp" ]; then
            break
        fi
        sleep 5
        waited=$((waited + 5))
    done
    RFORWARDING=$(rstp_forwarding)
    cpu_over "$PID" "$secs"
    RIDLE_MAIN=$CPU_MAIN RIDLE_PROC=$CPU_PROC
    RRSS=$(awk '/^VmRSS/ {print $2}' /proc/$PID/status)
    RFDS=$(ls /proc/$PID/fd | wc -l)
    stop
}

have_theirs=no
[ -x /usr/sbin/ovs-vswitchd ] && have_theirs=yes

echo "bench/protocols.sh: $n_ports STP ports, $n_bonds LACP bonds a side" \
     "(both sides' bridges datapath_type=netdev, dummy devices)"
both scale_once CONFIG FORWARDING NEGOTIATED IDLE_MAIN IDLE_PROC RSS FDS \
     CHURN_MAIN CHURN_PROC
line "config s" "$OURS_CONFIG" "$THEIRS_CONFIG" cost
line "STP ports forwarding" "$OURS_FORWARDING" "$THEIRS_FORWARDING" rate
line "LACP bonds negotiated" "$OURS_NEGOTIATED" "$THEIRS_NEGOTIATED" rate
line "idle main %" "$OURS_IDLE_MAIN" "$THEIRS_IDLE_MAIN" cost
line "idle process %" "$OURS_IDLE_PROC" "$THEIRS_IDLE_PROC" cost
line "RSS kB" "$OURS_RSS" "$THEIRS_RSS" cost
line "descriptors" "$OURS_FDS" "$THEIRS_FDS" cost
line "churn main %" "$OURS_CHURN_MAIN" "$THEIRS_CHURN_MAIN" cost
line "churn process %" "$OURS_CHURN_PROC" "$THEIRS_CHURN_PROC" cost

echo "bench/protocols.sh: $n_rstp RSTP ports on one bridge"
both rstp_once RCONFIG RFORWARDING RIDLE_MAIN RIDLE_PROC RRSS RFDS
line "RSTP config s" "$OURS_RCONFIG" "$THEIRS_RCONFIG" cost
line "RSTP ports forwarding" "$OURS_RFORWARDING" "$THEIRS_RFORWARDING" rate
line "RSTP idle main %" "$OURS_RIDLE_MAIN" "$THEIRS_RIDLE_MAIN" cost
line "RSTP idle process %" "$OURS_RIDLE_PROC" "$THEIRS_RIDLE_PROC" cost
line "RSTP RSS kB" "$OURS_RRSS" "$THEIRS_RRSS" cost
line "RSTP descriptors" "$OURS_RFDS" "$THEIRS_RFDS" cost
