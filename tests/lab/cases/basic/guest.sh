# Lab case "basic", in the guest: default (short-chain) policy. Features,
# list, bad input, and AVC tracing ended by SIGINT, SIGTERM and SIGKILL.
#
# Cases run as root because their set-up needs it (loading policy,
# mounting, labelling files, setting sysctls). pftrace's own verdicts
# need only CAP_BPF, CAP_PERFMON and CAP_SYSLOG, as the caps_* cases
# below show; the checks that run it as root on purpose are those of
# what needs more: overhead figures (BPF_ENABLE_STATS: CAP_SYS_ADMIN),
# /proc/kcore text (CAP_SYS_RAWIO), and kprobes and samples where
# kernel.perf_event_paranoid is 3 (CAP_SYS_ADMIN).
. /lab/lib.sh

case_ features pftrace features --format json
case_ features_text pftrace features
case_ list pftrace list --format json
case_ list_text pftrace list
case_ dry_run pftrace -f avc_has_perm_noaudit --dry-run
# the kernel's own word on whether avc_has_perm_noaudit was inlined away
echo "=== VALUE noaudit_symbols $(grep -c ' avc_has_perm_noaudit$' /proc/kallsyms)"

case_ bad_function pftrace -f no_such_function -d 1
case_ bad_duration pftrace -f avc_lookup -d abc
case_ bad_btf pftrace -f avc_lookup --btf /etc/lab/policy -d 1
case_ missing_btf pftrace -f avc_lookup --btf /no/such/btf -d 1
case_ not_root su -s /bin/sh nobody -c 'pftrace -f avc_lookup -d 1'
case_ bad_knob pftrace -f avc_lookup -C no.such=knob -d 1
case_ bad_command pftrace -f avc_lookup -- /no/such/command
case_ duplicate pftrace -f avc_lookup -f avc_has_perm_noaudit -d 1

# -i: interval reports while a workload runs, then the final one
(while :; do avc-load -t 8 -D user_t,daemon_t,worker_t -r 100 2>/dev/null; done) &
loop=$!
case_ interval pftrace -f avc_lookup -i 0.5 -d 1.6
case_ interval_json pftrace -f avc_lookup -i 0.5 -d 1.6 --format json
kill "$loop"
wait "$loop" 2>/dev/null

# least privilege: user nobody holding CAP_BPF, CAP_PERFMON and
# CAP_SYSLOG only (the workload runs as root beside it: nobody can
# neither label files nor write them where avc-load does)
# Debian's perf_event_paranoid=3 keeps perf events (kprobes, samples) for
# CAP_SYS_ADMIN; at 2, CAP_PERFMON opens them: both are tried
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo "=== PARANOID $paranoid"
case_ caps_features caps-only bpf,perfmon,syslog -- pftrace features --format json
(while :; do avc-load -t 8 -D user_t,daemon_t,worker_t -r 100 2>/dev/null; done) &
loop=$!
case_ caps_only caps-only bpf,perfmon,syslog -- pftrace -f avc_has_perm_noaudit -d 3 --format json
echo 2 >/proc/sys/kernel/perf_event_paranoid
case_ caps_features2 caps-only bpf,perfmon,syslog -- pftrace features --format json
case_ caps_kprobe2 caps-only bpf,perfmon,syslog -- pftrace -f avc_lookup -C attach=kprobe -d 3 --format json
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
kill "$loop"
wait "$loop" 2>/dev/null

load="avc-load -t 8 -D user_t,daemon_t,worker_t -r 3000"
# shellcheck disable=SC2086
bracketed short_int INT -f avc_has_perm_noaudit -- $load
# shellcheck disable=SC2086
bracketed short_term TERM -f avc_lookup -C attach=kprobe -- $load

