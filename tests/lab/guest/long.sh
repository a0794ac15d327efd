# Lab scenario "long": the generated long-chain policy (thousands of AVC
# entries) with the cache threshold raised past them, so the 512-slot
# table keeps every entry and chains grow long.
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
