# Lab case "conntrack", in the guest (--netfilter): the kernel's own
# nf_conntrack, two namespaces besides the initial one over veths, an
# nft counter in each as the oracle. It traces the traffic by fexit and
# by kprobes, snapshots the table at a quiet moment and after two
# resizes, and removes the module under each. On a kernel without
# module BTF (5.10) only the refusal.
. /lab/lib.sh

ip link set lo up
if ! modprobe nf_conntrack; then
	echo "=== VALUE modprobe_failed 1"
	exit 1
fi
if [ ! -e /sys/kernel/btf/nf_conntrack ]; then
	case_ refuse_no_btf pftrace -f conntrack -d 1
	exit 0
fi
# without CONFIG_KALLSYMS_ALL (Debian's arm64 6.1) the table's globals
# are not in kallsyms
if ! awk '$3 == "nf_conntrack_hash" { f = 1 } END { exit !f }' /proc/kallsyms; then
	case_ refuse_no_kallsyms pftrace -f conntrack -d 1
	exit 0
fi
modprobe veth
# arm64's emulated PMU: each trace samples cycles at -F 999, whose slow
# TCG interrupts would have the kernel lower perf_event_max_sample_rate
# (to 250 on 6.12) under the first, and refuse the next one's -F 999
[ "$(uname -m)" != aarch64 ] || pmu_unthrottle

# per namespace: packets sent (output) and received over a veth
# (prerouting, not lo: a loopback packet keeps its entry), each one
# lookup after conntrack's hook at -200; the ct rule is what makes the
# namespace track at all
ruleset='table ip pft {
	counter sent { }
	counter received { }
	chain out {
		type filter hook output priority 0;
		counter name "sent"
		ct state invalid counter
	}
	chain pre {
		type filter hook prerouting priority 0;
		iifname != "lo" counter name "received"
	}
}'

unshare -n sleep 100000 &
ns_a=$!
unshare -n sleep 100000 &
ns_b=$!
sleep 0.2
# in NS (self: the initial namespace) run COMMAND
in_ns() {
	ns=$1
	shift
	if [ "$ns" = self ]; then "$@"; else nsenter -n -t "$ns" "$@"; fi
}
i=1
for ns in $ns_a $ns_b; do
	ip-full link add v$i type veth peer name p$i
	ip-full link set p$i netns "$ns"
	ip addr add 10.$i.0.1/24 dev v$i
	ip link set v$i up
	in_ns "$ns" sh -c "ip link set lo up; ip addr add 10.$i.0.2/24 dev p$i; ip link set p$i up"
	i=$((i + 1))
done
for ns in self $ns_a $ns_b; do
	echo "$ruleset" | in_ns "$ns" nft -f -
	# entries stay for the snapshots: UDP flows 10 minutes
	in_ns "$ns" sh -c 'echo 600 >/proc/sys/net/netfilter/nf_conntrack_udp_timeout'
	echo "=== VALUE netns_$ns $(in_ns "$ns" readlink /proc/self/ns/net | tr -dc 0-9)"
done
# sinks: UDP 9000 and TCP 9001 in the initial namespace and in A
for ns in self $ns_a; do
	in_ns "$ns" ct-load -s -p 9000 &
	in_ns "$ns" ct-load -s -t -p 9001 &
done
sleep 0.5

# NAME: every namespace's counters, "=== COUNT NAME NS SENT RECEIVED"
counters() {
	for ns in self $ns_a $ns_b; do
		s=$(in_ns "$ns" nft list counter ip pft sent | awk '/packets/ { print $2 }')
		r=$(in_ns "$ns" nft list counter ip pft received | awk '/packets/ { print $2 }')
		echo "=== COUNT $1 $ns $s $r"
	done
}
# UDP and TCP over loopback, into A over its veth, out of B over its
cat >/tmp/traffic <<EOF
ct-load -f 20 -n 20 -p 9000
ct-load -t -f 5 -n 20 -p 9001
ct-load -d 10.1.0.2 -f 20 -n 10 -p 9000
ct-load -t -d 10.1.0.2 -f 5 -n 10 -p 9001
nsenter -n -t $ns_b ct-load -d 10.2.0.1 -f 30 -n 10 -p 9000
EOF

