# Lab case "nosel", in the guest: the kernel booted with SELinux off.
. /lab/lib.sh

case_ features pftrace features --format json
case_ trace pftrace -f avc_has_perm_noaudit -d 1
case_ list pftrace list --format json
