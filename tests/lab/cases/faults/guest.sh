# Lab case "faults", in the guest: default (short-chain) policy. What a
# production kernel does to a running trace: a CPU taken offline and
# back, a small RLIMIT_MEMLOCK, a map
# the kernel refuses, a filesystem filling under -i's metrics, the
# wall clock stepped, and pftrace itself stopped (SIGSTOP) and
# continued. Each is judged against the kernel's own counts
# (cache_stats) and clocks (/proc/uptime).
. /lab/lib.sh

# arm64's samples come from QEMU's emulated PMU (x86's TCG has none)
[ "$(uname -m)" != aarch64 ] || pmu_unthrottle
load="avc-load -t 8 -D user_t,daemon_t,worker_t -r 3000"
cpu1=/sys/devices/system/cpu/cpu1/online
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# --- CPU hotplug: cpu1 offline and back while traced, --by pid and samples on
hotplug() {
	$load
	echo 0 >"$cpu1"
	echo "=== VALUE hot_offline $(cat /sys/devices/system/cpu/online)"
	$load
	echo 1 >"$cpu1"
	$load
}
# shellcheck disable=SC2086
bracketed hot INT --by pid -f avc_lookup -- hotplug
echo "=== VALUE hot_online_after $(cat /sys/devices/system/cpu/online)"
# started while cpu1 is offline: no perf event can open there
echo 0 >"$cpu1"
echo "=== VALUE hot_off_offline $(cat /sys/devices/system/cpu/online)"
online_midway() {
	$load
	echo 1 >"$cpu1"
	$load
}
# shellcheck disable=SC2086
bracketed hot_off INT --by pid -f avc_lookup -- online_midway
echo 1 >"$cpu1" 2>/dev/null

# --- RLIMIT_MEMLOCK of 64 KiB, without CAP_SYS_RESOURCE (caps-only keeps
# bpf, perfmon and syslog; lowering a limit needs no capability)
bpf-objects >/tmp/memlock.before
case_ memlock caps-only bpf,perfmon,syslog -- sh -c 'ulimit -l 64 && exec pftrace -f avc_lookup -d 1'
bpf-objects >/tmp/memlock.after
emit memlock.before /tmp/memlock.before
emit memlock.after /tmp/memlock.after
# the kernel's own behaviour: does a 1 MiB array map fit under 64 KiB locked?
case_ memlock_probe caps-only bpf,perfmon,syslog -- sh -c 'ulimit -l 64 && exec map-create array 256 4 4096'

# --- a map the kernel refuses: --keys at its largest, in a memory cgroup
# of 96 MiB (kernels from 5.11 charge maps to the cgroup; 5.10 makes it)
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/small
echo 96M >/sys/fs/cgroup/small/memory.max
cat >/tmp/in_small <<'SH'
echo $$ >/sys/fs/cgroup/small/cgroup.procs || exit 1
exec "$@"
SH
bpf-objects >/tmp/refused.before
case_ refused sh /tmp/in_small pftrace --snapshot --keys 4194304 -f avc_lookup -d 1
bpf-objects >/tmp/refused.after
emit refused.before /tmp/refused.before
emit refused.after /tmp/refused.after
case_ refused_probe sh /tmp/in_small map-create hash 4194304 16 16

