# Host tier: the native micro-benchmark (bench/micro) still loads and
# measures on this kernel. Its figures are make bench's, not a test's;
# here only that each walk was timed and a node costs more than nothing
# (how the walks compare is a timing, and a loaded machine can blur it).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
out=$top/.output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# root: BPF_ENABLE_STATS needs CAP_SYS_ADMIN
"$out/bench/walk-bench" --json "$tmp/micro.json" >"$tmp/out" 2>&1
check "walk-bench: exit 0" [ $? -eq 0 ]
check "walk-bench: probe8 and window timed, each node costs more than 0 ns" \
	jq -e '.native_ns_per_node_probe8 > 0 and .native_ns_per_node_window > 0' "$tmp/micro.json"
check "walk-bench: a per-CPU counter's add timed plain and atomic, each more than 0 ns" \
	jq -e '.native_ns_per_add_plain > 0 and .native_ns_per_add_atomic > 0' "$tmp/micro.json"
check "walk-bench: refuses a stray argument: exit 2" sh -c "'$out/bench/walk-bench' --frob; [ \$? -eq 2 ]"
# the benchmark table of docs/overhead.md is bench/compare of the
# measured run in docs/bench/ (between its markers, inside a code fence)
page=$top/docs/overhead.md
sed -n '/^<!-- bench:begin -->$/,/^<!-- bench:end -->$/p' "$page" | sed '1,2d;$d' | sed '$d' >"$tmp/page"
arm64=$top/docs/bench/arm64.json
python3 "$top/bench/compare" "$top/bench/baseline.json" "$top/docs/bench/run.json" "$top/docs/bench/micro.json" "$arm64" >"$tmp/now"
check "docs/overhead.md: the benchmark table is bench/compare of docs/bench/, not edited by hand" \
	sh -c "[ -s '$tmp/now' ] && cmp -s '$tmp/page' '$tmp/now'"

# make bench's verdict, on the committed run: every figure the benchmark
# promises was measured, each target has a verdict, and a figure past its
# target or missing from the run counts as missed (a failed bench step
# must not read as a target met)
check "docs/bench/run.json: every figure the benchmark promises is a number" \
	jq -e 'all(.startup_guest_ms, .per_call_ratio, .per_call_guest_ns, .floor_guest_ns,
		.peak_rss_mb, .slowdown_floor_pct, .slowdown_full_pct, .slowdown_sample16_pct,
		.make_slowdown_full_pct, .make_slowdown_sample16_pct, .bpftrace_per_call_ratio,
		.startup_tcg_ms_max, .verified_insns_max; type == "number")' "$top/docs/bench/run.json"
check "docs/bench/arm64.json: per call, start-up and the binary's size on arm64, each a number" \
	jq -e 'all(.arm64_per_call_ratio, .arm64_per_call_guest_ns, .arm64_floor_guest_ns,
		.arm64_startup_tcg_ms_max, .arm64_binary_bytes, .arm64_binary_stripped_bytes;
		type == "number")' "$arm64"
check "bench/compare: the arm64 rows beside the x86 ones, with start-up by kernel" \
	sh -c "grep -qE '^  arm64: per call, pftrace / empty program +- +[0-9.]+ +<= 1.5 +(ok|MISSED)\$' '$tmp/now' &&
		grep -q '^  arm64 start-up under plain TCG by kernel (ms): 6.12 ' '$tmp/now'"
# the targets are the tuples beside FIGURES' keys: ("<=", 300) and the like
ntargets=$(grep -cE '\("(<=|<|<=full\*)", ' "$top/bench/compare")
check "bench/compare: a verdict for each of its $ntargets targets" \
	sh -c "[ \$(grep -cE ' (ok|MISSED|NOT MEASURED)\$' '$tmp/now') -eq $ntargets ]"
# a target the committed run misses is said, with its reason, in the
# page's list of misses, and that list names no target the run meets
sed -n 's/^  \(.*[^ ]\) \{2,\}.* \(MISSED\|NOT MEASURED\)$/\1/p' "$tmp/now" | sed 's/ \{2,\}.*//' | sort >"$tmp/missed"
sed -n '/^### Targets the committed run misses$/,/^#/p' "$page" | sed -n 's/^- `\([^`]*\)`: .*/\1/p' | sort >"$tmp/said"
check "docs/overhead.md: each of the $(wc -l <"$tmp/missed") missed targets, and only those, listed with its reason" \
	sh -c "cmp -s '$tmp/missed' '$tmp/said' && [ \$(wc -l <'$tmp/missed') -eq \$(tail -1 '$tmp/now' | awk '{ print \$1 }') ]"
check "bench/compare: each figure beside its baseline, with the change" \
	grep -qE '^  per call, pftrace / empty program +[0-9.]+ +[0-9.]+ +-?[+0-9.]+%' "$tmp/now"
# the targets the committed runs miss, which the cases below add to
missed=$(tail -1 "$tmp/now" | awk '{ print $1 }')
jq '.per_call_ratio = 1.6' "$top/docs/bench/run.json" >"$tmp/over.json"
python3 "$top/bench/compare" "$top/bench/baseline.json" "$tmp/over.json" "$top/docs/bench/micro.json" "$arm64" >"$tmp/over"
check "bench/compare: per call 1.6x says MISSED, 1 target more missed" \
	sh -c "grep -qE '^  per call, pftrace / empty program .* <= 1.5 +MISSED\$' '$tmp/over' && tail -1 '$tmp/over' | grep -qxE '  $((missed + 1)) targets? missed'"
jq 'del(.make_slowdown_full_pct, .slowdown_full_long_pct)' "$top/docs/bench/run.json" >"$tmp/gone.json"
python3 "$top/bench/compare" "$top/bench/baseline.json" "$tmp/gone.json" "$top/docs/bench/micro.json" "$arm64" >"$tmp/gone"
check "bench/compare: a targeted figure the run lacks says NOT MEASURED and counts as missed" \
	sh -c "[ \$(grep -c 'NOT MEASURED\$' '$tmp/gone') -eq \$((\$(grep -c 'NOT MEASURED\$' '$tmp/now') + 2)) ] && tail -1 '$tmp/gone' | grep -qx '  $((missed + 2)) targets missed'"
# the soak table of docs/overhead.md is bench/soak-judge's of the soak
# committed in docs/bench/soak.json, and that soak held every check
sed -n '/^<!-- soak:begin -->$/,/^<!-- soak:end -->$/p' "$page" | sed '1,2d;$d' | sed '$d' >"$tmp/soak-page"
python3 "$top/bench/soak-judge" --table "$top/docs/bench/soak.json" >"$tmp/soak-now"
check "docs/overhead.md: the soak table is bench/soak-judge --table of docs/bench/soak.json" \
	sh -c "[ -s '$tmp/soak-now' ] && cmp -s '$tmp/soak-page' '$tmp/soak-now'"
check "docs/bench/soak.json: an hour on 6.12 and on 7.2-rt, every check held" \
	jq -e '([.[].kernel] | sort) == ["6.12", "7.2-rt"] and all(.[]; .seconds >= 3600 and (.checks | length) >= 10 and all(.checks[]; .ok))' \
	"$top/docs/bench/soak.json"
summary host
