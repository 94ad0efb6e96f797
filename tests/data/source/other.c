/* other.c: a function of another file for lines.c. */
unsigned long	other_sum(const unsigned long *, int);

unsigned long
other_sum(const unsigned long *v, int n)
{
	unsigned long	 s = 0;
	int		 i;

	for (i = 0; i < n; i++)
		s += v[i] % 7;
	return s;
}
