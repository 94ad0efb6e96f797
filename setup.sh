#!/bin/sh
# setup.sh demo|check|build: install the Debian packages deepq needs that
# are missing (as root), build, then show reports of the bundled samples
# (demo) or run the whole test suite (check).
#
#   sh setup.sh demo	build, print the bundled samples, then serve them
#			with deepq web (open the URL it prints)
#   sh setup.sh check	build, then make check (what .ci/run runs)
set -eu

mode=${1:-demo}
cd "$(dirname "$0")"

# Build tools and libraries, then what the tests drive: real web servers
# (lighttpd, Apache, nginx with fcgiwrap or spawn-fcgi; the tests run
# private instances and start none of the packages' services), curl,
# headless Chromium, mandoc for the man-page lint, jq to validate JSON, valgrind's
# callgrind_annotate, strace, clang for fuzzing. tidy validates the
# HTML; node and npm run the browser test (Playwright's core, driving
# the system's Chromium; it downloads no browser). clickhouse-server and
# clickhouse-client: the ClickHouse test and benchmark run a private server.
# xz-utils unpacks the tests' real profiles (tests/data/corpus.tar.xz);
# debhelper, dpkg-dev and lintian build and check the Debian package
# (debian.sh), systemd's systemd-analyze and systemd-tmpfiles the units
# (systemd.sh; nothing is started). python3 and linux-perf: the
# timeline test records with perf record and cuts the recordings on its
# own (tests/integration/timeline-range.sh).
packages="autoconf automake libtool pkg-config make gcc bc xz-utils
	libevent-dev libjansson-dev libmicrohttpd-dev libpcre2-dev
	zlib1g-dev libzstd-dev liblzma-dev
	libprotobuf-c-dev protobuf-c-compiler golang-go
	lighttpd apache2 libapache2-mod-fcgid nginx fcgiwrap spawn-fcgi
	curl chromium mandoc jq python3 linux-perf
	tidy valgrind strace clang wrk
	clickhouse-server clickhouse-client
	debhelper dpkg-dev lintian systemd"

missing=
for p in $packages; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
# Node may come from elsewhere than Debian (with its own npm): ask for the
# commands, not the packages.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup.sh: missing Debian packages:$missing" >&2
		echo "setup.sh: run as root, or: apt-get install$missing" >&2
		exit 1
	fi
	echo "setup.sh: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# A package's service must not start here (no init in containers;
	# lighttpd, apache2 and nginx would all want port 80, and a failed
	# start fails the postinst): policy-rc.d denies every start while
	# apt-get runs, unless the system already has its own policy.
	policy=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy"
		chmod 755 "$policy"
	fi
	status=0
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	    status=$?
	[ -z "$policy" ] || rm -f "$policy"
	[ "$status" -eq 0 ] || exit "$status"
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -x configure ] || [ configure.ac -nt configure ]; then
	autoreconf -fi
fi
# The tests run under ASan and UBSan, with the test hooks; the demo is an
# ordinary build.
flags=--enable-debug
[ "$mode" = check ] && flags="--enable-debug --enable-asan --enable-test-hooks"
if [ ! -f Makefile ] || [ configure -nt Makefile ] ||
    [ "$(sed -n 's/^ *\$ \.\/configure *//p' config.log)" != "$flags" ]; then
	[ -f Makefile ] && make distclean >/dev/null 2>&1 || :
	./configure $flags
fi
make -j"$jobs"
if [ "$mode" = check ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
	(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi
# speedscope's page, which opens deepq's speedscope exports in the test.
if [ "$mode" = check ] && [ ! -f tests/speedscope/node_modules/speedscope/package.json ]; then
	(cd tests/speedscope && npm ci --no-audit --no-fund --loglevel=error)
fi
DEEPQ_NODE_MODULES=$(pwd)/tests/browser/node_modules
DEEPQ_SPEEDSCOPE_MODULES=$(pwd)/tests/speedscope/node_modules
export DEEPQ_NODE_MODULES DEEPQ_SPEEDSCOPE_MODULES
if [ -d ../shared ]; then
	DEEPQ_SHARED=$(cd ../shared && pwd)
	export DEEPQ_SHARED
fi

case $mode in
build)
	;;
demo)
	for f in tests/data/samples/*; do
		case $f in *README) continue ;; esac
		echo "==> deepq query $f 'cmd=top&limit=10&format=text'"
		./cli/deepq query --local "$f" 'cmd=top&limit=10&format=text' ||
		    echo "(not readable yet: $f)"
		echo
	done
	# Then browse them: deepq web serves until Ctrl-C, printing the URL.
	listen=${DEEPQ_WEB_LISTEN:-127.0.0.1:8080}
	echo "==> deepq web --listen $listen tests/data/samples (Ctrl-C stops)"
	exec ./cli/deepq web --listen "$listen" tests/data/samples
	;;
check)
	# A failure, also one inside a nested run whose log a test
	# indents with "#   " (lifecycle-extra.sh's T27).
	bad='^\(#   \)\{0,1\}\(not ok\|Bail out\)'
	make -j"$jobs" check || {
		for log in $(find . -name '*.log' -newer configure); do
			if grep -q "$bad" "$log" 2>/dev/null; then
				echo "==> $log"
				grep -B2 -A12 "$bad" "$log" | head -60
			fi
		done
		sh tests/skipped.sh $(find tests -name '*.log' -newer configure)
		exit 1
	}
	# One plain closing line for whoever reads the log.
	awk '/^# PASS:/ { p = $3 } /^# FAIL:/ { f = $3 } /^# ERROR:/ { e = $3 }
	    /^# SKIP:/ { s = $3 }
	    END { printf "make check: %d passed, %d failed, %d skipped\n",
	    p, f + e, s }' test-suite.log
	# (make check listed what it skipped and why: tests/skipped.sh.)
	# The tarball builds and passes its tests in a separate tree.
	make -j"$jobs" distcheck
	;;
*)
	echo "usage: sh setup.sh demo|check|build" >&2
	exit 1
	;;
esac
