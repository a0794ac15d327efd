// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "output.h"
#include "targets.h"

struct list_row {
	const struct recipe *r;
	char names[512];
	bool ok;
	char how[PFT_ERRLEN];
};

static void list_probe(struct list_row *row, const struct recipe *r,
		       struct kernel_facts *kf, const struct trace_opts *o)
{
	const char *const *alias;
	struct target t;
	size_t used = 0;

	row->r = r;
	row->names[0] = '\0';
	for (alias = r->answers_to; alias && *alias; alias++)
		used += snprintf(row->names + used, sizeof(row->names) - used, "%s%s",
				 used ? ", " : "", *alias);
	/* the planner's own answer, so list and -f never disagree */
	row->ok = plan_target(&t, r->traced, o, kf, true, row->how, sizeof(row->how)) == 0;
	if (row->ok)
		snprintf(row->how, sizeof(row->how), "%s%s%s", attach_method_name(t.method),
			 t.plan_note[0] ? "; " : "", t.plan_note);
}

int cmd_list(int argc, char **argv)
{
	const struct recipe *const *r;
	struct common_opts co;
	struct trace_opts o;
	struct kernel_facts kf;
	struct list_row row;
	char err[PFT_ERRLEN];
	struct json_object *root = NULL, *arr = NULL;
	int rc;

	rc = parse_common_opts(argc, argv, &co, "list");
	if (rc)
		return rc < 0 ? 0 : rc;
	setup_libbpf_logging(co.verbose);
	memset(&o, 0, sizeof(o));
	o.common = co;
	o.sample_every = 1;
	if (kernel_facts_load(&kf, co.btf_path, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	for (r = recipes; *r; r++)
		;
	load_recipe_ksyms(&kf, recipes, (int)(r - recipes), false);
	if (co.format == FORMAT_JSON) {
		root = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(root, "kernel", json_object_new_string(kf.release));
		json_object_object_add(root, "recipes", arr);
	} else {
		printf("%-10s %-26s %-7s %s\n", "RECIPE", "TRACES", "ATTACH", "ANSWERS TO / WHY NOT");
	}
	for (r = recipes; *r; r++) {
		list_probe(&row, *r, &kf, &o);
		if (co.format == FORMAT_JSON) {
			struct json_object *e = json_object_new_object();

			json_object_object_add(e, "recipe", json_object_new_string((*r)->name));
			json_object_object_add(e, "table", json_object_new_string((*r)->table));
			json_object_object_add(e, "traces", json_object_new_string((*r)->traced));
			json_object_object_add(e, "answers_to", json_object_new_string(row.names));
			json_object_object_add(e, "attachable", json_object_new_boolean(row.ok));
			json_object_object_add(e, row.ok ? "method" : "reason",
					       json_object_new_string(row.how));
			json_object_array_add(arr, e);
		} else {
			printf("%-10s %-26s %-7s %s\n", (*r)->name, (*r)->traced,
			       row.ok ? strtok(row.how, ";") : "no",
			       row.ok ? row.names : row.how);
		}
	}
	if (root) {
		rc = json_print(root, stdout);
		json_object_put(root);
	}
	kernel_facts_free(&kf);
	return rc;
}

const struct cmd_spec list_cmd = {
	"list", "list [--format text|json] [--btf FILE] [-v]",
	"Every recipe (hash table) pftrace knows, the functions it answers to,\n"
	"and whether and how each attaches on this kernel.",
	common_opt_specs,
};
