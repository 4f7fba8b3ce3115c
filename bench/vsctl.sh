#! /bin/bash
# bench/vsctl.sh: ovs-vsctl at scale, ours (our ovs-vsctl and ovsdb-server)
# against Open vSwitch 3.1's (their ovs-vsctl and ovsdb-server), in one run.
#
# usage: bench/vsctl.sh [--smoke] [BUILD_DIR]
#
# Workloads, each on a fresh database with one bridge:
#   one-by-one   N add-port calls, one process each         (N = 1000)
#   one-call     one ovs-vsctl call adding N ports with "--" (N = 1000)
#   one-call-typed  the same, each port also typed in the same call:
#                "-- add-port br0 pI -- set Interface pI type=dummy"
#   big-bridge   the time of one add-port on a bridge that already has
#                M ports (M = 5000; the median of 5 calls)
#   big-bridge-applied  the same, but with each side's ovs-vswitchd
#                running (every device dummy) and ovs-vsctl waiting until
#                the switch has applied the change, as scripts do
# Except in the last, calls use --no-wait (no ovs-vswitchd runs).  Times are wall-clock
# milliseconds; each line prints both sides and the ratio theirs/ours, so
# above 1 means we are faster.  --smoke runs tiny sizes to check that the
# benchmark works.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-}
if [ -z "$build" ]; then
    if [ -x "$top/_build/utilities/ovs-vsctl" ]; then build=$top/_build; else build=$top; fi
fi
build=$(cd "$build" && pwd)

if [ $smoke = yes ]; then n=20 m=50 reps=3; else n=1000 m=5000 reps=5; fi

