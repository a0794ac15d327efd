# Host tier: pftrace replay needs no BPF, so it runs here. The checks are
# about the replay itself (structure, and that the chains it walked are
# the ones asked for, counted in a separate pass), never about which
# prefetch option wins on this machine.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=${PFTRACE_BIN:-$top/pftrace}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$pftrace" replay --synthetic chain=1 -r 5 --format json >"$tmp/one.json"
check "replay chain=1: exit 0" [ $? -eq 0 ]
check "replay chain=1: every lookup walked exactly one node and hit" \
	jq_true "$tmp/one.json" '.counted.mean_nodes == 1 and .counted.hit_ratio == 1 and .counted.chain_walked == [{"min": 1, "max": 1, "count": .lookups_per_pass}]'
check "replay: three options, each a median inside its interval from 5 passes" \
	jq_true "$tmp/one.json" '[.per_lookup[] | .lo <= .median and .median <= .hi and (.samples | length) == 5 and .median > 0] == [true, true, true]'
check "replay: ratios to no prefetch for the two prefetching options" \
	jq_true "$tmp/one.json" '(.per_lookup.none | has("ratio_to_none") | not) and .per_lookup.every_node.ratio_to_none.median > 0 and .per_lookup.nonnull_only.ratio_to_none.median > 0'

"$pftrace" replay --synthetic mean=8,hits=0.8 -r 5 --format json >"$tmp/long.json"
check "replay mean=8,hits=0.8: walked chains match the request (mean within 1%)" \
	jq_true "$tmp/long.json" '((.counted.mean_nodes - .requested.mean_nodes) | if . < 0 then -. else . end) < 0.01 * .requested.mean_nodes'
check "replay mean=8,hits=0.8: hit share within 0.5% of the request" \
	jq_true "$tmp/long.json" '((.counted.hit_ratio - 0.8) | if . < 0 then -. else . end) < 0.005'
check "replay mean=8: long chains walked (mean over 4 nodes)" jq_true "$tmp/long.json" '.counted.mean_nodes > 4'

"$pftrace" replay --synthetic chain=2,hits=0 -r 5 --cold --format json >"$tmp/cold.json"
check "replay --cold: a table larger than the warm one; misses walk whole chains" \
	jq_true "$tmp/cold.json" '.mode == "cold" and .buckets > 4096 and .counted.mean_nodes == 2 and .counted.hit_ratio == 0'
"$pftrace" replay --synthetic chain=1 -r 5 -o "$tmp/out.json" >"$tmp/text"
check "replay text: the three options and their ratios" \
	sh -c "grep -q 'no prefetch' '$tmp/text' && grep -q 'of no prefetch' '$tmp/text'"
check "replay -o: a pftrace document with the replay section" \
	jq_true "$tmp/out.json" '.tool == "pftrace" and .replay.per_lookup.every_node.median > 0'

refuses "replay a file that is not a run" "/etc/passwd: not JSON" "$pftrace" replay /etc/passwd
echo '{"tool": "bpftrace"}' >"$tmp/other.json"
refuses "replay another tool's JSON" "not a pftrace run file" "$pftrace" replay "$tmp/other.json"
refuses "replay an impossible spec (no chain)" "give chain=N or mean=X" "$pftrace" replay --synthetic hits=1
refuses "replay an impossible spec (chain=0)" "give chain=N or mean=X" "$pftrace" replay --synthetic chain=0
refuses "replay an impossible spec (hits=2)" "hits=2 is not a share" "$pftrace" replay --synthetic chain=1,hits=2
refuses "replay an impossible spec (mean below 1)" "mean=0.5" "$pftrace" replay --synthetic mean=0.5
refuses "replay an unknown spec key" "unknown key 'colour'" "$pftrace" replay --synthetic chain=1,colour=red
refuses "replay both a run and a spec" "give one run file or --synthetic" "$pftrace" replay "$tmp/out.json" --synthetic chain=1
refuses "replay -t with a spec" "-t picks a target" "$pftrace" replay --synthetic chain=1 -t avc_lookup
refuses "replay too few repetitions" "-r wants" "$pftrace" replay --synthetic chain=1 -r 2
summary host
