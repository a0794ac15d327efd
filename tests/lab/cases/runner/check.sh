# Lab case "runner": tests/lab/run itself, the interface every other case
# stands on. It boots its own guests, on 6.12 and 6.1 whatever the
# kernels asked for, once per suite run.

o= e=

check_command() {
	local tiny=$dir/runner.file
	"$here/run" --kernel 6.12 -- uname -r >"$o" 2>"$e"
	check "runner: --kernel 6.12 -- uname -r exits 0" [ $? -eq 0 ]
	check "runner: and prints a 6.12 release" grep -qE '^6\.12\.' "$o"
	"$here/run" --kernel 6.1 -- false >"$o" 2>"$e"
	check "runner: --kernel 6.1 -- false exits non-zero" [ $? -ne 0 ]
	echo "hello from the host" >"$tiny"
	"$here/run" --kernel 6.1 --add "$tiny" --add "$tiny:/opt/x/renamed" -- \
		sh -c 'cat /root/runner.file /opt/x/renamed; echo to-stderr >&2; exit 7' >"$o" 2>"$e"
	check "runner: exit status of the command (7)" [ $? -eq 7 ]
	check "runner: --add copies files, default and given paths" [ "$(grep -c 'hello from the host' "$o")" -eq 2 ]
	check "runner: stderr comes back on stderr" grep -qx 'to-stderr' "$e"
	check "runner: stdout keeps stderr out" sh -c "! grep -q to-stderr '$o'"
}

check_timeout() {
	"$here/run" --kernel 6.1 --timeout 6 -- sleep 600 >"$o" 2>"$e"
	check "runner: a hung guest is killed after --timeout (exit 124)" [ $? -eq 124 ]
	check "runner: and says so" grep -q 'did not finish within 6s' "$e"
}

# kernel text from a vmlinux file: the code as linked, placed by KASLR
check_vmlinux() {
	if /usr/bin/python3 "$here/extract-vmlinux" "$("$here/fetch-kernel" 6.12)/vmlinuz" "$dir/vmlinux"; then
		"$here/run" --kernel 6.12 --mem 1536 --add "$dir/vmlinux:/root/vmlinux" -- sh -c \
			'pftrace sites -f kmem_cache_alloc_noprof --format json; echo ===
			 pftrace sites --vmlinux /root/vmlinux -f kmem_cache_alloc_noprof --format json' >"$o" 2>"$e"
		check "runner: sites --vmlinux reads the same function as /proc/kcore" \
			"$top/tests/tools/lab-sites" vmlinux "$o"
	else
		not_ok "runner: extract vmlinux from the 6.12 vmlinuz"
	fi
}

check_refusals() {
	refuses "runner: unknown --kernel" "unknown kernel '4.19'" "$here/run" --kernel 4.19 -- true
	refuses "runner: a missing --add file" "--add: '/no/such/file' not found" "$here/run" --kernel 6.1 --add /no/such/file -- true
	printf '(type oops\n' >"$dir/broken.cil"
	refuses "runner: an unparseable policy" "does not compile" "$here/run" --kernel 6.1 --policy "$dir/broken.cil" -- true
	refuses "runner: no command" "no command given" "$here/run" --kernel 6.1
	refuses "runner: a bad --timeout" "--timeout wants" "$here/run" --kernel 6.1 --timeout soon -- true
}

checks() {
	o=$dir/runner.out e=$dir/runner.err
	subtest command check_command
	subtest timeout check_timeout
	subtest vmlinux check_vmlinux
	subtest refusals check_refusals
}
