# Lab case "rehash": 6.12 (xor) and 6.19 (murmur3) ran the same warm
# long-chain load (case "long"): each one's prediction for the other's
# hash must be the other's snapshot. Tolerance, derived: the two kernels
# cache nearly the same keys; with d keys in one set and not the other,
# buckets used and the longest chain can differ by at most d, and the
# chain-length histograms by at most 2d (L1: each key moves one bucket
# from one length to the next). The walks depend on the lookups too,
# which differ between the kernels (6.12 asks a few keys thousands of
# times that 6.19 does not ask at all), so each prediction is weighed by
# the other kernel's own lookups (--lookups) and its measured mean walk
# must lie within the best/worst-order bounds. Without both kernels in
# the run, it checks nothing.

check_rehash() {
	local a="$logs/6.12/long/whatif.json" b="$logs/6.19/long/whatif.json" pa pb
	[ -s "$a" ] && [ -s "$b" ] || return 0
	pa=$dir/6.12-as-murmur3.json
	pb=$dir/6.19-as-xor.json
	"$top/pftrace" whatif "$a" --bits 9 --hash murmur3 --lookups "$b" --format json >"$pa" 2>/dev/null
	"$top/pftrace" whatif "$b" --bits 9 --hash xor --lookups "$a" --format json >"$pb" 2>/dev/null
	check "rehash: 6.12's murmur3 prediction is 6.19's snapshot, 6.19's xor prediction 6.12's (within d keys)" \
		"$top/tests/tools/lab-whatif" rehash "$a" "$b" "$pa" "$pb"
	check "rehash: 6.19's measured mean walk lies within 6.12's murmur3 bounds (6.19's lookups)" \
		jq -e -n --slurpfile p "$pa" --slurpfile m "$b" '($p[0].targets[0].predictions[] | select(.hash == "murmur3" and .bits == 9)) as $x | $m[0].targets[0].walk.mean_nodes as $w | $x.mean_walk_lo <= $w and $w <= $x.mean_walk_hi'
	check "rehash: 6.12's measured mean walk lies within 6.19's xor bounds (6.12's lookups)" \
		jq -e -n --slurpfile p "$pb" --slurpfile m "$a" '($p[0].targets[0].predictions[] | select(.hash == "xor" and .bits == 9)) as $x | $m[0].targets[0].walk.mean_nodes as $w | $x.mean_walk_lo <= $w and $w <= $x.mean_walk_hi'
}

checks() {
	subtest across check_rehash
}