work=$(mktemp -d /tmp/vsctl-bench.XXXXXX)
# Servers are started inside command substitutions, so they are found by
# their pid files rather than remembered in a variable.
cleanup() {
    for pidfile in "$work"/*/server.pid "$work"/*/vswitchd.pid; do
        [ -e "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }

# side NAME: sets SERVER, TOOL, VSCTL, SCHEMA for "ours" or "theirs".
side() {
    if [ "$1" = ours ]; then
        SERVER=$build/ovsdb/ovsdb-server TOOL=$build/ovsdb/ovsdb-tool
        VSCTL=$build/utilities/ovs-vsctl SCHEMA=$top/vswitchd/vswitch.ovsschema
        VSWITCHD=$build/vswitchd/ovs-vswitchd
    else
        VSWITCHD=/usr/sbin/ovs-vswitchd
        SERVER=/usr/sbin/ovsdb-server TOOL=/usr/bin/ovsdb-tool
        VSCTL=/usr/bin/ovs-vsctl SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
    fi
}

# fresh NAME: a new database with bridge br0 served on $work/NAME/db.sock;
# sets DB to the remote.
fresh() {
    local dir=$work/$1.$RANDOM
    mkdir -p "$dir"
    "$TOOL" create "$dir/conf.db" "$SCHEMA"
    "$SERVER" --no-chdir --pidfile="$dir/server.pid" --unixctl="$dir/server.ctl" \
        -vconsole:off --log-file="$dir/server.log" \
        --remote=punix:"$dir/db.sock" "$dir/conf.db" </dev/null >/dev/null 2>&1 &
    for _ in $(seq 100); do [ -S "$dir/db.sock" ] && break; sleep 0.1; done
    DB=unix:$dir/db.sock
    DIR=$dir
    "$VSCTL" --db="$DB" --no-wait init -- add-br br0 \
        -- set Bridge br0 datapath_type=netdev
}

# start_vswitchd: runs the side's ovs-vswitchd on $DB with dummy devices.
start_vswitchd() {
    local extra=
    if [ "$VSWITCHD" = /usr/sbin/ovs-vswitchd ]; then extra=--disable-system; fi
    OVS_RUNDIR=$DIR "$VSWITCHD" --detach --no-chdir --pidfile="$DIR/vswitchd.pid" \
        -vconsole:off --log-file="$DIR/vswitchd.log" \
        --enable-dummy=override $extra "$DB" </dev/null >/dev/null 2>&1
}

# ports_args FROM TO: "-- add-port br0 pFROM ... -- add-port br0 pTO".
ports_args() {
    local i
    for ((i = $1; i <= $2; i++)); do printf -- '-- add-port br0 p%d ' "$i"; done
}

# typed_ports_args FROM TO: the same, each port also given a type.
typed_ports_args() {
    local i
    for ((i = $1; i <= $2; i++)); do
        printf -- '-- add-port br0 p%d -- set Interface p%d type=dummy ' "$i" "$i"
    done
}

one_by_one() {
    fresh "$1-one"
    local start i
    start=$(now_ms)
    for ((i = 1; i <= n; i++)); do
        "$VSCTL" --db="$DB" --no-wait add-port br0 "p$i"
    done
    echo $(( $(now_ms) - start ))
}

one_call() {
    fresh "$1-call"
    local start
    start=$(now_ms)
    # shellcheck disable=SC2046
    "$VSCTL" --db="$DB" --no-wait $(ports_args 1 "$n")
    echo $(( $(now_ms) - start ))
}

one_call_typed() {
    fresh "$1-typed"
    local start
    start=$(now_ms)
    # shellcheck disable=SC2046
    "$VSCTL" --db="$DB" --no-wait $(typed_ports_args 1 "$n")
    echo $(( $(now_ms) - start ))
}

big_bridge() {
    fresh "$1-big"
    local i times=() start
    for ((i = 1; i <= m; i += 500)); do
        # shellcheck disable=SC2046
        "$VSCTL" --db="$DB" --no-wait $(ports_args "$i" $((i + 499 < m ? i + 499 : m)))
    done
    for ((i = 1; i <= reps; i++)); do
        start=$(now_ms)
        "$VSCTL" --db="$DB" --no-wait add-port br0 "extra$i"
        times+=($(( $(now_ms) - start )))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p"
}

big_bridge_applied() {
    fresh "$1-applied"
    local i times=() start
    for ((i = 1; i <= m; i += 500)); do
        # shellcheck disable=SC2046
        "$VSCTL" --db="$DB" --no-wait $(ports_args "$i" $((i + 499 < m ? i + 499 : m)))
    done
    start_vswitchd
    # Untimed: lets the daemon take in the whole bridge first.
    "$VSCTL" --db="$DB" --timeout=600 add-port br0 warmup
    for ((i = 1; i <= reps; i++)); do
        start=$(now_ms)
        "$VSCTL" --db="$DB" --timeout=600 add-port br0 "extra$i"
        times+=($(( $(now_ms) - start )))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p"
}

sides=(ours)
if [ -x /usr/sbin/ovsdb-server ] && [ -x /usr/bin/ovs-vsctl ] && [ -x /usr/sbin/ovs-vswitchd ]; then
    sides+=(theirs)
else
    echo "bench: Open vSwitch's ovs-vsctl is not installed; ours only" >&2
fi

report() {  # NAME OURS [THEIRS]
    if [ -n "${3:-}" ]; then
        printf '%-40s ours %8s ms  theirs %8s ms  ratio %s\n' "$1" "$2" "$3" \
            "$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", a ? b / a : 0 }')"
    else
        printf '%-40s ours %8s ms\n' "$1" "$2"
    fi
}

for w in one_by_one one_call one_call_typed big_bridge big_bridge_applied; do
    vals=()
    for s in "${sides[@]}"; do
        side "$s"
        vals+=("$($w "$s" 2>/dev/null | tail -1)")
    done
    case $w in
        one_by_one) name="$n add-port calls, one by one" ;;
        one_call) name="one call adding $n ports" ;;
        one_call_typed) name="one call adding $n typed ports" ;;
        big_bridge) name="one add-port on a $m-port bridge" ;;
        big_bridge_applied) name="same, waiting for ovs-vswitchd" ;;
    esac
    report "$name" "${vals[@]}"
done
