#! /bin/bash
# bench/ovsdb.sh: OVSDB server throughput and monitor fan-out, ours against
# Open vSwitch 3.1's ovsdb-server, in one run.
#
# usage: bench/ovsdb.sh [--smoke] [BUILD_DIR]
#
# For each server (ours from BUILD_DIR, default "_build" or ".", theirs from
# /usr/sbin) it creates a fresh database from bench/ovsdb-bench.ovsschema in
# a private directory, starts the server on a unix socket and runs
# bench/ovsdb-load:
#   txn 1 client, non-durable    txn 16 clients, non-durable
#   txn 1 client, durable        txn 16 clients, durable
#   50 monitors: time until all have seen one update (median of the rounds)
# Each figure is printed for both servers with the ratio ours/theirs (for
# times, theirs/ours, so that above 1 always means we are faster).
# --smoke runs each workload briefly, to check that the benchmark works.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
smoke=no
if [ "${1:-}" = --smoke ]; then smoke=yes; shift; fi
build=${1:-}
if [ -z "$build" ]; then
    if [ -x "$top/_build/bench/ovsdb-load" ]; then build=$top/_build; else build=$top; fi
fi
build=$(cd "$build" && pwd)
load=$build/bench/ovsdb-load
schema=$top/bench/ovsdb-bench.ovsschema

if [ $smoke = yes ]; then
    duration=300 rounds=3 monitors=5 many=4
else
    duration=3000 rounds=30 monitors=50 many=16
fi

work=$(mktemp -d /tmp/ovsdb-bench.XXXXXX)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# start_server NAME SERVER TOOL: starts SERVER on $work/NAME/db.sock.
start_server() {
    local name=$1 server=$2 tool=$3 dir=$work/$1
    mkdir -p "$dir"
    "$tool" create "$dir/bench.db" "$schema"
    OVS_RUNDIR=$dir OVS_LOGDIR=$dir OVS_DBDIR=$dir \
        "$server" --no-chdir --pidfile="$dir/server.pid" \
        --unixctl="$dir/server.ctl" --log-file="$dir/server.log" \
        -vconsole:off --remote=punix:"$dir/db.sock" "$dir/bench.db" &
    pids+=($!)
    for _ in $(seq 100); do [ -S "$dir/db.sock" ] && return 0; sleep 0.1; done
    echo "bench: $name server did not start" >&2
    exit 1
}

# figure OUTPUT KEY: the value of KEY in ovsdb-load's OUTPUT.
figure() { awk -v k="$2" '$1 == k { print $2 }' <<<"$1"; }

servers=(ours)
start_server ours "$build/ovsdb/ovsdb-server" "$build/ovsdb/ovsdb-tool"
if [ -x /usr/sbin/ovsdb-server ] && [ -x /usr/bin/ovsdb-tool ]; then
    start_server theirs /usr/sbin/ovsdb-server /usr/bin/ovsdb-tool
    servers+=(theirs)
else
    echo "bench: Open vSwitch's ovsdb-server is not installed; ours only" >&2
fi

# report NAME UNIT HIGHER_IS_BETTER OURS [THEIRS]
report() {
    local name=$1 unit=$2 higher=$3 ours=$4 theirs=${5:-}
    if [ -n "$theirs" ]; then
        local ratio
        if [ "$higher" = yes ]; then
            ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
        else
            ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a ? b / a : 0 }')
        fi
        printf '%-34s ours %10s  theirs %10s %-8s ratio %s\n' \
            "$name" "$ours" "$theirs" "$unit" "$ratio"
    else
        printf '%-34s ours %10s %s\n' "$name" "$ours" "$unit"
    fi
}

run_txn() {  # NAME CLIENTS DURABLE_FLAG
    local name=$1 clients=$2 flag=$3 vals=()
    for s in "${servers[@]}"; do
        out=$("$load" --clients="$clients" --duration="$duration" $flag \
                  txn "unix:$work/$s/db.sock")
        vals+=("$(figure "$out" txn_per_sec)")
    done
    report "$name" txn/s yes "${vals[@]}"
}

run_txn "txn, 1 client" 1 ""
run_txn "txn, $many clients" "$many" ""
run_txn "durable txn, 1 client" 1 --durable
run_txn "durable txn, $many clients" "$many" --durable

vals=()
for s in "${servers[@]}"; do
    out=$("$load" --monitors="$monitors" --rounds="$rounds" \
              monitor "unix:$work/$s/db.sock")
    vals+=("$(figure "$out" all_seen_median_usec)")
done
report "update seen by $monitors monitors" usec no "${vals[@]}"
