#! /bin/bash
# One entry point for a fresh Debian 12 machine:
#
#   setup.sh sandbox   install what is missing, build, start the daemons in a
#                      private run directory (./sandbox) and say how to reach them
#   setup.sh check     install what is missing, build, run every test
#   setup.sh deps      only install the build and test dependencies
#   setup.sh build     only (re)build
#   setup.sh fuzz      install clang and libFuzzer (only this needs them),
#                      build the fuzz targets in ./_build-fuzz and run each
#                      for FUZZ_SECONDS (default 60) on a copy of its corpus
#
# Environment: SANITIZE=yes builds with ASan+UBSan, WERROR=yes turns warnings
# into errors, VALGRIND=yes also runs the unit suites under valgrind (in a
# separate build without sanitizers) and the threaded suites under
# ThreadSanitizer (a third build, make check-tsan), BUILD_DIR overrides ./_build,
# TESTSUITEFLAGS is passed to the autotest suite (e.g. -j2 or -k keyword),
# OVS_SUITE=no skips Open vSwitch's own test suite (tests/ovs-suite.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$top/_build}
jobs=$(nproc 2>/dev/null || echo 2)

# Debian packages the build and the tests need.
PACKAGES="build-essential autoconf automake libtool pkg-config
          libevent-dev libjansson-dev libssl-dev check
          openssl python3 valgrind procps
          iproute2 iputils-ping ethtool"

