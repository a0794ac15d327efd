# Lab case "conntrack", checked: the recipe in nf_conntrack against the
# kernel's own facts: each namespace's nft counters (one lookup per
# packet sent, one per packet received over a veth), nf_conntrack_count,
# the table the kernel rebuilt at another nf_conntrack_buckets, and the
# module's refcount. 5.10 has no module BTF: its one-line refusal.

# the guest's "=== COUNT NAME NS SENT RECEIVED" lines
ct_count() { awk -v n="$1" -v s="$2" '$2 == "COUNT" && $3 == n && $4 == s { print $5 + $6 }' "$log"; }
ct_namespaces() { awk '$2 == "COUNT" && $3 == "fexit.before" { print $4 }' "$log"; }
# the lookups NS made during PHASE (fexit, kprobe): sent plus received
ct_delta() { echo $(($(ct_count "$1.after" "$2") - $(ct_count "$1.before" "$2"))); }

ct_check_trace() { # PHASE: fexit or kprobe (-C attach=kprobe)
	local p=$1 j total=0 ns traced
	j=$(out "trace_$p.json")
	check "$k conntrack $p: exit 0, traced __nf_conntrack_find_get via $p" \
		sh -c "[ '$(rc_of "trace_$p")' = 0 ] && jq -e '.targets[0] | .recipe == \"conntrack\" and .traced == \"__nf_conntrack_find_get\" and .method == \"$p\"' '$j' >/dev/null"
	check "$k conntrack $p: self-check agreement >= 99.9%" \
		jq_true "$j" '.targets[0].self_check | .ok and .checked > 0 and .agree * 1000 >= .checked * 999'
	for ns in $(ct_namespaces); do
		total=$((total + $(ct_delta "$p" "$ns")))
	done
	traced=$(jq '.targets[0].lookups' "$j" 2>/dev/null)
	check "$k conntrack $p: traced lookups ${traced:-?} within 1% of the nft counters' $total packets" \
		within_pct "${traced:-0}" "$total" 1
}
ct_check_fexit() { ct_check_trace fexit; }
ct_check_kprobe() { ct_check_trace kprobe; }

# --by netns: each namespace's row against that namespace's own counters
ct_check_by_netns() {
	local j ns inum want got
	j=$(out trace_fexit.json)
	check "$k conntrack --by netns: keyed by the lookup's own net, none dropped" \
		jq_true "$j" '.targets[0].by | .key == "netns" and .netns_of == "lookup" and .dropped == 0'
	check "$k conntrack --by netns: three namespaces traced" [ "$(ct_namespaces | wc -l)" = 3 ]
	for ns in $(ct_namespaces); do
		inum=$(value_of "netns_$ns")
		want=$(ct_delta fexit "$ns")
		got=$(jq --argjson id "${inum:-0}" '[.targets[0].by.rows[] | select(.id == $id) | .lookups] | add // 0' "$j" 2>/dev/null)
		check "$k conntrack --by netns: namespace ${inum:-?} charged ${got:-?}, within 2% of its own counters' $want" \
			within_pct "${got:-0}" "$want" 2
	done
}

# the snapshot at a quiet moment: twice the namespaces' nf_conntrack_count
ct_check_snapshot() {
	local counts=0 ns
	for ns in $(ct_namespaces); do
		counts=$((counts + $(ct_count snap.before "$ns")))
	done
	check "$k conntrack snapshot: quiet (every namespace's nf_conntrack_count the same after it)" \
		[ "$(awk '$2 == "COUNT" && $3 == "snap.before" { print $4, $5 }' "$log")" = \
		  "$(awk '$2 == "COUNT" && $3 == "snap.after" { print $4, $5 }' "$log")" ]
	check "$k conntrack snapshot: entries == 2 x the namespaces' nf_conntrack_count ($counts), in nf_conntrack_buckets' $(value_of buckets)" \
		jq_true "$(out snap0.json)" ".targets[0].snapshot | .entries == 2 * $counts and $counts > 0 and .buckets == $(value_of buckets) and .hash == \"hash_conntrack\""
}

