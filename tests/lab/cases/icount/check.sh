# Lab case "icount", checked: under -icount shift=0 one guest instruction
# is one ns of QEMU's virtual clock and one emulated cycle, so the
# instructions event opens, and --latency's cycles per node must be the
# instructions of avc_lookup's walk loop (found in its code).

check_insn() {
	local j
	j=$(out insn.json)
	# QEMU delivers the instructions overflow at the guest's next
	# interrupt window (el0_svc, idle), so no check of where they land
	check "$k insn: exit 0" [ "$(rc_of insn)" = 0 ]
	check "$k insn: sampled instructions on every CPU, no fallback, kernel samples" \
		jq_true "$j" '.sampling.event == "instructions" and .sampling.fallback == false and .sampling.cpus == .machine.cpus and .sampling.kernel > 0'
}

check_per_node() {
	local j
	j=$(out latency.json)
	check "$k --latency under -icount: in cycles, fitted, the loop found" \
		jq_true "$j" '.targets[0].latency | .unit == "cycles" and .fit != null and .loop_instructions != null'
	# the cost per node lies within the shortest and the longest path
	# once round the loop, widened by one, and its 95% interval overlaps
	# them (as case latency's check in ns on x86)
	check "$k --latency under -icount: $(jq -r '.targets[0].latency.fit.per_node | . * 100 | round / 100' "$j" 2>/dev/null) cycles per node within the walk loop's $(jq -r '.targets[0].latency.loop_instructions | "\(.min_path) to \(.max_path)"' "$j" 2>/dev/null) instructions" \
		jq_true "$j" '.targets[0].latency | (.fit.poor | not) and .fit.per_node >= .loop_instructions.min_path - 1 and .fit.per_node <= .loop_instructions.max_path + 1 and .fit.per_node_hi >= .loop_instructions.min_path and .fit.per_node_lo <= .loop_instructions.max_path'
}

checks() {
	subtest insn check_insn
	subtest per_node check_per_node
}
