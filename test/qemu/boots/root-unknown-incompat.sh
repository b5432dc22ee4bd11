# shellcheck shell=bash
# An unflagged root with an incompat feature bit no kernel knows (set with
# debugfs), under ext4.require_test_fs=1: refused for the feature, not for
# the flag (the gate runs after the feature checks).
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/root.sh
. "$boot_dir/root.sh"

BOOT_END=panic
BOOT_APPEND=$(root_append ext4.require_test_fs=1)
HOST_CHECKS="refused_for_feature"

boot_disks() {
	root_image
	debugfs -w -R "feature FEATURE_I31" "$out/disks/root.img" >/dev/null 2>&1 ||
		fail_boot "debugfs could not set incompat bit 31"
}

host_check_refused_for_feature() {
	grep -F "couldn't mount" <(console) ||
		{ echo "no refusal for the unknown feature"; return 1; }
	if grep -F -e "test_filesystem" -e "-E test_fs" <(console); then
		echo "a root refused for its features blames the flag"
		return 1
	fi
	root_refused
}
