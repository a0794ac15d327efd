# Lab case "long", in the guest: the generated long-chain policy
# (thousands of AVC entries) with the cache threshold raised past them, so
# the 512-slot table keeps every entry and chains grow long.
. /lab/lib.sh

echo 16384 >/sys/fs/selinux/avc/cache_threshold
load="avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 6"
# shellcheck disable=SC2086
bracketed long_int INT -f avc_has_perm_noaudit -F 4999 -- $load
cat /sys/fs/selinux/avc/hash_stats >/tmp/hash_stats
emit hash_stats /tmp/hash_stats

# the other attach method on the same chains
case_ long_kprobe pftrace -f avc_lookup -C attach=kprobe --format json -- \
	avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 1

# Both bucket functions, forced: the kernel's own must pass the
# self-check and the other must be caught (exit 3, no histograms).
for hash in xor murmur3; do
	case_ "hash_$hash" pftrace -f avc_lookup -C avc.hash=$hash -o "/tmp/hash_$hash.json" -- \
		avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 1
	emit "hash_$hash.json" "/tmp/hash_$hash.json"
done

# Snapshot and whatif. The table is warm: every key the load
# asks for is cached, so a trace now sees the table the snapshot sees.
# The kernel's own count: hash_stats read just before and just after a
# snapshot (pftrace's own checks warmed by a first run).
# A background check can still add an entry meanwhile: up to three tries
# for a moment in which nothing moved.
pftrace snapshot -f avc_lookup >/dev/null 2>&1
for try in 1 2 3; do
	cat /sys/fs/selinux/avc/hash_stats >/tmp/hs_before
	pftrace snapshot -f avc_lookup --format json >/tmp/snapshot_avc.out 2>/tmp/snapshot_avc.err
	rc=$?
	cat /sys/fs/selinux/avc/hash_stats >/tmp/hs_after
	cmp -s /tmp/hs_before /tmp/hs_after && break
done
echo "=== RC snapshot_avc $rc"
emit snapshot_avc.out /tmp/snapshot_avc.out
emit hs_before /tmp/hs_before
emit hs_after /tmp/hs_after
case_ whatif_trace pftrace -f avc_lookup --snapshot --no-samples -o /tmp/whatif.json -- \
	avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 2
emit whatif.json /tmp/whatif.json
case_ whatif pftrace whatif /tmp/whatif.json --bits 9,10,13 --format json
case_ whatif_text pftrace whatif /tmp/whatif.json --bits 9
# a deliberately wrong bucket function must fail the identity check
case_ whatif_wrong pftrace whatif /tmp/whatif.json --bits 9 -C current.hash=jhash

# --latency on every kernel, text and JSON (TCG has no PMU: nanoseconds)
case_ latency_text pftrace -f avc_lookup --latency --no-samples -- \
	avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 1
case_ latency_json pftrace -f avc_lookup --latency --no-samples --format json -- \
	avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 1
