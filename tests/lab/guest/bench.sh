# Benchmark scenario, run by bench/run under QEMU -icount: guest time
# follows guest instructions, so the same run gives the same figures.
# Each case runs the same workload; times come from /proc/uptime.
. /lab/lib.sh

ROUNDS=${BENCH_ROUNDS:-3}
targets="-f avc_lookup -f __d_lookup_rcu"
tree-walk -d 2 -w 60 -r 1 /tmp/bench >/dev/null   # build once, outside the timings
cat >/tmp/workload <<'W'
tree-walk -d 2 -w 60 -r 4 /tmp/bench >/dev/null
avc-load -t 8 -D user_t,daemon_t,worker_t -r 1500 2>/dev/null
W

uptime_ns() { awk '{ printf "%.0f\n", $1 * 1e9 }' /proc/uptime; }

# run CASE COMMAND...: the command's guest time, ROUNDS times
run() {
	name=$1
	shift
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		t0=$(uptime_ns)
		"$@" >"/tmp/$name.$r.out" 2>/dev/null
		t1=$(uptime_ns)
		echo "=== TIME $name $r $((t1 - t0))"
		r=$((r + 1))
	done
	emit "$name.json" "/tmp/$name.json"
}

run untraced sh /tmp/workload
# shellcheck disable=SC2086
run floor pftrace -C walk=off $targets -o /tmp/floor.json -- sh /tmp/workload
# shellcheck disable=SC2086
run full pftrace $targets -o /tmp/full.json -- sh /tmp/workload
# shellcheck disable=SC2086
run sampled pftrace --sample 16 $targets -o /tmp/sampled.json -- sh /tmp/workload
