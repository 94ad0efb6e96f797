# Private ClickHouse servers for the tests and benchmarks that need them,
# sourced after tests/lib.sh: each its own configuration, data directory
# and free loopback ports under $tmp, started and stopped by pid (never by
# name), so that nothing else on the machine is touched.
#
# One server: ch_start starts it (again, on the same ports and data),
# ch_stop stops it, ch_sql SQL runs a statement (the answer on stdout);
# $ch_url is its HTTP interface, $ch_tcp its native port
# (clickhouse-client --port), $tmp/clickhouse.pid its process.
#
# A cluster of two shards (deepq-clickhouse(7), CLUSTERS): ch_cluster_start
# starts both at once, each with a remote_servers section naming cluster
# "deepq" over the two; $ch1_url, $ch2_url, $ch1_tcp, $ch2_tcp; ch_stop 1
# or 2 stops a shard, ch_restart 1 or 2 starts it again on its ports;
# ch_sql_on N SQL runs a statement on shard N.

: "${CLICKHOUSE_SERVER:=$(command -v clickhouse-server || :)}"
[ -n "$CLICKHOUSE_SERVER" ] && [ -x "$CLICKHOUSE_SERVER" ] ||
    skip_all "clickhouse-server is not installed"

ch_port=
ch_tcp=
ch_url=

# ch_conf DIR HTTP TCP [REMOTE-SERVERS-XML]: a server's configuration.
ch_conf() {
	mkdir -p "$1/data" "$1/tmp" "$1/files"
	cat >"$1/config.xml" <<EOF2
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$1/server.log</log>
    <errorlog>$1/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$2</http_port>
  <tcp_port>$3</tcp_port>
  <path>$1/data/</path>
  <tmp_path>$1/tmp/</tmp_path>
  <user_files_path>$1/files/</user_files_path>
  <users_config>$1/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>16777216</mark_cache_size>
  <uncompressed_cache_size>16777216</uncompressed_cache_size>
  <max_concurrent_queries>16</max_concurrent_queries>
  ${4:-}
</yandex>
EOF2
	cat >"$1/users.xml" <<EOF2
<?xml version="1.0"?>
<yandex>
  <profiles><default><max_threads>2</max_threads></default></profiles>
  <users><default><password></password>
    <networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
EOF2
}

# ch_answers URL: does the server at URL answer?
ch_answers() {
	[ "$(curl -s --max-time 2 "$1?query=SELECT%201" 2>/dev/null)" = 1 ]
}

# ch_up: does the single server answer?
ch_up() {
	ch_answers "$ch_url"
}

# ch_launch DIR PIDFILE: start the server of DIR in the background, at
# the test's own priority: under `nice make check` on a loaded machine a
# server niced once more took minutes to start.
ch_launch() {
	"$CLICKHOUSE_SERVER" --config-file="$1/config.xml" \
	    >>"$1/stdout" 2>&1 &
	echo $! >"$2"
}

# ch_wait_all PIDFILE URL...: wait (90 s at most: 18.16 takes some 15 s
# to start on a loaded machine) until every server answers; 1 if one
# died or the time ran out.
ch_wait_all() {
	_pidf=$1
	shift
	_end=$(($(date +%s) + 90))
	while :; do
		_all=1
		for _u; do
			ch_answers "$_u" || _all=0
		done
		[ "$_all" = 1 ] && return 0
		for _p in $_pidf; do
			ch_alive "$(cat "$_p")" || return 1
		done
		[ "$(date +%s)" -lt "$_end" ] || return 1
		sleep 0.1
	done
}