# the same-boot resize proof, and a wrong bucket function that must fail it
ct_check_resize() {
	check "$k conntrack resize: the kernel took 3072 and 16384 buckets as asked" \
		[ "$(value_of buckets_3072) $(value_of buckets_16384)" = "3072 16384" ]
	check "$k conntrack resize proof: whatif --buckets 3072,16384 of the first snapshot is the rebuilt table exactly (buckets used, longest chain, whole histogram)" \
		"$top/tests/tools/lab-conntrack" resize "$(out whatif.json)" "$(out snap0.json)" \
		"$(out snap_3072.json)" "$(out snap_16384.json)"
	check "$k conntrack resize proof, a wrong bucket function: conntrack_mask, on the table at 16384, fails the identity (exit 3) and mispredicts its histogram" \
		"$top/tests/tools/lab-conntrack" foil "$(rc_of whatif_mask)" "$(out whatif_mask.err)" \
		"$(out whatif_mask.json)" "$(out snap_16384.json)"
}

# fexit pins the module; under kprobes rmmod goes through and the run ends
# Under kprobes the run ends (pftrace detaches and writes its run file)
# within 5 s of the rmmod, 10 s on arm64, whose TCG guest does it about
# three times slower than x86's (7.2: rmmod 0.3 s, the run's own
# duration 1.0 s, ended 5.4 s after the rmmod); the trace's -d is 120 s.
ct_check_removal() {
	local bound=5
	[ "$arch" != arm64 ] || bound=10
	check "$k conntrack rmmod while fexit programs are attached: refused, in use (refcnt $(value_of refcnt_fexit))" \
		sh -c "[ '$(rc_of rmmod_fexit)' != 0 ] && [ '$(value_of refcnt_fexit)' -ge 1 ] && grep -qiE 'in use|temporarily unavailable' '$(out rmmod_fexit.err)'"
	check "$k conntrack fexit: the trace went on to its end (exit 0, end_reason duration)" \
		sh -c "[ '$(rc_of rm_fexit)' = 0 ] && jq -e '.end_reason == \"duration\" and .targets[0].method == \"fexit\"' '$(out rm_fexit.json)' >/dev/null"
	check "$k conntrack rmmod under kprobes: removed (in $(value_of rmmod_kprobe_s) s); the run ended within $bound s of it ($(value_of rm_kprobe_s) s), exit 0, kept its data and said why" \
		sh -c "[ '$(rc_of rmmod_kprobe)' = 0 ] && [ '$(rc_of rm_kprobe)' = 0 ] && awk 'BEGIN { exit !($(value_of rm_kprobe_s) < $bound) }' && jq -e '.end_reason == \"module nf_conntrack removed\" and .targets[0].method == \"kprobe\" and (.targets[0].lookups | type) == \"number\"' '$(out rm_kprobe.json)' >/dev/null && grep -q 'module nf_conntrack was removed' '$(out rm_kprobe.err)'"
}

ct_check_schema() {
	check "$k conntrack run files and whatif output match docs/run-file.schema.json" \
		"$top/tests/tools/lab-schema" "$top/docs/run-file.schema.json" "$(out trace_fexit.json)" \
		"$(out snap0.json)" --whatif "$(out whatif.json)"
}

# a kernel without module BTF: one line saying so
ct_check_refusal() {
	expect_refusal refuse_no_btf "has no BTF for module nf_conntrack"
}
# Debian's arm64 6.1 has module BTF but no CONFIG_KALLSYMS_ALL: the
# table's globals are not in kallsyms, and pftrace says so
ct_no_kallsyms_all() {
	grep -qx '# CONFIG_KALLSYMS_ALL is not set' "$("$here/fetch-kernel" --arch "$deb_arch" "$k")/config" 2>/dev/null
}
ct_check_refusal_kallsyms() {
	expect_refusal refuse_no_kallsyms "symbol nf_conntrack_hash not in /proc/kallsyms (needs CONFIG_KALLSYMS_ALL)"
}

checks() {
	if [ "$k" = 5.10 ]; then
		subtest refusal ct_check_refusal
		return
	fi
	if ct_no_kallsyms_all; then
		subtest refusal ct_check_refusal_kallsyms
		return
	fi
	check "$k conntrack: nf_conntrack loaded, its module BTF there" [ -z "$(value_of modprobe_failed)$(rc_of refuse_no_btf)" ]
	subtest fexit ct_check_fexit
	subtest kprobe ct_check_kprobe
	subtest by_netns ct_check_by_netns
	subtest snapshot ct_check_snapshot
	subtest resize ct_check_resize
	subtest removal ct_check_removal
	subtest schema ct_check_schema
}
