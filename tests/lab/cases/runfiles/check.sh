# Lab case "runfiles": run files of this kernel's runs (the short-chain
# ones of "basic", the long-chain one of "long"), read back by the host's
# pftrace: report, diff, merge, OpenMetrics through a real parser, replay,
# the schema. Nothing boots: its guests are those cases'.

short= long= term=

check_report() {
	local f=$dir/report
	"$top/pftrace" report "$long" >"$f" 2>&1
	check "$k report: exit 0" [ $? -eq 0 ]
	check "$k report: fits 72 columns" sh -c "! awk 'length > 72' '$f' | grep -q ."
	check "$k report: lookups, chain summary, prefetch model, command" \
		sh -c "grep -q '^Lookups:' '$f' && grep -q '^Nodes walked:   mean .*, p50 .*, p99 .*, max' '$f' && grep -q '^Prefetch:' '$f' && grep -q '^Measured by:    pftrace -f avc_has_perm_noaudit' '$f'"
}

check_diff() {
	"$top/pftrace" diff "$short" "$short" >"$dir/same" 2>&1
	check "$k diff of a run with itself: no significant difference" \
		grep -q 'chain lengths: no significant difference' "$dir/same"
	"$top/pftrace" diff "$short" "$long" >"$dir/policies" 2>&1
	check "$k diff short-chain vs long-chain policy: significant" \
		grep -q 'chain lengths differ significantly: chi-square .*, df [0-9]*, p ' "$dir/policies"
	"$top/pftrace" plot "$short" "$long" -o "$dir/policies.svg" 2>/dev/null
	check "$k plot short-chain vs long-chain: an SVG that renders, with diff's own verdict" \
		sh -c "rsvg-convert '$dir/policies.svg' -o '$dir/policies.png' && '$top/tests/tools/png-ink' '$dir/policies.png' | awk '{ exit !(\$3 > 0.02 && \$4 >= 3) }' && [ \"\$(grep -o 'chi-square [^,]*, df [0-9]*' '$dir/policies.svg')\" = \"\$(grep -o 'chi-square [^,]*, df [0-9]*' '$dir/policies')\" ]"
}

check_merge() {
	local rc
	"$top/pftrace" merge "$short" "$term" -o "$dir/merged.json" 2>"$dir/merge.err"
	rc=$?
	check "$k merge: exit 0" [ $rc -eq 0 ]
	check "$k merge: counts and buckets add exactly" \
		jq -e -n --slurpfile a "$short" --slurpfile b "$term" --slurpfile m "$dir/merged.json" '
			($a[0].targets[0]) as $x | ($b[0].targets[0]) as $y | ($m[0].targets[0]) as $z |
			$z.lookups == $x.lookups + $y.lookups and $z.hits == $x.hits + $y.hits and
			$z.next_null_at_hit == $x.next_null_at_hit + $y.next_null_at_hit and
			([$z.chain_walked[].count] | add) == ([$x.chain_walked[].count] | add) + ([$y.chain_walked[].count] | add) and
			$m[0].merged_runs == 2'
	"$top/pftrace" merge "$short" "$term" -o "$dir/merged.prom" 2>/dev/null
	"$top/pftrace" merge "$short" "$term" --format openmetrics >"$dir/merged.om" 2>/dev/null
	check "$k metrics: .prom parsed as Prometheus text, --format openmetrics as OpenMetrics, counts as in the JSON" \
		"$top/tests/tools/lab-metrics" formats "$dir/merged.prom" "$dir/merged.om" "$dir/merged.json"
}

# replay, from this kernel's long-chain run
check_replay() {
	"$top/pftrace" replay "$long" -t avc_lookup -r 5 --format json >"$dir/replay" 2>&1
	check "$k replay of the long-chain run: asks for the recorded chains" \
		jq -e -n --slurpfile r "$dir/replay" --slurpfile run "$long" '
			(($r[0].requested.mean_nodes - $run[0].targets[0].walk.mean_nodes) | if . < 0 then -. else . end) < 1e-9 and
			(($r[0].requested.hit_ratio - ($run[0].targets[0].walk.hits / $run[0].targets[0].walk.completed)) | if . < 0 then -. else . end) < 1e-9'
	check "$k replay of the long-chain run: walks what it asked (mean within 1%)" \
		jq_true "$dir/replay" '((.counted.mean_nodes - .requested.mean_nodes) | if . < 0 then -. else . end) < 0.01 * .requested.mean_nodes'
	cp "$long" "$dir/with-replay.json"
	"$top/pftrace" replay "$dir/with-replay.json" -r 5 -o "$dir/with-replay.json" >/dev/null 2>&1
	check "$k replay -o RUN: report includes the replay" \
		sh -c "'$top/pftrace' report '$dir/with-replay.json' | grep -q '^Replay:'"
}

# (with the files the merge and replay subtests wrote)
check_schema() {
	check "$k run files match docs/run-file.schema.json" \
		"$top/tests/tools/lab-schema" "$top/docs/run-file.schema.json" "$short" "$long" "$term" "$dir/merged.json" "$dir/with-replay.json"
}

checks() {
	short=$(output_of basic short_int.json)
	long=$(output_of long long_int.json)
	term=$(output_of basic short_term.json)
	subtest report check_report
	subtest diff check_diff
	subtest merge check_merge
	subtest replay check_replay
	subtest schema check_schema
}
