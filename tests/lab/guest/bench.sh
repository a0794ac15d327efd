# Benchmark scenario, run by bench/run under QEMU -icount: guest time
# follows guest instructions, so the same run gives the same figures.
# Each case runs the same workload, timed by timeit inside the traced
# command, so pftrace's own start and exit are not in the figure.
. /lab/lib.sh

ROUNDS=${BENCH_ROUNDS:-3}
targets="-f avc_lookup -f __d_lookup_rcu"
tree-walk -d 2 -w 60 -r 1 /tmp/bench >/dev/null   # build once, outside the timings
cat >/tmp/workload <<'W'
tree-walk -d 2 -w 60 -r 4 /tmp/bench >/dev/null
avc-load -t 8 -D user_t,daemon_t,worker_t -r 1500 2>/dev/null
W

# run CASE [PFTRACE-ARGS...]: the workload's guest time, ROUNDS times,
# untraced when no arguments are given
run() {
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
	emit "$name.json" "/tmp/$name.json"
}

timeit -o /tmp/ns sh /tmp/workload    # warm-up, not counted
run untraced
# shellcheck disable=SC2086
run floor -C walk=off $targets
# shellcheck disable=SC2086
run full $targets
# shellcheck disable=SC2086
run sampled --sample 16 $targets
run avc -f avc_lookup

# bpftrace, where bench/run could ship it: the same AVC walk as a script
if command -v bpftrace >/dev/null && [ -f /root/avc-walk.bt ]; then
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
