# Benchmark scenario on arm64, run by bench/run --arch arm64 under QEMU
# -icount: the stat storm's cost per call (bench.sh's first workload and
# targets), untraced, with empty programs (-C walk=off) and traced in
# full. Each round is timed by timeit inside the traced command, so
# pftrace's own start and exit are not in the figure.
. /lab/lib.sh

ROUNDS=${BENCH_ROUNDS:-3}
targets="-f avc_lookup -f __d_lookup_rcu"
# pftrace samples cycles on the emulated PMU here (x86's TCG guests have
# none and sample cpu-clock): the kernel must not throttle the sampling
# down between cases (pmu_unthrottle says why)
pmu_unthrottle
tree-walk -d 2 -w 60 -r 1 /tmp/bench >/dev/null   # build once, outside the timings
cat >/tmp/workload <<'W'
tree-walk -d 2 -w 60 -r 4 /tmp/bench >/dev/null
avc-load -t 8 -D user_t,daemon_t,worker_t -r 1500 2>/dev/null
W

# per_call CASE [PFTRACE-ARGS...]: the storm's guest time, ROUNDS times,
# untraced when no arguments are given
per_call() {
	name=$1
	shift
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		if [ $# -eq 0 ]; then
			timeit -o /tmp/ns sh /tmp/workload
		else
			pftrace "$@" -o "/tmp/$name.json" -- timeit -o /tmp/ns sh /tmp/workload >/dev/null 2>&1
		fi
		echo "=== TIME $name $r $(cat /tmp/ns)"
		r=$((r + 1))
	done
	[ $# -eq 0 ] || emit "$name.json" "/tmp/$name.json"
}

timeit -o /tmp/ns sh /tmp/workload    # warm-up, not counted
per_call untraced
# shellcheck disable=SC2086
per_call floor -C walk=off $targets
# shellcheck disable=SC2086
per_call full $targets
