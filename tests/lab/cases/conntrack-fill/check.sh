# Lab case "conntrack-fill", checked: 100,000 UDP connections (200,000
# entries) in 65536 buckets; the snapshot's guest time, peak RSS and run
# file size against their targets; whatif --entries 200000 of a
# snapshot at 20,000 entries against the real fill; and the fill's run
# file holds raw hashes only, no address and none of the secret's bytes.

ct_check_fill() {
	local f
	f=$(out fill.json)
	check "$k conntrack fill: 100,000 connections in nf_conntrack_count ($(value_of fill_count)), a snapshot of 200,000 entries in 65536 buckets" \
		sh -c "[ '$(value_of fill_count)' = 100000 ] && [ '$(rc_of fill)' = 0 ] && jq -e '.targets[0].snapshot | .entries == 200000 and .buckets == 65536' '$f' >/dev/null"
	check "$k conntrack fill: the snapshot took $(value_of fill_guest_s) s of guest time (< 60), pftrace's peak RSS $(jq '.peak_rss_kb' "$f" 2>/dev/null) kB (< 64 MB), the run file $(value_of fill_bytes) bytes (< 4 MB)" \
		sh -c "awk 'BEGIN { exit !($(value_of fill_guest_s) < 60 && $(value_of fill_bytes) < 4194304) }' && jq -e '.peak_rss_kb < 65536' '$f' >/dev/null"
}

ct_check_entries() {
	check "$k conntrack whatif --entries 200000 of a snapshot at $(value_of fill_small) connections, against the real fill: buckets used within 3 sd, the longest chain within its 95% interval +-1, a hit's mean walk within 1%" \
		"$top/tests/tools/lab-conntrack" entries "$(out fill_whatif.json)" "$(out fill.json)" "$dir/entries-error.json"
}

ct_check_privacy() {
	check "$k conntrack privacy: the fill's packed keys are raw hashes that rebuild its table; no address, none of the secret's bytes, anywhere in the run file" \
		"$top/tests/tools/lab-conntrack" privacy "$(out fill.json)" "$(value_of secret)"
}

checks() {
	subtest fill ct_check_fill
	subtest entries ct_check_entries
	subtest privacy ct_check_privacy
}
