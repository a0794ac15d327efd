# The pftrace-exporter@ service as the package installs it (make deb-test).
# systemd-analyze verify and security (offline, in a scratch root made
# of the package and this host's units), the hardening pftrace needs
# and the options that would break it, and the way it writes into
# node_exporter's root-owned textfile directory without root: the
# package's tmpfiles.d ACL, applied to a scratch directory for nobody.
# The unit under a real systemd is tests/lab/systemd/run's.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$top/pftrace
deb=$top/.output/pftrace_$(cat "$top/VERSION")_$(dpkg --print-architecture).deb
unit=lib/systemd/system/pftrace-exporter@.service
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the package, and what verify resolves: systemd's own units, the
# commands the unit runs
root=$tmp/root
dpkg -x "$deb" "$root"
mkdir -p "$root/bin"
cp -a /lib/systemd/system/. "$root/lib/systemd/system/"
cp /bin/rm /bin/systemd-tmpfiles "$root/bin/"
u=$root/$unit

MANPATH=$root/usr/share/man systemd-analyze verify --root="$root" pftrace-exporter@avc.service >"$tmp/verify" 2>&1
rc=$?
sed 's/^/#   verify: /' "$tmp/verify"
check "systemd-analyze verify pftrace-exporter@avc.service: exit 0, nothing said" \
	sh -c "[ $rc = 0 ] && [ ! -s '$tmp/verify' ]"
systemd-analyze security --offline=true --threshold=20 --root="$root" pftrace-exporter@avc.service \
	>"$tmp/security" 2>&1
rc=$?
score=$(sed -n 's/.*Overall exposure level for pftrace-exporter@avc.service: \([0-9.]*\) .*/\1/p' "$tmp/security")
grep '^✗' "$tmp/security" | sed 's/^/#   security: /'
check "systemd-analyze security --offline=true: exposure ${score:-?} <= 2.0 (OK or better)" \
	sh -c "[ $rc = 0 ] && awk -v s='${score:-9}' 'BEGIN { exit !(s <= 2.0) }'"

# the hardening the unit must have, and what pftrace needs it to leave out
check "runs as user pftrace, not root, with CAP_BPF CAP_PERFMON CAP_SYSLOG and nothing else" \
	sh -c "[ \"\$(sed -n 's/^User=//p' '$u')\" = pftrace ] && [ \"\$(sed -n 's/^CapabilityBoundingSet=//p' '$u')\" = 'CAP_BPF CAP_PERFMON CAP_SYSLOG' ] && [ \"\$(sed -n 's/^AmbientCapabilities=//p' '$u')\" = 'CAP_BPF CAP_PERFMON CAP_SYSLOG' ]"
for kv in NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes PrivateDevices=yes \
	  PrivateNetwork=yes RestrictAddressFamilies=none LimitMEMLOCK=infinity PrivateUsers=no; do
	check "the unit sets $kv" grep -qx "$kv" "$u"
done
# the filter systemd builds from the unit's SystemCallFilter= lines, in
# order (the first, an allow list, sets the default; each later line
# adds or, with ~, removes), groups expanded by systemd-analyze
/usr/bin/python3 - "$u" >"$tmp/filter" <<'PY'
import subprocess, sys
def expand(name, seen=set()):
    if not name.startswith("@"):
        return {name}
    out = set()
    for line in subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True,
                               text=True, check=True).stdout.splitlines()[1:]:
        w = line.strip()
        if w and not w.startswith("#"):
            out |= expand(w)
    return out
allowed = None
for line in open(sys.argv[1]):
    if not line.startswith("SystemCallFilter="):
        continue
    words = line.split("=", 1)[1].split()
    deny = words[0].startswith("~")
    names = set().union(*(expand(w.lstrip("~")) for w in words))
    allowed = names if allowed is None else (allowed - names if deny else allowed | names)
print("\n".join(sorted(allowed)))
PY
check "the system-call filter, as systemd builds it, allows bpf and perf_event_open, which @system-service lacks" \
	sh -c "grep -qx bpf '$tmp/filter' && grep -qx perf_event_open '$tmp/filter' && ! systemd-analyze syscall-filter @system-service | grep -qw -e bpf -e perf_event_open"
check "... and nothing else of @privileged or @debug (setuid, capset, ptrace), nor mount, reboot or setrlimit" \
	sh -c "! grep -qx -e setuid -e capset -e ptrace -e mount -e setrlimit -e reboot '$tmp/filter'"
check "no ProtectKernelTunables=, ProcSubset=pid or ProtectKernelLogs= (they hide kallsyms or drop CAP_SYSLOG)" \
	sh -c "! grep -q -e '^ProtectKernelTunables=' -e '^ProcSubset=pid' -e '^ProtectKernelLogs=' '$u'"
# one writable path, the same in the unit, /etc/default and tmpfiles.d
dir=$(sed -n 's/^PFTRACE_TEXTFILE_DIR=//p' "$root/etc/default/pftrace-exporter")
check "one writable path: the textfile directory ($dir), as /etc/default and tmpfiles.d name it" \
	sh -c "[ \"\$(grep -c '^ReadWritePaths=' '$u')\" = 1 ] && [ \"\$(sed -n 's/^ReadWritePaths=-//p' '$u')\" = '$dir' ] && awk '\$1 == \"a+\" { print \$2 }' '$root/usr/lib/tmpfiles.d/pftrace.conf' | grep -qx '$dir'"
