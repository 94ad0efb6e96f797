/*
 * lines.c: the C program tests/integration/source-callgrind.sh runs under
 * valgrind --tool=callgrind, to compare deepq's costs by source line with
 * callgrind_annotate's. Recursion (fib), a function inlined from a header
 * (mix, in lines.h: fi= lines), calls from several lines of one function
 * and a function in another file (other.c).
 */
#include <stdio.h>

#include "lines.h"

unsigned long	other_sum(const unsigned long *, int);

static unsigned long
fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static unsigned long
work(int k)
{
	unsigned long	 v[64], s = 0;
	int		 i;

	for (i = 0; i < k && i < 64; i++)
		v[i] = mix(i);
	s += other_sum(v, i);
	s += fib(12);
	s += other_sum(v, i / 2);
	return s;
}

int
main(void)
{
	unsigned long	 t = 0;
	int		 i;

	for (i = 0; i < 30; i++)
		t += work(i * 2);
	t += fib(10);
	printf("%lu\n", t);
	return 0;
}
