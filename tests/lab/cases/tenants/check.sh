# Lab case "tenants", checked. A and B run together; what pftrace counts
# for one (--cgroup, -p, --only-command) or charges to each (--by) must
# be the kernel's own count of that workload run alone (cache_stats),
# within 2%. C runs beside --only-command's command and must not be
# counted.

a= b= c=

alone() { # NAME: the mean of its two runs alone
	awk -v n="$1" '$2 == "ALONE" && $3 == n { s += $5; c++ } END { if (c) printf "%d", s / c }' "$log"
}
pids_of() { awk -v n="$1" '$2 == "PIDS" && $3 == n { print $4, $5 }' "$log"; }
within2() { # DESCRIPTION MEASURED EXPECTED
	if within_pct "${2:-0}" "${3:-0}" 2; then
		ok "$k tenants: $1: ${2:-?} within 2% of ${3:-?}"
	else
		not_ok "$k tenants: $1: ${2:-?} within 2% of ${3:-?}"
	fi
}
# counted_within DESCRIPTION COUNTED SKIPPED EXPECTED: a call the kernel
# skipped while the program was busy on that CPU (a recursion miss) is
# counted as skipped, never lost, but the kernel cannot say whose it was.
# So COUNTED lies in [EXPECTED - SKIPPED, EXPECTED], 2% either side, and
# the skipped are no more than a tenth of EXPECTED (7.2 once skipped 135
# of /A's 17,068 lookups here, 6.19 1,297 of 25,533 with C beside them).
counted_within() {
	local what="$k tenants: $1: ${2:-?} counted, ${3:-?} skipped, against ${4:-?}"
	if awk -v c="${2:-0}" -v s="${3:-0}" -v e="${4:-0}" \
		'BEGIN { exit !(e > 0 && c <= 1.02 * e && c + s >= 0.98 * e && c >= 0.9 * e) }'; then
		ok "$what"
	else
		not_ok "$what"
	fi
}
misses() { jq '.targets[0].overhead.recursion_misses' "$1" 2>/dev/null; }
# by_row JSON SELECT: the lookups of the --by row that SELECT picks
by_row() { jq ".targets[0].by.rows[] | select($2) | .lookups" "$1" 2>/dev/null; }

check_alone() {
	local n
	check "$k tenants: each load alone counted the same twice by the kernel (within 1.5%)" \
		sh -c "awk '\$2 == \"ALONE\" { v[\$3, \$4] = \$5 } END { for (n in v) { split(n, x, SUBSEP); if (x[2] == 1) { d = v[x[1], 1] - v[x[1], 2]; if (d < 0) d = -d; if (d > v[x[1], 1] * 0.015) exit 1 } } }' '$log'"
	for n in cgroup_A by_cgroup by_pid pid_A only_command; do
		check "$k tenants $n: exit 0" [ "$(rc_of "$n")" = 0 ]
	done
}

check_cgroup() {
	local j
	j=$(out cgroup_A.out)
	check "$k tenants --cgroup: the run file names the filter" \
		jq_true "$j" '.filter | .cgroup == "/sys/fs/cgroup/A" and .pid == null and .only_command == false and .cgroup_id > 1'
	counted_within "--cgroup A, with B running, counts A's lookups" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)" "$(misses "$j")" "$a"
}

check_by_cgroup() {
	local j
	j=$(out by_cgroup.out)
	counted_within "--by cgroup charges /A" "$(by_row "$j" '.name == "/A"')" "$(misses "$j")" "$a"
	counted_within "--by cgroup charges /B" "$(by_row "$j" '.name == "/B"')" "$(misses "$j")" "$b"
	check "$k tenants --by cgroup: rows add up to the lookups, none dropped, most nodes first" \
		jq_true "$j" '.targets[0] | .by.dropped == 0 and ([.by.rows[].lookups] | add) == .lookups and ([.by.rows[].nodes] | . == (sort | reverse))'
}

# A and B on one CPU: on PREEMPT_RT the kernel skips calls while the
# program is busy; nothing is lost silently: charged + missed = both
check_shared_cpu() {
	local j
	j=$(out shared_cpu.out)
	check "$k tenants shared_cpu: exit 0" [ "$(rc_of shared_cpu)" = 0 ]
	within2 "one CPU: charged to /A and /B, plus calls the kernel skipped (recursion misses $(jq '.targets[0].overhead.recursion_misses' "$j" 2>/dev/null))" \
		"$(jq '[.targets[0].by.rows[] | select(.name == "/A" or .name == "/B") | .lookups] + [.targets[0].overhead.recursion_misses] | add' "$j" 2>/dev/null)" "$((a + b))"
}

