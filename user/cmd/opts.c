// SPDX-License-Identifier: GPL-2.0
#include <assert.h>
#include <string.h>

#include "opts.h"

void opts_begin(struct opt_parser *p, const struct opt_spec *specs, bool in_order)
{
	size_t n = 0, s = 0;

	if (in_order)
		p->shortopts[s++] = '+';
	p->shortopts[s++] = ':';
	for (; specs->name; specs++, n++) {
		assert(n < PFT_MAX_OPTS);   /* a table past the arrays is a build mistake */
		p->longopts[n] = (struct option){ specs->name,
						  specs->arg ? required_argument : no_argument,
						  NULL, specs->key };
		if (specs->key > 0 && specs->key < 128) {
			p->shortopts[s++] = (char)specs->key;
			if (specs->arg)
				p->shortopts[s++] = ':';
		}
	}
	p->longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	p->shortopts[s] = '\0';
	/* 0, not 1: glibc then forgets all of the last parse, mid-cluster included */
	optind = 0;
	opterr = 0;
}

int opts_next(struct opt_parser *p, int argc, char **argv)
{
	return getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
}

void opts_print_help(FILE *f, const struct opt_spec *specs)
{
	for (; specs->name; specs++) {
		char head[64];
		const char *help = specs->help, *nl;

		if (!help)
			continue;
		if (specs->key > 0 && specs->key < 128)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", specs->key, specs->name,
				 specs->arg ? " " : "", specs->arg ? specs->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", specs->name,
				 specs->arg ? " " : "", specs->arg ? specs->arg : "");
		/* continuation lines line up under the first */
		for (; (nl = strchr(help, '\n')); help = nl + 1, head[0] = '\0')
			fprintf(f, "  %-26s %.*s\n", head, (int)(nl - help), help);
		fprintf(f, "  %-26s %s\n", head, help);
	}
}

void cmd_print_help(FILE *f, const struct cmd_spec *cmd)
{
	fprintf(f, "Usage: pftrace %s\n\n%s\n\n", cmd->synopsis, cmd->summary);
	opts_print_help(f, cmd->opts);
}
