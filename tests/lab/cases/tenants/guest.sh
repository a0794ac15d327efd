# Lab case "tenants", in the guest: two AVC workloads, A and B, in two
# cgroups at the same time. What pftrace counts for one tenant (--cgroup,
# -p) or charges to each (--by cgroup, --by pid) is checked against the
# kernel's own count (cache_stats) of each workload run alone.
. /lab/lib.sh

echo 16384 >/sys/fs/selinux/avc/cache_threshold
mkdir -p /sys/fs/cgroup/A /sys/fs/cgroup/B /sys/fs/cgroup/C
loadA="avc-load -t 1000 -p lt -D ld0,ld1 -r 4 -d /tmp/la"
loadB="avc-load -t 600 -p lt -D ld2,ld3 -r 3 -d /tmp/lb"
loadC="avc-load -t 400 -p lt -D ld0,ld3 -r 2 -d /tmp/lc"

# gated NAME CGROUP CPUMASK LOAD...: start LOAD in CGROUP on the CPUs of
# CPUMASK, held until go NAME; its pid (the load's own, after three
# execs) lands in /tmp/pid_NAME
cat >/tmp/in_cgroup <<'SH'
#!/bin/sh
echo $$ >"/sys/fs/cgroup/$1/cgroup.procs" || exit 1
read -r go <"/tmp/go_$2"
mask=$3
shift 3
exec taskset "$mask" "$@"
SH
chmod +x /tmp/in_cgroup
gated() {
	rm -f "/tmp/go_$1"
	mkfifo "/tmp/go_$1"
	n=$1 cg=$2 mask=$3
	shift 3
	/tmp/in_cgroup "$cg" "$n" "$mask" "$@" >/dev/null 2>&1 &
	echo $! >"/tmp/pid_$n"
}
# A on the first CPU, B on the second: on PREEMPT_RT a task may preempt
# another inside pftrace's program on the same CPU, and the kernel then
# skips the program (a recursion miss). "shared_cpu" below puts both on
# one CPU on purpose, to show those calls are counted as missed.
cpuA=1 cpuB=2
[ "$(nproc)" -ge 2 ] || cpuB=1
# go NAME...: release them, and wait until each has exited (a zombie of
# this shell counts as exited: pftrace's command cannot reap it)
cat >/tmp/go <<'SH'
#!/bin/sh
for n in "$@"; do echo go >"/tmp/go_$n" & done
for n in "$@"; do
	p=$(cat "/tmp/pid_$n")
	while [ -e "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; do
		sleep 0.05
	done
done
SH
chmod +x /tmp/go

# warm: files created and labelled, every key cached
cpuC=$cpuA
for n in A B C; do
	eval "load=\$load$n cpu=\$cpu$n"
	# shellcheck disable=SC2086
	gated "$n" "$n" "$cpu" $load
	/tmp/go "$n"
	wait
done
# each alone, twice: the kernel's count, and how much it varies (the
# release is this shell's own write, not /tmp/go's polling)
for run in 1 2; do
	for n in A B C; do
		eval "load=\$load$n cpu=\$cpu$n"
		# shellcheck disable=SC2086
		gated "$n" "$n" "$cpu" $load
		before=$(avc_lookups)
		echo go >"/tmp/go_$n"
		wait
		after=$(avc_lookups)
		echo "=== ALONE $n $run $((after - before))"
	done
done

# together, each traced way: A and B released by pftrace's command
together() { # CASE CPUMASK-OF-B PFTRACE-OPTIONS...
	c=$1 maskB=$2
	shift 2
	# shellcheck disable=SC2086
	gated A A "$cpuA" $loadA
	# shellcheck disable=SC2086
	gated B B "$maskB" $loadB
	echo "=== PIDS $c $(cat /tmp/pid_A) $(cat /tmp/pid_B)"
	case_ "$c" pftrace -f avc_lookup --no-samples --format json "$@" -- /tmp/go A B
	wait
}
together cgroup_A "$cpuB" --cgroup /sys/fs/cgroup/A
together by_cgroup "$cpuB" --by cgroup
together by_pid "$cpuB" --by pid
together shared_cpu "$cpuA" --by cgroup
# shellcheck disable=SC2086
gated A A "$cpuA" $loadA
# shellcheck disable=SC2086
gated B B "$cpuB" $loadB
echo "=== PIDS pid_A $(cat /tmp/pid_A) $(cat /tmp/pid_B)"
case_ pid_A pftrace -f avc_lookup --no-samples --format json -p "$(cat /tmp/pid_A)" -- /tmp/go A B
wait
# --only-command: the command forks A and B itself, while C runs outside
cat >/tmp/two <<SH
#!/bin/sh
echo go >/tmp/go_C &
$loadA >/dev/null 2>&1 &
$loadB >/dev/null 2>&1 &
wait
SH
chmod +x /tmp/two
# shellcheck disable=SC2086
gated C C "$cpuC" $loadC
case_ only_command pftrace -f avc_lookup --no-samples --format json --only-command --by comm -- /tmp/two
wait
# Fleet: -i with -o FILE.prom rewrites the metrics at every interval,
# while stdout carries one JSON line per interval. A runs first, then B;
# the copy taken between them must hold A's lookups and no B yet.
# shellcheck disable=SC2086
gated A A "$cpuA" $loadA
# shellcheck disable=SC2086
gated B B "$cpuB" $loadB
cat >/tmp/fleet <<'SH'
#!/bin/sh
/tmp/go A
sleep 0.8
cp /tmp/fleet.prom /tmp/fleet-mid.prom
/tmp/go B
SH
chmod +x /tmp/fleet
case_ fleet pftrace -f avc_lookup --no-samples -i 0.25 --format json --by cgroup -o /tmp/fleet.prom -- /tmp/fleet
wait
emit fleet-mid.prom /tmp/fleet-mid.prom
emit fleet.prom /tmp/fleet.prom
# refusals
case_ bad_cgroup pftrace -f avc_lookup --cgroup /tmp -d 1
case_ bad_pid pftrace -f avc_lookup -p 4000000 -d 1
