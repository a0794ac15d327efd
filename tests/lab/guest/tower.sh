# The mount tower both table loads walk (sourced): DEPTH tmpfs mounts
# nested under /tmp/tower, a file at the top; "$dir" ends as its path.
# mount_tower DEPTH, then walk_tower N: stat that file N times, each
# walk crossing every mount of the tower.
mount_tower() {
	dir=/tmp/tower
	mkdir -p "$dir"
	i=0
	while [ "$i" -lt "$1" ]; do
		dir=$dir/m$i
		mkdir -p "$dir"
		mount -t tmpfs "tower$i" "$dir"
		i=$((i + 1))
	done
	touch "$dir/leaf"
}

walk_tower() {
	i=0
	while [ "$i" -lt "$1" ]; do
		stat "$dir/leaf" >/dev/null
		i=$((i + 1))
	done
}
