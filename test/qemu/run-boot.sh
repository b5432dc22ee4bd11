#!/bin/bash
# Boot the test kernel once with a suite of guest checks and image files as
# virtio-blk disks, then judge the boot.  Run by the qemu.boot and
# qemu.require.boot tests; see test/qemu/README.md for running it by hand.
#
# It writes into --out DIR:
#   console.log   the kernel console (ttyS0)
#   results.ktap  the guest's KTAP report (ttyS1), one line per check
#   host.ktap     checks the host makes on the images after the boot
#   boot.status   "ok", or "not ok: <why>" when the boot itself failed
#   disks/        the images, for inspection
# and exits 0 when the boot worked (QEMU ended by the guest's verdict, no
# Oops/BUG/WARNING/panic, a complete KTAP report).  Whether each check
# passed is for test/qemu/check.sh to say, one CTest result per check.
#
# It never touches this machine's kernel or disks: image files only.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=kernel/lib.sh
. "$here/../../kernel/lib.sh"
# shellcheck source=kernel/console.sh
. "$here/../../kernel/console.sh"
# shellcheck source=test/qemu/verdict.sh
. "$here/verdict.sh"
# shellcheck source=test/vm/vm.sh
. "$here/../vm/vm.sh"

# The guest's verdict through isa-debug-exit: QEMU exits with
# (value << 1) | 1.  Values that QEMU itself never exits with.
readonly EXIT_PASS=33 EXIT_FAIL=35
readonly IMAGE_MB=16
# Who makes the main disk of scenario 1: "guest" gives the guest a blank
# disk to run ext4dev mkfs on (the default, now that mkfs exists), "host"
# an image made by mke2fs -t ext4 -E test_fs.  EXT4DEV_QEMU_MKFS=host
# brings the old way back without editing.
readonly MAIN_MKFS=${EXT4DEV_QEMU_MKFS:-guest}
# Fixed identity of the LABEL=/UUID= disk, passed on to the guest.
readonly LABEL=ext4dev-label
readonly LABEL_UUID=6f2b1c3e-5a4d-4e8f-9b7a-0c1d2e3f4a5b
# The GPT disk of the part_* checks (guest/parts.sh): fixed identities,
# the first partition's PARTUUID passed on to the guest.
readonly PARTS_MB=64
readonly PART_UUID=3c7b70f7-6180-4e24-abf9-f652c2c6b574

