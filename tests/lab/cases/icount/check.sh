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
	check "$k --latency: avc_lookup attached by $(arm64_method) (arm64's fexit needs ftrace direct calls, 6.4+)" \
		jq_true "$j" ".targets[0].method == \"$(arm64_method)\""
	check "$k --latency under -icount: in cycles, fitted, the loop found" \
		jq_true "$j" '.targets[0].latency | .unit == "cycles" and .fit != null and .loop_instructions != null'
	per_node_in_loop "$j" cycles
}

checks() {
	subtest insn check_insn
	subtest per_node check_per_node
}
