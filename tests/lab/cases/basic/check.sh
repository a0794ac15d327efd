# Lab case "basic", checked: what guest.sh printed, against the kernel's
# own counters and facts (tests/lab/lib.sh has the helpers).

check_features() {
	local f feat
	f=$(out features.out)
	for feat in btf fentry kprobes selinux kallsyms kcore; do
		check "$k features: $feat yes" jq_true "$f" ".features.\"$feat\".available"
	done
	check "$k features: perf-hw reported (TCG has no PMU)" \
		jq_true "$f" '.features."perf-hw".available == false'
	check "$k features text: fentry yes" grep -qE '^  fentry +yes' "$(out features_text.out)"
}

check_list() {
	check "$k list: avc recipe attachable via fexit" \
		jq_true "$(out list.out)" '.recipes[] | select(.recipe == "avc") | .attachable and (.method | startswith("fexit")) and (.answers_to | contains("avc_has_perm_noaudit"))'
	check "$k list text: avc row" grep -qE '^avc +avc_lookup +fexit' "$(out list_text.out)"
}

check_dry_run() {
	local f why
	f=$(out dry_run.err)
	check "$k --dry-run: exit 0" [ "$(rc_of dry_run)" = 0 ]
	# inlined away entirely where kallsyms has no such symbol, else a
	# notrace copy (5.10's BTF leaves such functions out too)
	if [ "$(value_of noaudit_symbols)" = 0 ]; then
		why="inlined away in this kernel (no such function)"
	else
		why="notrace on this kernel"
	fi
	check "$k --dry-run: says $why and traces avc_lookup instead" \
		grep -q "avc_has_perm_noaudit: $why.*; tracing avc_lookup, which does its chain walk" "$f"
	check "$k --dry-run: plan names fexit" grep -q 'plan: avc_has_perm_noaudit -> avc_lookup via fexit' "$f"
}

check_refusals() {
	expect_refusal bad_function "no_such_function: no recipe knows this function (known: avc_has_perm_noaudit"
	expect_refusal bad_duration "-d wants a number of seconds"
	expect_refusal bad_btf "not a kernel BTF"
	expect_refusal missing_btf "--btf /no/such/btf"
	expect_refusal not_root "tracing needs CAP_BPF and CAP_PERFMON (or root); this process lacks CAP_BPF, CAP_PERFMON"
	expect_refusal bad_knob "unknown knob 'no.such'"
	expect_refusal bad_command "cannot run '/no/such/command'"
	expect_refusal duplicate "traced already"
}

# Least privilege: every capability dropped but CAP_BPF, CAP_PERFMON and
# CAP_SYSLOG; perf_event_paranoid as this kernel booted (Debian's 3 keeps
# perf events, kprobes and samples, for CAP_SYS_ADMIN), then 2
check_caps() {
	local paranoid j
	paranoid=$(awk '$2 == "PARANOID" { print $3 }' "$log")
	j=$(out caps_features.out)
	check "$k caps-only features: fentry and kallsyms with CAP_BPF, CAP_PERFMON, CAP_SYSLOG" \
		jq_true "$j" '.features.fentry.available and .features.kallsyms.available'
	check "$k caps-only features: kcore and BPF stats name the capability they lack" \
		jq_true "$j" '(.features.kcore.detail | contains("CAP_SYS_RAWIO")) and (.features."bpf-stats".available | not) and (.features."bpf-stats".detail | contains("CAP_SYS_ADMIN"))'
	if [ "${paranoid:-0}" -ge 3 ]; then
		check "$k caps-only features, perf_event_paranoid $paranoid: kprobes refused, and it says why" \
			jq_true "$j" '(.features.kprobes.available | not) and (.features.kprobes.detail | contains("perf_event_paranoid is 3"))'
	else
		check "$k caps-only features, perf_event_paranoid $paranoid: kprobes" jq_true "$j" '.features.kprobes.available'
	fi
	check "$k caps-only features, perf_event_paranoid 2: kprobes" \
		jq_true "$(out caps_features2.out)" '.features.kprobes.available'
	j=$(out caps_only.out)
	check "$k caps-only trace: exit 0, avc_lookup by fexit" \
		sh -c "[ '$(rc_of caps_only)' = 0 ] && jq -e '.targets[0].traced == \"avc_lookup\" and .targets[0].method == \"fexit\"' '$j' >/dev/null"
	check "$k caps-only trace: lookups > 0, self-check >= 99.9%" \
		jq_true "$j" '.targets[0] | .lookups > 0 and .self_check.ok and .self_check.agree * 1000 >= .self_check.checked * 999'
	check "$k caps-only trace: overhead unmeasured, and the run file says why" \
		jq_true "$j" '(.bpf_stats | contains("CAP_SYS_ADMIN")) and (.targets[0].overhead.ns_per_call == null)'
	if [ "${paranoid:-0}" -ge 3 ]; then
		check "$k caps-only trace, perf_event_paranoid $paranoid: no samples, and the run file says why" \
			jq_true "$j" '.sampling == null and (.not_sampled | contains("perf_event_paranoid is 3"))'
	else
		check "$k caps-only trace, perf_event_paranoid $paranoid: samples taken" jq_true "$j" '.sampling.total > 0'
	fi
	check "$k caps-only trace by kprobe, perf_event_paranoid 2: self-check >= 99.9%, samples taken" \
		sh -c "[ '$(rc_of caps_kprobe2)' = 0 ] && jq -e '.targets[0].method == \"kprobe\" and .targets[0].lookups > 0 and .targets[0].self_check.ok and .targets[0].self_check.agree * 1000 >= .targets[0].self_check.checked * 999 and .sampling.total > 0' '$(out caps_kprobe2.out)' >/dev/null"
}

