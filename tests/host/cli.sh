# Host tier: the static pftrace binary on the build host's own kernel,
# which refuses fentry, has no kprobes, no PMU and no SELinux (see
# docs/lab.md). pftrace must say so honestly and refuse cleanly.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$top/pftrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "pftrace is statically linked" sh -c "file -L '$pftrace' | grep -q 'statically linked'"
if describe=$(git -C "$top" describe --always --dirty 2>/dev/null); then
	check "--version prints the VERSION file and git describe" \
		[ "$("$pftrace" --version)" = "pftrace $(cat "$top/VERSION") (git $describe)" ]
else
	check "--version prints the VERSION file" [ "$("$pftrace" --version)" = "pftrace $(cat "$top/VERSION")" ]
fi
check "version subcommand agrees" [ "$("$pftrace" version)" = "$("$pftrace" --version)" ]

"$pftrace" features --format json >"$tmp/features.json"
check "features: exit 0" [ $? -eq 0 ]
check "features: BTF present" jq_true "$tmp/features.json" '.features.btf.available'
check "features: kernel release is uname -r" jq_true "$tmp/features.json" ".kernel == \"$(uname -r)\""
# The ground truth for kprobes is the kernel's kprobe PMU; for fentry,
# this host's LSM refuses tracing programs with EPERM (lab-facts).
if [ -e /sys/bus/event_source/devices/kprobe ]; then want=true; else want=false; fi
check "features: kprobes $want, as /sys/bus/event_source says" \
	jq_true "$tmp/features.json" ".features.kprobes.available == $want"
check "features: fentry refused here, with the kernel's reason" \
	jq_true "$tmp/features.json" '(.features.fentry.available | not) and (.features.fentry.detail | contains("Operation not permitted"))'
check "features: no hardware PMU here, fallback named" \
	jq_true "$tmp/features.json" '(.features."perf-hw".available | not) and (.features."perf-hw".detail | contains("cpu-clock"))'
if grep -q ' init_task$' /proc/kallsyms; then want=true; else want=false; fi
check "features: kallsyms $want, as data symbols in /proc/kallsyms say" \
	jq_true "$tmp/features.json" ".features.kallsyms.available == $want"
check "features: SELinux not active here" jq_true "$tmp/features.json" '.features.selinux.available | not'
"$pftrace" features >"$tmp/features.txt"
check "features text: one row per feature" [ "$(grep -cE '^  [a-z-]+ +(yes|no) ' "$tmp/features.txt")" -eq 9 ]
# --latency's unit, judged by the kernel's own PMU list: cycles where the
# cpu PMU exists, else nanoseconds with the reason
if [ -e /sys/bus/event_source/devices/cpu ]; then
	check "features: --latency counts cycles (a cpu PMU exists)" \
		jq_true "$tmp/features.json" '.features.latency.detail | startswith("cycles")'
else
	check "features: --latency falls back to ns here (no cpu PMU), and says why" \
		jq_true "$tmp/features.json" '.features.latency.available and (.features.latency.detail | contains("no hardware PMU") and contains("nanoseconds"))'
	check "features text: the latency row says ns and why" \
		grep -qE '^  latency +yes +no cycles counter \(no hardware PMU' "$tmp/features.txt"
fi

"$pftrace" list --format json >"$tmp/list.json"
check "list: avc recipe known, not attachable here, reason given" \
	jq_true "$tmp/list.json" '.recipes[] | select(.recipe == "avc") | (.attachable | not) and (.reason | contains("SELinux is not active"))'
check "list: every recipe listed with what it traces" \
	jq_true "$tmp/list.json" '[.recipes[] | .recipe + ":" + .traces] == ["avc:avc_lookup", "dcache:__d_lookup_rcu", "dcache-ref:__d_lookup", "inode:find_inode_fast", "mount:__lookup_mnt", "tcp:__inet_lookup_established", "conntrack:__nf_conntrack_find_get"]'
check "list: none attachable on this host, each with the kernel's reason" \
	jq_true "$tmp/list.json" '[.recipes[] | select(.recipe != "avc") | (.attachable | not) and (.reason | contains("Operation not permitted")) and (.reason | contains("no kprobes"))] | all'

