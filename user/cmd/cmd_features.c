// SPDX-License-Identifier: GPL-2.0
/* `pftrace features`: what the running kernel offers, each a real probe. */
#include <stdio.h>
#include <json-c/json.h>

#include "caps.h"
#include "cli.h"
#include "commands.h"
#include "feature_probe.h"
#include "output.h"

int cmd_features(int argc, char **argv)
{
	struct common_opts o;
	struct kernel_facts kf;
	struct feature feats[FEAT_COUNT];
	char err[PFT_ERRLEN] = "";
	int i, rc;

	rc = parse_common_opts(argc, argv, &o, "features");
	if (rc)
		return rc < 0 ? 0 : rc;
	setup_libbpf_logging(o.verbose);
	/* features reports a missing BTF instead of refusing to run */
	if (kernel_facts_load(&kf, o.btf_path, err, sizeof(err)) && o.btf_path) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	features_probe(&kf, feats);

	if (o.format == FORMAT_JSON) {
		struct json_object *root = json_object_new_object();
		struct json_object *fs = json_object_new_object();

		json_object_object_add(root, "tool", json_object_new_string("pftrace"));
		json_object_object_add(root, "version", json_object_new_string(PFTRACE_VERSION));
		json_object_object_add(root, "kernel", json_object_new_string(kf.release));
		for (i = 0; i < FEAT_COUNT; i++) {
			struct json_object *f = json_object_new_object();

			json_object_object_add(f, "available", json_object_new_boolean(feats[i].available));
			json_object_object_add(f, "detail", json_object_new_string(feats[i].detail));
			json_object_object_add(fs, feats[i].name, f);
		}
		json_object_object_add(root, "features", fs);
		{
			struct json_object *c = json_object_new_object();
			char missing[64];
			bool can = caps_can_trace(missing, sizeof(missing));

			json_object_object_add(c, "can_trace", json_object_new_boolean(can));
			json_object_object_add(c, "missing", json_object_new_string(missing));
			json_object_object_add(root, "capabilities", c);
		}
		rc = json_print(root, stdout);
		json_object_put(root);
	} else {
		printf("pftrace %s features of kernel %s\n", PFTRACE_VERSION, kf.release);
		for (i = 0; i < FEAT_COUNT; i++)
			printf("  %-10s %-3s  %s\n", feats[i].name,
			       feats[i].available ? "yes" : "no", feats[i].detail);
	}
	kernel_facts_free(&kf);
	return rc;
}

const struct cmd_spec features_cmd = {
	"features", "features [--format text|json] [--btf FILE] [-v]",
	"What this kernel and this process offer pftrace: attach methods, BTF,\n"
	"kallsyms, SELinux, PMU, capabilities; each line says why when no.",
	common_opt_specs,
};