# Test peers, never used by the product: Open vSwitch 3.1's own tools for the
# interoperability tests, and the Python "ovs" library (from PyPI, in a
# virtualenv) as an OVSDB client.
PEER_PACKAGES="openvswitch-switch openvswitch-common python3-venv"
PY_VENV=${OVS_PYTHON_VENV:-/opt/ovsng-venv}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_deps() {
    local missing=()
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        as_root apt-get update -qq
        as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Installing Debian's openvswitch-switch would start its daemons; the tests
# never use them, so a policy-rc.d keeps them from starting at all.
install_peers() {
    local missing=()
    for p in $PEER_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing test peers ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        local policy=/usr/sbin/policy-rc.d own_policy=no
        if [ ! -e $policy ]; then
            printf '#!/bin/sh\nexit 101\n' | as_root tee $policy >/dev/null
            as_root chmod +x $policy
            own_policy=yes
        fi
        # A peer that fails to install makes its tests skip (loudly), not
        # the whole run fail: the product does not depend on it.
        as_root apt-get update -qq || true
        as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
            || echo "setup: WARNING: could not install ${missing[*]}; interop tests will be skipped" >&2
        if [ $own_policy = yes ]; then as_root rm -f $policy; fi
    fi
    if [ ! -x "$PY_VENV/bin/python" ] || ! "$PY_VENV/bin/python" -c 'import ovs.db.idl' 2>/dev/null; then
        echo "setup: installing the Python ovs library into $PY_VENV"
        { as_root python3 -m venv "$PY_VENV" && as_root "$PY_VENV/bin/pip" install -q ovs; } \
            || echo "setup: WARNING: could not install the Python ovs library; its tests will be skipped" >&2
    fi
}

configure_flags() {
    local flags=()
    [ "${SANITIZE:-no}" = yes ] && flags+=(--enable-asan)
    [ "${WERROR:-no}" = yes ] && flags+=(--enable-werror)
    echo "${flags[@]:-}"
}

# configure_in DIR FLAGS...: (re)configures a build directory.
configure_in() {
    local dir=$1; shift
    if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
        (cd "$top" && ./boot.sh >/dev/null 2>&1) || { echo "setup: boot.sh failed" >&2; exit 1; }
    fi
    mkdir -p "$dir"
    # Reconfigure when the requested flags differ from the last run.
    local want="$*"
    if [ ! -f "$dir/Makefile" ] || [ "$(cat "$dir/.setup-flags" 2>/dev/null)" != "$want" ]; then
        (cd "$dir" && "$top/configure" -q $want) || { echo "setup: configure failed" >&2; exit 1; }
        echo "$want" > "$dir/.setup-flags"
    fi
}

build_in() {
    configure_in "$@"
    make -C "$1" -s -j"$jobs"
}

build() {
    build_in "$build_dir" $(configure_flags)
}

start_sandbox() {
    local sb=$top/sandbox
    # Stop a previous sandbox's daemons before reusing the directory.
    for pidfile in "$sb"/*.pid; do
        [ -e "$pidfile" ] || continue
        kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    rm -rf "$sb"
    mkdir -p "$sb"
    export OVS_RUNDIR=$sb OVS_LOGDIR=$sb OVS_DBDIR=$sb OVS_SYSCONFDIR=$sb
    export PATH=$build_dir/utilities:$build_dir/vswitchd:$build_dir/ovsdb:$PATH
    # A fresh configuration database, served on the default socket.
    ovsdb-tool create "$sb/conf.db" "$top/vswitchd/vswitch.ovsschema"
    ovsdb-server -vconsole:off --detach --no-chdir --pidfile --log-file \
        --remote=punix:"$sb/db.sock" "$sb/conf.db"
    ovs-vsctl --no-wait init
    # Every device is a dummy: bridges and ports made in the sandbox never
    # touch the host's network.
    ovs-vswitchd -vconsole:off --detach --no-chdir --pidfile --log-file \
        --enable-dummy=override
    cat > "$sb/env.sh" <<ENV
# Source this file to reach the sandbox's daemons.
export OVS_RUNDIR=$sb OVS_LOGDIR=$sb OVS_DBDIR=$sb OVS_SYSCONFDIR=$sb
export PATH=$build_dir/utilities:$build_dir/vswitchd:$build_dir/ovsdb:\$PATH
ENV
    cat <<MSG

The sandbox is running in $sb:
  ovsdb-server  pid $(cat "$sb/ovsdb-server.pid"), database $sb/conf.db on unix:$sb/db.sock
  ovs-vswitchd  pid $(cat "$sb/ovs-vswitchd.pid"), control socket $(ls "$sb"/ovs-vswitchd.*.ctl)
  logs          $sb/ovsdb-server.log, $sb/ovs-vswitchd.log

Reach it with:
  . $sb/env.sh
  ovs-vsctl add-br br0 -- add-port br0 p1
  ovs-vsctl show
  ovs-vsctl list Interface
  ovs-appctl list-commands
  ovsdb-client dump
Stop it with:
  ovs-appctl exit; ovs-appctl -t ovsdb-server exit
MSG
}

# The fuzz build's own dependencies: never part of the default build.
FUZZ_PACKAGES="clang libclang-rt-14-dev"

run_fuzz() {
    local missing=()
    for p in $FUZZ_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: installing ${missing[*]} for the fuzz build"
        export DEBIAN_FRONTEND=noninteractive
        as_root apt-get update -qq
        as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    local dir=${FUZZ_BUILD_DIR:-$top/_build-fuzz}
    CC=clang build_in "$dir" --enable-fuzz
    local seconds=${FUZZ_SECONDS:-60}
    for target in ${FUZZ_TARGETS:-flow-extract odp-syntax ofp-decode}; do
        local work="$dir/fuzz-work/$target"
        mkdir -p "$work/corpus" "$work/artifacts"
        cp -n "$top/tests/fuzz/corpus/$target"/* "$work/corpus/" 2>/dev/null || true
        echo "setup: fuzzing $target for ${seconds}s (corpus $work/corpus)"
        (cd "$work" && "$dir/tests/fuzz/fuzz-$target" -max_total_time="$seconds" \
            -artifact_prefix="$work/artifacts/" -print_final_stats=1 \
            -dict="$top/tests/fuzz/$target.dict" corpus 2>&1 | tail -n 20) || return 1
    done
}

run_checks() {
    local status=0
    make -C "$build_dir" -j"$jobs" check TESTSUITEFLAGS="${TESTSUITEFLAGS:--j$jobs}" || status=$?
    if [ $status -ne 0 ]; then
        # Show why, so a CI log is enough to debug.
        find "$build_dir/tests" -name '*.log' -path '*unit*' -newer "$build_dir/Makefile" \
            -exec grep -l -E '^(FAIL|ERROR)' {} + 2>/dev/null | xargs -r tail -n 40
        [ -f "$build_dir/tests/testsuite.log" ] && tail -n 200 "$build_dir/tests/testsuite.log"
        return $status
    fi
    if [ "${VALGRIND:-no}" = yes ]; then
        local vg_dir=$build_dir-valgrind
        build_in "$vg_dir" $([ "${WERROR:-no}" = yes ] && echo --enable-werror)
        make -C "$vg_dir" -s -j"$jobs" check-valgrind
        # The threaded suites (TSAN_TESTS) under ThreadSanitizer, in a build
        # of their own that compiles only what they need.
        local tsan_dir=$build_dir-tsan
        configure_in "$tsan_dir" --enable-tsan $([ "${WERROR:-no}" = yes ] && echo --enable-werror)
        make -C "$tsan_dir" -s -j"$jobs" check-tsan
    fi
    # Open vSwitch 3.1's own test suite on our database programs and
    # ovs-vsctl: a failure that docs/compatibility.md does not list fails
    # the run.  OVS_SUITE=no skips it.
    if [ "${OVS_SUITE:-yes}" = yes ]; then
        BUILD_DIR=$build_dir bash "$top/tests/ovs-suite.sh" \
            --expect "$top/docs/compatibility.md"
    fi
}

case "${1:-}" in
    deps) install_deps; install_peers ;;
    build) install_deps; build ;;
    sandbox) install_deps; build; start_sandbox ;;
    check) install_deps; install_peers; build; run_checks ;;
    fuzz) install_deps; run_fuzz ;;
    *) echo "usage: $0 sandbox|check|deps|build|fuzz" >&2; exit 2 ;;
esac
