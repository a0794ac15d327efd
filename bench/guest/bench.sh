# Benchmark scenario, run by bench/run under QEMU -icount: guest time
# follows guest instructions, so the same run gives the same figures.
# Each case runs the same workload, timed by timeit inside the traced
# command, so pftrace's own start and exit are not in the figure.
#
# BENCH_CASES (default: every case) picks cases by name, a space-separated
# list of shell patterns, for a look at one workload without the whole
# run (bench/run's summary wants every case), e.g. the conntrack storm:
#   tests/lab/run --kernel 6.12 --icount --mem 2048 --netfilter \
#     --add bench/guest/bench.sh:/lab/bench.sh -- sh -c 'BENCH_CASES="ct_*" sh /lab/bench.sh'
. /lab/lib.sh

# wanted CASE...: whether BENCH_CASES picks any of them
wanted() {
	set -f
	for c in "$@"; do
		for p in ${BENCH_CASES:-*}; do
			# shellcheck disable=SC2254
			case $c in $p) set +f; return 0 ;; esac
		done
	done
	set +f
	return 1
}

ROUNDS=${BENCH_ROUNDS:-3}
XL_ROUNDS=${BENCH_XL_ROUNDS:-1}
targets="-f avc_lookup -f __d_lookup_rcu"
tree-walk -d 2 -w 60 -r 1 /tmp/bench >/dev/null   # build once, outside the timings
cat >/tmp/workload <<'W'
tree-walk -d 2 -w 60 -r 4 /tmp/bench >/dev/null
avc-load -t 8 -D user_t,daemon_t,worker_t -r 1500 2>/dev/null
W
# The storm eight times, untraced and traced in full: the slowdowns that
# --sample 16's bound is set against. --sample 16 itself lengthens its
# slices until walking outweighs switching (a switch costs about 100
# guest-ms of pftrace's CPU here): up to 1 s, in periods of 16 s, so its
# cases run the storm 192 times, about a minute, for four periods.
i=0
while [ $i -lt 8 ]; do cat /tmp/workload; i=$((i + 1)); done >/tmp/workload-long
i=0
while [ $i -lt 24 ]; do cat /tmp/workload-long; i=$((i + 1)); done >/tmp/workload-xl

# Linus's 2011 benchmark: make on a fully built tree, where every target
# is up to date and make only looks at files (bench/run ships GNU make).
# MAKE_TARGETS targets in MAKE_DIRS directories, each from its own source.
if command -v make >/dev/null && wanted make_untraced make_floor make_full make_sampled; then
	mk=/tmp/mk
	ndirs=${MAKE_DIRS:-20} per=${MAKE_PER_DIR:-150}
	mkdir -p "$mk"
	: >"$mk/Makefile"
	all=
	d=0
	while [ $d -lt "$ndirs" ]; do
		mkdir -p "$mk/src$d" "$mk/obj$d"
		i=0
		while [ $i -lt "$per" ]; do
			echo "int f$i;" >"$mk/src$d/f$i.c"
			all="$all obj$d/f$i.o"
			i=$((i + 1))
		done
		d=$((d + 1))
	done
	{
		echo "all:$all"
		# a pattern without a slash matches file names without their directory
		d=0
		while [ $d -lt "$ndirs" ]; do
			echo "obj$d/%.o: src$d/%.c"
			printf '\t@cp $< $@\n'
			d=$((d + 1))
		done
	} >>"$mk/Makefile"
	make -s -C "$mk" -j1 >/dev/null
	echo "=== VALUE make_targets $((ndirs * per))"
	echo 'make -s -C /tmp/mk >/dev/null' >/tmp/noop-make
	# the no-op build must be one: make -q says 0 when all is up to date
	make -q -C "$mk" >/dev/null 2>&1 || echo "=== VALUE make_not_noop 1"
fi

