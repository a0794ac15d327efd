# Lab case "census", in the guest: pftrace sites, and the running text it
# read, for objdump on the host. A serial port is slow: what goes back is
# compressed, and only the words that differ from the Image (/root/Image,
# which check.sh adds to the boot).
. /lab/lib.sh

case_ sites pftrace sites --format json
grep -E ' [tT] | (_text|_etext|_sinittext)$' /proc/kallsyms >/tmp/text_symbols
gzip -1 </tmp/text_symbols | base64 >/tmp/text_symbols.gz
emit text_symbols.gz /tmp/text_symbols.gz
# the running text pftrace read: _stext to the end of the last function
# before _etext (or _sinittext), the text symbol after it. Addresses
# compare as strings: all are 16 lowercase hex digits.
text=$(awk '$3 == "_text" { print $1 }' /tmp/text_symbols)
[ -n "$text" ] || text=-     # not listed (6.1): _stext is 64 KiB into the Image
stext=$(awk '$3 == "_stext" { print $1 }' /tmp/text_symbols)
etext=$(awk '$3 == "_etext" || $3 == "_sinittext" { print $1 }' /tmp/text_symbols | sort | head -n 1)
end=$(awk -v e="$etext" '$2 ~ /^[tT]$/ && !/\[/ && $1 >= e { print $1 }' /tmp/text_symbols |
	sort | head -n 1)
kcore-text "$stext" "$end" /root/Image "$text" | gzip -1 | base64 >/tmp/running_patched
emit running_patched /tmp/running_patched