check_signals() {
	check_bracketed short_int INT fexit
	check_bracketed short_term TERM kprobe
}

# direct loads (bpf/walk.bpf.h) on kernels with bpf_rdonly_cast (6.2+),
# probe reads elsewhere; the self-check of the signals judged every walk
check_loads() {
	local j
	j=$(out short_int.json)
	if [ "$(value_of rdonly_cast_symbols)" = 0 ]; then
		check "$k loads: no bpf_rdonly_cast in kallsyms, fexit walks by probe reads" \
			jq_true "$j" '.targets[0] | .method == "fexit" and .loads == "probe"'
	else
		check "$k loads: bpf_rdonly_cast in kallsyms, fexit walks by direct loads" \
			jq_true "$j" '.targets[0] | .method == "fexit" and .loads == "direct"'
	fi
	check "$k loads: -C loads=probe walks by probe reads, self-check >= 99.9%" \
		sh -c "[ '$(rc_of loads_probe)' = 0 ] && jq -e '.targets[0] | .loads == \"probe\" and .lookups > 0 and .self_check.ok and .self_check.agree * 1000 >= .self_check.checked * 999' '$(out loads_probe.out)' >/dev/null"
}

# plain adds to the per-CPU counters where the kernel skips a program
# that would run inside itself (fexit from 5.12, kprobes always); the
# cache_stats checks of the signals and the duty cycle hold them to the
# kernel's count
check_adds() {
	local j
	j=$(out short_int.json)
	if [ "$k" = 5.10 ]; then
		check "$k adds: fexit on 5.10 (no per-program recursion guard) keeps atomic adds" \
			jq_true "$j" '.targets[0] | .method == "fexit" and .adds == "atomic"'
	else
		check "$k adds: fexit, with the kernel's per-program recursion guard, takes plain adds" \
			jq_true "$j" '.targets[0] | .method == "fexit" and .adds == "plain"'
	fi
	check "$k adds: kprobes take plain adds" jq_true "$(out short_term.json)" \
		'.targets[0] | .method == "kprobe" and .adds == "plain"'
	check "$k adds: -C adds=atomic keeps atomic adds, self-check >= 99.9%" \
		sh -c "[ '$(rc_of adds_atomic)' = 0 ] && jq -e '.targets[0] | .adds == \"atomic\" and .lookups > 0 and .self_check.ok and .self_check.agree * 1000 >= .self_check.checked * 999' '$(out adds_atomic.out)' >/dev/null"
}

check_walk_off() {
	check "$k -C walk=off (the benchmark's floor): the programs ran on every call and walked none" \
		sh -c "[ '$(rc_of walk_off)' = 0 ] && [ -s '$(out walk_off.out)' ] && jq -e '.targets[0] | .overhead.runs > 1000 and .calls == 0 and .lookups == 0' '$(out walk_off.out)' >/dev/null"
}

# Linus's 2011 case: short chains, so the old macro mostly prefetched NULL
check_short_chains() {
	local j
	j=$(out short_int.json)
	check "$k short chains: mean nodes walked <= 1.5" jq_true "$j" '.targets[0].walk.mean_nodes <= 1.5'
	check "$k short chains: most of the old macro's prefetches were of NULL" \
		jq_true "$j" '.targets[0].prefetch_model | .null * 2 > .issued'
}