# --- a full filesystem under -i 0.5 -o FILE.prom: filled after the
# first interval, freed two seconds later
mkdir -p /tmp/small
mount -t tmpfs -o size=256k tmpfs /tmp/small
cat >/tmp/fill.sh <<'SH'
# wait for the first interval's file, keep a copy, fill the filesystem;
# two seconds (four intervals) later, free it again
up() { cut -d' ' -f1 /proc/uptime; }
i=0
while [ ! -s /tmp/small/m.prom ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
cp /tmp/small/m.prom /tmp/fullfs.first.prom
dd if=/dev/zero of=/tmp/small/fill bs=4k 2>/dev/null
echo "=== VALUE fullfs_filled $(up)" >&2
sleep 2
cp /tmp/small/m.prom /tmp/fullfs.during.prom
rm -f /tmp/small/fill
echo "=== VALUE fullfs_freed $(up)" >&2
sleep 1.2
SH
(while :; do avc-load -t 8 -D user_t -r 300 2>/dev/null; done) &
loop=$!
case_ fullfs pftrace -f avc_lookup -i 0.5 -o /tmp/small/m.prom -- sh /tmp/fill.sh
kill "$loop"
wait "$loop" 2>/dev/null
grep '^=== VALUE' /tmp/fullfs.err
emit fullfs.first.prom /tmp/fullfs.first.prom
emit fullfs.during.prom /tmp/fullfs.during.prom
emit fullfs.prom /tmp/small/m.prom
umount /tmp/small

# --- the wall clock stepped an hour forward and back during -d 3
t0=$(uptime_s)
pftrace -f avc_lookup -d 3 -o /tmp/clock.json >/tmp/clock.out 2>/tmp/clock.err &
p=$!
wait_tracing /tmp/clock.err
echo "=== VALUE clock_attached $(uptime_s)"
date -s "@$(($(date +%s) + 3600))" >/dev/null
sleep 1
date -s "@$(($(date +%s) - 7200))" >/dev/null
wait "$p"
echo "=== RC clock $?"
echo "=== VALUE clock_started $t0"
echo "=== VALUE clock_ended $(uptime_s)"
date -s "@$(($(date +%s) + 3600))" >/dev/null
emit clock.out /tmp/clock.out
emit clock.err /tmp/clock.err
emit clock.json /tmp/clock.json

# --- pftrace stopped (SIGSTOP) for 3 s inside a --sample slice, then
# continued (SIGCONT). Its command, sh /tmp/stop_parent.sh, runs an AVC
# load for 8 s of uptime, short loads one after another (so that any
# second of it looks like the others), reads the kernel's lookups around
# it (cache_stats), and stops its parent, pftrace, 0.3 s in: inside the
# first slice of 1 s, which begins as the command is started.
cat >/tmp/stop_parent.sh <<'SH'
. /lab/lib.sh
up() { cut -d' ' -f1 /proc/uptime; }
before=$(avc_lookups)
end=$(awk -v t="$(up)" 'BEGIN { print t + 8 }')
(while awk -v e="$end" -v n="$(up)" 'BEGIN { exit !(n < e) }'; do
	avc-load -t 8 -D user_t,daemon_t,worker_t -r 200 >/dev/null 2>&1
done) &
load=$!
sleep 0.3
stopped=$(up)
kill -STOP "$PPID"
sleep 3
kill -CONT "$PPID"
echo "=== VALUE sigstop_stopped_s $(awk -v a="$stopped" -v b="$(up)" 'BEGIN { print b - a }')"
wait "$load"
echo "=== KERNEL_LOOKUPS sigstop $(($(avc_lookups) - before))"
SH
bpf-objects >/tmp/sigstop.before
case_ sigstop pftrace -f avc_lookup --sample 4 --slice 1000 -o /tmp/sigstop.json -- sh /tmp/stop_parent.sh
wait_no_progs
bpf-objects >/tmp/sigstop.after
for part in json before after; do
	emit "sigstop.$part" "/tmp/sigstop.$part"
done

# --- output lost to a full device (/dev/full): the trace (text and
# JSON), snapshot and sites each fail with exit 1 and one line, and the
# trace leaves no program behind
for name in full_trace full_trace_json full_snapshot full_sites; do
	bpf-objects >"/tmp/$name.before"
	case $name in
	full_trace) cmd='pftrace -f avc_lookup -d 1' ;;
	full_trace_json) cmd='pftrace -f avc_lookup -d 1 --format json' ;;
	full_snapshot) cmd='pftrace snapshot -f avc_lookup' ;;
	full_sites) cmd='pftrace sites' ;;
	esac
	case_ "$name" sh -c "exec $cmd >/dev/full"
	wait_no_progs
	bpf-objects >"/tmp/$name.after"
	emit "$name.before" "/tmp/$name.before"
	emit "$name.after" "/tmp/$name.after"
done
