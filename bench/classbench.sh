#! /bin/bash
# bench/classbench.sh: ClassBench replay through our classifier, and with
# --peer through Open vSwitch 3.1's, in the same run.
#
# usage: bench/classbench.sh [--peer] [--seconds=S] [--smoke]
#                            [--build=DIR] [NAME.rules...]
#
# With no rule sets it replays shared/classbench's six (acl1, fw1, ipc1 at
# 1K and 10K rules); given paths to NAME.rules files it replays those, with
# NAME.trace and NAME.expected beside each.  For each set and for prefix
# tries off and on (nw_dst, nw_src), one thread, wildcard tracking on, it
# prints lookups per second (of the fastest whole pass over the trace, the
# one least disturbed by other work; the harness also reports the mean) and
# the number of distinct megaflow masks the lookups produced.  Every answer is checked against NAME.expected; a wrong
# one makes the benchmark say so and exit 1.
#
# --peer also builds the same harness (bench/classbench-ovs.c, our code)
# against Open vSwitch's classifier: it installs Debian's
# openvswitch-source if missing, unpacks and builds Open vSwitch's library
# in a scratch directory ($OVS_PEER_BUILD_DIR, default
# /var/tmp/ovs-peer-build-classbench) and compiles the harness there.
# Nothing of Open vSwitch enters our build tree.  It then prints both
# classifiers' figures and the ratios ours/theirs.
#
# --seconds=S is the replay time per measurement (default 2); --smoke runs
# briefly, to check that the benchmark works.  Figures only: nothing here
# decides pass or fail on speed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
peer=no
seconds=2
build=
sets=()
for arg in "$@"; do
    case $arg in
        --peer) peer=yes ;;
        --seconds=*) seconds=${arg#--seconds=} ;;
        --smoke) seconds=0.05 ;;
        --build=*) build=${arg#--build=} ;;
        -*) echo "classbench: unknown option $arg" >&2; exit 2 ;;
        *) sets+=("$arg") ;;
    esac
done

if [ -z "$build" ]; then
    if [ -x "$top/_build/bench/classbench" ]; then build=$top/_build; else build=$top; fi
fi
ours=$build/bench/classbench
if [ ! -x "$ours" ]; then
    echo "classbench: $ours not found: build first (bash utilities/setup.sh build)" >&2
    exit 1
fi

if [ ${#sets[@]} -eq 0 ]; then
    dir=${CLASSBENCH_DIR:-$top/../shared/classbench}
    for name in acl1_1k fw1_1k ipc1_1k acl1_10k fw1_10k ipc1_10k; do
        sets+=("$dir/$name.rules")
    done
fi
for s in "${sets[@]}"; do
    for f in "$s" "${s%.rules}.trace" "${s%.rules}.expected"; do
        if [ ! -r "$f" ]; then
            echo "classbench: cannot read $f" >&2
            exit 1
        fi
    done
done

# build_peer: prints the path of the harness built against Open vSwitch.
build_peer() {
    local scratch=${OVS_PEER_BUILD_DIR:-/var/tmp/ovs-peer-build-classbench}
    local tarball=/usr/src/openvswitch/openvswitch.tar.gz
    if [ ! -r $tarball ]; then
        echo "classbench: installing openvswitch-source (the peer's source)" >&2
        export DEBIAN_FRONTEND=noninteractive
        local sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
        $sudo apt-get install -y -qq --no-install-recommends openvswitch-source >&2 \
            || { $sudo apt-get update -qq >&2 && \
                 $sudo apt-get install -y -qq --no-install-recommends openvswitch-source >&2; }
    fi
    mkdir -p "$scratch"
    (
        flock 9
        cd "$scratch"
        local src=$scratch/openvswitch
        if [ ! -f "$src/.unpacked" ]; then
            rm -rf "$src"
            tar xzf $tarball
            touch "$src/.unpacked"
        fi
        cd "$src"
        if [ ! -f .configured ]; then
            echo "classbench: configuring Open vSwitch in $src" >&2
            ./configure --disable-ssl >"$scratch/configure.log" 2>&1 \
                || { echo "classbench: peer configure failed, see $scratch/configure.log" >&2; exit 1; }
            touch .configured
        fi
        if [ ! -f lib/.libs/libopenvswitch.a ]; then
            echo "classbench: building Open vSwitch's library (a few minutes)" >&2
            { make -j2 include/odp-netlink.h include/odp-netlink-macros.h \
                   ofproto/ipfix-entities.def lib/vswitch-idl.h lib/vswitch-idl.c \
                   lib/ovsdb-server-idl.h lib/ovsdb-server-idl.c \
              && make -j2 lib/libopenvswitch.la; } >"$scratch/make.log" 2>&1 \
                || { echo "classbench: peer build failed, see $scratch/make.log" >&2; exit 1; }
        fi
        local harness=$scratch/classbench-ovs
        local srcs=("$top/bench/classbench-ovs.c" "$top/bench/classbench-harness.c"
                    "$top/bench/classbench-load.c")
        local stale=no
        [ -x "$harness" ] || stale=yes
        for f in "${srcs[@]}" "$top/bench/classbench-harness.h" "$top/bench/classbench-load.h"; do
            [ "$f" -nt "$harness" ] && stale=yes
        done
        if [ $stale = yes ]; then
            ./libtool --mode=link --quiet gcc -std=gnu11 -O2 -g \
                -I"$src" -I"$src/include" -I"$src/lib" -I"$top/bench" \
                -o "$harness" "${srcs[@]}" lib/libopenvswitch.la -lpthread \
                >"$scratch/harness.log" 2>&1 \
                || { cat "$scratch/harness.log" >&2; exit 1; }
        fi
    ) 9>"$scratch/.lock" || return 1
    echo "$scratch/classbench-ovs"
}

theirs=
if [ $peer = yes ]; then
    theirs=$(build_peer) || { echo "classbench: could not build the peer" >&2; exit 1; }
fi

# field LINE KEY: the value of KEY=... in a harness line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }

status=0
printf '%-10s %-5s %8s %14s %6s' set tries entries "ours lookups/s" masks
[ -n "$theirs" ] && printf ' %14s %6s %7s %7s' "ovs lookups/s" masks speed masks
printf '\n'
for s in "${sets[@]}"; do
    out_ours=$("$ours" --seconds="$seconds" "$s") || status=1
    out_theirs=
    if [ -n "$theirs" ]; then
        out_theirs=$("$theirs" --seconds="$seconds" "$s") || status=1
    fi
    while read -r line; do
        [ -n "$line" ] || continue
        name=$(field "$line" set); tries=$(field "$line" tries)
        lps=$(field "$line" lookups_per_sec); masks=$(field "$line" masks)
        printf '%-10s %-5s %8s %14s %6s' "$name" "$tries" "$(field "$line" entries)" "$lps" "$masks"
        if [ -n "$theirs" ]; then
            t=$(grep " tries=$tries " <<<"$out_theirs" || true)
            tlps=$(field "$t" lookups_per_sec); tmasks=$(field "$t" masks)
            printf ' %14s %6s %7s %7s' "$tlps" "$tmasks" \
                "$(awk -v a="$lps" -v b="$tlps" 'BEGIN { printf "%.2fx", b ? a / b : 0 }')" \
                "$(awk -v a="$masks" -v b="$tmasks" 'BEGIN { printf "%.2f", b ? a / b : 0 }')"
        fi
        printf '\n'
    done <<<"$out_ours"
done
if [ $status -ne 0 ]; then
    echo "classbench: WRONG ANSWERS or a failed run (see above)" >&2
fi
exit $status
