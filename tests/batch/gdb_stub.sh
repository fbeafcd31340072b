#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The gdb stub itself: the gdbserver command and --gdb (errors, TCP port 0,
# the warning for other addresses), bad input from a raw client (bad
# checksums, oversize packets, garbage, unknown packets, requests out of
# range, clients that leave mid-packet and mid-continue: answered or dropped
# with one log line, the machine and the prompt intact), one client at a
# time, and gdb driven through MI the way IDEs drive it (asynchronous
# interrupt included).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"
RAW="$top_srcdir/tests/batch/gdb_raw.py"
MI="$top_srcdir/tests/batch/gdb_mi.py"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

# 1. Bad arguments: each a clear message, nothing listens.
cat >"$TMP/cases" <<X
gdbserver abc|gdbserver: "abc" is not a port (want [HOST:]PORT with PORT from 0 to 65535, 0 for any free one, or unix:PATH).
gdbserver 70000|gdbserver: "70000" is not a port
gdbserver 127.0.0.1:-1|gdbserver: "127.0.0.1:-1" is not a port
gdbserver 127.0.0.1:|gdbserver: "127.0.0.1:" is not a port
gdbserver ::1:1234|gdbserver: write an IPv6 address in brackets: [::1]:1234.
gdbserver unix:|gdbserver: unix: wants a path (unix:/tmp/xbow-gdb).
gdbserver unix:$TMP/no/such/dir/s|gdbserver: cannot listen on $TMP/no/such/dir/s: No such file or directory.
gdbserver unix:$TMP/cases|gdbserver: $TMP/cases exists and is not a socket.
gdbserver on-detach maybe|gdbserver on-detach: want run or stop, not "maybe".
gdbserver off|gdbserver: not listening.
gdbserver off now|gdbserver off: it takes no arguments.  Usage: gdbserver off
info stop|The guest has not stopped yet.
X
error_cases args "echo done\\n"
xbow_run info -ex "info gdbserver"
expect "gdbserver: not listening (\"gdbserver [HOST:]PORT\" or \"gdbserver unix:PATH\" starts it)."
expect "When gdb detaches, the machine runs on (gdbserver on-detach)."

# Listening twice; off; the socket file goes with it.
xbow_run twice -ex "gdbserver unix:$TMP/t.sock" -ex "gdbserver 0" -ex "info gdbserver" \
    -ex "gdbserver off" -ex "info gdbserver"
expect_rc 1
expect "gdbserver: listening on unix:$TMP/t.sock (gdb-multiarch: target remote $TMP/t.sock)"
expect "gdbserver: already listening on unix:$TMP/t.sock (\"gdbserver off\" first)."
expect "No gdb attached."
expect "gdbserver: stopped listening on unix:$TMP/t.sock."
[ -e "$TMP/t.sock" ] && fail "the socket file is still there after gdbserver off"
"$XBOW" --batch -q --gdb "unix:$TMP/no/dir/s" "$GUEST" >"$TMP/opt.out" 2>&1 </dev/null
rc=$?
name=opt
expect_rc 2
expect "gdbserver: cannot listen on $TMP/no/dir/s"

# Any other address than loopback: a warning (port 0: any free port).
xbow_run remote -ex "gdbserver 0.0.0.0:0" -ex "gdbserver off"
expect_rc 0
expect_re "^gdbserver: listening on 0\.0\.0\.0:[1-9][0-9]*"
grep -q "warning: gdbserver: 0.0.0.0:[0-9]* can be reached from other machines: whoever connects has full control of the machine" \
    "$TMP/remote.err" || fail "no warning for 0.0.0.0"