# the unit with its continued lines joined
sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$u" >"$tmp/joined"
exec_start=$(sed -n 's/^ExecStart=//p' "$tmp/joined")
check "ExecStart traces with --sample, rewriting pftrace-%i.prom in the textfile directory every interval" \
	sh -c "echo '$exec_start' | grep -q -- '--sample \${PFTRACE_SAMPLE}' && echo '$exec_start' | grep -q -- '-i \${PFTRACE_INTERVAL}' && echo '$exec_start' | grep -q -- '-o \${PFTRACE_TEXTFILE_DIR}/pftrace-%i.prom'"
check "ExecStopPost removes that file: a stopped exporter's numbers do not live on" \
	sh -c "[ \"\$(sed -n 's/^ExecStopPost=//p' '$u')\" = '/bin/rm -f \${PFTRACE_TEXTFILE_DIR}/pftrace-%i.prom' ]"
check "a refusal (exit 2) or a failed self-check (exit 3) is not restarted" grep -qx 'RestartPreventExitStatus=2 3' "$u"
check "its documentation is where the package puts it" \
	sh -c "for d in \$(sed -n 's|^Documentation=.*file://||p' '$u'); do [ -s '$root'\$d ] || exit 1; done"

# each table named in /etc/default is a recipe, its function one pftrace knows
"$pftrace" list --format json >"$tmp/list.json" 2>/dev/null
sed -n 's/^PFTRACE_FUNCTION_\([a-z_]*\)=\(.*\)/\1 \2/p' "$root/etc/default/pftrace-exporter" >"$tmp/tables"
check "/etc/default maps avc, dcache, inode, mount and tcp to the functions their recipes trace" \
	sh -c "[ \"\$(cut -d' ' -f1 '$tmp/tables' | tr '\\n' ' ')\" = 'avc dcache inode mount tcp ' ] && while read -r t f; do jq -e --arg t \"\$t\" --arg f \"\$f\" '[.. | objects | select(.recipe? == \$t and .traces? == \$f)] | length == 1' '$tmp/list.json' >/dev/null || exit 1; done <'$tmp/tables'"

# Writing into a root:root 0755 directory without root: the package's
# grant (its path and user rewritten to a scratch directory and nobody)
# lets nobody write its .prom there, replace it and remove it (the
# unit's ExecStopPost); the same directory without it refuses.
run=$top/docs/examples/avc-6.12-short-chains.json
mkdir -p "$tmp/textfile" "$tmp/plain"
chmod 0755 "$tmp" "$tmp/textfile" "$tmp/plain"
sed "s|$dir|$tmp/textfile|; s|u:pftrace:|u:nobody:|" "$root/usr/lib/tmpfiles.d/pftrace.conf" >"$tmp/grant.conf"
systemd-tmpfiles --create "$tmp/grant.conf"
check "systemd-tmpfiles applies the package's grant (ACL u:nobody:rwx on a root:root 0755 directory)" \
	sh -c "[ \"\$(stat -c '%U:%G %a' '$tmp/textfile')\" = 'root:root 775' ] && ls -ld '$tmp/textfile' | grep -q '^drwxrwxr-x+'"
as_nobody() { (umask 022; setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"); }
as_nobody "$pftrace" merge "$run" "$run" -o "$tmp/textfile/pftrace-avc.prom" 2>"$tmp/w1.err"
rc1=$?
as_nobody "$pftrace" merge "$run" "$run" "$run" -o "$tmp/textfile/pftrace-avc.prom" 2>"$tmp/w2.err"
rc2=$?
check "as nobody, with the grant: the .prom written and replaced (exit 0, 0), owned by nobody, 0644, the second run's counts" \
	sh -c "[ $rc1 = 0 ] && [ $rc2 = 0 ] && [ \"\$(stat -c '%U %a' '$tmp/textfile/pftrace-avc.prom')\" = 'nobody 644' ] && grep -q \"^pftrace_lookups_total{.*} \$((3 * \$(jq '.targets[0].lookups' '$run')))\$\" '$tmp/textfile/pftrace-avc.prom'"
as_nobody /bin/rm -f "$tmp/textfile/pftrace-avc.prom"
check "as nobody, with the grant: ExecStopPost's rm removes it" [ ! -e "$tmp/textfile/pftrace-avc.prom" ]
as_nobody "$pftrace" merge "$run" "$run" -o "$tmp/plain/pftrace-avc.prom" 2>"$tmp/w3.err"
rc3=$?
check "as nobody, without the grant: refused before any work (exit 2, one line), nothing written" \
	sh -c "[ $rc3 = 2 ] && [ \"\$(grep -c . '$tmp/w3.err')\" = 1 ] && grep -q 'Permission denied' '$tmp/w3.err' && [ -z \"\$(ls -A '$tmp/plain')\" ]"
summary host
