# Soak scenario, run by bench/soak: SOAK_SECONDS of a mixed load (AVC
# checks, a tree walk, TCP connections) under two pftrace runs on the
# AVC, dcache, mount and TCP tables, both with -i and --by cgroup:
#  full     traces every call; each -i line is held to the kernel's own
#           counts over the same interval (cache_stats for the AVC,
#           InSegs for TCP);
#  sampled  --sample: attaches and detaches every slice for the whole
#           soak, the path most likely to leak.
# The kernel's counters are read when full's line for an interval has
# arrived, so the load rests for QUIET seconds either side of each
# interval's end: a line that takes a moment to arrive then sees no
# lookup that its interval did not (on a busy one-CPU guest the reader
# can wait hundreds of ms for its turn, and a TCP burst in that time is
# a few percent of an interval's segments). Resident memory is sampled
# every 30 s; the BPF objects are listed before and after, and the
# kernel log is kept for warnings.
. /lab/lib.sh

seconds=${SOAK_SECONDS:-3600}
interval=${SOAK_INTERVAL:-60}
quiet=${SOAK_QUIET:-5}
tables="-f avc_lookup -f __d_lookup_rcu -f __lookup_mnt -f __inet_lookup_established"
# guest time in centiseconds, and the two counters in one read
now_cs() { read -r up _ </proc/uptime; echo "${up%.*}${up#*.}"; }
oracles() {
	awk 'FILENAME ~ /cache_stats/ && FNR > 1 { avc += $1 }
	     FILENAME ~ /snmp/ && $1 == "Tcp:" && $2 ~ /^[0-9]/ { seg = $11 }
	     END { print avc + 0, seg + 0 }' /sys/fs/selinux/avc/cache_stats /proc/net/snmp
}
links() { bpf-objects | awk '/^progs/ { print $4 }'; }
# wait (up to 120 s) until there are links beyond $1: a run that prints
# JSON lines says no "Tracing"
wait_links() {
	i=0
	while [ "$(links)" -le "$1" ]; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || return 1
		sleep 0.1
	done
}
# one step of the load at a time, each well under QUIET seconds, and
# none that would run into the rest around an interval's end
load() {
	t0=$1
	while [ ! -e /tmp/load.stop ]; do
		phase=$((($(now_cs) - t0) % (interval * 100)))
		if [ "$phase" -lt $((quiet * 100)) ] || [ "$phase" -gt $(((interval - quiet) * 100)) ]; then
			sleep 0.5
			continue
		fi
		case $((step % 3)) in
		0) avc-load -t 8 -D user_t,daemon_t,worker_t -r 20 2>/dev/null ;;
		1) tree-walk -d 2 -w 40 -r 1 /tmp/soak >/dev/null ;;
		2) tcp-load -c 8 -n 50 >/dev/null ;;
		esac
		step=$((step + 1))
	done
}

ip link set lo up
bpf-objects >/tmp/objects.before
dmesg -c >/dev/null
step=0
# shellcheck disable=SC2086
pftrace $tables -i "$interval" --format json --by cgroup -d "$seconds" -o /tmp/full.json \
	>/tmp/full.lines 2>/tmp/full.err &
full=$!
wait_links $(($(awk '/^progs/ { print $4 }' /tmp/objects.before) + 3))
start=$(now_cs)
oracles >/tmp/oracles
load "$start" &
loader=$!
# shellcheck disable=SC2086
pftrace $tables --sample 16 -i "$interval" --format json --by cgroup -d "$seconds" -o /tmp/sampled.json \
	>/tmp/sampled.lines 2>/tmp/sampled.err &
sampled=$!

# the counters as each of full's lines arrives; RSS every 30 s
lines=0
rss_at=0
while kill -0 "$full" 2>/dev/null; do
	n=$(wc -l </tmp/full.lines)
	if [ "$n" -gt "$lines" ]; then
		oracles >>/tmp/oracles
		lines=$n
	fi
	t=$((($(now_cs) - start) / 100))
	if [ "$t" -ge "$rss_at" ]; then
		echo "=== RSS $t $(awk '/^VmRSS/ { print $2 }' /proc/$full/status 2>/dev/null) $(awk '/^VmRSS/ { print $2 }' /proc/$sampled/status 2>/dev/null)"
		rss_at=$((rss_at + 30))
	fi
	sleep 0.2
done
wait "$full"
echo "=== RC full $?"
wait "$sampled"
echo "=== RC sampled $?"
touch /tmp/load.stop
wait "$loader"
wait_no_progs
bpf-objects >/tmp/objects.after
dmesg >/tmp/dmesg.after
for part in full.json full.lines full.err sampled.json sampled.lines sampled.err oracles objects.before objects.after; do
	emit "$part" "/tmp/$part"
done
emit dmesg /tmp/dmesg.after
