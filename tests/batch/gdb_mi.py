#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gdb-multiarch driven through its machine interface (MI), the way IDEs
(VS Code's cppdbg, Emacs' gdb-mi) drive it, against xbow's stub: attach,
break, continue, the stack, then an asynchronous interrupt of a running
guest (-exec-interrupt), threads, detach.  Usage: gdb_mi.py GDB SOCKET ELF.
Prints "ok ..." per step or "FAIL ..." and exits 1."""
import subprocess
import sys
import time

gdb, sock, elf = sys.argv[1:4]
p = subprocess.Popen([gdb, "--interpreter=mi3", "-nx", "-q", elf], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
failed = 0
token = 0


def send(cmd):
    global token
    token += 1
    p.stdin.write("%d%s\n" % (token, cmd))
    p.stdin.flush()
    return str(token)


def until(pred, what, timeout=60):
    """Read MI records until pred(line) holds; returns the lines read."""
    lines = []
    end = time.time() + timeout
    while time.time() < end:
        line = p.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if pred(line):
            return lines
    raise AssertionError("no %s; got: %s" % (what, " | ".join(lines[-8:])))


def result(cmd, want="^done"):
    t = send(cmd)
    lines = until(lambda l: l.startswith(t + "^"), "result of " + cmd)
    last = lines[-1]
    if not last.startswith(t + want):
        raise AssertionError("%s answered %s" % (cmd, last))
    return lines


def stopped(what):
    return until(lambda l: l.startswith("*stopped"), what)[-1]


def step(name, fn):
    global failed
    try:
        fn()
        print("ok", name)
    except Exception as e:  # a failed step fails the test
        print("FAIL %s: %s" % (name, e))
        failed += 1


def attach():
    until(lambda l: l.startswith("(gdb)"), "prompt")
    result("-gdb-set mi-async on")
    result("-target-select remote " + sock, "^connected")


def breakpoint():
    result("-break-insert middle")
    result("-exec-continue", "^running")
    s = stopped("stop at the breakpoint")
    if 'reason="breakpoint-hit"' not in s or 'func="middle"' not in s:
        raise AssertionError(s)


def stack():
    lines = result("-stack-list-frames")
    if 'level="0"' not in lines[-1] or 'func="middle"' not in lines[-1] or 'func="outer"' not in lines[-1]:
        raise AssertionError(lines[-1])


def interrupt():
    result("-break-delete 1")
    result("-exec-continue", "^running")
    until(lambda l: l.startswith("*running"), "*running")
    time.sleep(1)
    result("-exec-interrupt")
    s = stopped("stop after -exec-interrupt")
    if 'signal-name="SIGINT"' not in s:
        raise AssertionError(s)


def threads():
    lines = result("-thread-info")
    if 'target-id="Thread 1"' not in lines[-1] or 'cpu0, node 0 slice A' not in lines[-1]:
        raise AssertionError(lines[-1])


def detach():
    result("-target-detach")


step("attach", attach)
step("breakpoint", breakpoint)
step("stack", stack)
step("interrupt", interrupt)
step("threads", threads)
step("detach", detach)
try:
    send("-gdb-exit")
    p.wait(timeout=20)
except Exception:
    p.kill()
sys.exit(1 if failed else 0)
