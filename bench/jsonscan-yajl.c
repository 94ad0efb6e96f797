/*
 * jsonscan-yajl FILE: libyajl's SAX parser over FILE, fed in blocks of
 * 128 KB as deepq's input layer reads (so in bounded memory), every
 * callback counting its value. Built and run by bench/json-parsers.sh
 * (not part of deepq: the comparison that chose json-stream.c).
 */
#include <sys/resource.h>

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <yajl/yajl_parse.h>

static uint64_t values, sum;

static int cb_null(void *c) { values++; return 1; }
static int cb_bool(void *c, int b) { values++; return 1; }
static int cb_int(void *c, long long v) { values++; sum += v; return 1; }
static int cb_double(void *c, double d) { values++; sum += (uint64_t)d; return 1; }
static int cb_string(void *c, const unsigned char *s, size_t n) { values++; sum += n; return 1; }
static int cb_map(void *c) { values++; return 1; }
static int cb_key(void *c, const unsigned char *s, size_t n) { values++; sum += n; return 1; }
static int cb_end(void *c) { return 1; }

static const yajl_callbacks cbs = { cb_null, cb_bool, cb_int, cb_double,
    NULL, cb_string, cb_map, cb_key, cb_end, cb_map, cb_end };

int
main(int argc, char **argv)
{
	static unsigned char	 buf[128 * 1024];
	struct timespec		 a, b;
	struct rusage		 ru;
	yajl_handle		 h;
	ssize_t			 n;
	off_t			 size;
	int			 fd;
	double			 c;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) == -1) {
		fprintf(stderr, "usage: jsonscan-yajl file\n");
		return (1);
	}
	size = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	h = yajl_alloc(&cbs, NULL, NULL);
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (yajl_parse(h, buf, n) != yajl_status_ok)
			break;
	}
	if (yajl_complete_parse(h) != yajl_status_ok) {
		unsigned char *e = yajl_get_error(h, 0, NULL, 0);
		fprintf(stderr, "jsonscan-yajl: %s\n", e);
		return (1);
	}
	yajl_free(h);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	c = b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9;
	getrusage(RUSAGE_SELF, &ru);
	printf("yajl %s: %.1f MB, CPU %.3f s, %.1f MB/s, peak RSS %.1f MB "
	    "(%.2f x the file), %llu values (%llu)\n", argv[1], size / 1e6,
	    c, size / 1e6 / c, ru.ru_maxrss / 1024.0,
	    ru.ru_maxrss * 1024.0 / size, (unsigned long long)values,
	    (unsigned long long)sum);
	return (0);
}
