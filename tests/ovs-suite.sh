#! /bin/bash
# Runs Open vSwitch 3.1's own autotest suite against our programs.
#
#   tests/ovs-suite.sh [options] [FILE.at ...]
#
# With no FILE, runs the files that cover what we implement today (the
# database, its tools, ovs-vsctl, ovs-ofctl, the switch's OpenFlow side,
# BFD, CFM, tunnel ports, STP, LACP and the RSTP engine;
# see DEFAULT_FILES).  Prints, per file,
# how many tests passed, failed and were skipped, then each failure's
# number and title.
#
# Where the programs come from:
#   ours    OUR_PROGRAMS below, from our build (BUILD_DIR, default ./_build),
#           put first on the suite's AUTOTEST_PATH through a directory of
#           symbolic links in the scratch directory;
#           every daemon and tool we build is there: the database
#           (ovsdb-server, ovsdb-tool, ovsdb-client), the switch
#           (ovs-vswitchd) and its tools (ovs-vsctl, ovs-appctl, ovs-ofctl,
#           ovs-dpctl), and ovstest, whose drivers (tests/ovstest.h) run
#           the suite's protocol unit tests (stp.at, rstp.at) on our
#           modules;
#   theirs  only what we do not build (ovs-pki, ovs-testcontroller,
#           ovs-pcap, ovs-tcpdump, test-* helpers of the suite's own
#           build, ...) from Debian's Open vSwitch 3.1 (/usr/bin,
#           /usr/sbin) or the suite's build, after ours on the path.
# The suite itself comes from Debian's openvswitch-source package, unpacked
# and configured once in a scratch directory outside this tree (SUITE_DIR,
# default /var/tmp/ovsng-ovs-suite).  Nothing of Open vSwitch is linked
# into or copied into our tree.
#
# Options:
#   --theirs          run with Debian's programs alone (the reference:
#                     which tests Open vSwitch itself passes on this machine)
#   --expect FILE     exit 1 if a test fails that FILE does not list (FILE
#                     is docs/compatibility.md: its lines "- NUM ..." name
#                     the tests allowed to fail); without it, exit 1 on any
#                     failure
#   -j N              run N tests at once (default: number of CPUs)
#   -k KEYWORDS       only the tests of FILEs that match KEYWORDS (the
#                     suite's -k syntax: comma means "and", several -k "or")
#   NUM or NUM-NUM    (in place of FILEs) run these test numbers, whatever
#                     file they are in
#   --cluster         use Open vSwitch's separate suite of clustered
#                     databases (ovsdb-cluster-testsuite: ovsdb-cluster.at,
#                     with test numbers of its own); naming the file
#                     ovsdb-cluster.at does the same.  With --expect, its
#                     allowed failures are the lines "- cluster NUM ..."
#   --userspace       use Open vSwitch's system tests on the userspace
#                     datapath (system-userspace-testsuite: system-traffic.at
#                     and others, with numbers of their own; they need root
#                     and network namespaces).  With --expect, its allowed
#                     failures are the lines "- userspace NUM ..."
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$top/_build}
suite_dir=${SUITE_DIR:-/var/tmp/ovsng-ovs-suite}
jobs=$(nproc 2>/dev/null || echo 2)

DEFAULT_FILES="ovsdb-tool.at ovsdb-server.at ovsdb-monitor.at ovsdb-client.at
               ovsdb-lock.at ovsdb-rbac.at ovs-vsctl.at ovs-ofctl.at
               ofp-errors.at ofproto.at bfd.at cfm.at tunnel.at
               tunnel-push-pop.at tunnel-push-pop-ipv6.at stp.at lacp.at
               rstp.at"
OUR_PROGRAMS="ovsdb-server:ovsdb ovsdb-tool:ovsdb ovsdb-client:ovsdb
              ovs-vswitchd:vswitchd ovs-vsctl:utilities ovs-appctl:utilities
              ovs-ofctl:utilities ovs-dpctl:utilities ovstest:tests"

