# The gdb stub's batch tests: real gdb-multiarch (scripts/packages.txt)
# against the real binary, on Unix sockets in each test's own directory so
# parallel tests never share a port.  They skip without gdb-multiarch or the
# guests they use; gdb_linux.sh without a kernel (make linux).
BATCH_TESTS += tests/batch/gdb_stub.sh tests/batch/gdb_client.sh tests/batch/gdb_nic.sh \
	tests/batch/gdb_linux.sh tests/batch/gdb_tty.sh tests/batch/gdb_reverse.sh
EXTRA_DIST += tests/batch/gdb_lib.sh tests/batch/gdb_raw.py \
	tests/batch/gdb_mi.py
