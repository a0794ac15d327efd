# Lab case "pmu", in the guest: the hardware-event path on the PMU that
# QEMU's -cpu max emulates (the kernel's armv8_pmuv3 driver). Features,
# an AVC trace sampling cycles, -e by the PMU's own names and libpfm4's,
# --latency in cycles, under the long-chain policy's load.
. /lab/lib.sh
pmu_long_load

case_ features pftrace features --format json
ls /sys/bus/event_source/devices/armv8_pmuv3*/events >/tmp/pmu_events 2>&1
emit pmu_events /tmp/pmu_events
case_ avc pftrace -f avc_lookup -F 4999 -o /tmp/avc.json -- $load -r 2
emit avc.json /tmp/avc.json
# the lookups against the kernel's count; whether avc_lookup is in the
# kernel's BTF (a name in its string table) and in kallsyms
bracketed oracle INT -f avc_lookup --no-samples -- $load -r 1
grep -w avc_lookup /proc/kallsyms >/tmp/avc_ksym
emit avc_ksym /tmp/avc_ksym
echo "=== VALUE avc_btf $(tr '\000' '\n' </sys/kernel/btf/vmlinux | grep -cx avc_lookup)"
case_ latency pftrace -f avc_lookup --latency --no-samples -o /tmp/latency.json -- $load -r 1
emit latency.json /tmp/latency.json
# -e by the names the PMU lists in sysfs, and by libpfm4's
case_ pmu_named pftrace -f avc_lookup -e armv8_pmuv3/cpu_cycles/ -F 4999 -o /tmp/pmu_named.json -- $load -r 1
emit pmu_named.json /tmp/pmu_named.json
case_ pmu_bare pftrace -f avc_lookup -e cpu_cycles -F 999 -d 1 --format json
case_ pfm_generic pftrace -f avc_lookup -e perf::CYCLES -F 999 -d 1 --format json
case_ pfm_core pftrace -f avc_lookup -e CPU_CYCLES -d 1