mode=ours expect_file= keywords=() suite=testsuite
files=() numbers=()
while [ $# -gt 0 ]; do
    case $1 in
        --theirs) mode=theirs ;;
        --cluster) suite=ovsdb-cluster-testsuite ;;
        --userspace) suite=system-userspace-testsuite ;;
        --expect) expect_file=$2; shift ;;
        --expect=*) expect_file=${1#--expect=} ;;
        -j) jobs=$2; shift ;;
        -j*) jobs=${1#-j} ;;
        -k) keywords+=(-k "$2"); shift ;;
        -h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "ovs-suite: unknown option $1" >&2; exit 2 ;;
        [0-9]*) numbers+=("$1") ;;
        ovsdb-cluster.at) suite=ovsdb-cluster-testsuite; files+=("$1") ;;
        *) files+=("$1") ;;
    esac
    shift
done
if [ ${#files[@]} -eq 0 ] && [ ${#numbers[@]} -eq 0 ]; then
    case $suite in
        testsuite) files=($DEFAULT_FILES) ;;
        ovsdb-cluster-testsuite) files=(ovsdb-cluster.at) ;;
        *) files=(system-traffic.at) ;;
    esac
fi

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The suite: Debian's source package, unpacked and configured once; and
# ovs-testcontroller, a controller some tests start (we do not build one).
tarball=/usr/src/openvswitch/openvswitch.tar.gz
if [ ! -f $tarball ] || ! command -v ovs-testcontroller >/dev/null; then
    echo "ovs-suite: installing openvswitch-source and openvswitch-testcontroller"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends openvswitch-source \
        openvswitch-testcontroller >/dev/null
    # The package's own service is not wanted: the tests start theirs.
    as_root systemctl disable --now openvswitch-testcontroller >/dev/null 2>&1 || true
fi
src=$suite_dir/openvswitch
mkdir -p "$suite_dir"
if [ ! -f "$suite_dir/unpacked.stamp" ] || [ $tarball -nt "$suite_dir/unpacked.stamp" ]; then
    echo "ovs-suite: unpacking $tarball into $suite_dir"
    rm -rf "$src" "$suite_dir"/*.stamp
    tar -xzf $tarball -C "$suite_dir"
    touch "$suite_dir/unpacked.stamp"
fi
if [ ! -f "$suite_dir/configured.stamp" ]; then
    echo "ovs-suite: configuring the suite (once)"
    (cd "$src" && ./configure -q --prefix=/usr --localstatedir=/var \
        --sysconfdir=/etc >"$suite_dir/configure.log" 2>&1) \
        || { echo "ovs-suite: configure failed, see $suite_dir/configure.log" >&2; exit 1; }
    # The TLS tests need the suite's test PKI, made with Debian's ovs-pki.
    make -C "$src" -s OVS_PKI="ovs-pki --dir=tests/pki --log=tests/ovs-pki.log" \
        tests/testpki-cacert.pem tests/testpki-cert.pem \
        tests/testpki-privkey.pem tests/testpki-req.pem \
        tests/testpki-cert2.pem tests/testpki-privkey2.pem \
        tests/testpki-req2.pem >"$suite_dir/pki.log" 2>&1 \
        || { echo "ovs-suite: making the test PKI failed, see $suite_dir/pki.log" >&2; exit 1; }
    touch "$suite_dir/configured.stamp"
fi

# The path: our programs first (as links, so the list above is all that
# comes from us), then Debian's.
path=/usr/bin:/usr/sbin:tests
if [ $mode = ours ]; then
    bin=$suite_dir/ours
    rm -rf "$bin"
    mkdir -p "$bin"
    for p in $OUR_PROGRAMS; do
        name=${p%%:*} dir=${p#*:}
        [ -x "$build_dir/$dir/$name" ] \
            || { echo "ovs-suite: $build_dir/$dir/$name is missing; build first" >&2; exit 1; }
        ln -s "$build_dir/$dir/$name" "$bin/$name"
    done
    path=$bin:$path
fi

# The tests of the chosen files (and keywords), by number.
testsuite=$src/tests/$suite
if [ ! -x "$testsuite" ]; then
    echo "ovs-suite: building $suite (once)"
    make -C "$src" -s "tests/$suite" >"$suite_dir/$suite.build.log" 2>&1 \
        || { echo "ovs-suite: building $suite failed, see $suite_dir/$suite.build.log" >&2; exit 1; }
fi
listing=$("$testsuite" -C "$src/tests" -l "${keywords[@]}")
if [ ${#numbers[@]} -gt 0 ]; then
    # The files the chosen numbers are in, for the summary.
    mapfile -t files < <("$testsuite" -C "$src/tests" -l "${numbers[@]}" \
        | awk '$1 ~ /^[0-9]+:$/ { sub(/:.*/, "", $2); print $2 }' | sort -u)
