# Lab case "pmu", checked: the run files' own sampling sections and
# latency units. Every check of an event fails when pftrace falls back to
# cpu-clock (or --latency to ns).

# a sampled trace of avc_lookup with EVENT and no fallback: the run
# file's own sampling section, and samples that landed in the function
no_fallback() { # CASE JSON EVENT
	check "$k $1: exit 0" [ "$(rc_of "$1")" = 0 ]
	check "$k $1: sampled $3 on every CPU, no fallback" \
		jq_true "$2" ".sampling.event == \"$3\" and .sampling.asked == \"$3\" and .sampling.fallback == false and .sampling.cpus == .machine.cpus and .sampling.total > 0"
	check "$k $1: $3 samples landed in avc_lookup, every one inside it" \
		jq_true "$2" '.targets[0].samples as $s | $s.function == "avc_lookup" and $s.samples > 0 and ([$s.hottest[] | .offset < $s.size] | all)'
}

check_features() {
	check "$k features: a hardware PMU, said to be emulated, and --latency in cycles" \
		jq_true "$(out features.out)" '.features["perf-hw"].available and (.features["perf-hw"].detail | contains("emulated PMU")) and (.features.latency.detail | startswith("cycles") and contains("emulated"))'
	check "$k: the guest's PMU lists cpu_cycles" grep -qx cpu_cycles "$(out pmu_events)"
}

check_cycles() {
	local j
	j=$(out avc.json)
	no_fallback avc "$j" cycles
	check "$k avc: the self-check passes, over 99.9% of walks" \
		jq_true "$j" '.targets[0].self_check | .ok and .agree * 1000 >= .checked * 999 and .checked > 0'
	check "$k avc: the machine is aarch64, an emulated CPU" \
		jq_true "$j" '.machine.arch == "aarch64" and (.machine.cpu | startswith("an emulated CPU (implementer 0x00"))'
	check "$k avc: the annotation is avc_lookup's arm64 code (a load among the hottest)" \
		jq_true "$j" '[.targets[0].samples.hottest[].instruction | test("^ldr")] | any'
}

check_latency() {
	local j
	j=$(out latency.json)
	check "$k --latency: exit 0, in cycles" \
		sh -c "[ '$(rc_of latency)' = 0 ] && jq -e '.targets[0].latency.unit == \"cycles\"' '$j' >/dev/null"
	check "$k --latency: lookups per node count, the walk loop found in avc_lookup's code" \
		jq_true "$j" '.targets[0].latency | (.by_nodes | length) > 1 and .loop_instructions.min_path > 0 and .loop_instructions.min_path <= .loop_instructions.max_path'
}

check_names() {
	no_fallback pmu_named "$(out pmu_named.json)" armv8_pmuv3/cpu_cycles/
	check "$k -e cpu_cycles (the PMU's sysfs name): exit 0, no fallback" \
		jq_true "$(out pmu_bare.out)" '.sampling.event == "cpu_cycles" and .sampling.fallback == false and .sampling.total > 0'
	check "$k -e perf::CYCLES (libpfm4's generic event): exit 0, no fallback" \
		jq_true "$(out pfm_generic.out)" '.sampling.fallback == false and .sampling.total > 0'
	# libpfm4 knows no core PMU for implementer 0x00, part 0x051
	check "$k -e CPU_CYCLES: libpfm4 has no table for QEMU's CPU, refused" \
		sh -c "[ '$(rc_of pfm_core)' = 2 ] && grep -q 'unknown event' '$(out pfm_core.err)'"
}

# How avc_lookup attaches, by the kernel's facts (arm64_method: kprobe on
# 5.10 and 6.1, where arm64 has no ftrace direct calls for fexit), and
# its lookups against the kernel's count. On 5.10 avc_lookup is in
# kallsyms but not in BTF: pftrace must say so, and kprobe it.
check_attach() {
	check_bracketed oracle INT "$(arm64_method)"
	if [ "$(value_of avc_btf)" != 0 ]; then
		check "$k oracle: avc_lookup in BTF ($(value_of avc_btf)), and pftrace says nothing of its absence" \
			jq_true "$(out oracle.json)" '.targets[0].plan // "" | contains("not in this kernel'"'"'s BTF") | not'
	else
		check "$k: avc_lookup not in BTF, and a text symbol in kallsyms" \
			grep -qE '^[0-9a-f]+ [tT] avc_lookup$' "$(out avc_ksym)"
		check "$k oracle: pftrace says avc_lookup is not in BTF, so kprobes it" \
			jq_true "$(out oracle.json)" '.targets[0].plan | contains("avc_lookup: not in this kernel'"'"'s BTF, though kallsyms lists it: no fexit without BTF; using kprobe + kretprobe")'
	fi
}

checks() {
	subtest features check_features
	subtest attach check_attach
	subtest cycles check_cycles
	subtest latency check_latency
	subtest names check_names
}
