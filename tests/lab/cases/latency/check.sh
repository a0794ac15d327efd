# Lab case "latency", checked. Under -icount a guest instruction is a
# nanosecond: the cost per node must be the walk loop's instructions per
# node (per_node_in_loop).

check_icount() {
	local j
	j=$(out latency.json)
	check "$k --latency under -icount: calibrated, fitted, the loop found" \
		jq_true "$j" '.targets[0].latency | .overhead.subtracted > 0 and .fit != null and .loop_instructions != null'
	per_node_in_loop "$j" ns
}

checks() {
	subtest icount check_icount
}
