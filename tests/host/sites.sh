# Host tier: the prefetch census and kernel-wide sampling on the build
# host's kernel, which has no /proc/kcore and no PMU: kernel text comes
# through BPF, samples from cpu-clock, and both must say so.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$top/pftrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$pftrace" sites --format json >"$tmp/sites.json"
check "sites: exit 0" [ $? -eq 0 ]
if [ -e /proc/kcore ]; then src=kcore; else src=BPF; fi
check "sites: kernel text from $src, as this host allows" \
	jq_true "$tmp/sites.json" ".text_source | contains(\"$src\")"
check "sites: prefetch instructions found in the kernel's text" \
	jq_true "$tmp/sites.json" '(.sites | length) > 10 and .functions_with_prefetch > 5 and .functions_scanned > 10000'
check "sites: the slab allocator's prefetch among them" \
	jq_true "$tmp/sites.json" '[.sites[] | select(.function | startswith("kmem_cache_alloc"))] | length > 0'
check "sites: totals by mnemonic add up to the sites" \
	jq_true "$tmp/sites.json" '([.totals[]] | add) == (.sites | length)'
check "sites: every site's bytes hold the 0F 18 or 0F 0D opcode" \
	jq_true "$tmp/sites.json" '[.sites[].bytes | test("(^| )0f (18|0d) ")] | all'
"$pftrace" sites -f avc_lookup --format json >"$tmp/avc.json"
check "sites -f avc_lookup: none in it" jq_true "$tmp/avc.json" '(.sites | length) == 0 and .functions_scanned == 1'

"$pftrace" sites -d 3 --format json -- sh -c \
	'i=0; while [ $i -lt 3000 ]; do cat /proc/self/stat /proc/self/status >/dev/null; i=$((i + 1)); done' \
	>"$tmp/sampled.json"
check "sites -d: exit 0" [ $? -eq 0 ]
check "sites -d: no PMU here, cpu-clock sampled instead, and said" \
	jq_true "$tmp/sampled.json" '.sampling.event == "cpu-clock" and .sampling.asked == "cycles" and .sampling.fallback and (.sampling.note | contains("no hardware PMU"))'
check "sites -d: a syscall-heavy workload's samples go to kernel functions" \
	jq_true "$tmp/sampled.json" '.sampling.kernel > 50 and ([.sampling.hottest_functions[].samples] | add) > 50 and (.sampling.hottest_functions | length) >= 5'

[ -e /proc/kcore ] || refuses "--text-from kcore without a kcore" "/proc/kcore: No such file" "$pftrace" sites --text-from kcore
refuses "an unknown event" "-e no-such-event: unknown event" "$pftrace" sites -d 1 -e no-such-event
refuses "-F 0" "-F 0: out of range" "$pftrace" sites -d 1 -F 0
refuses "-F above the kernel's limit" "out of range" "$pftrace" sites -d 1 -F 100000000
refuses "a function not in kallsyms" "no_such_fn: not a kernel function" "$pftrace" sites -f no_such_fn
refuses "trace -e unknown" "-e no-such-event: unknown event" "$pftrace" -f avc_lookup -e no-such-event -d 1
refuses "trace -F out of range" "-F 0: out of range" "$pftrace" -f avc_lookup -F 0 -d 1
summary host