check_by_pid() {
	local j pa pb
	read -r pa pb <<<"$(pids_of by_pid)"
	j=$(out by_pid.out)
	counted_within "--by pid charges A's process" "$(by_row "$j" ".id == ${pa:-0}")" "$(misses "$j")" "$a"
	counted_within "--by pid charges B's process" "$(by_row "$j" ".id == ${pb:-0}")" "$(misses "$j")" "$b"
}

check_pid() {
	local j pa pb
	read -r pa pb <<<"$(pids_of pid_A)"
	j=$(out pid_A.out)
	check "$k tenants -p: the run file names the filter" jq_true "$j" ".filter.pid == ${pa:-0}"
	counted_within "-p A's pid, with B running, counts A's lookups" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)" "$(misses "$j")" "$a"
}

check_only_command() {
	local j
	j=$(out only_command.out)
	# the skipped include C's: the kernel skips before the filter runs
	counted_within "--only-command counts A's and B's, not C's beside them" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)" "$(misses "$j")" "$((a + b))"
	check "$k tenants --only-command: followed the command's forks, none dropped" \
		jq_true "$j" '.filter | .only_command and .followed >= 2 and .follow_dropped == 0'
	# the lookups counted, not a + b again: a fork's lookups before its
	# exec go to the parent's comm (two, pftrace), and the count above
	# already holds this run to 2% of a + b (6.19 once came to 2.3% here)
	within2 "--only-command --by comm charges avc-load with the lookups counted" "$(by_row "$j" '.name == "avc-load"')" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)"
	check "$k tenants: C, beside --only-command, is big enough to show (alone $c, over 4% of A + B)" \
		awk -v c="${c:-0}" -v s="$((a + b))" 'BEGIN { exit !(c > 0.04 * s) }'
}

check_schema() {
	check "$k tenants: run files match docs/run-file.schema.json" \
		"$top/tests/tools/lab-schema" "$top/docs/run-file.schema.json" "$(out cgroup_A.out)" "$(out by_pid.out)" "$(out only_command.out)"
}

# fleet: -i 0.25 -o FILE.prom --by cgroup, A then B, the .prom served by
# node_exporter's textfile collector
check_fleet() {
	local pa pb n
	check "$k tenants fleet: exit 0" [ "$(rc_of fleet)" = 0 ]
	check "$k tenants fleet: stdout is JSON lines, interval records then the run" \
		"$top/tests/tools/lab-intervals" fleet "$(out fleet.out)"
	mkdir -p "$dir/textfile"
	cp "$(out fleet.prom)" "$dir/textfile/pftrace.prom"
	"$top/tests/tools/scrape-node-exporter" "$dir/textfile" >"$dir/scrape" 2>"$dir/scrape.err"
	check "$k tenants fleet: node_exporter's textfile collector serves the .prom without error, counts as in the run" \
		"$top/tests/tools/lab-metrics" scrape "$dir/scrape" "$(out fleet.out)"
	pa=$("$top/tests/tools/lab-metrics" by-lookups "$dir/scrape" A)
	pb=$("$top/tests/tools/lab-metrics" by-lookups "$dir/scrape" B)
	n=$(tail -n 1 "$(out fleet.out)" | jq '.targets[0].overhead.recursion_misses' 2>/dev/null)
	counted_within "scraped pftrace_by_lookups_total{cgroup=\"/A\"}" "$pa" "$n" "$a"
	counted_within "scraped pftrace_by_lookups_total{cgroup=\"/B\"}" "$pb" "$n" "$b"
	check "$k tenants fleet: the .prom copied between A and B already held A's lookups, and none of B's" \
		"$top/tests/tools/lab-metrics" mid "$(out fleet-mid.prom)" "$a"
}

check_refusals() {
	expect_refusal bad_cgroup "not a cgroup v2 directory"
	expect_refusal bad_pid "no such process"
}

checks() {
	a=$(alone A) b=$(alone B) c=$(alone C)
	subtest alone check_alone
	subtest cgroup check_cgroup
	subtest by_cgroup check_by_cgroup
	subtest shared_cpu check_shared_cpu
	subtest by_pid check_by_pid
	subtest pid check_pid
	subtest only_command check_only_command
	subtest schema check_schema
	subtest fleet check_fleet
	subtest refusals check_refusals
}