# run CASE WORKLOAD [PFTRACE-ARGS...]: the workload's guest time, ROUNDS
# times (XL_ROUNDS for a minute's workload), untraced when no arguments
# are given
run() {
	name=$1 work=$2
	shift 2
	wanted "$name" || return 0
	rounds=$ROUNDS
	[ "$work" != /tmp/workload-xl ] || rounds=$XL_ROUNDS
	r=0
	while [ $r -lt "$rounds" ]; do
		if [ $# -eq 0 ]; then
			timeit -o /tmp/ns sh "$work"
		else
			pftrace "$@" -o "/tmp/$name.json" -- timeit -o /tmp/ns sh "$work" >/dev/null 2>&1
		fi
		echo "=== TIME $name $r $(cat /tmp/ns)"
		r=$((r + 1))
	done
	[ $# -eq 0 ] || emit "$name.json" "/tmp/$name.json"
}

# warm-up, not counted
wanted untraced floor full untraced_long full_long avc_long untraced_xl sampled sampled_avc \
	sampled_calls avc bpftrace && timeit -o /tmp/ns sh /tmp/workload
run untraced /tmp/workload
# shellcheck disable=SC2086
run floor /tmp/workload -C walk=off $targets
# shellcheck disable=SC2086
run full /tmp/workload $targets
run untraced_long /tmp/workload-long
# shellcheck disable=SC2086
run full_long /tmp/workload-long $targets
run avc_long /tmp/workload-long -f avc_lookup
run untraced_xl /tmp/workload-xl
# shellcheck disable=SC2086
run sampled /tmp/workload-xl --sample 16 $targets
# one target: no second detach to wait behind the first's grace period
run sampled_avc /tmp/workload-xl --sample 16 -f avc_lookup
# shellcheck disable=SC2086
run sampled_calls /tmp/workload --sample-calls 16 $targets
run avc /tmp/workload -f avc_lookup

if [ -f /tmp/noop-make ]; then
	timeit -o /tmp/ns sh /tmp/noop-make   # warm-up
	run make_untraced /tmp/noop-make
	# shellcheck disable=SC2086
	run make_floor /tmp/noop-make -C walk=off $targets
	# shellcheck disable=SC2086
	run make_full /tmp/noop-make $targets
	# shellcheck disable=SC2086
	run make_sampled /tmp/noop-make --sample 16 $targets
fi

# A packet storm through the connection-tracking table: 64 UDP flows over
# loopback, 2,000 packets each, each packet one lookup in the output hook
# (bench/run ships the kernel's own netfilter modules and nft). The sender
# binds the port itself and never reads it (ct-load -S): no sink process,
# no ICMP error, and the figures repeat to a few tenths of a percent.
if wanted ct_untraced ct_floor ct_full && modprobe nf_conntrack 2>/dev/null &&
	command -v nft >/dev/null; then
	ip link set lo up
	printf 'table ip bench {\n chain out { type filter hook output priority 0; ct state invalid counter; }\n}\n' |
		nft -f -
	echo 'ct-load -S -f 64 -n 2000 -p 9000' >/tmp/ct-storm
	timeit -o /tmp/ns sh /tmp/ct-storm   # warm-up
	run ct_untraced /tmp/ct-storm
	run ct_floor /tmp/ct-storm -C walk=off -f conntrack
	run ct_full /tmp/ct-storm -f conntrack
	nft flush ruleset
fi

# start-up alone, without the sampler, for -v's phases
if wanted startup_nosamples; then
	# shellcheck disable=SC2086
	pftrace -v --no-samples $targets -o /tmp/startup_nosamples.json -- true >/dev/null 2>&1
	emit startup_nosamples.json /tmp/startup_nosamples.json
fi

# bpftrace, where bench/run could ship it: the same AVC walk as a script
if wanted bpftrace && command -v bpftrace >/dev/null && [ -f /root/avc-walk.bt ]; then
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		bpftrace /root/avc-walk.bt -c "timeit -o /tmp/ns sh /tmp/workload" >/dev/null 2>&1
		echo "=== TIME bpftrace $r $(cat /tmp/ns)"
		r=$((r + 1))
	done
	# whole runs around "true": start, attach, detach, exit
	timeit -o /tmp/ns bpftrace /root/avc-walk.bt -c true >/dev/null 2>&1
	echo "=== VALUE bpftrace_true_ns $(cat /tmp/ns)"
	timeit -o /tmp/ns pftrace -f avc_lookup -- true >/dev/null 2>&1
	echo "=== VALUE pftrace_true_ns $(cat /tmp/ns)"
fi
