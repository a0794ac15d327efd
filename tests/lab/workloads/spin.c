// SPDX-License-Identifier: GPL-2.0
/*
 * spin MILLIONS: count to MILLIONS million in user space with no system
 * call, so nothing it does looks anything up in the kernel (only its
 * exec does): the lab's "no lookups, so (almost) no samples" workload.
 */
#include <stdlib.h>

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 100, i;
	volatile unsigned long n = 0;

	for (i = 0; i < millions * 1000000UL; i++)
		n++;
	return 0;
}
