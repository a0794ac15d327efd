# The arm64 lab's checks, in the guest (tests/lab/arm64-checks reads what
# this prints). MODE plain: features, an AVC trace sampling cycles, -e by
# the PMU's own names and libpfm4's, --latency in cycles, the prfm census.
# MODE icount (QEMU -icount shift=0): instructions sampled, and --latency's
# cost per node against the walk loop's instructions. (QEMU raises the
# instructions counter's overflow late: its samples land where the guest
# next takes an interrupt, el0_svc's return and the idle loop, not in
# avc_lookup; cycles samples under -icount do land there.)
# The long-chain policy: thousands of AVC entries in 512 slots.
. /lab/lib.sh
mode=${1:-plain}
# guest seconds since boot at each step: where the lab's time goes
stamp() { echo "=== TIME $1 $(cut -d' ' -f1 /proc/uptime)"; }
stamp start

# QEMU's TCG takes ~80 us per PMU interrupt, past the kernel's 2.5 us
# budget: it would lower perf_event_max_sample_rate under our -F (a real
# PMU's interrupt does not). The rate first: it is fixed once the
# budget is 0.
echo 100000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 16384 >/sys/fs/selinux/avc/cache_threshold
load="avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3"
# a warm table: every key cached by a first, untraced load
$load -r 1 >/dev/null 2>&1

if [ "$mode" = icount ]; then
	case_ insn pftrace -f avc_lookup -e instructions -F 4999 -o /tmp/insn.json -- $load -r 2
	stamp insn
	emit insn.json /tmp/insn.json
	case_ latency pftrace -f avc_lookup --latency --no-samples -o /tmp/latency.json -- $load -r 2
	stamp latency
	emit latency.json /tmp/latency.json
	exit 0
fi

case_ features pftrace features --format json
stamp features
ls /sys/bus/event_source/devices/armv8_pmuv3*/events >/tmp/pmu_events 2>&1
emit pmu_events /tmp/pmu_events
case_ avc pftrace -f avc_lookup -F 4999 -o /tmp/avc.json -- $load -r 2
stamp avc
emit avc.json /tmp/avc.json
case_ latency pftrace -f avc_lookup --latency --no-samples -o /tmp/latency.json -- $load -r 1
stamp latency
emit latency.json /tmp/latency.json
# -e by the names the PMU lists in sysfs, and by libpfm4's
case_ pmu_named pftrace -f avc_lookup -e armv8_pmuv3/cpu_cycles/ -F 4999 -o /tmp/pmu_named.json -- $load -r 1
stamp pmu_named
emit pmu_named.json /tmp/pmu_named.json
case_ pmu_bare pftrace -f avc_lookup -e cpu_cycles -F 999 -d 1 --format json
stamp pmu_bare
case_ pfm_generic pftrace -f avc_lookup -e perf::CYCLES -F 999 -d 1 --format json
stamp pfm_generic
case_ pfm_core pftrace -f avc_lookup -e CPU_CYCLES -d 1
stamp pfm_core
# the prfm census; a serial port is slow: what goes back is compressed
case_ sites pftrace sites --format json
stamp sites
grep -E ' [tT] | (_text|_etext|_sinittext)$' /proc/kallsyms >/tmp/text_symbols
gzip -1 </tmp/text_symbols | base64 >/tmp/text_symbols.gz
emit text_symbols.gz /tmp/text_symbols.gz
# the running text pftrace read, for objdump: _stext to the end of the
# last function before _etext (or _sinittext), the text symbol after it;
# the words that differ from the Image (/root/Image, added by
# arm64-checks), which the host has. Addresses compare as strings: all
# are 16 lowercase hex digits.
text=$(awk '$3 == "_text" { print $1 }' /tmp/text_symbols)
[ -n "$text" ] || text=-     # not listed (6.1): _stext is 64 KiB into the Image
stext=$(awk '$3 == "_stext" { print $1 }' /tmp/text_symbols)
etext=$(awk '$3 == "_etext" || $3 == "_sinittext" { print $1 }' /tmp/text_symbols | sort | head -n 1)
end=$(awk -v e="$etext" '$2 ~ /^[tT]$/ && !/\[/ && $1 >= e { print $1 }' /tmp/text_symbols |
	sort | head -n 1)
kcore-text "$stext" "$end" /root/Image "$text" | gzip -1 | base64 >/tmp/running_patched
stamp running_patched
emit running_patched /tmp/running_patched
grep -m1 Features /proc/cpuinfo >/tmp/cpu_features
emit cpu_features /tmp/cpu_features
