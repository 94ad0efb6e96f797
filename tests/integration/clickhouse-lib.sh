# A private ClickHouse server for the tests and benchmarks that need one,
# sourced after tests/lib.sh: its own configuration, data directory and
# free loopback ports under $tmp, started and stopped by pid (never by
# name), so that nothing else on the machine is touched.
#
# ch_start: start it (again, on the same ports and data); ch_stop: stop
# it; ch_sql SQL: run a statement, the answer on stdout; $ch_url is its
# HTTP interface, $ch_tcp its native port (clickhouse-client --port).

: "${CLICKHOUSE_SERVER:=$(command -v clickhouse-server || :)}"
[ -n "$CLICKHOUSE_SERVER" ] && [ -x "$CLICKHOUSE_SERVER" ] ||
    skip_all "clickhouse-server is not installed"

ch_dir=$tmp/clickhouse
ch_port=
ch_tcp=
ch_url=

# ch_conf: the configuration for ports $ch_port and $ch_tcp.
ch_conf() {
	mkdir -p "$ch_dir/data" "$ch_dir/tmp" "$ch_dir/files"
	cat >"$ch_dir/config.xml" <<EOF2
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$ch_dir/server.log</log>
    <errorlog>$ch_dir/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>$ch_port</http_port>
  <tcp_port>$ch_tcp</tcp_port>
  <path>$ch_dir/data/</path>
  <tmp_path>$ch_dir/tmp/</tmp_path>
  <user_files_path>$ch_dir/files/</user_files_path>
  <users_config>$ch_dir/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>16777216</mark_cache_size>
  <uncompressed_cache_size>16777216</uncompressed_cache_size>
  <max_concurrent_queries>16</max_concurrent_queries>
</yandex>
EOF2
	cat >"$ch_dir/users.xml" <<EOF2
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

# ch_up: does it answer?
ch_up() {
	[ "$(curl -s --max-time 2 "$ch_url?query=SELECT%201" 2>/dev/null)" = 1 ]
}

ch_start() {
	_tries=0
	while :; do
		if [ -z "$ch_port" ]; then
			ch_port=$(shuf -i 20000-60999 -n 1)
			ch_tcp=$((ch_port + 1))
			ch_url=http://127.0.0.1:$ch_port/
			ch_conf
		fi
		nice "$CLICKHOUSE_SERVER" --config-file="$ch_dir/config.xml" \
		    >>"$ch_dir/stdout" 2>&1 &
		echo $! >"$tmp/clickhouse.pid"
		_end=$(($(date +%s) + 30))
		while ch_alive "$(cat "$tmp/clickhouse.pid")"; do
			ch_up && return 0
			[ "$(date +%s)" -lt "$_end" ] || break
			sleep 0.1
		done
		ch_stop
		_tries=$((_tries + 1))
		if [ "$_tries" -ge 5 ]; then
			echo "Bail out! clickhouse-server does not start:" \
			    "$(tail -3 "$ch_dir/error.log" 2>/dev/null)"
			exit 1
		fi
		# Most likely a port in use: another pair.
		[ -n "${ch_keep_port:-}" ] || ch_port=
		sleep 0.5
	done
}

ch_stop() {
	[ -f "$tmp/clickhouse.pid" ] || return 0
	_p=$(cat "$tmp/clickhouse.pid")
	kill "$_p" 2>/dev/null || :
	_end=$(($(date +%s) + 20))
	while ch_alive "$_p"; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			kill -9 "$_p" 2>/dev/null || :
		fi
		sleep 0.1
	done
	wait "$_p" 2>/dev/null || :
	rm -f "$tmp/clickhouse.pid"
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
