# The Debian package (make deb-test) that make deb builds from debian/ with
# dpkg-buildpackage: lintian's verdict, the stripped binary and its debug
# symbols, what it installs, and the two traps of building it in a
# working tree (the clean target, and packages written to ..).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
out=$top/.output
version=$(cat "$top/VERSION")
arch=$(dpkg --print-architecture)
debs=$out/deb
deb=$debs/pftrace_${version}_$arch.deb
dbgsym=$debs/pftrace-dbgsym_${version}_$arch.deb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "make deb: the package, its -dbgsym, .buildinfo and .changes are in .output/deb" \
	sh -c "[ -s '$deb' ] && [ -s '$dbgsym' ] && [ -s '$debs/pftrace_${version}_$arch.buildinfo' ] && [ -s '$debs/pftrace_${version}_$arch.changes' ] && cmp -s '$deb' '$out/pftrace_${version}_$arch.deb'"
check "make deb left nothing in the directory above the tree" \
	sh -c "! ls '$top/..'/pftrace_${version}_* '$top/..'/pftrace-dbgsym_${version}_* >/dev/null 2>&1"
check "debian/changelog, VERSION and the package agree on the version ($version)" \
	sh -c "[ \"\$(cd '$top' && dpkg-parsechangelog -SVersion)\" = '$version' ] && [ \"\$(dpkg-deb -f '$deb' Version)\" = '$version' ]"
check "debian/copyright is machine-readable (DEP-5) and cites the GPL, not its text" \
	sh -c "head -n 1 '$top/debian/copyright' | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' && grep -q '^License: GPL-2\$' '$top/debian/copyright' && grep -q common-licenses/GPL-2 '$top/debian/copyright' && ! grep -q 'TERMS AND CONDITIONS' '$top/debian/copyright'"

# lintian with every tag shown, pedantic and experimental too: no error,
# no warning, and every override (each with its reason above it) used
lintian -I --pedantic -E "$debs/pftrace_${version}_$arch.changes" >"$tmp/lintian" 2>"$tmp/lintian.err"
rc=$?
sed 's/^/#   lintian: /' "$tmp/lintian"
check "lintian: exit 0, no error and no warning" sh -c "[ $rc = 0 ] && ! grep -q '^[EW]: ' '$tmp/lintian'"
overrides=$top/debian/pftrace.lintian-overrides
check "lintian overrides: each has a one-line reason above it, and lintian used each" \
	sh -c "awk '/^#/ { c++; next } NF { if (c != 1) exit 1; c = 0; n++ } END { exit !(n > 0) }' '$overrides' && ! grep -q -e unused-override -e mismatched-override '$tmp/lintian'"
check "lintian overrides: only the static binary's two (statically-linked-binary, embedded-library)" \
	sh -c "[ \"\$(grep -v '^#' '$overrides' | grep -c -e ' statically-linked-binary ' -e ' embedded-library ')\" = \"\$(grep -c -v '^#' '$overrides')\" ]"

# the binary is stripped, its symbols are in -dbgsym under its build ID
dpkg -x "$deb" "$tmp/root"
dpkg -x "$dbgsym" "$tmp/dbg"
id=$(readelf -n "$tmp/root/usr/bin/pftrace" 2>/dev/null | awk '/Build ID:/ { print $3 }')
check "usr/bin/pftrace is stripped and static" \
	sh -c "file -L '$tmp/root/usr/bin/pftrace' | grep -q 'statically linked.*, stripped\$' && ! readelf -S '$tmp/root/usr/bin/pftrace' | grep -q -e '\\.symtab' -e '\\.debug_info'"
check "pftrace-dbgsym holds its DWARF under its build ID (${id:-none})" \
	sh -c "[ -n '$id' ] && readelf -S '$tmp/dbg/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug' | grep -q '\\.debug_info'"
check "the packaged binary runs: pftrace --version" \
	sh -c "'$tmp/root/usr/bin/pftrace' --version | grep -q '^pftrace $version'"

# what a fleet installs: the service, its defaults (a conffile), its
# user and grant, and the rules, as the tree has them
for f in lib/systemd/system/pftrace-exporter@.service:dist/systemd/pftrace-exporter@.service \
	 etc/default/pftrace-exporter:dist/default/pftrace-exporter \
	 usr/share/pftrace/prometheus/pftrace.rules.yml:dist/prometheus/pftrace.rules.yml \
	 usr/lib/sysusers.d/pftrace.conf:debian/pftrace.sysusers \
	 usr/lib/tmpfiles.d/pftrace.conf:debian/pftrace.tmpfiles \
	 usr/share/doc/pftrace/fleet.md:docs/fleet.md; do
	# dh_compress gzips documentation over 4 kB
	if [ -e "$tmp/root/${f%%:*}.gz" ]; then gzip -dc "$tmp/root/${f%%:*}.gz" >"$tmp/root/${f%%:*}"; fi
	check "the package installs ${f%%:*} (${f#*:})" cmp -s "$tmp/root/${f%%:*}" "$top/${f#*:}"
done
# the cost docs/fleet.md quotes is the committed benchmark's
bench=$top/docs/bench/run.json
check "docs/fleet.md quotes docs/bench/run.json's --sample 16 figures" \
	sh -c "for k in slowdown_sample16_pct slowdown_full_pct slowdown_sample16_avc_pct slowdown_avc_long_pct sample16_self_cpu_pct sample16_avc_self_cpu_pct peak_rss_mb make_slowdown_sample16_pct make_slowdown_full_pct; do grep -q \"\$(jq -r .\$k '$bench')\" '$top/docs/fleet.md' || exit 1; done && grep -q \"(QEMU \\\`-icount\\\`, Linux\" '$top/docs/fleet.md' && grep -q \"\$(jq -r .date '$bench')\" '$top/docs/fleet.md'"
dpkg-deb -e "$deb" "$tmp/ctl"
check "/etc/default/pftrace-exporter is a conffile" grep -qx /etc/default/pftrace-exporter "$tmp/ctl/conffiles"
check "postinst creates the user before it grants it the textfile directory" \
	sh -c "awk '/systemd-sysusers/ { u = NR } /systemd-tmpfiles/ { t = NR } END { exit !(u && t && u < t) }' '$tmp/ctl/postinst'"

# dpkg-buildpackage cleans first: debian/rules clean must leave .output
# (the lab, fuzzers and test objects of a make test under way) and the
# binary alone
touch "$out/.package-test-sentinel"
(cd "$top" && debian/rules clean) >"$tmp/clean.log" 2>&1
check "debian/rules clean: exit 0, .output/ and ./pftrace kept" \
	sh -c "[ -e '$out/.package-test-sentinel' ] && [ -x '$top/pftrace' ] && [ -s '$out/pftrace.8' ] && [ -s '$deb' ]"
rm -f "$out/.package-test-sentinel"
summary host
