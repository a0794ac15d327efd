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
# the README's table is bench/compare of the measured run in docs/bench/
sed -n '/^<!-- bench:begin -->$/,/^<!-- bench:end -->$/p' "$top/README.md" | sed '1,2d;$d' | sed '$d' >"$tmp/readme"
python3 "$top/bench/compare" "$top/bench/baseline.json" "$top/docs/bench/run.json" "$top/docs/bench/micro.json" >"$tmp/now"
check "README: the benchmark table is bench/compare of docs/bench/, not edited by hand" cmp -s "$tmp/readme" "$tmp/now"
summary host
