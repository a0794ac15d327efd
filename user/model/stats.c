// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int hist_percentile(const __u64 *slots, int nslots, double p)
{
	__u64 total = 0, seen = 0;
	int i;

	for (i = 0; i < nslots; i++)
		total += slots[i];
	if (!total)
		return -1;
	for (i = 0; i < nslots; i++) {
		seen += slots[i];
		if ((double)seen >= p * (double)total)
			return i;
	}
	return nslots - 1;
}

/*
 * The regularized upper incomplete gamma function Q(a, x), by its
 * series below a + 1 and its continued fraction (modified Lentz) above,
 * the split that keeps both converging quickly.
 */
static double gamma_q(double a, double x)
{
	const double eps = 1e-14, tiny = 1e-300;
	double sum, term, b, c, d, h, an;
	int n;

	if (x <= 0)
		return 1.0;
	if (x < a + 1) {
		term = sum = 1.0 / a;
		for (n = 1; n < 100000; n++) {
			term *= x / (a + n);
			sum += term;
			if (fabs(term) < fabs(sum) * eps)
				break;
		}
		return 1.0 - sum * exp(-x + a * log(x) - lgamma(a));
	}
	b = x + 1 - a;
	c = 1 / tiny;
	d = 1 / b;
	h = d;
	for (n = 1; n < 100000; n++) {
		an = -n * (n - a);
		b += 2;
		d = an * d + b;
		if (fabs(d) < tiny)
			d = tiny;
		c = b + an / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		if (fabs(d * c - 1) < eps)
			break;
	}
	return exp(-x + a * log(x) - lgamma(a)) * h;
}

/*
 * P(chi-square with DF degrees of freedom >= X), to 9 significant
 * digits. gamma_q() takes exp() of a difference of terms as large as the
 * table (x/2 and a log x - lgamma a, thousands for a 2^12-bucket table),
 * so its last digits follow the maths library: x86_64's and aarch64's
 * glibc differ from the 12th. Rounded, the same run file gives the same
 * p-value, and the same report, on both.
 */
double chi_square_p(double x, int df)
{
	char digits[32];

	if (df <= 0)
		return 1.0;
	snprintf(digits, sizeof(digits), "%.9g", gamma_q(df / 2.0, x / 2.0));
	return strtod(digits, NULL);
}

void chi_square_2xk(const __u64 *a, const __u64 *b, int nslots, struct chi_square *out)
{
	double ta = 0, tb = 0, ra, rb, chi = 0;
	double bin_a[1024], bin_b[1024];
	int i, k = 0;

	memset(out, 0, sizeof(*out));
	out->p_value = 1.0;
	for (i = 0; i < nslots; i++) {
		ta += (double)a[i];
		tb += (double)b[i];
	}
	if (ta == 0 || tb == 0)
		return;
	ra = ta / (ta + tb);
	rb = tb / (ta + tb);
	/* merge adjacent values until both expected counts reach 5 */
	for (i = 0; i < nslots && k < 1024; i++) {
		if (k == 0 || (bin_a[k - 1] + bin_b[k - 1]) * (ra < rb ? ra : rb) >= 5) {
			bin_a[k] = bin_b[k] = 0;
			k++;
		}
		bin_a[k - 1] += (double)a[i];
		bin_b[k - 1] += (double)b[i];
	}
	/* a sparse tail joins the last full bin */
	while (k > 1 && (bin_a[k - 1] + bin_b[k - 1]) * (ra < rb ? ra : rb) < 5) {
		bin_a[k - 2] += bin_a[k - 1];
		bin_b[k - 2] += bin_b[k - 1];
		k--;
	}
	for (i = 0; i < k; i++) {
		double n = bin_a[i] + bin_b[i], ea = n * ra, eb = n * rb;

		if (n == 0)
			continue;
		chi += (bin_a[i] - ea) * (bin_a[i] - ea) / ea + (bin_b[i] - eb) * (bin_b[i] - eb) / eb;
	}
	out->bins = k;
	out->statistic = chi;
	out->df = k - 1;
	out->p_value = chi_square_p(chi, out->df);
}

double mann_whitney_p(const double *a, int na, const double *b, int nb)
{
	double u = 0, mean, sd, z;
	int i, j;

	if (na < 1 || nb < 1)
		return 1.0;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	mean = (double)na * nb / 2;
	sd = sqrt((double)na * nb * (na + nb + 1) / 12);
	z = (fabs(u - mean) - 0.5) / sd;   /* continuity correction */
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct estimate estimate(const double *v, int n)
{
	double s[256];
	struct estimate e = { 0, 0, 0 };
	int k, i;

	if (n < 1)
		return e;
	if (n > 256)
		n = 256;
	k = (int)floor((n - 1.96 * sqrt(n)) / 2);
	for (i = 0; i < n; i++)
		s[i] = v[i];
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	e.median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	if (k < 0)
		k = 0;
	e.lo = s[k];
	e.hi = s[n - 1 - k];
	return e;
}