refuses "SELinux off" "SELinux is not active" "$pftrace" -f avc_has_perm_noaudit -d 1
refuses "unknown function" "no recipe knows this function (known: avc_has_perm_noaudit" "$pftrace" -f nope -d 1
refuses "-d not a number" "-d wants a number of seconds" "$pftrace" -f avc_lookup -d ten
refuses "-i longer than -d" "longer than -d" "$pftrace" -f avc_lookup -d 1 -i 2
refuses "no -f" "no function to trace" "$pftrace" -d 1
refuses "unknown option" "unknown option" "$pftrace" -f avc_lookup --frobnicate
refuses "unknown subcommand" "unknown command 'frobnicate'" "$pftrace" frobnicate
refuses "bad --format" "--format wants text, json, openmetrics or prometheus" "$pftrace" -f avc_lookup --format xml
refuses "bad --sample" "--sample wants" "$pftrace" -f avc_lookup --sample 0
refuses "bad --sample-calls" "--sample-calls wants" "$pftrace" -f avc_lookup --sample-calls 0
refuses "--sample with --sample-calls" "give one" "$pftrace" -f avc_lookup --sample 4 --sample-calls 4
refuses "--slice without --sample" "give --sample N too" "$pftrace" -f avc_lookup --slice 50
refuses "--slice of 1 ms" "--slice wants milliseconds from 5 to 10000" "$pftrace" -f avc_lookup --sample 4 --slice 1
refuses "bad --max-overhead" "--max-overhead wants a percentage" "$pftrace" -f avc_lookup --max-overhead 0
refuses "--max-overhead over 100" "--max-overhead wants a percentage" "$pftrace" -f avc_lookup --max-overhead 150
refuses "bad -C value" "unknown value" "$pftrace" -f avc_lookup -C attach=uprobe
refuses "missing --btf file" "--btf /no/such" "$pftrace" -f avc_lookup --btf /no/such
refuses "--btf that is not BTF" "not a kernel BTF" "$pftrace" -f avc_lookup --btf /etc/passwd
refuses "features with a bad option" "unknown option" "$pftrace" features --bogus
printf '{"tool": "pftrace", "schema": 1, "targets": [' >"$tmp/cut.json"
printf '{"tool": "pftrace", "schema": 7, "targets": []}' >"$tmp/future.json"
refuses "report of a file that is not JSON" "/etc/passwd: not JSON" "$pftrace" report /etc/passwd
refuses "report of a cut-off run file" "cut.json: not JSON" "$pftrace" report "$tmp/cut.json"
refuses "report of a newer schema" "schema 7; this pftrace reads schema 1" "$pftrace" report "$tmp/future.json"
refuses "report of a missing file" "No such file" "$pftrace" report "$tmp/none.json"
refuses "report without a file" "report wants one run file" "$pftrace" report
refuses "diff with one file" "diff wants two run files" "$pftrace" diff "$tmp/cut.json"
refuses "merge of one file" "merge wants two run files" "$pftrace" merge "$tmp/cut.json"
refuses "merge of bad files" "not JSON" "$pftrace" merge "$tmp/cut.json" "$tmp/cut.json"

refuses "-o into a missing directory (before tracing)" "-o $tmp/none/run.json: No such file" "$pftrace" -f avc_lookup -d 1 -o "$tmp/none/run.json"
refuses "-o onto a directory" "is a directory" "$pftrace" -f avc_lookup -d 1 -o "$tmp"
# whatif from a run file alone: a small AVC snapshot, the fuzz seed
seed=$top/tests/fuzz/corpus/runfile/snapshot.json
"$pftrace" whatif "$seed" --bits 4,5 --format json >"$tmp/whatif.json"
check "whatif of a snapshot: exit 0, the identity holds" jq_true "$tmp/whatif.json" '.targets[0].identity'
check "whatif: the kernel's layout first, then three hashes at 2^4 and 2^5" \
	jq_true "$tmp/whatif.json" '.targets[0].predictions | .[0].current and length == 6 and ([.[].slots] | sort) == [16, 16, 16, 32, 32, 32]'