ch_start() {
	_tries=0
	while :; do
		if [ -z "$ch_port" ]; then
			ch_port=$(shuf -i 20000-60999 -n 1)
			ch_tcp=$((ch_port + 1))
			ch_url=http://127.0.0.1:$ch_port/
			ch_conf "$tmp/clickhouse" "$ch_port" "$ch_tcp"
		fi
		ch_launch "$tmp/clickhouse" "$tmp/clickhouse.pid"
		ch_wait_all "$tmp/clickhouse.pid" "$ch_url" && return 0
		ch_stop
		_tries=$((_tries + 1))
		if [ "$_tries" -ge 5 ]; then
			echo "Bail out! clickhouse-server does not start:" \
			    "$(tail -3 "$tmp/clickhouse/error.log" 2>/dev/null)"
			exit 1
		fi
		# Most likely a port in use: another pair.
		[ -n "${ch_keep_port:-}" ] || ch_port=
		sleep 0.5
	done
}

# ch_cluster_start: two shards of cluster "deepq", started together.
ch_cluster_start() {
	_tries=0
	while :; do
		_p=$(shuf -i 20000-60990 -n 1)
		ch1_tcp=$((_p + 1))
		ch2_tcp=$((_p + 3))
		ch1_url=http://127.0.0.1:$_p/
		ch2_url=http://127.0.0.1:$((_p + 2))/
		_rs="<remote_servers><deepq>"
		for _t in $ch1_tcp $ch2_tcp; do
			_rs="$_rs<shard><replica><host>127.0.0.1</host>"
			_rs="$_rs<port>$_t</port></replica></shard>"
		done
		_rs="$_rs</deepq></remote_servers>"
		ch_conf "$tmp/shard1" "$_p" "$ch1_tcp" "$_rs"
		ch_conf "$tmp/shard2" "$((_p + 2))" "$ch2_tcp" "$_rs"
		ch_launch "$tmp/shard1" "$tmp/clickhouse-1.pid"
		ch_launch "$tmp/shard2" "$tmp/clickhouse-2.pid"
		ch_wait_all "$tmp/clickhouse-1.pid $tmp/clickhouse-2.pid" \
		    "$ch1_url" "$ch2_url" && return 0
		ch_stop 1
		ch_stop 2
		_tries=$((_tries + 1))
		if [ "$_tries" -ge 5 ]; then
			echo "Bail out! the shards do not start:" \
			    "$(tail -3 "$tmp/shard1/error.log" \
			    "$tmp/shard2/error.log" 2>/dev/null)"
			exit 1
		fi
		sleep 0.5
	done
}

# ch_restart N: start shard N again, on its ports and data.
ch_restart() {
	ch_launch "$tmp/shard$1" "$tmp/clickhouse-$1.pid"
	if [ "$1" = 1 ]; then
		ch_wait_all "$tmp/clickhouse-1.pid" "$ch1_url"
	else
		ch_wait_all "$tmp/clickhouse-2.pid" "$ch2_url"
	fi
}

# ch_stop [N]: stop the single server, or shard N.
ch_stop() {
	_f=$tmp/clickhouse.pid
	[ -z "${1:-}" ] || _f=$tmp/clickhouse-$1.pid
	[ -f "$_f" ] || return 0
	_p=$(cat "$_f")
	kill "$_p" 2>/dev/null || :
	_end=$(($(date +%s) + 20))
	while ch_alive "$_p"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			kill -9 "$_p" 2>/dev/null || :
		fi
		sleep 0.1
	done
	wait "$_p" 2>/dev/null || :
	rm -f "$_f"
}

# ch_alive PID: running (a zombie is not).
ch_alive() {
	case $(sed -n 's/^[0-9]* ([^)]*) \(.\).*/\1/p' "/proc/$1/stat" \
	    2>/dev/null) in
	'' | Z | X) return 1 ;;
	esac
	return 0
}

ch_sql() {
	curl -sS --fail-with-body --max-time 60 "$ch_url" --data-binary "$1"
}

ch_sql_on() {
	if [ "$1" = 1 ]; then
		_u=$ch1_url
	else
		_u=$ch2_url
	fi
	curl -sS --fail-with-body --max-time 60 "$_u" --data-binary "$2"
}