check_interval() {
	local f reports finals
	f=$(out interval.out)
	reports=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' "$f")
	finals=$(grep -c '^pftrace .* (duration)$' "$f")
	check "$k -i 0.5 -d 1.6: exit 0" [ "$(rc_of interval)" = 0 ]
	check "$k -i 0.5 -d 1.6: three interval reports, then the final one" \
		[ "$reports" -eq 3 -a "$finals" -eq 1 ]
	check "$k -i: every interval saw lookups" \
		[ "$(awk '/^  lookups/ && $2 > 0' "$f" | wc -l)" -eq 4 ]
	# -i with --format json is JSON all through, a line each
	"$top/pftrace" plot "$(out interval_json.out)" -o "$dir/heat.svg" 2>/dev/null
	check "$k plot of -i's JSON lines: a heat map of three intervals that renders" \
		sh -c "rsvg-convert '$dir/heat.svg' -o '$dir/heat.png' && '$top/tests/tools/png-ink' '$dir/heat.png' | awk '{ exit !(\$3 > 0.02 && \$4 >= 3) }' && grep -q '>1.5<' '$dir/heat.svg'"
	check "$k -i 0.5 -d 1.6 --format json: three interval lines, then the run, all JSON" \
		"$top/tests/tools/lab-intervals" interval "$(out interval_json.out)" "$(rc_of interval_json)"
}

check_overhead() {
	local j
	j=$(out short_int.json)
	check "$k overhead: BPF run time measured for the session" \
		jq_true "$j" '.bpf_stats == "" and .targets[0].overhead.ns_per_call > 0 and .targets[0].overhead.cpu_pct > 0'
	check "$k overhead: one fexit run per traced call" \
		jq_true "$j" '.targets[0] | .overhead.runs + .overhead.recursion_misses == .calls'
	# (calls in flight while the pair attaches or detaches run only one half)
	check "$k overhead: kprobe + kretprobe, two runs per call" \
		jq_true "$(out short_term.json)" '.targets[0] | (.overhead.runs - 2 * .calls) as $d | (if $d < 0 then -$d else $d end) <= 0.01 * .overhead.runs'
	check "$k start-up time and peak RSS reported" \
		jq_true "$j" '.startup_ms > 0 and .peak_rss_kb > 1000'
}

check_sample_calls() {
	local j
	j=$(out sampled.out)
	check "$k --sample-calls 16: exit 0, marked sampled" \
		sh -c "[ '$(rc_of sampled)' = 0 ] && jq -e '.targets[0].sampled_1_in == 16 and .targets[0].scaled.lookups == .targets[0].calls' '$j' >/dev/null"
	# each CPU walks 1 call in 16 of its own: at most one extra per CPU
	check "$k --sample-calls 16: lookups = calls / 16 per CPU" \
		jq_true "$j" '.targets[0] | .lookups >= (.calls / 16 | floor) and .lookups <= (.calls / 16 | floor) + 2'
	check "$k --sample-calls 16: self-check still passes" jq_true "$j" '.targets[0].self_check.ok'
}

