/* lines.h: a function always inlined, its lines in this file. */
static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	x ^= x >> 3;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 7);
}
