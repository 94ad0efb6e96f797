/* A small workload for perf and bpftrace: two call paths, 3:1. */
#include <stdlib.h>

static volatile long sink;
static void leaf(long n) { for (long i = 0; i < n; i++) sink += i; }
static void hot(void) { leaf(3000000); }
static void warm(void) { leaf(1000000); }

int
main(int argc, char **argv)
{
	int	 n = argc > 1 ? atoi(argv[1]) : 12;

	for (int i = 0; i < n; i++) {
		hot();
		warm();
	}
	return (0);
}