# --sample 2 --slice 200: attached one slice in two; the counts are of
# that time, scaled by the run's duration over it. The programs walk
# only between the resume after the attach and the pause before the
# detach (walk_pause), so the time counted is the slices' own. A detach
# waits for an RCU-tasks grace period, and 6.1 keeps the programs live
# through most of it: counted from the start of each attach to the end
# of its detach, ten slices of 200 ms on 6.1 came to 5.6 s. The estimate
# assumes tracing does not slow the workload, and here it does: a traced
# call costs many times an untraced one (on 5.10 a slice saw 110,000
# lookups/s where the untraced rest ran millions), so the scaled count
# comes out low. What must hold everywhere: it never overestimates the
# kernel's own count (cache_stats) by more than 25%, the walked lookups
# are exact data (self-check, sums), the time walked is the slices' and
# no more (10% and 50 ms for wake-ups) nor less (a slice counted from
# its period's start came out short after a slow attach), the attaches
# and detaches were timed, and nothing is left attached. A kprobe target stays attached,
# says so, and counts everything.
check_duty() {
	local j klookups scaled old_kernel=false
	# a detached fexit program attaches again only on 5.19+
	release_at_least 5.19 || old_kernel=true
	j=$(out duty_fexit.json)
	check "$k duty_fexit: exit 0" [ "$(rc_of duty_fexit)" = 0 ]
	check_run_json duty_fexit "$j" fexit
	check "$k duty_fexit: 1 slice in 2 of 200 ms, walked the slices' time and no more, scale = duration / attached" \
		jq_true "$j" '. as $r | .targets[0].duty_cycle | .one_in == 2 and .slice_ms == 200 and .slices >= 1 and .attached_s > 0 and .attached_s <= 0.22 * .slices + 0.05 and .scale >= 1 and (.attached_s >= $r.duration_s or ((.scale * .attached_s - $r.duration_s) | fabs) < 0.01)'
	check "$k duty_fexit: every slice but the last walked its 200 ms; detached between them, the attaches and detaches timed, where the kernel re-attaches (5.19+)" \
		jq_true "$j" "$old_kernel as \$old | "'.targets[0].duty_cycle | .attached_s >= 0.18 * (.slices - 1) and .slices >= 2 and if $old then .stays_attached == true and .switching_s == 0 else .stays_attached == null and .switching_s > 0 and .detach_ms > 0 and .attach_ms > 0 end'
	klookups=$(kernel_lookups duty_fexit)
	scaled=$(jq '.targets[0].scaled.lookups' "$j" 2>/dev/null)
	if [ "${scaled:-0}" -gt 0 ] && [ "${klookups:-0}" -gt 0 ] &&
	   [ "$((scaled * 100))" -le "$((klookups * 125))" ]; then
		ok "$k duty_fexit: scaled lookups $scaled, at most 125% of cache_stats delta $klookups ($((scaled * 100 / klookups))%)"
	else
		not_ok "$k duty_fexit: scaled lookups ${scaled:-?}, at most 125% of cache_stats delta ${klookups:-?}"
	fi
	check "$k duty_fexit: the text says what was sampled" \
		grep -q 'SAMPLED: attached 1 slice of 200 ms in 2' "$(out duty_fexit.out)"
	no_progs_left duty_fexit
	# Without --slice, pftrace lengthens the slices from 20 ms, up to 1 s,
	# until a slice's walks (BPF run time, at the rate measured so far)
	# cost twice a switch (its own CPU for a detach and an attach). The
	# run file holds both costs, so the slice it reports must be the
	# rule's, and slices kept at 20 ms would walk 0.02 s each.
	j=$(out duty_chosen.json)
	check "$k duty_chosen: exit 0" [ "$(rc_of duty_chosen)" = 0 ]
	check_run_json duty_chosen "$j" fexit
	if [ "$old_kernel" = false ]; then
		check "$k duty_chosen: slices chosen, from both costs measured" \
			jq_true "$j" '.targets[0].duty_cycle | .slice_chosen == true and .switch_cpu_ms > 0 and .walk_cpu_s > 0 and .walk_cpu_s < 2 * .attached_s'
		# the slice in force was chosen at the last switch, from the costs
		# up to then; the run's totals add its last slice and detach
		check "$k duty_chosen: the slice is about the rule's: twice a switch over the walks' rate, within 20-1000 ms" \
			jq_true "$j" '.targets[0].duty_cycle | ([[2 * .switch_cpu_ms / (.walk_cpu_s / .attached_s), 20] | max, 1000] | min) as $want | .slice_ms >= 20 and .slice_ms <= 1000 and .slice_ms >= $want / 2 and .slice_ms <= $want * 2'
		check "$k duty_chosen: 3 slices or more, lengthened past 20 ms, none past 1 s" \
			jq_true "$j" '.targets[0].duty_cycle | .slices >= 3 and .attached_s > 0.02 * .slices + 0.05 and .attached_s <= 0.025 + 1.05 * (.slices - 1)'
		check "$k duty_chosen: the text says how the slices were chosen" \
			grep -q 'SAMPLED: attached 1 slice in 2, .* lengthened until a slice.s walks cost twice a switch (a switch: ' "$(out duty_chosen.out)"
	else
		# before 5.19 the programs stay attached: switching is a pause, and costs nothing to weigh
		check "$k duty_chosen: kept attached, so slices stay at 20 ms, and the text says why" \
			sh -c "[ -s '$j' ] && jq -e '.targets[0].duty_cycle | .stays_attached == true and .slice_chosen == null and .slice_ms == 20 and .slices >= 20 and .attached_s <= 0.03 * .slices + 0.05 and .switching_s == 0' '$j' >/dev/null && grep -q 'cannot attach a detached fexit program again' '$(out duty_chosen.out)'"
	fi
	no_progs_left duty_chosen
	# An -i line's walks are costed at the run's rate over its own time
	# walked: on 2 CPUs, at most twice that time (once the session's
	# total was set against an interval's 20 ms). A line between slices
	# walked nothing and says so: no lookups, no time attached (once it
	# claimed a 20 ms slice). Chosen slices of 1 s at --sample 4 leave
	# whole seconds between them; 5.10's 20 ms ones, every 80 ms, do not.
	check "$k duty_interval: every -i line and the run cost its walks over its own time walked" \
		"$top/tests/tools/lab-intervals" duty "$(out duty_interval.out)" "$(rc_of duty_interval)" "$old_kernel"
	j=$(out duty_kprobe.json)
	check "$k duty_kprobe: exit 0, the kprobe target stays attached and says so" \
		sh -c "[ '$(rc_of duty_kprobe)' = 0 ] && grep -q 'traced by kprobes, which stay attached' '$(out duty_kprobe.err)'"
	check "$k duty_kprobe: no duty cycle in the run file" jq_true "$j" '.targets[0].duty_cycle == null'
	within_oracle "duty_kprobe: lookups" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)" "$(kernel_lookups duty_kprobe)"
}

