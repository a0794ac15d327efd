/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every recipe's walking programs are made of, one concern a file,
 * included in the order the recipes' objects are laid out in:
 *
 *   settings.bpf.h    walk_config, walk_output, walk_pause; counter adds;
 *                     the exit program whose body the settings choose
 *   counters.bpf.h    chain_counters, agreed_walks; a walk's result word
 *   calls.bpf.h       which calls are walked: pause, filter, --sample-calls
 *   kread.bpf.h       reading kernel memory: probe reads, direct loads
 *   chain_walk.bpf.h  the bounded walk of one chain
 *   account.bpf.h     accounting a lookup
 *   by.bpf.h          --by: walks charged to who made them
 *   keys.bpf.h        lookups by key, for whatif (--snapshot)
 *   latency.bpf.h     --latency: each call's time by nodes walked
 *   stash.bpf.h       kprobe + kretprobe: the walk kept from entry to return
 *
 * Cost matters here (every traced lookup pays it): each node costs one
 * probe read of a window holding both the next pointer and the fields
 * compared (or, on 6.2+ where NR_CPUS is 2048 or more, a direct load of
 * each of them), and a lookup whose walk agrees with the kernel one
 * per-CPU add; counts that can be derived (lookups, walk hits, nodes
 * walked, ...) are derived by the loader from these and the histograms.
 */
#ifndef WALK_BPF_H
#define WALK_BPF_H

#include "pftrace.h"
#include "settings.bpf.h"
#include "counters.bpf.h"
#include "calls.bpf.h"
#include "kread.bpf.h"
#include "chain_walk.bpf.h"
#include "account.bpf.h"
#include "by.bpf.h"
#include "keys.bpf.h"
#include "latency.bpf.h"
#include "stash.bpf.h"

#endif /* WALK_BPF_H */
