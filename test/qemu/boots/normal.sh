# shellcheck shell=bash
# The normal suite (guest/suite-normal.sh) on the patched kernel, from
# the busybox initramfs (--initrd, mkinitramfs.sh): one image per role,
# named by its virtio serial; a GPT disk on SCSI for the part_* checks;
# the ext4 KUnit suites at boot (minus cases marked slow), read from
# console.log by the qemu.kunit test.
# shellcheck disable=SC2034,SC2154 # the runner reads ours, we read its
# shellcheck source=test/qemu/boots/images.sh
. "$boot_dir/images.sh"

# Who makes the main disk: "guest" gives the guest a blank disk to run
# ext4dev mkfs on (the default), "host" an image made by mke2fs -t ext4
# -E test_fs (EXT4DEV_QEMU_MKFS=host; the harness's selftest, whose
# fake guest makes nothing).
readonly MAIN_MKFS=${EXT4DEV_QEMU_MKFS:-guest}
# Fixed identities, passed on to the guest: the LABEL=/UUID= disk and
# the first partition of the GPT disk.
readonly LABEL=ext4dev-label
readonly LABEL_UUID=6f2b1c3e-5a4d-4e8f-9b7a-0c1d2e3f4a5b
readonly PART_UUID=3c7b70f7-6180-4e24-abf9-f652c2c6b574

BOOT_APPEND="ext4dev.suite=normal ext4dev.mkfs=$MAIN_MKFS"
BOOT_APPEND+=" kunit.filter_glob=ext4* kunit.filter=speed>slow"
BOOT_APPEND+=" ext4dev.label=$LABEL ext4dev.uuid=$LABEL_UUID"
BOOT_APPEND+=" ext4dev.partuuid=$PART_UUID"
GUEST_SUITE="../guest/suite-normal.sh TESTS"
HOST_CHECKS="disks_clean untouched_unchanged"

# A GPT table of three blank partitions, made by sfdisk on the image
# file (no root, no loop device).
parts_disk() {
	local img=$out/disks/parts.img

	command -v sfdisk >/dev/null ||
		skip_boot "sfdisk not found (apt-get install fdisk)"
	truncate -s 64M "$img"
	sfdisk -q "$img" >/dev/null <<PARTS || fail_boot "sfdisk '$img' failed"
label: gpt
label-id: 8d1f6a52-0b8e-4c1e-9e43-5f0a2d7c9b11
size=16MiB, name=ext4dev-p1, uuid=$PART_UUID
size=16MiB, name=ext4dev-p2, uuid=1e0c5b7a-93d4-4f62-8a1b-2c3d4e5f6a7b
name=ext4dev-p3, uuid=9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
PARTS
}

boot_disks() {
	local role

	image tune2fs -t ext4
	tune2fs -E test_fs "$out/disks/tune2fs.img" >/dev/null ||
		fail_boot "tune2fs -E test_fs failed"
	if [[ $MAIN_MKFS == guest ]]; then
		truncate -s "${IMAGE_MB}M" "$out/disks/main.img"
	else
		image main -t ext4 -E test_fs
	fi
	image m1k_csum -t ext4 -b 1024 -O metadata_csum -E test_fs
	image m1k_nocsum -t ext4 -b 1024 -O ^metadata_csum -E test_fs
	image m4k_csum -t ext4 -b 4096 -O metadata_csum -E test_fs
	image m4k_nocsum -t ext4 -b 4096 -O ^metadata_csum -E test_fs
	image nojournal -t ext4 -b 4096 -O ^has_journal -E test_fs
	image label -t ext4 -L "$LABEL" -U "$LABEL_UUID"
	image untouched -t ext4
	image readonly -t ext4 -E test_fs
	for role in tune2fs main m1k_csum m1k_nocsum m4k_csum m4k_nocsum \
		nojournal label; do
		vm_add_disk "$role" "$out/disks/$role.img"
	done
	vm_add_disk untouched "$out/disks/untouched.img" same
	vm_add_disk readonly "$out/disks/readonly.img" ro
	parts_disk
	vm_add_disk parts "$out/disks/parts.img" scsi
}
