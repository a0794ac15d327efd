# Lab case "tables", checked: the dcache, inode, mount and TCP recipes
# against the kernel's own counters and boot-time sizes.

# the size a table was given at boot, as the kernel printed it
dmesg_slots() { awk -v t="$1" 'index($0, t " hash table entries: ") { sub(/.*entries: /, ""); print $1 }' "$(out dmesg)"; }

check_list() {
	local j t
	j=$(out list.out)
	for t in dcache dcache-ref inode mount tcp; do
		check "$k list: $t attachable" jq_true "$j" ".recipes[] | select(.recipe == \"$t\") | .attachable"
	done
	# x86 trampolines took at most 6 arguments before 6.6, and this
	# function had 8 up to 6.18: where the kernel refuses fexit, pftrace
	# must fall back to kprobes and say why
	check "$k list: tcp attaches by fexit, or the kernel refused that very attach and pftrace fell back" \
		jq_true "$j" '.recipes[] | select(.recipe == "tcp") | (.method | startswith("fexit")) or ((.method | startswith("kprobe")) and (.method | contains("attaching fentry to __inet_lookup_established failed")) and (.method | contains("using kprobe + kretprobe")))'
}

# several -f in one session
check_session() {
	local j t n
	j=$(out all.json)
	check "$k tables: several -f in one session, exit 0" [ "$(rc_of all)" = 0 ]
	check "$k tables: one targets[] entry per -f, in order" \
		jq_true "$j" '[.targets[].traced] == ["__d_lookup_rcu", "__d_lookup", "find_inode_fast", "__lookup_mnt", "__inet_lookup_established"]'
	check "$k tables: one text section per -f" [ "$(grep -c '^[a-z_]* -> [a-z_]* \[' "$(out all.out)")" -eq 5 ]
	for t in __d_lookup_rcu __d_lookup find_inode_fast __lookup_mnt __inet_lookup_established; do
		check "$k $t: self-check >= 99.9%, lookups > 0, non-trivial walks" \
			jq_true "$j" ".targets[] | select(.traced == \"$t\") | .self_check.ok and .self_check.checked > 0 and .lookups > 0 and .walk.nodes > 0 and ([.chain_walked[].count] | add) == .walk.completed"
	done
	# 5.10's verifier refused the typed 8-byte read of qstr.hash_len,
	# and the dcache fell back to kprobes at a cost in start-up and per call
	for t in __d_lookup_rcu __d_lookup; do
		check "$k $t: attached by fexit, no refused attempt first" \
			jq_true "$j" ".targets[] | select(.traced == \"$t\") | .method == \"fexit\" and ((.plan // \"\") | contains(\"refused\") | not)"
	done
	for t in "__d_lookup_rcu Dentry cache" "find_inode_fast Inode-cache" "__lookup_mnt Mount-cache" "__inet_lookup_established TCP established"; do
		n=$(dmesg_slots "${t#* }")
		check "$k ${t%% *}: table size ${n:-?} as the kernel printed at boot" \
			jq_true "$j" ".targets[] | select(.traced == \"${t%% *}\") | .table_slots == ${n:-0}"
	done
}

check_tcp() {
	local j o lookups insegs
	j=$(out all.json)
	o=$(out all.out)
	lookups=$(jq '.targets[] | select(.traced == "__inet_lookup_established") | .lookups' "$j")
	insegs=$(( $(awk '$1 == "tcp_insegs_after" { print $2 }' "$o") - $(awk '$1 == "tcp_insegs_before" { print $2 }' "$o") ))
	within_oracle "tcp: lookups" "$lookups" "$insegs" "InSegs delta"
	check "$k tcp: text says chains end at the end marker, never prefetched" \
		sh -c "grep -q 'next == the end marker at hit' '$o' && grep -q 'sk_nulls_for_each_rcu() never prefetched' '$o'"
	check "$k tcp: JSON says nulls" jq_true "$j" '.targets[] | select(.traced == "__inet_lookup_established") | .chain_end == "nulls"'
}

check_inode() {
	local j lookups sysfs
	j=$(out all.json)
	lookups=$(jq '.targets[] | select(.traced == "find_inode_fast") | .lookups' "$j")
	sysfs=$(awk '$1 == "sysfs_entries" { print $2 }' "$(out all.out)")
	if within_pct "${lookups:-0}" $((2 * ${sysfs:-0})) 1; then
		ok "$k inode: lookups $lookups within 1% of twice the $sysfs entries of a fresh sysfs"
	else
		not_ok "$k inode: lookups ${lookups:-?} within 1% of twice the ${sysfs:-?} entries of a fresh sysfs"
	fi
	check "$k inode: a fresh sysfs's lookups all miss" \
		jq_true "$j" '.targets[] | select(.traced == "find_inode_fast") | .hits == 0 and .misses == .lookups'
}

