# Host tier: the scrape end to end on 127.0.0.1 (tests/tools/scrape-
# prometheus): Debian's prometheus-node-exporter serves pftrace's .prom
# from its textfile collector, replaced twice (the 6.12 short-chain run;
# then merged with the long-chain one; then with the short one again,
# as an exporter's counters grow), and Debian's prometheus scrapes it
# with the package's rules loaded. What its HTTP API answers for the
# recording rules is what pftrace report says of the runs between the
# first file and the last: the long-chain run and the short one, merged.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$top/pftrace
short=$top/docs/examples/avc-6.12-short-chains.json
long=$top/docs/examples/avc-6.12-long-chains.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$pftrace" report --format prometheus "$short" >"$tmp/1.prom"
"$pftrace" merge "$short" "$long" -o "$tmp/2.prom"
"$pftrace" merge "$short" "$long" "$short" -o "$tmp/3.prom"
"$pftrace" merge "$long" "$short" -o "$tmp/between.json"
"$pftrace" report --format json "$tmp/between.json" >"$tmp/report.json"
"$pftrace" report "$tmp/between.json" >"$tmp/report.txt"

timeout -k 5 150 /usr/bin/python3 "$top/tests/tools/scrape-prometheus" "$top/dist/prometheus/pftrace.rules.yml" \
	"$tmp/1.prom" "$tmp/2.prom" "$tmp/3.prom" >"$tmp/got.json" 2>"$tmp/got.err"
rc=$?
check "prometheus scraped node_exporter's textfile collector: exit 0, the file replaced twice, each version scraped" \
	sh -c "[ $rc = 0 ] && jq -e '.steps_scraped == 3' '$tmp/got.json'"
[ $rc = 0 ] || diag "$tmp/got.err"
sed 's/^/#   /' "$tmp/got.json"
check "node_exporter read the file without error, and pftrace_build_info came through" \
	jq_true "$tmp/got.json" '.scrape_error == [0] and (.build_info | length == 1 and .[0].version != null and .[0].kernel != null)'
check "prometheus loaded all 9 rules of the package, every one healthy" \
	jq_true "$tmp/got.json" '(.rules | length == 9) and ([.rules[]] | all(. == "ok"))'
# the API's values against pftrace report's JSON (1e-9) and its text (as printed)
close() { # NAME RULE JQ-OF-THE-REPORT
	check "$1: the API's value equals pftrace report's (within 1e-9)" \
		/usr/bin/python3 -c 'import json, sys; got = json.load(open(sys.argv[1]))["values"][sys.argv[2]]; want = float(sys.argv[3]); sys.exit(not abs(got - want) <= 1e-9 * max(1, abs(want)))' \
		"$tmp/got.json" "$2" "$(jq "$3" "$tmp/report.json")"
}
close "mean nodes walked per lookup" pftrace:walked_nodes_per_lookup:mean5m '.targets[0].walk.mean_nodes'
close "hit ratio" pftrace:hit_ratio:rate5m '.targets[0].hits / .targets[0].lookups'
close "NULL next at hit, of the walks that hit" pftrace:next_null_at_hit_ratio:rate5m '.targets[0].next_null_at_hit / .targets[0].walk.hits'
mean=$(jq -r '.values["pftrace:walked_nodes_per_lookup:mean5m"] * 100 | round / 100 | tostring' "$tmp/got.json")
hit=$(jq -r '.values["pftrace:hit_ratio:rate5m"] * 10000 | round / 100 | tostring' "$tmp/got.json")
null=$(jq -r '.values["pftrace:next_null_at_hit_ratio:rate5m"] * 10000 | round / 100 | tostring' "$tmp/got.json")
check "the same as the text report prints them: mean $mean, $hit% hits, $null% next == NULL at hit" \
	sh -c "grep -q '^Nodes walked:   mean $mean,' '$tmp/report.txt' && grep -q ', $hit% hits\$' '$tmp/report.txt' && grep -q '^Next == NULL:   $null% of hits' '$tmp/report.txt'"
pids=$(jq -r '.pids[]?' "$tmp/got.json" | tr '\n' ' ')
check "node_exporter and prometheus (pids $pids) stopped by the test" \
	sh -c "[ -n '$pids' ] && for p in $pids; do ! kill -0 \$p 2>/dev/null || exit 1; done"
summary host
