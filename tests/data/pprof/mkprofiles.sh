#!/bin/sh
# mkprofiles.sh: remake the pprof samples here with the Go toolchain
# (Debian golang-go): cpu.pb.gz and heap.pb.gz from prog.go, their
# uncompressed forms cpu.pb and heap.pb, and expected/*.top, what
# `go tool pprof -top` says of each sample type (the test compares
# deepq's figures with these, and with go tool pprof run afresh).
# CPU profiles differ from run to run: commit what this made.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GOCACHE="$tmp/cache" GOPATH="$tmp/gopath" GOFLAGS=-mod=mod GO111MODULE=off
go build -o "$tmp/prog" prog.go
"$tmp/prog" -cpu cpu.pb.gz >/dev/null
"$tmp/prog" -heap heap.pb.gz
gunzip -c cpu.pb.gz >cpu.pb
gunzip -c heap.pb.gz >heap.pb
mkdir -p expected
# Exact figures: -unit=ns and -unit=B keep pprof from rounding to ms or MB.
for p in cpu:ns heap:B; do
	unit=${p#*:}
	p=${p%:*}
	n=$(go tool pprof -raw "$p.pb" 2>/dev/null | sed -n '/^Samples:/{n;p;q}' | wc -w)
	i=0
	while [ "$i" -lt "$n" ]; do
		go tool pprof -top -nodefraction=0 -nodecount=100000 \
		    -unit="$unit" -sample_index="$i" "$p.pb" 2>/dev/null |
		    sed -n '/^Type:/p;/^Showing nodes/,$p' >"expected/$p.$i.top"
		i=$((i + 1))
	done
done