usage() {
	cat <<EOF
usage: ${0##*/} --kernel BZIMAGE --initramfs CPIO --suite normal|require|modular
                --out DIR [--expect "NAME..."] [--only TEST] [--shell]
                [--timeout SECONDS]

  --expect   the names the KTAP report must contain, exactly
  --only     run only these guest checks (comma-separated, in order;
             checks on the "main" disk build on the ones before them)
  --shell    interactive: console on this terminal, a shell in the guest
  EXT4DEV_QEMU_ACCEL=auto|tcg|kvm  (auto: KVM only if a probe boot works)
  EXT4DEV_QEMU_APPEND="..."        more kernel arguments (e.g. printk.time=1)
  EXT4DEV_QEMU_TIMEOUT=SECONDS     hard limit per boot (default 180)
  EXT4DEV_QEMU_MKFS=host|guest     who makes the main disk (see MAIN_MKFS)
EOF
}

mkimg() {
	local img=$1

	shift
	rm -f "$img"
	truncate -s "${IMAGE_MB}M" "$img"
	mke2fs -q -F "$@" "$img" >/dev/null || die "mke2fs $* '$img' failed"
}

# role:image lines in disk order; vda, vdb, ... in the guest.
make_disks_normal() {
	local d=$1

	mkimg "$d/tune2fs.img" -t ext4
	tune2fs -E test_fs "$d/tune2fs.img" >/dev/null ||
		die "tune2fs -E test_fs '$d/tune2fs.img' failed"
	if [[ $MAIN_MKFS == guest ]]; then
		rm -f "$d/main.img"
		truncate -s "${IMAGE_MB}M" "$d/main.img"
	else
		mkimg "$d/main.img" -t ext4 -E test_fs
	fi
	mkimg "$d/m1k_csum.img" -t ext4 -b 1024 -O metadata_csum -E test_fs
	mkimg "$d/m1k_nocsum.img" -t ext4 -b 1024 -O ^metadata_csum -E test_fs
	mkimg "$d/m4k_csum.img" -t ext4 -b 4096 -O metadata_csum -E test_fs
	mkimg "$d/m4k_nocsum.img" -t ext4 -b 4096 -O ^metadata_csum -E test_fs
	mkimg "$d/nojournal.img" -t ext4 -b 4096 -O ^has_journal -E test_fs
	mkimg "$d/label.img" -t ext4 -L "$LABEL" -U "$LABEL_UUID"
	mkimg "$d/untouched.img" -t ext4
	mkimg "$d/readonly.img" -t ext4 -E test_fs
	echo "tune2fs main m1k_csum m1k_nocsum m4k_csum m4k_nocsum nojournal label untouched readonly"
}

# A disk with a GPT table of three blank partitions, made by sfdisk on
# the image file (no root, no loop device); attached as virtio-scsi.
make_parts_disk() {
	local img=$1

	rm -f "$img"
	truncate -s "${PARTS_MB}M" "$img"
	sfdisk -q "$img" >/dev/null <<EOF || die "sfdisk '$img' failed"
label: gpt
label-id: 8d1f6a52-0b8e-4c1e-9e43-5f0a2d7c9b11
size=16MiB, name=ext4dev-p1, uuid=$PART_UUID
size=16MiB, name=ext4dev-p2, uuid=1e0c5b7a-93d4-4f62-8a1b-2c3d4e5f6a7b
name=ext4dev-p3, uuid=9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d
EOF
}

make_disks_require() {
	local d=$1

	mkimg "$d/unflagged.img" -t ext4
	mkimg "$d/flagged.img" -t ext4 -E test_fs
	mkimg "$d/untouched.img" -t ext4
	echo "unflagged flagged untouched"
}

# The modular kernel's checks use the require suite's three disks.
make_disks_modular() {
	make_disks_require "$@"
}

# The QEMU command line, one word per line (read with mapfile).
qemu_args() {
	local role n=0 append

	append="console=ttyS0 panic=-1 ext4dev.suite=$suite ext4dev.mkfs=$MAIN_MKFS"
	[[ $suite == require ]] && append+=" ext4.require_test_fs=1"
	# The ext4 KUnit suites run at boot of the normal suite (minus cases
	# marked slow); the host checks their results in console.log
	# (qemu.kunit).  Once is enough: the other boot skips them.
	if [[ $suite == normal ]]; then
		append+=" kunit.filter_glob=ext4* kunit.filter=speed>slow"
		append+=" ext4dev.label=$LABEL ext4dev.uuid=$LABEL_UUID"
		append+=" ext4dev.partuuid=$PART_UUID"
	else
		append+=" kunit.enable=0"
	fi
	[[ -n $only ]] && append+=" ext4dev.only=$only"
	((shell)) && append+=" ext4dev.shell=1"
	vm_base_args "$accel" 256M "$kernel" "$append"
	printf '%s\n' -initrd "$initramfs"
	if ((shell)); then
		printf '%s\n' -serial mon:stdio
	else
		printf '%s\n' -serial "file:$out/console.log"
	fi
	printf '%s\n' -serial "file:$out/results.ktap"
	for role in $roles; do
		n=$((n + 1))
		# "readonly": a disk the guest's kernel marks read-only.
		vm_disk "$n" "$out/disks/$role.img" "$role" \
			"$([[ $role == readonly ]] && echo ro)"
	done
	# /dev/sda in the guest: a SCSI disk, named as on real machines.
	if [[ -f $out/disks/parts.img ]]; then
		printf '%s\n' -device virtio-scsi-pci,id=scsi0 \
			-drive "file=$out/disks/parts.img,if=none,id=dparts,format=raw" \
			-device scsi-hd,drive=dparts,bus=scsi0.0,serial=parts
	fi
}

# e2fsck -fn on each partition of the GPT disk that holds an ext2/3/4
# filesystem, copied out by the offsets sfdisk reads from the table.
e2fsck_partitions() {
	local img=$out/disks/parts.img start size n=0 part bad=""

	[[ -f $img ]] || return 0
	while read -r start size; do
		n=$((n + 1))
		part=$out/disks/parts.p$n.img
		dd if="$img" of="$part" bs=1M iflag=skip_bytes,count_bytes \
			skip=$((start * 512)) count=$((size * 512)) status=none
		if [[ $(blkid -p -o value -s TYPE "$part" 2>/dev/null) == ext* ]]; then
			e2fsck -fn "$part" >"$part.e2fsck" 2>&1 || bad+=" parts.p$n"
		fi
		rm -f "$part"
	done < <(sfdisk -d "$img" | sed -n 's/.*start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2/p')
	echo "$bad"
}

# Checks on the images after the guest is gone, as KTAP in host.ktap.
host_checks() {
	local n=0 role bad="" img

	echo "KTAP version 1"
	echo "1..2"
	for role in $roles; do
		img=$out/disks/$role.img
		[[ $role == main && $MAIN_MKFS == guest && ! -s $img ]] && continue
		e2fsck -fn "$img" >"$out/disks/$role.e2fsck" 2>&1 || bad+=" $role"
	done
	bad+=$(e2fsck_partitions)
	n=$((n + 1))
	if [[ -z $bad ]]; then
		echo "ok $n e2fsck_clean"
	else
		echo "not ok $n e2fsck_clean # e2fsck -fn reports problems on:$bad (see $out/disks/*.e2fsck)"
	fi
	n=$((n + 1))
	if [[ $(sha256sum <"$out/disks/untouched.img") == "$untouched_sum" ]]; then
		echo "ok $n untouched_unchanged"
	else
		echo "not ok $n untouched_unchanged # refused mounts changed the image's bytes"
	fi
}

main() {
	local limit=${EXT4DEV_QEMU_TIMEOUT:-180} status=0 why qemu

	kernel="" initramfs="" suite="" out="" expect="" only="" shell=0
	while (($#)); do
		case $1 in
		--kernel) kernel=${2:?}; shift ;;
		--initramfs) initramfs=${2:?}; shift ;;
		--suite) suite=${2:?}; shift ;;
		--out) out=${2:?}; shift ;;
		--expect) expect=${2?}; shift ;;
		--only) only=${2:?}; shift ;;
		--shell) shell=1 ;;
		--timeout) limit=${2:?}; shift ;;
		-h | --help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done
	[[ -n $kernel && -n $initramfs && -n $out && $suite =~ ^(normal|require|modular)$ ]] ||
		{ usage >&2; exit 2; }
	# Nothing from an earlier boot may survive into this one's verdicts.
	rm -rf "$out"
	mkdir -p "$out/disks"
	vm_require "$kernel"
	[[ -f $initramfs ]] || die "no initramfs '$initramfs' (mkinitramfs.sh makes it)"
	[[ -n $only ]] && expect=${only//,/ }
	roles=$("make_disks_$suite" "$out/disks")
	if [[ $suite == normal ]]; then
		command -v sfdisk >/dev/null ||
			skip_boot "sfdisk not found (apt-get install fdisk)"
		make_parts_disk "$out/disks/parts.img"
	fi
	untouched_sum=$(sha256sum <"$out/disks/untouched.img")
	accel=$(vm_accel "$kernel")
	mapfile -t qemu < <(qemu_args)
	if ((shell)); then
		qemu-system-x86_64 "${qemu[@]}" || true
		return 0
	fi
	vm_run "$suite, $accel" "$limit" "${qemu[@]}"
	status=$vm_status

	host_checks >"$out/host.ktap"
	ktap | grep -E '^(not )?ok [0-9]' || true
	grep -E '^(not )?ok [0-9]' "$out/host.ktap" | sed 's/^/host: /'
	why=$(judge_boot "$status" "$limit") || true
	vm_verdict "$why" 25
}

main "$@"
