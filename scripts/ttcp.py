#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ttcp for the host side of an xbow guest: the peer of linux/initramfs/ttcp.c
(its protocol is in linux/README.md, "ttcp (UDP)"), for tests and benchmarks
through --net tap:IF or --net socket peers.

  ttcp.py -t [-V] [-l msgsize] [-n count] [-p port] [-d usec] [-e msec] [-b addr] HOST
  ttcp.py -r [-V] [-l msgsize] [-n count] [-p port] [-w sec] [-b addr] [--ready FILE]

-t sends one buffer (message 0's pattern) count times between a start
sentinel and four end sentinels, as the classic ttcp does; -V fills each
message k with (k*7 + i) & 0xff.  -r counts the datagrams between the
sentinels; with -V it checks each one's pattern and sequence and sums its
bytes.  -d paces the sender: message k leaves usec * k after the first (on
CLOCK_MONOTONIC, so sleep(3)'s overshoot does not slow it down; a sender
that fell more than 4 messages behind its schedule, preempted on a loaded
host, starts a new schedule instead of sending a burst); -e waits msec
before the end sentinels (an unpaced sender can fill the receiver's queues,
and a sentinel that arrives while they are full is lost); -b binds to addr;
--ready FILE is created once the receiver's socket is bound.

Both report in the guest tool's format, in host time (CLOCK_MONOTONIC):
  host-t: B bytes in S.SSSSSS s = M.mmm Mbit/s (host time)
  host-t: msgs=N bytes=B time_us=T rate_kBps=R rate_Mbps=M.mmm cksum=0x... verify=V nobufs=K
  host-r: msgs=N bytes=B time_us=T rate_kBps=R rate_Mbps=M.mmm cksum=C verify=V bad=E seqerr=S otherlen=O
then the interval's ends on CLOCK_MONOTONIC (the same clock for every process
on the host: a bench that runs a sender and a receiver at once takes the
union of their intervals):
  host-t: monotonic_us first=T0 last=T1
