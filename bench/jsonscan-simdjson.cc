/*
 * jsonscan-simdjson FILE: simdjson's On-Demand API over FILE (which it
 * holds whole, padded, with its index of structural characters), every
 * value visited and counted. Built and run by bench/json-parsers.sh (not
 * part of deepq: the comparison that chose json-stream.c).
 */
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <ctime>

#include <simdjson.h>

using namespace simdjson;

static uint64_t values, sum;

static void
visit(ondemand::value v)
{
	values++;
	switch (v.type()) {
	case ondemand::json_type::array:
		for (auto e : v.get_array())
			visit(e.value());
		break;
	case ondemand::json_type::object:
		for (auto f : v.get_object()) {
			values++;
			sum += std::string_view(f.unescaped_key()).size();
			visit(f.value());
		}
		break;
	case ondemand::json_type::number:
		if (v.get_number_type() == ondemand::number_type::signed_integer)
			sum += int64_t(v.get_int64());
		else
			sum += uint64_t(double(v.get_double()));
		break;
	case ondemand::json_type::string:
		sum += std::string_view(v.get_string()).size();
		break;
	case ondemand::json_type::boolean:
		(void)bool(v.get_bool());
		break;
	default:
		(void)v.is_null();
		break;
	}
}

int
main(int argc, char **argv)
{
	struct timespec	 a, b;
	struct rusage	 ru;

	if (argc != 2) {
		fprintf(stderr, "usage: jsonscan-simdjson file\n");
		return 1;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	padded_string json = padded_string::load(argv[1]);
	ondemand::parser parser(json.size() + 64);
	ondemand::document doc = parser.iterate(json);
	try {
		ondemand::value root = doc.get_value();
		visit(root);
	} catch (simdjson_error &e) {
		fprintf(stderr, "jsonscan-simdjson: %s\n", e.what());
		return 1;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	double c = b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9;
	getrusage(RUSAGE_SELF, &ru);
	printf("simdjson %s: %.1f MB, CPU %.3f s, %.1f MB/s, peak RSS %.1f MB "
	    "(%.2f x the file), %llu values (%llu)\n", argv[1],
	    json.size() / 1e6, c, json.size() / 1e6 / c,
	    ru.ru_maxrss / 1024.0, ru.ru_maxrss * 1024.0 / json.size(),
	    (unsigned long long)values, (unsigned long long)sum);
	return 0;
}
