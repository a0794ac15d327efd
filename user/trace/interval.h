/* SPDX-License-Identifier: GPL-2.0 */
/* -i: the counts of each interval as the trace runs, and -o FILE.prom kept current. */
#ifndef PFT_INTERVAL_H
#define PFT_INTERVAL_H

#include "session_state.h"

/*
 * One interval's counts, the SPAN_S since the last: text sections under
 * a time stamp, or with --format json one compact JSON line, so that
 * stdout stays a stream of JSON texts (JSON Lines; the final report is
 * a line of its own too).
 */
void print_interval(struct session *s, double span_s);
/*
 * -i with -o FILE.prom: the metrics so far, rewritten (atomically, so a
 * scrape sees one whole file) at every interval; counters count from
 * the session's start, as a Prometheus counter should.
 */
void write_interval_metrics(struct session *s);
/* the run ends while the rewrites still fail: how many did, said once */
void interval_metrics_end(struct session *s);

#endif
