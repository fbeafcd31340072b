# SPDX-License-Identifier: GPL-2.0-or-later
# tests/: the lints and the batch tests of the whole binary; the unit tests
# (Check) are in tests/unit/, one folder per layer of src/, each with its own
# fragment.
# What the capture readers (e1000_pcap.py, ttcp_pcap.py, pcap_stats.py) share.
EXTRA_DIST += tests/batch/pcap_lib.py tests/batch/vde_wait_out.py
# The layers include only downward, along the edges docs/architecture.md lists.
TESTS += tests/lint/layers.sh
EXTRA_DIST += tests/lint/layers.sh
# The docs point only at what the tree holds (no repeated lines or headings,
# no dead paths, no notes outside the repository).
TESTS += tests/lint/docs.sh
EXTRA_DIST += tests/lint/docs.sh
# What the front ends read of the devices: counters and the NICs' station view.
BATCH_TESTS += tests/batch/device_counters.sh
# info device-state: hashes, declared fields, errors.
BATCH_TESTS += tests/batch/device_state.sh
# Snapshots: save, --restore, the same run after; every error.
BATCH_TESTS += tests/batch/snapshot.sh tests/batch/linux_snapshot.sh tests/batch/reverse.sh \
	tests/batch/linux_reverse.sh tests/batch/reverse_lastwrite.sh tests/batch/history_dirty.sh \
	tests/batch/history_inputs.sh tests/batch/linux_history.sh
BATCH_TESTS += tests/batch/console_input.sh
# Record and replay (docs/record-replay.md): an example guest's console, bad
# logs; Linux pinging and sending UDP over a socket peer (and a tap in a
# network namespace, as root) while it takes typed input.
BATCH_TESTS += tests/batch/rr_console.sh tests/batch/rr_linux.sh
EXTRA_DIST += tests/batch/rr_edit.py tests/batch/rr_peer.py
# Output files are emptied only by commands that succeed.
BATCH_TESTS += tests/batch/outfiles.sh
# Ctrl-C in long commands and scripts, streamed output (CLI and TUI in tmux).
BATCH_TESTS += tests/batch/interrupt.sh
# source and -x: text files only, stop at the first failing command.
BATCH_TESTS += tests/batch/source.sh
BATCH_TESTS += tests/batch/cli.sh
# --disk: the SCSI controllers, info scsi, start-up errors for bad images.
BATCH_TESTS += tests/batch/scsi_disk.sh
# Linux's qla1280 and sd on the ISP1040Bs: ext2 made on the host, md5sums,
# writes the host reads back, 1 and 2 CPUs, DMA watchpoint on a data buffer.
BATCH_TESTS += tests/batch/linux_scsi.sh
EXTRA_DIST += tests/batch/lib.sh scripts/netns.sh
# lib.sh's bg_start and out_lines: a wait for a background run's output never
# reads the run before's (the tap tests' rx-off race on a busy host).
BATCH_TESTS += tests/batch/lib_bg.sh
BATCH_TESTS += tests/batch/linux_boot.sh tests/batch/linux_hash.sh tests/batch/linux_reprobe.sh \
	tests/batch/linux_sweep.sh
# Kernel flavours (linux/patches): bad input to build.sh --patches; Linux's
# own hamachi and acenic drivers on the ip27-dma64 flavour; the DescIntr
# story on hamachi-txintr-1999 (each skips, naming the make command, when
# its flavour is not built).
BATCH_TESTS += tests/batch/linux_flavour.sh tests/batch/linux_patched.sh \
	tests/batch/linux_descintr.sh
# Idle skip on Linux: 1, 2 and 4 CPUs wait in arch_cpu_idle, time stays right.
BATCH_TESTS += tests/batch/linux_idle.sh
# --threads (one host thread per CPU): Linux on 2 and 4 CPUs, two ttcp
# streams, a breakpoint, the refusals; LL/SC counters exact across threads.
BATCH_TESTS += tests/batch/linux_threads.sh tests/batch/llsc_threads.sh tests/batch/spin_threads.sh
# The TUI in a private tmux server (skips without tmux).
BATCH_TESTS += tests/batch/tui.sh
# The storage layout's queues pane with the ISP example driver.
BATCH_TESTS += tests/batch/tui_storage.sh
# The line-mode debugger on a terminal (tmux): Enter repeats, Tab completes.
BATCH_TESTS += tests/batch/cli_keys.sh
# The TUI's command line in tmux: Tab, Enter, the status bar.
BATCH_TESTS += tests/batch/tui_keys.sh tests/batch/tui_reverse.sh
EXTRA_DIST += tests/batch/tmux_lib.sh
# The TUI's source pane and gdb's layouts (tmux, 80x24).
BATCH_TESTS += tests/batch/tui_src.sh
# Every fragment's batch tests (BATCH_TESTS, Makefile.am) run and ship.
TESTS += $(BATCH_TESTS)
EXTRA_DIST += $(BATCH_TESTS)

# The generator of the command tables (scripts/cmds.awk): good and bad
# declarations (docs/declaring-commands.md).
TESTS += tests/lint/cmds.sh
EXTRA_DIST += tests/lint/cmds.sh

# The licence tag on every source file (LICENSE, scripts/spdx.sh).
TESTS += tests/lint/license.sh
EXTRA_DIST += tests/lint/license.sh scripts/spdx.sh scripts/format.sh LICENSE .clang-format \
	linux/initramfs/.clang-format linux/extra/.clang-format

# The C style (.clang-format, clang-format 14): CI runs format-check.
.PHONY: format format-check
format-check:
	sh $(top_srcdir)/scripts/format.sh check
format:
	sh $(top_srcdir)/scripts/format.sh apply
