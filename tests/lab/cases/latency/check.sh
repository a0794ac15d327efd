# Lab case "latency", checked. Under -icount a guest instruction is a
# nanosecond: the cost per node must be the walk loop's instructions per
# node. Tolerance, stated: the fit lies within the shortest and the
# longest path once round the loop (which compare fails first varies from
# node to node), widened by one instruction, and its 95% interval overlaps
# that range.

check_icount() {
	local j
	j=$(out latency.json)
	check "$k --latency under -icount: calibrated, fitted, the loop found" \
		jq_true "$j" '.targets[0].latency | .overhead.subtracted > 0 and .fit != null and .loop_instructions != null'
	check "$k --latency under -icount: cost per node $(jq -r '.targets[0].latency.fit.per_node | . * 100 | round / 100' "$j" 2>/dev/null) ns within the walk loop's $(jq -r '.targets[0].latency.loop_instructions | "\(.min_path) to \(.max_path)"' "$j" 2>/dev/null) instructions" \
		jq_true "$j" '.targets[0].latency | (.fit.poor | not) and .fit.per_node >= .loop_instructions.min_path - 1 and .fit.per_node <= .loop_instructions.max_path + 1 and .fit.per_node_hi >= .loop_instructions.min_path and .fit.per_node_lo <= .loop_instructions.max_path'
}

checks() {
	subtest icount check_icount
}
