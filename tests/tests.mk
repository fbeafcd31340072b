# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: the lints and the batch tests of the whole binary; the unit tests
# (Check) are in tests/unit/, one folder per layer of src/, each with its own
# fragment.
# What the capture readers (e1000_pcap.py, ttcp_pcap.py, pcap_stats.py) share.
EXTRA_DIST += tests/batch/pcap_lib.py
# The layers include only downward, along the edges docs/architecture.md lists.
TESTS += tests/lint/layers.sh
EXTRA_DIST += tests/lint/layers.sh
# The docs point only at what the tree holds (no repeated lines or headings,
# no dead paths, no notes outside the repository).
TESTS += tests/lint/docs.sh
EXTRA_DIST += tests/lint/docs.sh
# What the front ends read of the devices: counters and the NICs' station view.
TESTS += tests/batch/device_counters.sh
EXTRA_DIST += tests/batch/device_counters.sh
# info device-state: hashes, declared fields, errors.
TESTS += tests/batch/device_state.sh
EXTRA_DIST += tests/batch/device_state.sh
# Snapshots: save, --restore, the same run after; every error.
TESTS += tests/batch/snapshot.sh tests/batch/linux_snapshot.sh tests/batch/reverse.sh tests/batch/linux_reverse.sh \
	tests/batch/reverse_lastwrite.sh tests/batch/history_dirty.sh tests/batch/history_inputs.sh tests/batch/linux_history.sh
EXTRA_DIST += tests/batch/snapshot.sh tests/batch/linux_snapshot.sh tests/batch/reverse.sh tests/batch/linux_reverse.sh \
	tests/batch/reverse_lastwrite.sh tests/batch/history_dirty.sh tests/batch/history_inputs.sh tests/batch/linux_history.sh
TESTS += tests/batch/console_input.sh
EXTRA_DIST += tests/batch/console_input.sh
# Record and replay (docs/record-replay.md): an example guest's console, bad
# logs; Linux pinging and sending UDP over a socket peer (and a tap in a
# network namespace, as root) while it takes typed input.
TESTS += tests/batch/rr_console.sh tests/batch/rr_linux.sh
EXTRA_DIST += tests/batch/rr_console.sh tests/batch/rr_linux.sh tests/batch/rr_edit.py \
	tests/batch/rr_peer.py
# Output files are emptied only by commands that succeed.
TESTS += tests/batch/outfiles.sh
EXTRA_DIST += tests/batch/outfiles.sh
# Ctrl-C in long commands and scripts, streamed output (CLI and TUI in tmux).
TESTS += tests/batch/interrupt.sh
EXTRA_DIST += tests/batch/interrupt.sh
# source and -x: text files only, stop at the first failing command.
TESTS += tests/batch/source.sh
EXTRA_DIST += tests/batch/source.sh
TESTS += tests/batch/cli.sh
# --disk: the SCSI controllers, info scsi, start-up errors for bad images.
TESTS += tests/batch/scsi_disk.sh
EXTRA_DIST += tests/batch/scsi_disk.sh
# Linux's qla1280 and sd on the ISP1040Bs: ext2 made on the host, md5sums,
# writes the host reads back, 1 and 2 CPUs, DMA watchpoint on a data buffer.
TESTS += tests/batch/linux_scsi.sh
EXTRA_DIST += tests/batch/linux_scsi.sh
EXTRA_DIST += tests/batch/lib.sh tests/batch/cli.sh
TESTS += tests/batch/linux_boot.sh tests/batch/linux_hash.sh tests/batch/linux_reprobe.sh \
	tests/batch/linux_sweep.sh
EXTRA_DIST += tests/batch/linux_boot.sh tests/batch/linux_hash.sh tests/batch/linux_reprobe.sh \
	tests/batch/linux_sweep.sh
# Kernel flavours (linux/patches): bad input to build.sh --patches; Linux's
# own hamachi and acenic drivers on the ip27-dma64 flavour; the DescIntr
# story on hamachi-txintr-1999 (each skips, naming the make command, when
# its flavour is not built).
TESTS += tests/batch/linux_flavour.sh tests/batch/linux_patched.sh tests/batch/linux_descintr.sh
EXTRA_DIST += tests/batch/linux_flavour.sh tests/batch/linux_patched.sh tests/batch/linux_descintr.sh
# Idle skip on Linux: 1, 2 and 4 CPUs wait in arch_cpu_idle, time stays right.
TESTS += tests/batch/linux_idle.sh
EXTRA_DIST += tests/batch/linux_idle.sh
# The TUI in a private tmux server (skips without tmux).
TESTS += tests/batch/tui.sh
EXTRA_DIST += tests/batch/tui.sh
# The storage layout's queues pane with the ISP example driver.
TESTS += tests/batch/tui_storage.sh
EXTRA_DIST += tests/batch/tui_storage.sh
# The line-mode debugger on a terminal (tmux): Enter repeats, Tab completes.
TESTS += tests/batch/cli_keys.sh
EXTRA_DIST += tests/batch/cli_keys.sh
# The TUI's command line in tmux: Tab, Enter, the status bar.
TESTS += tests/batch/tui_keys.sh tests/batch/tui_reverse.sh
EXTRA_DIST += tests/batch/tui_keys.sh tests/batch/tui_reverse.sh tests/batch/tmux_lib.sh
# The TUI's source pane and gdb's layouts (tmux, 80x24).
TESTS += tests/batch/tui_src.sh
EXTRA_DIST += tests/batch/tui_src.sh

# The licence tag on every source file (LICENSE, scripts/spdx.sh).
TESTS += tests/lint/license.sh
EXTRA_DIST += tests/lint/license.sh scripts/spdx.sh scripts/format.sh LICENSE .clang-format \
	linux/initramfs/.clang-format

# The C style (.clang-format, clang-format 14): CI runs format-check.
.PHONY: format format-check
format-check:
	sh $(top_srcdir)/scripts/format.sh check
format:
	sh $(top_srcdir)/scripts/format.sh apply
