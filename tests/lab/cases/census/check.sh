# Lab case "census", checked: pftrace sites against aarch64 objdump -d of
# the same running text (the guest's /proc/kcore, rebuilt here from the
# Image and the words boot patched), site by site and kind by kind
# (tests/lab/arm64-census).

check_sites() {
	local j
	j=$(out sites.out)
	check "$k sites: exit 0, text from /proc/kcore" \
		sh -c "[ '$(rc_of sites)' = 0 ] && jq -e '.text_source == \"/proc/kcore\"' '$j' >/dev/null"
	check "$k sites: pldl1keep, pstl1keep and pstl1strm found, each site with its kind" \
		jq_true "$j" '.totals.pldl1keep > 0 and .totals.pstl1keep > 0 and .totals.pstl1strm > 0 and ([.sites[] | .kind == (.instruction | split(" ")[1] | rtrimstr(","))] | all)'
	check "$k sites: LL/SC fallbacks marked (pstl1strm before ldxr), and LSE atomics on -cpu max" \
		jq_true "$j" '.lse_atomics and .llsc_fallbacks > 0 and .llsc_fallbacks <= .totals.pstl1strm and ([.sites[] | select(.llsc_fallback) | .kind == "pstl1strm"] | all)'
}

check_objdump() {
	local c=$dir/census
	# a name of its own: written to the block it reads, it would be emptied first
	base64 -d "$(out running_patched)" | gunzip >"$dir/patched_words"
	base64 -d "$(out text_symbols.gz)" | gunzip >"$dir/text_symbols"
	python3 "$here/arm64-census" "$(out sites.out)" "$dir/text_symbols" "$dir/patched_words" \
		"$kdir/vmlinuz" aarch64-linux-gnu-objdump >"$c" 2>&1
	check "$k sites: every prfm site and kind as aarch64 objdump -d reads the same running text" [ $? -eq 0 ]
	sed 's/^/#   /' "$c"
}

checks() {
	kdir=$("$here/fetch-kernel" --arch arm64 "$k") || { not_ok "$k census: the kernel's Image"; return 0; }
	lab_boot "$dir" "$booted" --add "$kdir/vmlinuz:/root/Image" || return 0
	subtest sites check_sites
	subtest objdump check_objdump
}
