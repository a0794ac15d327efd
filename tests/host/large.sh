# Host tier: a large table. whatif and report of a run file holding a
# 1,000,000-key dcache snapshot of 2^20 buckets (made by
# tests/tools/gen-large-run, never committed): whatif with its default
# options in under 10 s of CPU, report in under 2 s, and a status line
# on a terminal while they work. CPU time, not wall time: the build host
# is shared, and the wall time is printed beside it.
# PFTRACE=/path/to/pftrace runs these checks against another build.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$(realpath "${PFTRACE:-$top/pftrace}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

"$top/tests/tools/gen-large-run" --keys 1000000 --bits 20 --counted 65536 large.json
check "the generated run file is one pftrace reads (1,000,000 keys, 2^20 buckets)" \
	sh -c "'$pftrace' report --format json large.json | jq -e '.targets[0].snapshot | .entries == 1000000 and .buckets == 1048576'"

# cpu_of NAME COMMAND...: run COMMAND, its output in NAME.out; CPU seconds in NAME.cpu, wall in NAME.wall
cpu_of() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S %e' -o "$name.time" "$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
	awk '{ print $1 + $2 }' "$name.time" >"$name.cpu"
	awk '{ print $3 }' "$name.time" >"$name.wall"
}

cpu_of whatif "$pftrace" whatif large.json
check "whatif of 1M keys: exit 0, the identity holds, five layouts" \
	sh -c "[ \$(cat whatif.rc) = 0 ] && grep -q 'is the snapshot exactly' whatif.out && [ \$(grep -c '^  1000000/' whatif.out) = 5 ]"
check "...in under 10 s of CPU ($(cat whatif.cpu) s, $(cat whatif.wall) s wall)" \
	awk -v s="$(cat whatif.cpu)" 'BEGIN { exit !(s < 10) }'
cpu_of report "$pftrace" report large.json
check "report of 1M keys: exit 0, with its what-if verdict" \
	sh -c "[ \$(cat report.rc) = 0 ] && grep -q '^What if (__d_lookup_rcu' report.out"
check "...in under 2 s of CPU ($(cat report.cpu) s, $(cat report.wall) s wall)" \
	awk -v s="$(cat report.cpu)" 'BEGIN { exit !(s < 2) }'

# the status line: on a terminal (script(1) gives one), never into a pipe or a file
script -qec "'$pftrace' whatif large.json" /dev/null >whatif.tty 2>&1
check "whatif on a terminal: a status line for each layout" \
	sh -c "[ \$(tr '\r' '\n' <whatif.tty | grep -c 'what if __d_lookup_rcu: layout [1-5] of 5') -ge 5 ]"
check "...cleared before the table, whose five rows hold no status" \
	sh -c "tr '\r' '\n' <whatif.tty | grep -q '^.\[K' && [ \$(tr '\r' '\n' <whatif.tty | grep '^  1000000/' | grep -vc layout) = 5 ]"
script -qec "'$pftrace' report large.json" /dev/null >report.tty 2>&1
check "report on a terminal: a status line while it weighs a layout" \
	grep -q 'what if __d_lookup_rcu: layout 1 of' report.tty
check "whatif into a file: no status line" sh -c "! grep -q 'layout 1 of' whatif.out whatif.err"

summary host
