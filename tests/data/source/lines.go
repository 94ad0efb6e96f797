// lines.go: the Go program tests/integration/source-pprof.sh runs to
// compare deepq's costs by source line with `go tool pprof -list''s. Its
// allocation profile is exact (runtime.MemProfileRate = 1): recursion
// (grow), a function the compiler inlines (leaf), and costs on several
// lines of one function (twoLines).
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

var sink [][]byte

func leaf(n int) []byte { return make([]byte, n) }

//go:noinline
func grow(depth int) {
	if depth == 0 {
		sink = append(sink, leaf(64))
		return
	}
	sink = append(sink, leaf(depth*16))
	grow(depth - 1)
	sink = append(sink, make([]byte, 32))
}

//go:noinline
func twoLines(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 128))
	}
	for i := 0; i < n; i++ {
		sink = append(sink, leaf(256))
	}
}

func main() {
	runtime.MemProfileRate = 1
	for i := 0; i < 20; i++ {
		grow(8)
		twoLines(10)
		sink = sink[:0]
	}
	runtime.GC()
	f, err := os.Create(os.Args[1])
	if err != nil {
		os.Exit(1)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		os.Exit(1)
	}
	f.Close()
}
