# Lab case "conntrack-fill", in the guest (--netfilter): the table
# filled to 200,000 entries.
. /lab/lib.sh

ip link set lo up
# A fill to 200,000 entries (100,000 UDP connections to as many
# addresses of 127/8) in 65536 buckets, from a clean table: a snapshot
# at 20,000 entries predicts it (whatif --entries), a snapshot at
# 200,000 measures it, timed (guest seconds), its peak RSS and file size
# kept; the secret is read from /proc/kcore for the privacy check.
modprobe nf_conntrack
# a rule with ct: without one the module tracks nothing
nft -f - <<'EOF'
table ip pft {
	chain out {
		type filter hook output priority 0;
		ct state invalid counter
	}
}
EOF
echo 262144 >/proc/sys/net/netfilter/nf_conntrack_max
echo 65536 >/proc/sys/net/netfilter/nf_conntrack_buckets
echo 600 >/proc/sys/net/netfilter/nf_conntrack_udp_timeout
echo "=== VALUE fill_buckets $(cat /proc/sys/net/netfilter/nf_conntrack_buckets)"
ct-load -S -D -d 127.1.0.0 -f 10000 -n 1 -p 9100
echo "=== VALUE fill_small $(cat /proc/sys/net/netfilter/nf_conntrack_count)"
pftrace snapshot -f conntrack -o /tmp/fill_small.json >/dev/null 2>&1
echo "=== RC fill_small $?"
pftrace whatif /tmp/fill_small.json --buckets 16384,32768,65536,131072,262144 --entries 200000 \
	--format json >/tmp/fill_whatif.json
echo "=== RC fill_whatif $?"
emit fill_whatif.json /tmp/fill_whatif.json
pftrace whatif /tmp/fill_small.json --buckets 16384,32768,65536,131072,262144 --entries 200000 \
	>/tmp/fill_whatif.txt
emit fill_whatif.txt /tmp/fill_whatif.txt
ct-load -S -D -d 127.1.39.16 -f 90000 -n 1 -p 9100
echo "=== VALUE fill_count $(cat /proc/sys/net/netfilter/nf_conntrack_count)"
t0=$(cut -d' ' -f1 /proc/uptime)
pftrace snapshot -f conntrack -o /tmp/fill.json >/tmp/fill.out 2>&1
echo "=== RC fill $?"
echo "=== VALUE fill_guest_s $(awk -v t0="$t0" '{ print $1 - t0 }' /proc/uptime)"
echo "=== VALUE fill_bytes $(wc -c </tmp/fill.json)"
emit fill.json /tmp/fill.json
emit fill.out /tmp/fill.out
# its 16 bytes: the shell's arithmetic is signed 64-bit, so the sum is
# taken on the address's low half (a siphash_key_t is 16-byte aligned)
rnd=$(awk '$3 == "nf_conntrack_hash_rnd" { print $1 }' /proc/kallsyms)
end=${rnd%????????}$(printf '%08x' $((0x${rnd#????????} + 16)))
echo "=== VALUE secret $(kcore-text "$rnd" "$end" | od -An -tx1 | tr -d ' \n')"
