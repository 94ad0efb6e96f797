// prog: the Go program behind the pprof samples in this directory (see
// mkprofiles.sh). It burns CPU in a recursive function, in small
// functions the compiler inlines, and under pprof labels, and allocates
// in known sizes so the heap profile has all four sample types.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink []byte
var keep [][]byte

// Small enough for the inliner: a frame of its own in pprof's line list.
func mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

func inner(x uint64) uint64 { return mix(mix(x) ^ (x >> 7)) }

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

//go:noinline
func spin(d time.Duration) uint64 {
	var x uint64 = 1
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 1000; i++ {
			x = inner(x)
		}
	}
	return x
}

//go:noinline
func recurse(depth int, d time.Duration) uint64 {
	if depth == 0 {
		return spin(d)
	}
	return recurse(depth-1, d) + 1
}

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 64)
	}
}

//go:noinline
func allocKept(n int) {
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 4096))
	}
}

//go:noinline
func allocRec(depth, n int) {
	if depth == 0 {
		allocKept(n)
		return
	}
	allocRec(depth-1, n)
}

func main() {
	cpu := flag.String("cpu", "", "write a CPU profile here")
	heap := flag.String("heap", "", "write a heap profile here")
	dur := flag.Duration("d", 300*time.Millisecond, "CPU time per phase")
	flag.Parse()
	runtime.MemProfileRate = 1
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		var r uint64
		pprof.Do(context.Background(), pprof.Labels("phase", "spin"),
			func(context.Context) { r += spin(*dur) })
		pprof.Do(context.Background(), pprof.Labels("phase", "recurse"),
			func(context.Context) { r += recurse(5, *dur) })
		r += uint64(fib(34))
		pprof.StopCPUProfile()
		f.Close()
		fmt.Println(r != 0)
	}
	if *heap != "" {
		allocSmall(1000)
		allocKept(100)
		allocRec(3, 50)
		runtime.GC()
		f, err := os.Create(*heap)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.WriteHeapProfile(f)
		f.Close()
	}
}
