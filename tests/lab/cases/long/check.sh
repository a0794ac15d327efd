# Lab case "long", checked: walks of long chains against hash_stats, the
# bucket function, the AVC's snapshot and whatif, --latency in ns.

check_signals() {
	check_bracketed long_int INT fexit
}

# samples beside the walks (cpu-clock: TCG has no PMU)
check_samples() {
	local j
	j=$(out long_int.json)
	check "$k samples: the AVC workload lands samples in avc_lookup" \
		jq_true "$j" '.targets[0].samples.samples > 0 and .sampling.fallback and (.sampling.note | contains("cycles"))'
	check "$k samples: every sampled offset falls inside avc_lookup" \
		jq_true "$j" '.targets[0].samples as $p | [$p.hottest[].offset < $p.size] | all'
	check "$k samples: avc_lookup has no prefetch instruction, and says so" \
		sh -c "[ -s '$j' ] && jq -e '.targets[0].samples.has_prefetch == false' '$j' >/dev/null && grep -q 'avc_lookup has no prefetch instruction' '$(out long_int.out)'"
}

check_chains() {
	local j longest max
	j=$(out long_int.json)
	longest=$(awk -F': ' '$1 == "longest chain" { print $2 }' "$(out hash_stats)")
	max=$(jq '.targets[0].walk.max_nodes' "$j" 2>/dev/null)
	check "$k long chains: mean nodes walked > 3" jq_true "$j" '.targets[0].walk.mean_nodes > 3'
	check "$k long chains: longest chain (hash_stats) >= 8" [ "${longest:-0}" -ge 8 ]
	if [ -n "$max" ] && [ -n "$longest" ] && [ "$max" -le "$longest" ] && [ "$max" -ge $((longest - 2)) ]; then
		ok "$k long chains: longest walk $max consistent with hash_stats longest chain $longest"
	else
		not_ok "$k long chains: longest walk ${max:-?} consistent with hash_stats longest chain ${longest:-?}"
	fi
}

check_kprobe() {
	check "$k long kprobe: exit 0" [ "$(rc_of long_kprobe)" = 0 ]
	check_run_json long_kprobe "$(out long_kprobe.out)" kprobe
}

# the kernel's bucket function is the one the self-check accepts:
# exactly one of the two passes, and it is the one pftrace picks
check_bucket_hash() {
	local h ok_hash bad_hash
	if [ "$(rc_of hash_murmur3)" = 0 ]; then ok_hash=murmur3 bad_hash=xor; else ok_hash=xor bad_hash=murmur3; fi
	check "$k the bucket function pftrace picks ($ok_hash) is the one the kernel's walks agree with" \
		jq_true "$(out long_int.json)" ".targets[0].layout | contains(\"$ok_hash bucket hash\")"
	# struct avc_entry keeps tsid right after ssid on every lab kernel:
	# the loader reads that from BTF, and the walks then match both in one
	# load (the self-check holds them to the kernel's verdicts)
	check "$k the AVC's ssid and tsid are matched in one load (BTF: tsid follows ssid)" \
		jq_true "$(out long_int.json)" '.targets[0].layout | contains("ssid and tsid matched in one load")'
	h=hash_$ok_hash
	check "$k -C avc.hash=$ok_hash (the kernel's): exit 0" [ "$(rc_of "$h")" = 0 ]
	check "$k -C avc.hash=$ok_hash: self-check passes" jq_true "$(out "$h.json")" '.targets[0].self_check.ok'
	h=hash_$bad_hash
	check "$k -C avc.hash=$bad_hash (wrong): exit 3" [ "$(rc_of "$h")" = 3 ]
	check "$k -C avc.hash=$bad_hash: first line of the text says SELF-CHECK FAILED" \
		sh -c "head -n 1 '$(out "$h.out")' | grep -q '^pftrace: SELF-CHECK FAILED for avc_lookup'"
	check "$k -C avc.hash=$bad_hash: no histogram printed" \
		sh -c "! grep -q 'nodes walked per lookup' '$(out "$h.out")'"
	check "$k -C avc.hash=$bad_hash: JSON starts with the error, withholds histograms" \
		jq_true "$(out "$h.json")" '(keys_unsorted[0] == "error") and (.targets[0] | has("chain_walked") | not) and (.targets[0].self_check.ok | not)'
}

hs_field() { awk -F': ' -v f="$1" '$1 == f { sub(/\/.*/, "", $2); print $2 }' "$2"; }

# The AVC snapshot against hash_stats
check_snapshot() {
	local j hb ha
	j=$(out snapshot_avc.out)
	hb=$(out hs_before)
	ha=$(out hs_after)
	check "$k snapshot avc: exit 0, a run file with a snapshot" \
		sh -c "[ '$(rc_of snapshot_avc)' = 0 ] && jq -e '.targets[0].snapshot.entries > 0' '$j'"
	check "$k snapshot avc: hash_stats did not move while it ran (a quiet moment)" cmp -s "$hb" "$ha"
	check "$k snapshot avc: entries, buckets used, longest chain == hash_stats ($(hs_field entries "$ha"), $(hs_field 'buckets used' "$ha"), $(hs_field 'longest chain' "$ha"))" \
		jq_true "$j" ".targets[0].snapshot | .entries == $(hs_field entries "$ha") and .buckets_used == $(hs_field 'buckets used' "$ha") and .longest_chain == $(hs_field 'longest chain' "$ha") and (.changed | not)"
	check "$k snapshot avc: chain_lengths count every bucket and entry" \
		jq_true "$j" '.targets[0].snapshot | ([.chain_lengths[].count] | add) == .buckets and ([.chain_lengths[] | .max * .count] | add) == .entries'
	check "$k snapshot avc: ideal hashing's buckets used is within the possible range" \
		jq_true "$j" '.targets[0].snapshot | .uniform.buckets_used <= ([.buckets, .entries] | min) and .uniform.buckets_used > 0 and .uniform.p_value >= 0 and .uniform.p_value <= 1'
}