# Five targets, some of them refused and restarted by kprobes, hold at
# most one parsed BTF at a time, as one target does. A restart that kept
# its BTF through the load held two (6.1: 20.9 MB for five against 11.0
# for the dcache alone; BTF 4.1 MB).
check_memory() {
	local n
	n=$(value_of btf_bytes)
	check "$k tables: five targets' peak RSS within one BTF (${n:-?} bytes) of the dcache's alone" \
		jq_true "$(out all.json)" ".peak_rss_kb - $(jq '.peak_rss_kb' "$(out dcache.out)") < ${n:-0} / 1024"
}

check_mount() {
	local crossings n
	crossings=$(value_of mount_crossings)
	n=$(jq '.targets[0].hits' "$(out mount.out)" 2>/dev/null)
	if [ -n "$n" ] && [ "$n" -ge $((crossings * 2000)) ] && [ "$n" -le $((crossings * 2000 + 50)) ]; then
		ok "$k mount: $n hits for 2000 walks across $crossings mountinfo mount points"
	else
		not_ok "$k mount: ${n:-?} hits for 2000 walks across ${crossings:-?} mountinfo mount points"
	fi
}

check_dcache() {
	local j n
	j=$(out dcache.out)
	n=$(value_of nr_dentry_after)
	check "$k dcache: walks hit every path component" \
		jq_true "$j" ".targets[0].hits >= $(awk '$1 == "components" { print $2 }' "$(out tree.out)")"
	# Misses walk a bucket the name's hash picked: on average the load
	# factor, nr_dentry / slots, if the hash spreads names evenly.
	if jq_true "$j" ".targets[0] | ((.walk.nodes - ([.hit_position[] | .min * .count] | add)) / .walk.misses) as \$m | ($n / .table_slots) as \$a | \$m > 0.6 * \$a and \$m < 1.4 * \$a"; then
		ok "$k dcache: mean walk on a miss matches nr_dentry/slots ($n dentries)"
	else
		not_ok "$k dcache: mean walk on a miss matches nr_dentry/slots ($n dentries)"
		jq -c '.targets[0] | {walk, table_slots}' "$j" | sed 's/^/#   /'
	fi
}

# tmpfs casefolds from 6.13: the other match, on parent and hash, which
# the matcher makes where the parent compares names itself. Each stat
# looks up that one name (little else runs): 2000 hits, every one found
# by that match alone.
check_casefold() {
	release_at_least 6.13 || return 0
	check "$k dcache: a casefolded directory could be made" [ "$(value_of casefold)" = 1 ]
	check "$k dcache, DCACHE_OP_COMPARE: 2000 lookups of the name in another form found, all agreeing" \
		jq_true "$(out casefold.out)" \
		'.targets[0] | .self_check.disagree == 0 and .hits >= 2000 and .lookups < 2400'
}

check_kprobe() {
	check "$k kprobe path: every recipe attaches by kprobe and passes the self-check" \
		jq_true "$(out kprobe.out)" '[.targets[] | select(.method == "kprobe" and .self_check.ok and .lookups > 0)] | length == 5'
}

check_refusals() {
	expect_refusal no_symbol "__d_lookup_rcu: symbol d_hash_shift not in"
	expect_refusal one_bad "no_such_lookup: no recipe knows this function"
	check "$k one bad -f of two: nothing was attached" sh -c "! grep -q '_lookup_mnt' '$(out one_bad.after)'"
}

# Snapshots of the dcache, inode, mount and TCP tables: boot-time sizes, identity.
check_snapshot() {
	local j w t n
	j=$(out snapshot_tables.json)
	w=$(out whatif_tables.out)
	check "$k snapshot tables: exit 0, a snapshot for every recipe but the AVC's" \
		sh -c "[ '$(rc_of snapshot_tables)' = 0 ] && jq -e '[.targets[].snapshot] | length == 5' '$j'"
	for t in "__d_lookup_rcu Dentry cache" "__d_lookup Dentry cache" "find_inode_fast Inode-cache" "__lookup_mnt Mount-cache" "__inet_lookup_established TCP established"; do
		n=$(dmesg_slots "${t#* }")
		check "$k snapshot ${t%% *}: ${n:-?} buckets as the kernel printed at boot, entries > 0" \
			jq_true "$j" ".targets[] | select(.traced == \"${t%% *}\") | .snapshot | .buckets == ${n:-0} and .entries > 0 and .keys.count == .entries"
	done
	check "$k whatif tables: exit 0, the identity holds for all five" \
		sh -c "[ '$(rc_of whatif_tables)' = 0 ] && jq -e '[.targets[].identity] | length == 5 and all' '$w'"
}

checks() {
	subtest list check_list
	subtest session check_session
	subtest tcp check_tcp
	subtest inode check_inode
	subtest memory check_memory
	subtest mount check_mount
	subtest dcache check_dcache
	subtest casefold check_casefold
	subtest kprobe check_kprobe
	subtest refusals check_refusals
	subtest snapshot check_snapshot
}
