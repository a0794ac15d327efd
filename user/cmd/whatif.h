/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_WHATIF_H
#define PFT_WHATIF_H

/* pftrace snapshot -f FUNC [-d SECONDS] [-o FILE] [-- COMMAND...] */
int cmd_snapshot(int argc, char **argv);
/* pftrace whatif RUN.json [-t FUNC] [--bits LIST] [--hash LIST] */
int cmd_whatif(int argc, char **argv);

#endif