# whatif's identity, its order bounds against the walks measured on the
# same (warm) table, and a wrong hash
check_whatif() {
	local j w
	j=$(out whatif.json)
	check "$k whatif trace (--snapshot): exit 0, lookups counted by key, none dropped" \
		jq_true "$j" '.targets[0].snapshot.lookups_by_key | .count > 1000 and .dropped == 0'
	w=$(out whatif.out)
	check "$k whatif: exit 0, identity check passes" sh -c "[ '$(rc_of whatif)' = 0 ] && jq -e '.targets[0].identity' '$w'"
	check "$k whatif: the kernel's own layout comes first and equals the snapshot" \
		jq_true "$w" '.targets[0] | .predictions[0].current and .predictions[0].buckets_used == .measured.buckets_used and .predictions[0].longest_chain == .measured.longest_chain and .predictions[0].chain_lengths == .measured.chain_lengths'
	check "$k whatif: measured mean walk lies within the predicted best/worst-order bounds" \
		jq_true "$w" '.targets[0] | .predictions[0].mean_walk_lo <= .measured.mean_walk and .measured.mean_walk <= .predictions[0].mean_walk_hi'
	check "$k whatif: at the snapshot's own chain order, predicted mean walk within 1% of measured" \
		jq_true "$w" '.targets[0] | (.predictions[0].mean_walk_in_order - .measured.mean_walk | fabs) <= 0.01 * .measured.mean_walk'
	check "$k whatif: three hashes at 2^9, 2^10 and 2^13" \
		jq_true "$w" '[.targets[0].predictions[] | "\(.hash)/\(.bits)"] | sort == (["xor","murmur3","jhash"] | map(. + "/9", . + "/10", . + "/13") | sort)'
	check "$k whatif: a bigger table never has a longer longest chain (same hash)" \
		jq_true "$w" '[.targets[0].predictions | group_by(.hash)[] | sort_by(.bits) | [.[].longest_chain] | . == (sort | reverse)] | all'
	check "$k snapshot and whatif files match docs/run-file.schema.json" \
		"$top/tests/tools/lab-schema" "$top/docs/run-file.schema.json" "$(out snapshot_avc.out)" "$j" --whatif "$w"
	check "$k whatif -C current.hash=jhash (wrong): exit 3, says the identity failed" \
		sh -c "[ '$(rc_of whatif_wrong)' = 3 ] && grep -q 'identity check failed' '$(out whatif_wrong.err)'"
}

# --latency on every kernel, text and JSON: the lab's TCG guest has no
# PMU, like the build host, so the unit is ns and says why.
check_latency() {
	local j t
	j=$(out latency_json.out)
	t=$(out latency_text.out)
	check "$k --latency: exit 0, text and JSON" sh -c "[ '$(rc_of latency_text)' = 0 ] && [ '$(rc_of latency_json)' = 0 ]"
	check "$k --latency JSON: ns, with the reason there is no cycles counter" \
		jq_true "$j" '.targets[0].latency | .unit == "ns" and (.unit_note | contains("no cycles counter"))'
	check "$k --latency JSON: calibrated (TCG's pair takes about a microsecond), the histogram 8x that wide" \
		jq_true "$j" '.targets[0].latency | .overhead.subtracted > 0 and .bucket * 1024 >= 8 * .overhead.subtracted'
	check "$k --latency JSON: per node count, lookups that sum to the timed walks, medians <= p90" \
		jq_true "$j" '.targets[0] | .latency.by_nodes as $r | ($r | length) > 3 and ([$r[].count] | add) <= .walk.completed and ([$r[].count] | add) >= 0.99 * .walk.completed and ([$r[] | .median <= .p90] | all)'
	# TCG's time follows the host, not the guest's instructions, and the
	# medians stray off any line: the fit must either find a positive
	# cost per node or say it is poor (the -icount case holds it to the
	# instructions themselves).
	check "$k --latency JSON: a fit with its interval, and a positive cost per node unless it says the fit is poor" \
		jq_true "$j" '.targets[0].latency.fit | .per_node_lo <= .per_node and .per_node <= .per_node_hi and .residual >= 0 and (.poor == ((.per_node <= 0) or (.residual > 3 * .per_node))) and (.per_node > 0 or .poor)'
	check "$k --latency JSON: the walk loop found in avc_lookup's code" \
		jq_true "$j" '.targets[0].latency.loop_instructions | .min_path > 0 and .min_path <= .max_path'
	check "$k --latency text: says ns, prints the fit and the loop" \
		sh -c "grep -q 'in ns: no cycles counter' '$t' && grep -q 'per node \\[' '$t' && grep -q 'the walk loop: ' '$t'"
}

checks() {
	subtest signals check_signals
	subtest samples check_samples
	subtest chains check_chains
	subtest kprobe check_kprobe
	subtest bucket_hash check_bucket_hash
	subtest snapshot check_snapshot
	subtest whatif check_whatif
	subtest latency check_latency
}