else
    for f in "${files[@]}"; do
        mapfile -t -O ${#numbers[@]} numbers < <(echo "$listing" \
            | awk -v f="$f" '$2 ~ "^" f ":" { sub(":", "", $1); print $1 }')
    done
fi
[ ${#numbers[@]} -gt 0 ] || { echo "ovs-suite: no tests in ${files[*]}" >&2; exit 2; }

echo "ovs-suite: running ${#numbers[@]} tests of ${files[*]} ($mode programs)"
rm -rf "$src/tests/$suite.dir"
status=0
"$testsuite" -C "$src/tests" AUTOTEST_PATH="$path" -j"$jobs" \
    "${numbers[@]}" >"$suite_dir/run.log" 2>&1 || status=$?

# A failed test can leave daemons behind: stop every one whose pid file
# sits in the suite's directories.
find "$src/tests/$suite.dir" -name '*.pid' 2>/dev/null | while read -r pidfile; do
    pid=$(cat "$pidfile" 2>/dev/null) || continue
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
done

# Per-file summary from the result lines: "NUM. TITLE (FILE:LINE): RESULT".
log=$src/tests/$suite.log
[ -f "$log" ] || { echo "ovs-suite: the suite wrote no log; see $suite_dir/run.log" >&2; exit 1; }
# (A failed test's line carries a "NUM. FILE:LINE: " prefix first.)
results=$(sed -E 's/^[0-9]+\. [^ ]+\.at:[0-9]+: //' "$log" \
    | grep -E '^[0-9]+\. .* \([^()]+\.at:[0-9]+\): ' | sed -E \
    's/^([0-9]+)\. (.*) \(([^():]+\.at):[0-9]+\): ([^(]*[^( ]).*/\3\t\1\t\4\t\2/' | sort -u)
printf '%-20s %6s %6s %7s\n' FILE passed failed skipped
for f in "${files[@]}"; do
    echo "$results" | awk -F'\t' -v f="$f" '
        $1 == f { if ($3 ~ /^ok/ || $3 ~ /expected failure/) p++;
                  else if ($3 ~ /skipped/) s++; else x++ }
        END { printf "%-20s %6d %6d %7d\n", f, p, x, s }'
done
failures=$(echo "$results" | awk -F'\t' '$3 ~ /FAILED/ { print $2 ": " $4 " (" $1 ")" }' | sort -nu)
if [ -n "$failures" ]; then
    echo
    echo "Failed:"
    echo "$failures" | sed 's/^/  /'
fi

# Exit status: with --expect, only failures the list does not excuse count.
if [ -n "$expect_file" ]; then
    case $suite in
        testsuite) prefix= ;;
        ovsdb-cluster-testsuite) prefix='cluster ' ;;
        *) prefix='userspace ' ;;
    esac
    allowed=$(sed -n -E "s/^- ${prefix}([0-9]+)[ :.].*/\1/p" "$expect_file")
    unexpected=$(echo "$failures" | awk -F: 'NF { print $1 }' | while read -r n; do
        echo "$allowed" | grep -qx "$n" || echo "$n"
    done)
    if [ -n "$unexpected" ]; then
        echo
        echo "ovs-suite: unexpected failures (not in $expect_file): $(echo $unexpected)"
        echo "ovs-suite: details in $log"
        exit 1
    fi
    exit 0
fi
if [ -n "$failures" ] || { [ $status -ne 0 ] && [ -z "$results" ]; }; then
    echo "ovs-suite: details in $log"
    exit 1
fi
exit 0