check "whatif: a verdict for each alternative, its interval around its net" \
	jq_true "$tmp/whatif.json" '[.targets[0].predictions[1:][] | .verdict | .net_lo <= .net and .net <= .net_hi] | all'
check "whatif: every hash cost timed here, with its interval" \
	jq_true "$tmp/whatif.json" '.targets[0].hash_costs | [.xor, .murmur3, .jhash] | map(.lo <= .median and .median <= .hi and .median > 0) | all'
"$pftrace" whatif "$seed" --bits 4 -C current.hash=murmur3 >/dev/null 2>"$tmp/whatif.err"
check "whatif with a wrong hash for the kernel's: exit 3, identity check failed" \
	sh -c "[ $? = 3 ] && grep -q 'identity check failed' '$tmp/whatif.err'"
# the run's own --latency fit prices the verdict, unless it is poor
for fit in good:1.5 poor:40; do
	name=${fit%%:*} residual=${fit#*:}
	jq ".targets[0].latency = {unit: \"ns\", fit: {fixed: 30, per_node: 9, per_node_lo: 8, per_node_hi: 10, points: 20, residual: $residual}}" \
		"$seed" >"$tmp/fit_$name.json"
	"$pftrace" whatif "$tmp/fit_$name.json" --bits 5 --format json >"$tmp/whatif_$name.json"
done
check "whatif: a good --latency fit in the run prices the verdict at its 9 ns per node" \
	jq_true "$tmp/whatif_good.json" '[.targets[0].predictions[1:][] | .verdict | .cost_source == "the run'"'"'s --latency fit" and .cost_per_node == 9] | all'
check "whatif: a poor fit (medians 40 ns off its line) is not used" \
	jq_true "$tmp/whatif_poor.json" '[.targets[0].predictions[1:][] | .verdict | .cost_source | startswith("a warm walk")] | all'
# conntrack's table: any bucket count (reciprocal_scale()), no bits unless a power of two
ct=$top/tests/fuzz/corpus/runfile/conntrack-snapshot.json
"$pftrace" whatif "$ct" --buckets 1024,3072 --format json >"$tmp/ct.json"
check "whatif of conntrack's 1536 buckets: the identity holds, sizes laid out as asked (the mask foil at 2^10 only), bits only for 2^10" \
	jq_true "$tmp/ct.json" '.targets[0] | .identity and [.predictions[] | "\(.hash):\(.slots)"] == ["hash_conntrack:1536", "hash_conntrack:1024", "conntrack_mask:1024", "hash_conntrack:3072"] and .predictions[0].bits == null and .predictions[1].bits == 10 and .predictions[3].bits == null'
"$pftrace" whatif "$ct" --buckets 1000 --format json >"$tmp/ct1000.json"
check "whatif --buckets 1000 of conntrack lays out the 1024 the kernel would allocate (multiples of 512)" \
	jq_true "$tmp/ct1000.json" '[.targets[0].predictions[] | select(.hash == "hash_conntrack") | .slots] == [1536, 1024]'
"$pftrace" whatif "$ct" --buckets 1536 --entries 3000 --format json >"$tmp/ctfill.json"
check "whatif --entries 3000 at the snapshot's own 1536 buckets: the model's buckets used within 2 sd of the snapshot's own 3000-entry fill" \
	jq_true "$tmp/ctfill.json" '.targets[0] | .measured.buckets_used as $m | .predictions[1] | .entries == 3000 and .model.name == "uniform" and ((.model.buckets_used - $m) | fabs) < 2 * .model.buckets_used_sd and .model.longest_chain_p2_5 <= .model.longest_chain and ([.chain_lengths[].count] | add) >= 1530'
check "conntrack's snapshot and whatif --entries output match docs/run-file.schema.json" \
	python3 - "$top/docs/run-file.schema.json" "$ct" "$tmp/ctfill.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.validate(json.load(open(sys.argv[2])), schema)
whatif = dict(schema["$defs"]["whatif"], **{"$defs": schema["$defs"]})
jsonschema.validate(json.load(open(sys.argv[3])), whatif)
PY
refuses "whatif --buckets 1000 of the AVC (a mask)" "takes powers of two only" "$pftrace" whatif "$seed" --buckets 1000
refuses "whatif --entries 0" "--entries wants a count from 1" "$pftrace" whatif "$ct" --entries 0
refuses "whatif --buckets 1" "--buckets wants sizes from 2" "$pftrace" whatif "$ct" --buckets 1
refuses "taking the mask foil for the kernel's hash at conntrack's 1536 buckets" \
	"conntrack_mask takes powers of two only (a mask), not __nf_conntrack_find_get's 1536 buckets" \
	"$pftrace" whatif "$ct" -C current.hash=conntrack_mask
jq '.targets[0].snapshot.bits = 10' "$ct" >"$tmp/ct-bits.json"
refuses "a conntrack snapshot whose bits do not give its buckets" "1536 buckets with bits 10" \
	"$pftrace" whatif "$tmp/ct-bits.json"
jq 'del(.targets[0].snapshot.bits)' "$seed" >"$tmp/avc-nobits.json"
refuses "an AVC snapshot of 2^4 buckets without bits" "16 buckets with bits absent" \
	"$pftrace" whatif "$tmp/avc-nobits.json"
refuses "whatif without a file" "give one run file" "$pftrace" whatif
refuses "whatif --bits 0" "--bits wants log2 sizes" "$pftrace" whatif "$seed" --bits 0
refuses "whatif --hash md5" "--hash wants xor, murmur3 or jhash" "$pftrace" whatif "$seed" --hash md5
refuses "whatif -C current.hash=md5 (the values listed)" \
	"-C current.hash: unknown value 'md5' (it takes xor, murmur3, jhash, d_hash, inode_hash, m_hash, ehash, hash_conntrack, conntrack_mask)" \
	"$pftrace" whatif "$seed" -C current.hash=md5
refuses "whatif -C of another knob" "unknown knob 'attach'" "$pftrace" whatif "$seed" -C attach=kprobe
refuses "whatif -C current.hash=d_hash for the AVC's keys" "avc_lookup's keys cannot be hashed by d_hash" \
	"$pftrace" whatif "$seed" -C current.hash=d_hash
refuses "whatif of a run without a snapshot" "has no snapshot" "$pftrace" whatif "$top/tests/fuzz/corpus/runfile/minimal.json"
refuses "whatif --lookups of a missing file" "No such file" "$pftrace" whatif "$seed" --lookups "$tmp/none.json"
refuses "snapshot here (no data symbols in kallsyms)" "not in /proc/kallsyms" "$pftrace" snapshot -f __d_lookup_rcu
# tenants: checked before anything loads
refuses "-p of no process" "-p 4000000: no such process" "$pftrace" -f avc_lookup -p 4000000 -d 1
refuses "-p not a number" "-p wants a process id" "$pftrace" -f avc_lookup -p 12x
refuses "--cgroup not cgroup v2" "not a cgroup v2 directory" "$pftrace" -f avc_lookup --cgroup /tmp -d 1
refuses "--cgroup missing" "--cgroup $tmp/none: No such file" "$pftrace" -f avc_lookup --cgroup "$tmp/none" -d 1
mkfifo "$tmp/cgfifo"
refuses "--cgroup a FIFO (never blocks)" "--cgroup $tmp/cgfifo: Not a directory" timeout 5 "$pftrace" -f avc_lookup --cgroup "$tmp/cgfifo" -d 1
refuses "--only-command without a command" "needs a command to run after --" "$pftrace" -f avc_lookup --only-command
refuses "-p with --only-command" "give one" "$pftrace" -f avc_lookup -p 1 --only-command -- true
refuses "--by host" "--by wants comm, pid, cgroup or netns" "$pftrace" -f avc_lookup --by host
refuses "-i with --format prometheus" "for metrics give -o FILE.prom" "$pftrace" -f avc_lookup -i 1 --format prometheus
refuses "--latency with --sample" "cannot be combined with --sample" "$pftrace" -f avc_lookup --latency --sample 4
summary host