# the walks' loads: direct where the kernel has bpf_rdonly_cast (its own
# kallsyms says), and the probe reads that -C loads=probe asks for
echo "=== VALUE rdonly_cast_symbols $(grep -c ' bpf_rdonly_cast$' /proc/kallsyms)"
case_ loads_probe pftrace -f avc_lookup -C loads=probe --format json -- $load
# the counters' adds: plain where the kernel never nests a program on a
# CPU (kprobes; fexit from 5.12), and the atomic ones -C adds=atomic keeps
case_ adds_atomic pftrace -f avc_lookup -C adds=atomic --format json -- $load
# the benchmark's floor: programs that run on every call and walk nothing
case_ walk_off pftrace -f avc_lookup -C walk=off --format json -- $load

# --sample-calls, --sample's duty cycle, the overhead figures and cap (production safety)
case_ sampled pftrace --sample-calls 16 -f avc_lookup --format json -- $load
# (slices of 200 ms: a detach waits for an RCU-tasks grace period, 50-400 ms under TCG)
# shellcheck disable=SC2086
bracketed duty_fexit TERM --sample 2 --slice 200 -f avc_lookup -- avc-load -t 8 -D user_t,daemon_t,worker_t -r 12000
# without --slice: slices of pftrace's choosing, from 20 ms up to 1 s,
# over 6 s of AVC checks (a fixed number of them took 1 s on 5.10, 4 on 7.2)
# shellcheck disable=SC2016
bracketed duty_chosen TERM --sample 2 -f avc_lookup -- sh -c 'end=$(($(date +%s) + 6))
	while [ "$(date +%s)" -lt "$end" ]; do avc-load -t 8 -D user_t,daemon_t,worker_t -r 3000; done'
# and its -i lines, a second each: 1 s slices, 3 s apart, leave some empty
# shellcheck disable=SC2016
case_ duty_interval pftrace --sample 4 -i 1 -f avc_lookup --format json -- sh -c 'end=$(($(date +%s) + 6))
	while [ "$(date +%s)" -lt "$end" ]; do avc-load -t 8 -D user_t,daemon_t,worker_t -r 3000; done'
# shellcheck disable=SC2086
bracketed duty_kprobe TERM --sample 4 -f avc_lookup -C attach=kprobe -- $load
(while :; do avc-load -t 8 -D user_t -r 500 2>/dev/null; done) &
loop=$!
case_ capped pftrace -f avc_lookup --max-overhead 0.5 -d 60 -o /tmp/capped.json
kill "$loop"
wait "$loop" 2>/dev/null
emit capped.json /tmp/capped.json

# perf samples and the prefetch census
case_ sites_all pftrace sites --format json
case_ sites_avc pftrace sites -f avc_lookup --format json
case_ sites_sampled pftrace sites -d 1 --format json -- avc-load -t 8 -D user_t -r 3000
# the same sampler with and without AVC lookups: where the samples land
case_ avccall pftrace -f avc_lookup -F 4999 --format json -- avc-load -t 8 -D user_t -r 9000
case_ nocall pftrace -f avc_lookup -F 4999 --format json -- spin 1000
case_ bad_event pftrace -f avc_lookup -e no-such-event -d 1
case_ bad_freq pftrace -f avc_lookup -F 0 -d 1
# an unreadable kcore: nothing but /dev/null behind it
mount --bind /dev/null /proc/kcore
case_ no_kcore pftrace sites --text-from kcore
umount /proc/kcore

# SIGKILL: nothing runs to clean up, the kernel must drop the links
pftrace -f avc_lookup >/dev/null 2>/tmp/kill.err &
pid=$!
wait_tracing /tmp/kill.err
bpf-objects >/tmp/kill.during
kill -KILL "$pid"
wait "$pid"
wait_no_progs
bpf-objects >/tmp/kill.after
emit kill.during /tmp/kill.during
emit kill.after /tmp/kill.after
cat /sys/fs/selinux/avc/hash_stats >/tmp/hash_stats
emit hash_stats /tmp/hash_stats
