/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_LIST_H
#define PFT_LIST_H

/* `pftrace list`: every recipe, its names, and how it attaches here. */
int cmd_list(int argc, char **argv);

#endif
