# Helpers for scripts that run inside the lab guest (busybox sh).

# emit NAME FILE: print FILE between markers the host-side suite splits on
emit() {
	echo "=== BEGIN $1"
	cat "$2"
	echo "=== END $1"
}

# kernel's own count of AVC lookups, summed over CPUs
avc_lookups() {
	awk 'NR > 1 { s += $1 } END { print s + 0 }' /sys/fs/selinux/avc/cache_stats
}

# value of a "key: value" line of /sys/fs/selinux/avc/hash_stats
hash_stat() {
	awk -v k="$1" -F': ' '$1 == k { print $2 }' /sys/fs/selinux/avc/hash_stats
}
