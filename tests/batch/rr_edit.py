#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read and change xbow record logs (docs/record-replay.md) for the tests:
a reader written from the format's description, independent of xbow's.

  rr_edit.py IN list                      one line per record: kind channel length time
  rr_edit.py IN OUT shift KIND N DELTA     the Nth record of KIND (1-based) DELTA ticks later
                                          (checksum fixed: a well-formed log of another run)
  rr_edit.py IN OUT flip N                 flip a byte in record N's data (checksum left: damage)
  rr_edit.py IN OUT cut N                  end the file in the middle of record N
  rr_edit.py IN OUT version V              the format version V (header checksum fixed)
"""
import struct
import sys
import zlib

KINDS = {1: "console", 2: "net-frame", 3: "net-drop", 4: "net-link", 5: "end"}


def parse(data):
    assert data[:8] == b"XBOWREC\n", "not a record log"
    version, tlen, _crc = struct.unpack_from("<III", data, 8)
    text = data[20:20 + tlen]
    recs = []
    off = 20 + tlen
    while off + 16 <= len(data):
        kind, ch, _z, ln, t = struct.unpack_from("<BBHIQ", data, off)
        recs.append({"off": off, "kind": kind, "ch": ch, "len": ln, "time": t,
                     "data": data[off + 16:off + 16 + ln]})
        off += 16 + ln + 4
    return version, text, recs


def record(kind, ch, t, payload):
    h = struct.pack("<BBHIQ", kind, ch, 0, len(payload), t)
    return h + payload + struct.pack("<I", zlib.crc32(h + payload) & 0xFFFFFFFF)


def header(version, text):
    vl = struct.pack("<II", version, len(text))
    return b"XBOWREC\n" + vl + struct.pack("<I", zlib.crc32(vl + text) & 0xFFFFFFFF) + text


def main():
    data = open(sys.argv[1], "rb").read()
    version, text, recs = parse(data)
    if sys.argv[2] == "list":
        for r in recs:
            print(KINDS.get(r["kind"], "?"), r["ch"], r["len"], r["time"])
        return
    out, op = sys.argv[2], sys.argv[3]
    if op == "shift":
        kind = [k for k, v in KINDS.items() if v == sys.argv[4]][0]
        n, delta = int(sys.argv[5]), int(sys.argv[6])
        mine = [r for r in recs if r["kind"] == kind]
        mine[n - 1]["time"] += delta
        body = b"".join(record(r["kind"], r["ch"], r["time"], r["data"]) for r in recs)
        res = header(version, text) + body
    elif op == "flip":
        r = recs[int(sys.argv[4]) - 1]
        b = bytearray(data)
        b[r["off"] + 16] ^= 0x55
        res = bytes(b)
    elif op == "cut":
        r = recs[int(sys.argv[4]) - 1]
        res = data[:r["off"] + 8]
    elif op == "version":
        res = header(int(sys.argv[4]), text) + data[20 + len(text):]
    else:
        sys.exit("unknown operation " + op)
    open(out, "wb").write(res)


if __name__ == "__main__":
    main()
