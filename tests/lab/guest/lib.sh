# Helpers for scripts that run inside the lab guest (busybox sh). The
# suite splits their output on the "=== " marker lines: each block that
# emit prints becomes a file the case's check.sh reads (tests/lab/lib.sh).

# emit NAME FILE: print FILE between markers
emit() {
	echo "=== BEGIN $1"
	cat "$2" 2>/dev/null
	echo "=== END $1"
}

# case_ NAME COMMAND...: run it, then emit its exit status and output
case_() {
	name=$1
	shift
	"$@" >"/tmp/$name.out" 2>"/tmp/$name.err"
	echo "=== RC $name $?"
	emit "$name.out" "/tmp/$name.out"
	emit "$name.err" "/tmp/$name.err"
}

# the kernel's own count of AVC lookups, summed over CPUs
avc_lookups() {
	awk 'NR > 1 { s += $1 } END { print s + 0 }' /sys/fs/selinux/avc/cache_stats
}

# wait (up to 60 s) until pftrace has attached: it says "Tracing" then
wait_tracing() {
	i=0
	while ! grep -q '^Tracing' "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le 600 ] || return 1
		sleep 0.1
	done
}

# wait (up to 5 s) until no pftrace program is left in the kernel
wait_no_progs() {
	i=0
	while bpf-objects | grep -qE '^prog [0-9]+ (fexit|kprobe|kretprobe)_avc'; do
		i=$((i + 1))
		[ "$i" -le 50 ] || return 1
		sleep 0.1
	done
}

# bracketed NAME SIGNAL PFTRACE-ARGS -- WORKLOAD...
# pftrace runs in the background; once it has attached, the kernel's
# lookup counter is read, the workload runs, the counter is read again,
# and SIGNAL ends pftrace. Only lookups inside that window are compared,
# so pftrace's own start-up and exit stay out of the comparison.
bracketed() {
	name=$1 sig=$2
	shift 2
	args=
	while [ "$1" != "--" ]; do
		args="$args $1"
		shift
	done
	shift
	bpf-objects >"/tmp/$name.before"
	# shellcheck disable=SC2086
	pftrace $args -o "/tmp/$name.json" >"/tmp/$name.out" 2>"/tmp/$name.err" &
	pid=$!
	if ! wait_tracing "/tmp/$name.err"; then
		kill -KILL "$pid"
		echo "=== RC $name attach-timeout"
		emit "$name.err" "/tmp/$name.err"
		return
	fi
	before=$(avc_lookups)
	"$@" 2>"/tmp/$name.workload"
	after=$(avc_lookups)
	bpf-objects >"/tmp/$name.during"
	kill "-$sig" "$pid"
	wait "$pid"
	echo "=== RC $name $?"
	wait_no_progs
	bpf-objects >"/tmp/$name.after"
	echo "=== KERNEL_LOOKUPS $name $((after - before))"
	for part in out err json workload before during after; do
		emit "$name.$part" "/tmp/$name.$part"
	done
}
