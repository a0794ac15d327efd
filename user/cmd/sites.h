/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_SITES_H
#define PFT_SITES_H

/* `pftrace sites`: every prefetch instruction in the kernel, optionally by cost. */
int cmd_sites(int argc, char **argv);

#endif
