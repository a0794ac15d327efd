# The Debian package (make deb-test, after make deb), unpacked into a
# scratch root: what it says it is, and what it holds.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
out=$top/.output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the Debian package, unpacked into a scratch root
deb=$out/pftrace_$(cat "$top/VERSION")_amd64.deb
check "make deb: $(basename "$deb") says it is pftrace $(cat "$top/VERSION") for amd64" \
	sh -c "dpkg-deb -f '$deb' Package Version Architecture | tr '\n' ' ' | grep -q 'Package: pftrace Version: $(cat "$top/VERSION") Architecture: amd64'"
dpkg -x "$deb" "$tmp/deb"
check "the .deb, unpacked with dpkg -x, runs pftrace --version" \
	sh -c "'$tmp/deb/usr/bin/pftrace' --version | grep -q '^pftrace $(cat "$top/VERSION")'"
check "the .deb holds the page and both completions" \
	sh -c "[ -s '$tmp/deb/usr/share/man/man8/pftrace.8.gz' ] && [ -s '$tmp/deb/usr/share/bash-completion/completions/pftrace' ] && [ -s '$tmp/deb/usr/share/zsh/vendor-completions/_pftrace' ]"
summary deb