The receiver exits 1 if no data arrived or a message failed the check."""
import errno, socket, sys, time

MAXMSG = 65507


def usage():
    sys.exit(__doc__.split('\n\n')[1])


def pattern(k, n):
    b = (k * 7) & 0xff
    return bytes((b + i) & 0xff for i in range(256)) * (n // 256 + 1)


def report(who, msgs, nbytes, us, cksum, verify):
    us = max(us, 1)
    mbps_milli = nbytes * 8000 // us
    print('%s: %d bytes in %d.%06d s = %d.%03d Mbit/s (host time)' %
          (who, nbytes, us // 1000000, us % 1000000, mbps_milli // 1000, mbps_milli % 1000))
    return ('%s: msgs=%d bytes=%d time_us=%d rate_kBps=%d rate_Mbps=%d.%03d cksum=%s verify=%d' %
            (who, msgs, nbytes, us, nbytes * 1000 // us, mbps_milli // 1000, mbps_milli % 1000,
             cksum, verify))


def now_us():
    return time.monotonic_ns() // 1000


def transmit(o):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if o['bind']:
        s.bind((o['bind'], 0))
    s.connect((o['host'], o['port']))
    length, count, verify = o['len'], o['count'], o['verify']
    print('host-t: msgsize=%d count=%d port=%d verify=%d -> %s' %
          (length, count, o['port'], verify, o['host']), flush=True)
    # With -V: the 256 patterns (message k's depends on k mod 256 only).
    pats = [pattern(k, length)[:length] for k in range(256)] if verify else None
    buf = pattern(0, length)[:length]
    cksum = (sum(buf) * count) & 0xffffffff if not verify else 0
    delay = o['delay'] / 1e6
    nobufs = 0
    t0 = now_us()
    s.send(b'ttcp')
    due = time.monotonic()
    for k in range(count):
        if verify:
            buf = pats[k & 0xff]
            cksum = (cksum + sum(buf)) & 0xffffffff
        while True:
            try:
                s.send(buf)
                break
            except OSError as e:
                if e.errno in (errno.ENOBUFS, errno.EAGAIN):
                    nobufs += 1
                    time.sleep(0.001)
                elif e.errno in (errno.ECONNREFUSED, errno.EINTR):
                    continue
                else:
                    raise
        if delay:
            due += delay
            ahead = due - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
            elif ahead < -4 * delay:
                due = time.monotonic()
    t1 = now_us()
    if o['endwait']:
        time.sleep(o['endwait'] / 1000)
    for _ in range(4):
        try:
            s.send(b'ttcp')
        except OSError:
            pass
        time.sleep(0.001)
    print(report('host-t', count, count * length, t1 - t0, '0x%08x' % cksum, verify) +
          ' nobufs=%d' % nobufs, flush=True)
    print('host-t: monotonic_us first=%d last=%d' % (t0, t1), flush=True)
    return 0


def receive(o):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    s.bind((o['bind'] or '0.0.0.0', o['port']))
    s.settimeout(o['wait'])
    verify, length, count = o['verify'], o['len'], o['count']
    print('host-r: msgsize=%d count=%d port=%d verify=%d waiting (timeout %ds)' %
          (length, count, o['port'], verify, o['wait']), flush=True)
    if o['ready']:
        open(o['ready'], 'w').close()
    pats = {}
    msgs = nbytes = cksum = bad = seqerr = otherlen = 0
    t0 = tlast = None
    buf = bytearray(MAXMSG + 1)
    while True:
        try:
            n = s.recv_into(buf)
        except socket.timeout:
            print('host-r: timeout after %ds without traffic' % o['wait'])
            if t0 is not None:
                tlast = max(t0, now_us() - o['wait'] * 1000000)
            break
        if t0 is None:
            t0 = tlast = now_us()
        if n <= 4:
            if msgs:
                tlast = now_us()
                break
            continue
        if length and n != length:
            otherlen += 1
        if verify:
            d = bytes(buf[:n])
            if n not in pats:
                pats[n] = pattern(0, n + 256)
            b0 = d[0]
            if d != pats[n][b0:b0 + n]:
                bad += 1
            if (b0 * 183) & 0xff != msgs & 0xff:
                seqerr += 1
            cksum = (cksum + sum(d)) & 0xffffffff
        msgs += 1
        nbytes += n
        if count and msgs >= count:
            tlast = now_us()
            break
    line = report('host-r', msgs, nbytes, (tlast - t0) if t0 is not None else 0,
                  '0x%08x' % cksum if verify else '-', verify)
    print(line + ' bad=%d seqerr=%d otherlen=%d' % (bad, seqerr, otherlen), flush=True)
    if t0 is not None:
        print('host-r: monotonic_us first=%d last=%d' % (t0, tlast), flush=True)
    return 0 if msgs and not bad else 1


def main(argv):
    o = dict(mode=None, verify=0, len=1024, count=None, port=5001, delay=0, wait=30, bind=None,
             host=None, ready=None, endwait=0)
    len_set = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('-t', '-r'):
            o['mode'] = a[1]
        elif a == '-V':
            o['verify'] = 1
        elif a in ('-l', '-n', '-p', '-d', '-e', '-w', '-b', '--ready'):
            if i + 1 >= len(argv):
                usage()
            v = argv[i + 1]
            i += 1
            key = {'-l': 'len', '-n': 'count', '-p': 'port', '-d': 'delay', '-e': 'endwait',
                   '-w': 'wait', '-b': 'bind', '--ready': 'ready'}[a]
            if key in ('bind', 'ready'):
                o[key] = v
            else:
                try:
                    o[key] = int(v, 0)
                except ValueError:
                    usage()
                if key == 'len':
                    len_set = True
        elif a.startswith('-') or o['host']:
            usage()
        else:
            o['host'] = a
        i += 1
    if not o['mode'] or not 0 < o['port'] < 65536 or (len_set and not 5 <= o['len'] <= MAXMSG):
        usage()
    if o['mode'] == 't':
        if not o['host']:
            usage()
        if o['count'] is None:
            o['count'] = 1024
        return transmit(o)
    if o['host']:
        usage()
    if o['count'] is None:
        o['count'] = 0
    if not len_set:
        o['len'] = 0
    return receive(o)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