# 2. TCP, port 0: xbow says which port; batch mode serves one session.
name=tcp
"$XBOW" --batch -q --gdb 0 "$GUEST" >"$TMP/tcp.out" 2>"$TMP/tcp.err" </dev/null &
tpid=$!
wait_for "$TMP/tcp.out" "gdbserver: waiting for gdb" || fail "no port"
port=$(sed -n 's/^gdbserver: listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$TMP/tcp.out")
[ -n "$port" ] || fail "no port in the listening line"
SOCK_SAVED=$SOCK
SOCK=127.0.0.1:$port
gdb_run tcpgdb "$GUEST" -ex 'p/x $pc' -ex kill
SOCK=$SOCK_SAVED
expect_rc 0
expect "\$1 = 0xa800000000020000"
wait "$tpid"
rc=$?
name=tcp
expect_rc 0
expect "[gdb attached from 127.0.0.1:"
expect "[gdb killed its session: the machine stays stopped]"

# 3. Bad input from a raw client, and clients that leave at bad moments.
xbow_start raw --append forever "$GUEST"
xbow_cmd "gdbserver on-detach stop"
name=rawpy
: >"$TMP/$name.xbow"
timeout 120 python3 "$RAW" "$SOCK" garbage badsum unknown oversize memory registers points \
    threads step noack monitor interrupt midpacket midcontinue attach_running kill \
    >"$TMP/$name.out" 2>&1
rc=$?
expect_rc 0
expect_count 0 "FAIL"
expect_count 16 "ok "
# The prompt is intact and the machine answers.
xbow_cmd "info cpus"
xbow_sync
on raw
expect_re "^\* 0 +0xa8[0-9a-f]+ "
expect "[gdb closed the connection in the middle of a packet]"
expect "[gdb closed the connection while the guest ran; it runs on (Ctrl-C stops it)]"
expect "gdb attached: the machine stops for it."
# One log line per incident.
name=raw
grep -q "warning: gdbserver: pid [0-9]* sends bytes that are not packets: ignored" \
    "$TMP/raw.err" || fail "no log line for garbage"
[ "$(grep -c "a packet with a bad checksum from pid [0-9]*: asked for it again" "$TMP/raw.err")" \
    -eq 2 ] || fail "not one log line per bad checksum"
grep -q "a packet with a bad checksum from pid [0-9]*: dropped" "$TMP/raw.err" ||
    fail "no log line for a bad checksum in no-ack mode"
grep -q "a packet longer than 16384 bytes from pid [0-9]*: refused" "$TMP/raw.err" ||
    fail "no log line for an oversize packet"
grep -q "closed the connection in the middle of a packet" "$TMP/raw.err" ||
    fail "no log line for a client leaving mid-packet"

# 4. One client at a time: a second gdb is told why, the first goes on.
name=first
: >"$TMP/$name.xbow"
attached=$(grep -c "^\[gdb attached from" "$TMP/raw.out")
timeout 120 "$GDB" -batch -nx -ex "target remote $SOCK" -ex "shell sleep 3" -ex 'p 1+1' \
    -ex detach "$GUEST" >"$TMP/first.out" 2>&1 </dev/null &
fpid=$!
for _ in $(seq 100); do
    [ "$(grep -c "^\[gdb attached from" "$TMP/raw.out")" -gt "$attached" ] && break
    sleep 0.1
done
gdb_run second "$GUEST" -ex 'p/x $pc'
expect_re "^warning: Remote failure reply: E\.xbow: another gdb is attached \(from pid [0-9]+\); only one at a time$"
expect "Remote connection closed"
expect "No registers."
wait "$fpid"
on first
expect "\$1 = 2"
expect "[Inferior 1 (Remote target) detached]"
grep -q "refused a second gdb from pid [0-9]*: pid [0-9]* is attached" "$TMP/raw.err" ||
    fail "no log line for the refused gdb"
xbow_quit

# 5. gdb through MI, as an IDE drives it: -exec-interrupt stops the guest.
xbow_start mi --append forever "$GUEST"
xbow_cmd "gdbserver on-detach stop"
name=mipy
: >"$TMP/$name.xbow"
timeout 120 python3 "$MI" "$GDB" "$SOCK" "$GUEST" >"$TMP/$name.out" 2>&1
rc=$?
expect_rc 0
expect_count 6 "ok "
xbow_cmd "gdbserver off"
xbow_sync
xbow_quit
finish
