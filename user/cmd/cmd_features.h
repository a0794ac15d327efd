/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_FEATURES_CMD_H
#define PFT_FEATURES_CMD_H

/* pftrace features [--format text|json] [--btf FILE] [-v] */
int cmd_features(int argc, char **argv);

#endif
