#!/bin/sh
# Runs inside the systemd guest as lab-test.service, after
# multi-user.target: installs the package as an operator would, then
# starts pftrace-exporter@avc under the unit's hardening. With SELinux
# (LAB_SELINUX=on) the exporter must trace the AVC as user pftrace and
# write a .prom that passes the self-check; without it, its start must
# fail with pftrace's one-line reason and not be restarted. TAP-like
# lines on stdout (ttyS1); the host counts them.
. /etc/lab/env
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { d=$1; shift; if "$@" >/tmp/check.out 2>&1; then ok "$d"; else not_ok "$d"; sed 's/^/#   /' /tmp/check.out; fi; }
unit=pftrace-exporter@avc.service
dir=/var/lib/prometheus/node-exporter
prom=$dir/pftrace-avc.prom

check "apt installs ./pftrace.deb" sh -c "cd /root && apt-get install -y -q ./pftrace.deb >/tmp/apt.log 2>&1"
check "the package created user pftrace" id -u pftrace
check "and granted it the textfile directory (root:root, ACL u:pftrace:rwx)" \
	sh -c "[ \"\$(stat -c '%U:%G' $dir)\" = root:root ] && getfacl -cp $dir | grep -qx 'user:pftrace:rwx'"
# every 2 s, for a test that should not wait 15
sed -i 's/^PFTRACE_INTERVAL=.*/PFTRACE_INTERVAL=2/' /etc/default/pftrace-exporter
state() { systemctl show -p "$1" --value $unit; }

if [ "$LAB_SELINUX" = on ]; then
	systemctl start $unit
	# AVC lookups to see: every open is checked (the policy is permissive)
	( i=0; while [ $i -lt 4000 ]; do cat /etc/passwd /proc/self/stat >/dev/null; i=$((i + 1)); done ) &
	load=$!
	i=0
	while ! awk '/^pftrace_lookups_total/ && $NF > 0 { f = 1 } END { exit !f }' $prom 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 120 ] || break
		sleep 0.5
	done
	kill $load 2>/dev/null
	check "systemctl start $unit: active, running" [ "$(state ActiveState)/$(state SubState)" = active/running ]
	pid=$(state MainPID)
	st=/proc/$pid/status
	check "it runs as user pftrace, not root" sh -c "[ \"\$(awk '/^Uid:/ { print \$2 }' $st)\" = \"\$(id -u pftrace)\" ]"
	# CAP_SYSLOG 34, CAP_PERFMON 38, CAP_BPF 39: nothing else, effective or bounding
	check "its capabilities: CAP_BPF CAP_PERFMON CAP_SYSLOG and nothing else" \
		sh -c "grep -qx 'CapEff:	000000c400000000' $st && grep -qx 'CapBnd:	000000c400000000' $st"
	check "no new privileges, a seccomp filter" sh -c "grep -qx 'NoNewPrivs:	1' $st && grep -qx 'Seccomp:	2' $st"
	# its mounts: / read-only, the textfile directory read-write, /home
	# and /root covered (ProtectHome=), a /tmp of its own
	check "its / is read-only, the textfile directory its one writable path, /home, /root and /tmp its own" \
		awk -v d=$dir '$5 == "/" { split($6, o, ","); r = o[1] } $5 == d { split($6, o, ","); w = o[1] }
			$5 == "/home" || $5 == "/root" || $5 == "/tmp" { m++ }
			END { exit !(r == "ro" && w == "rw" && m >= 3) }' /proc/$pid/mountinfo
	lookups=$(awk '/^pftrace_lookups_total/ { print $NF }' $prom 2>/dev/null)
	check "its .prom: written by pftrace, 0644, traced the AVC (${lookups:-no} lookups, scaled)" \
		sh -c "[ \"\$(stat -c '%U %a' $prom)\" = 'pftrace 644' ] && awk '/^pftrace_lookups_total/ && \$NF > 0 { f = 1 } END { exit !f }' $prom"
	check "its .prom: the self-check passes (agree ratio >= 0.999)" \
		awk '/^pftrace_self_check_agree_ratio/ { n++; if ($NF < 0.999) bad = 1 } END { exit !(n == 1 && !bad) }' $prom
	check "its .prom: --sample 16, and says the overhead went unmeasured (no CAP_SYS_ADMIN)" \
		sh -c "grep -q '^pftrace_sampled_one_in{.*} 16\$' $prom && grep -q '^pftrace_overhead_measured{.*} 0\$' $prom"
	check "its .prom: pftrace_build_info names this kernel and host" \
		grep -q "^pftrace_build_info{version=\"[^\"]*\",kernel=\"$(uname -r)\",host=\"$(hostname)\"} 1\$" $prom
	check "nothing in its journal but systemd's lines and pftrace's 'Tracing' (no refusal, no failed write)" \
		sh -c "! journalctl -q -u $unit -o cat | grep -v -e '^Start' -e '^Stopp' -e '^pftrace-exporter@avc.service: ' -e '^Tracing 1 function' | grep -q ."
	cp $prom /tmp/last.prom
	systemctl stop $unit
	check "systemctl stop: the exporter exited 0, its .prom removed" \
		sh -c "[ '$(state Result)/$(state ExecMainStatus)' = success/0 ] && [ ! -e $prom ]"
	echo "=== BEGIN prom"
	cat /tmp/last.prom
	echo "=== END prom"
else
	systemctl start $unit
	i=0
	while [ "$(state ActiveState)" != failed ] && [ $i -lt 60 ]; do i=$((i + 1)); sleep 0.5; done
	check "without SELinux: the start fails, exit status 2" \
		[ "$(state ActiveState)/$(state ExecMainStatus)" = failed/2 ]
	check "the journal has pftrace's one-line reason" \
		sh -c "journalctl -q -u $unit -o cat | grep -qx 'pftrace: avc_lookup: SELinux is not active on this kernel (no selinuxfs); nothing would call it'"
	sleep 3
	check "no restart: 3 s later still failed, not auto-restart, NRestarts 0" \
		[ "$(state ActiveState)/$(state SubState)/$(state NRestarts)" = failed/failed/0 ]
	check "no .prom left behind" [ ! -e $prom ]
fi
echo "#   state: $(systemctl show -p ActiveState,SubState,Result,ExecMainStatus,NRestarts $unit | tr '\n' ' ')"
echo "=== BEGIN journal"
journalctl -q -u $unit -o short-monotonic --no-pager
echo "=== END journal"