counters fexit.before
case_ trace_fexit pftrace -f conntrack --by netns -o /tmp/trace_fexit.json -- sh /tmp/traffic
counters fexit.after
emit trace_fexit.json /tmp/trace_fexit.json
counters kprobe.before
case_ trace_kprobe pftrace -f conntrack -C attach=kprobe -o /tmp/trace_kprobe.json -- sh /tmp/traffic
counters kprobe.after
emit trace_kprobe.json /tmp/trace_kprobe.json

# 3,000 UDP connections more in the initial namespace (6,000 entries),
# so that the resized tables have chains worth predicting: at 3072
# buckets two entries a bucket
ct-load -S -D -d 127.1.0.0 -f 3000 -n 1 -p 9100

# a quiet moment: every namespace's count around the snapshot
quiet_counts() {
	for ns in self $ns_a $ns_b; do
		echo "=== COUNT $1 $ns $(in_ns "$ns" cat /proc/sys/net/netfilter/nf_conntrack_count) 0"
	done
}
echo "=== VALUE buckets $(cat /proc/sys/net/netfilter/nf_conntrack_buckets)"
quiet_counts snap.before
case_ snap0 pftrace snapshot -f conntrack -o /tmp/snap0.json
quiet_counts snap.after
emit snap0.json /tmp/snap0.json
# the resize proof: 3072 (smaller, no power of two) and 16384
pftrace whatif /tmp/snap0.json --buckets 3072,16384 --format json >/tmp/whatif.json
echo "=== RC whatif $?"
emit whatif.json /tmp/whatif.json
for b in 3072 16384; do
	echo $b >/proc/sys/net/netfilter/nf_conntrack_buckets
	echo "=== VALUE buckets_$b $(cat /proc/sys/net/netfilter/nf_conntrack_buckets)"
	case_ snap_$b pftrace snapshot -f conntrack -o /tmp/snap_$b.json
	emit snap_$b.json /tmp/snap_$b.json
done
# the foil: a mask for a bucket function, on the table at 16384 (the
# boot's own size need not be a power of two: 7680 on 7.2-rt)
pftrace whatif /tmp/snap_16384.json -C current.hash=conntrack_mask --buckets 16384 --format json \
	>/tmp/whatif_mask.json 2>/tmp/whatif_mask.err
echo "=== RC whatif_mask $?"
emit whatif_mask.json /tmp/whatif_mask.json
emit whatif_mask.err /tmp/whatif_mask.err

# the module's removal: fexit pins it, kprobes do not (the run then ends)
for ns in self $ns_a $ns_b; do
	in_ns "$ns" nft flush ruleset
done
rmmod nft_ct
pftrace -f conntrack -d 6 -o /tmp/rm_fexit.json >/tmp/rm_fexit.out 2>/tmp/rm_fexit.err &
pid=$!
wait_tracing /tmp/rm_fexit.err
t0=$(cut -d' ' -f1 /proc/uptime)
rmmod nf_conntrack 2>/tmp/rmmod_fexit.err
echo "=== RC rmmod_fexit $?"
echo "=== VALUE rmmod_fexit_s $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
emit rmmod_fexit.err /tmp/rmmod_fexit.err
echo "=== VALUE refcnt_fexit $(cat /sys/module/nf_conntrack/refcnt 2>/dev/null)"
wait $pid
echo "=== RC rm_fexit $?"
echo "=== VALUE rm_fexit_s $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
emit rm_fexit.json /tmp/rm_fexit.json
emit rm_fexit.err /tmp/rm_fexit.err
# nothing holds it now but what the fexit programs left behind, if anything
pftrace -f conntrack -C attach=kprobe -d 120 -o /tmp/rm_kprobe.json >/tmp/rm_kprobe.out \
	2>/tmp/rm_kprobe.err &
pid=$!
wait_tracing /tmp/rm_kprobe.err
t0=$(cut -d' ' -f1 /proc/uptime)
rmmod nf_conntrack 2>/tmp/rmmod_kprobe.err
echo "=== RC rmmod_kprobe $?"
echo "=== VALUE rmmod_kprobe_s $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
wait $pid
echo "=== RC rm_kprobe $?"
echo "=== VALUE rm_kprobe_s $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
emit rm_kprobe.json /tmp/rm_kprobe.json
emit rm_kprobe.err /tmp/rm_kprobe.err
