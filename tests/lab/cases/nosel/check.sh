# Lab case "nosel", checked: with SELinux off, the AVC recipe says so.

check_nosel() {
	check "$k SELinux off: features says selinux no" \
		jq_true "$(out features.out)" '.features.selinux.available == false'
	expect_refusal trace "SELinux is not active"
	check "$k SELinux off: list says avc not attachable" \
		jq_true "$(out list.out)" '.recipes[] | select(.recipe == "avc") | (.attachable | not) and (.reason | contains("SELinux is not active"))'
}

checks() {
	subtest selinux_off check_nosel
}