check_max_overhead() {
	check "$k --max-overhead: a busy box trips the cap, exit 0" [ "$(rc_of capped)" = 0 ]
	check "$k --max-overhead: says so on stderr" grep -q 'passed --max-overhead 0.5%; stopped after' "$(out capped.err)"
	check "$k --max-overhead: run file says overhead cap, data kept" \
		jq_true "$(out capped.json)" '.end_reason == "overhead cap" and .targets[0].lookups > 0 and .duration_s < 30'
}

# the prefetch census
check_sites() {
	local j
	j=$(out sites_all.out)
	check "$k sites: exit 0, text read from /proc/kcore" \
		sh -c "[ '$(rc_of sites_all)' = 0 ] && jq -e '.text_source == \"/proc/kcore\" and .functions_scanned > 10000' '$j' >/dev/null"
	check "$k sites: prefetch instructions found in the kernel's text" \
		jq_true "$j" '(.sites | length) > 0'
	check "$k sites: every site's bytes are 0F 18 /0-3 or 0F 0D /0-1 and decode as a prefetch" \
		"$top/tests/tools/lab-sites" x86-prefetch "$j"
	check "$k sites -f avc_lookup: none there" \
		jq_true "$(out sites_avc.out)" '.functions_scanned == 1 and (.sites | length) == 0'
	check "$k sites -d: cpu-clock fallback reported, samples given to kernel functions" \
		jq_true "$(out sites_sampled.out)" '.sampling.fallback and .sampling.event == "cpu-clock" and .sampling.kernel > 0 and (.sampling.hottest_functions | length) > 3'
}

# Samples beside the walks. Not "no samples at all": the window's exec
# and exit make ~45 real lookups, and 0-4 samples land on them (more than
# their count suggests; TCG seems to charge cold code its translation
# time). So compare shares with a loaded run at the same rate.
check_samples() {
	check "$k samples: a workload that never looks up the AVC puts under a fifth of an AVC load's share there" \
		"$top/tests/tools/lab-samples" "$(out avccall.out)" "$(out nocall.out)"
	expect_refusal bad_event "-e no-such-event: unknown event"
	expect_refusal bad_freq "-F 0: out of range"
	expect_refusal no_kcore "/proc/kcore: is a character device, not a regular file"
}

check_sigkill() {
	check "$k SIGKILL: programs attached before the kill" grep -q '_avc_look' "$(out kill.during)"
	check "$k SIGKILL: no pftrace program left" sh -c "! grep -q '_avc_look' '$(out kill.after)'"
}

checks() {
	subtest features check_features
	subtest list check_list
	subtest dry_run check_dry_run
	subtest refusals check_refusals
	subtest caps check_caps
	subtest signals check_signals
	subtest loads check_loads
	subtest adds check_adds
	subtest walk_off check_walk_off
	subtest short_chains check_short_chains
	subtest interval check_interval
	subtest overhead check_overhead
	subtest sample_calls check_sample_calls
	subtest duty check_duty
	subtest max_overhead check_max_overhead
	subtest sites check_sites
	subtest samples check_samples
	subtest sigkill check_sigkill
}
