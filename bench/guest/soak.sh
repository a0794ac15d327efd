# Soak scenario, run by bench/soak: SOAK_SECONDS of a mixed load (AVC
# checks, a tree walk, TCP connections) under two pftrace runs on the
# AVC, dcache, mount and TCP tables, both with -i and --by cgroup:
#  full     traces every call; each -i line is held to the kernel's own
#           counts over the same interval (cache_stats for the AVC,
#           InSegs for TCP);
#  sampled  --sample: attaches and detaches every slice for the whole
#           soak, the path most likely to leak.
# The kernel's counters are read when full's line for an interval has
# arrived, so the load is frozen (its cgroup's cgroup.freeze) from QUIET
# seconds before each interval's end until that reading is taken: the
# line may take a moment to arrive (on a busy guest the reader can wait
# hundreds of ms for its turn, and a TCP burst in that time is a few
# percent of an interval's segments), and on 7.2-rt one step of the load
# outlasted a five-second rest. Resident memory is sampled
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
# wait (up to 120 s) until full has attached all its tables: more than
# $1 links, and no more for two seconds (a run printing JSON lines says
# no "Tracing", and under TCG its tables attach a second or so apart)
wait_attached() {
	i=0 last=-1 still=0
	while [ "$still" -lt 10 ]; do
		n=$(links)
		if [ "$n" -gt "$1" ] && [ "$n" = "$last" ]; then still=$((still + 1)); else still=0; fi
		last=$n
		i=$((i + 1))
		[ "$i" -le 600 ] || return 1
		sleep 0.2
	done
}
# the load, in a cgroup of its own that the loop below freezes (moved
# there by its pid, which it waits a second for)
load() {
	sleep 1
	while :; do
		avc-load -t 8 -D user_t,daemon_t,worker_t -r 20 2>/dev/null
		tree-walk -d 2 -w 40 -r 1 /tmp/soak >/dev/null
		tcp-load -c 8 -n 50 >/dev/null
	done
}
freeze() {
	echo "$1" >/sys/fs/cgroup/soak-load/cgroup.freeze
	until grep -qx "frozen $1" /sys/fs/cgroup/soak-load/cgroup.events; do sleep 0.05; done
}

ip link set lo up
bpf-objects >/tmp/objects.before
dmesg -c >/dev/null
# the load frozen until full has attached all four tables and the
# counters are read: its first interval begins with all of them
mkdir -p /sys/fs/cgroup/soak-load
freeze 1
load &
loader=$!
echo "$loader" >/sys/fs/cgroup/soak-load/cgroup.procs
# shellcheck disable=SC2086
pftrace $tables -i "$interval" --format json --by cgroup -d "$seconds" -o /tmp/full.json \
	>/tmp/full.lines 2>/tmp/full.err &
full=$!
wait_attached $(($(awk '/^progs/ { print $4 }' /tmp/objects.before) + 3))
start=$(now_cs)
oracles >/tmp/oracles
freeze 0
# shellcheck disable=SC2086
pftrace $tables --sample 16 -i "$interval" --format json --by cgroup -d "$seconds" -o /tmp/sampled.json \
	>/tmp/sampled.lines 2>/tmp/sampled.err &
sampled=$!

# the counters as each of full's lines arrives, the load frozen from
# QUIET s before an interval's end until then; RSS every 30 s
# (the next interval ends an interval after the last line arrived, or
# after the counters were first read)
lines=0
rss_at=0
frozen=0
due=$((start + (interval - quiet) * 100))
while kill -0 "$full" 2>/dev/null; do
	n=$(wc -l </tmp/full.lines)
	if [ "$n" -gt "$lines" ]; then
		oracles >>/tmp/oracles
		lines=$n
		[ "$frozen" = 0 ] || { freeze 0; frozen=0; }
		due=$(($(now_cs) + (interval - quiet) * 100))
	fi
	if [ "$frozen" = 0 ] && [ "$(now_cs)" -ge "$due" ]; then
		freeze 1
		frozen=1
	fi
	t=$((($(now_cs) - start) / 100))
	if [ "$t" -ge "$rss_at" ]; then
		echo "=== RSS $t $(awk '/^VmRSS/ { print $2 }' /proc/$full/status 2>/dev/null) $(awk '/^VmRSS/ { print $2 }' /proc/$sampled/status 2>/dev/null)"
		rss_at=$((rss_at + 30))
	fi
	sleep 0.2
done
[ "$frozen" = 0 ] || freeze 0
wait "$full"
echo "=== RC full $?"
wait "$sampled"
echo "=== RC sampled $?"
kill -KILL $(cat /sys/fs/cgroup/soak-load/cgroup.procs) 2>/dev/null
wait "$loader" 2>/dev/null
wait_no_progs
bpf-objects >/tmp/objects.after
dmesg >/tmp/dmesg.after
for part in full.json full.lines full.err sampled.json sampled.lines sampled.err oracles objects.before objects.after; do
	emit "$part" "/tmp/$part"
done
emit dmesg /tmp/dmesg.after
