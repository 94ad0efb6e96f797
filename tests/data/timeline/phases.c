/*
 * A workload with phases and threads, for the timeline tests
 * (tests/integration/timeline-range.sh records it with perf record):
 * the main thread runs phase_a, then phase_b, while a second thread,
 * "worker", runs churn the whole time. Each phase is a known function,
 * so a time range or a thread selects a known mix.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

static volatile long sink;
static volatile int stop;

static double
now(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static void leaf_a(long n) { for (long i = 0; i < n; i++) sink += i; }
static void leaf_b(long n) { for (long i = 0; i < n; i++) sink ^= i; }
static void phase_a(double s) { double e = now() + s; while (now() < e) leaf_a(20000); }
static void phase_b(double s) { double e = now() + s; while (now() < e) leaf_b(20000); }

static void *
churn(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "worker");
	while (!stop)
		leaf_b(10000);
	return (NULL);
}

int
main(int argc, char **argv)
{
	double		 s = argc > 1 ? atof(argv[1]) : 0.3;
	pthread_t	 t;

	if (pthread_create(&t, NULL, churn, NULL) != 0)
		return (1);
	phase_a(s);
	phase_b(s);
	stop = 1;
	pthread_join(t, NULL);
	return (0);
}
