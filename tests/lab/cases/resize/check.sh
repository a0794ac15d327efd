# Lab case "resize": a size what-if against a boot with that size. The
# default boot's snapshot predicts the tables at the sizes the second
# boot is given. The keys differ between boots (the dcache, inode and
# mount hashes mix in kernel addresses, TCP a boot-time secret), so the
# match is statistical. Tolerances, derived: buckets used differ by at
# most 4 standard deviations of the difference of two occupancy counts
# of n keys in m buckets under uniform hashing (sqrt(2) sigma each), plus
# one per key of difference in n; the second boot's measured mean walk
# lies within 4 standard deviations of the walks over 400 layouts of the
# first boot's keys and lookups at the new size, with what changes from
# boot to boot drawn anew (whatif's mean_walk_redrawn), widened by the
# relative difference in entries (the load factor scales the walks).
# tests/tools/lab-whatif resize computes them.

RESIZE_APPEND="dhash_entries=4096 ihash_entries=512 mhash_entries=16 thash_entries=128"

check_predictions() {
	local a=$dir/default/resize.json b=$dir/small/resize.json t
	check "$k resize: the second boot took every size it was given" [ "$(value_of cmdline)" = 4 ]
	for t in __d_lookup_rcu find_inode_fast __lookup_mnt __inet_lookup_established; do
		check "$k resize $t: whatif of the default boot predicts the smaller table" \
			"$top/tests/tools/lab-whatif" resize "$top/pftrace" "$a" "$b" "$t"
	done
}

# two boots, the default sizes and RESIZE_APPEND's; checks only when both ran
checks() {
	lab_boot "$dir/default" "default boot ran the load" || return 0
	lab_boot "$dir/small" "boot with $RESIZE_APPEND ran the load" --append "$RESIZE_APPEND" || return 0
	subtest predictions check_predictions
}
