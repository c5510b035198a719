#!/usr/bin/env python3
"""Checks that Protocols/wire-protocol.md (TWP/1) is enough to implement the wire format.

Written from the document alone, with nothing but `struct` and `binascii`: parses every golden
vector (`*.hex`, two lines: header frame, body frame) in the folder given as the only argument,
encodes the parsed message again and compares the bytes. Every strict prefix of each frame must be
rejected as well. Exit status: 0 when every vector round-trips, 1 on any mismatch, 2 on bad usage.

    /usr/bin/python3 Tests/Interop/wire_golden.py Protocols/vectors/wire
"""
import binascii
import os
import struct
import sys

HEADER = struct.Struct(">2sBBBBHQQII")  # TWP/1 §5: 32 bytes
COMMANDS = {0x01: "HELLO", 0x02: "SETUP", 0x03: "READY", 0x10: "CALL", 0x11: "RETURN", 0x20: "HEARTBEAT",
            0x30: "GOODBYE", 0x31: "GOODBYE-ACK", 0x40: "ERROR", 0x50: "TRACE-REQUEST", 0x51: "TRACE-DATA",
            0x60: "BATCH"}
CALL_CODES = set(range(0x01, 0x0A)) | set(range(0x20, 0x2D)) | set(range(0x40, 0x47)) | {0x60, 0x61, 0x62}
TRAIT_CASES = (3, 3, 7, 3, 3, 13)  # horizontal, vertical, idiom, direction, style, content size
MAX_NESTING = 16


class Malformed(Exception):
    pass


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, count):
        if self.pos + count > len(self.data):
            raise Malformed("%d bytes needed at offset %d, %d left" % (count, self.pos, len(self.data) - self.pos))
        chunk = self.data[self.pos:self.pos + count]
        self.pos += count
        return chunk

    def unpack(self, fmt):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def flag(self):
        octet = self.unpack(">B")
        if octet > 1:
            raise Malformed("octet %d at offset %d is not 0 or 1" % (octet, self.pos - 1))
        return octet

    def text(self, fmt):
        try:
            return self.take(self.unpack(fmt)).decode("utf-8")
        except UnicodeDecodeError as error:
            raise Malformed(str(error))


def s(text):
    data = text.encode("utf-8")
    return struct.pack(">H", len(data)) + data


def ls(text):
    data = text.encode("utf-8")
    return struct.pack(">I", len(data)) + data


def read_traits(r):
    octets = bytes(r.take(6))
    for octet, cases in zip(octets, TRAIT_CASES):
        if octet >= cases:
            raise Malformed("trait index %d out of range" % octet)
    return octets, r.unpack(">d")


def read_value(r, level=1):
    tag = r.unpack(">B")
    if tag == 0x00:
        return tag, None
    if tag == 0x01:
        return tag, r.flag()
    if tag == 0x02:
        return tag, r.unpack(">q")
    if tag == 0x03:
        return tag, r.unpack(">d")
    if tag == 0x04:
        return tag, r.text(">H")
    if tag == 0x05:
        return tag, (r.unpack(">d"), r.unpack(">d"))
    if tag == 0x06:
        return tag, read_traits(r)
    if tag == 0x07:
        return tag, (r.text(">H"), r.text(">H"), r.unpack(">I"))
    if tag == 0x08:
        return tag, (r.text(">H"), r.unpack(">Q"))
    if tag == 0x09:
        return tag, (r.unpack(">q"), r.flag(), r.unpack(">d"), read_traits(r), (r.unpack(">d"), r.unpack(">d")))
    if tag == 0x0A:
        return tag, r.text(">I")
    if tag == 0x0B:
        if level > MAX_NESTING:
            raise Malformed("lists nested deeper than %d" % MAX_NESTING)
        return tag, [read_value(r, level + 1) for _ in range(r.unpack(">H"))]
    if tag == 0x0C:  # rect: x, y, width, height
        return tag, tuple(r.unpack(">d") for _ in range(4))
    raise Malformed("unknown tag 0x%02x at offset %d" % (tag, r.pos - 1))


def write_value(value):
    tag, v = value
    out = bytes([tag])
    if tag == 0x01:
        return out + struct.pack(">B", v)
    if tag == 0x02:
        return out + struct.pack(">q", v)
    if tag == 0x03:
        return out + struct.pack(">d", v)
    if tag == 0x04:
        return out + s(v)
    if tag == 0x05:
        return out + struct.pack(">dd", *v)
    if tag == 0x06:
        return out + v[0] + struct.pack(">d", v[1])
    if tag == 0x07:
        return out + s(v[0]) + s(v[1]) + struct.pack(">I", v[2])
    if tag == 0x08:
        return out + s(v[0]) + struct.pack(">Q", v[1])
    if tag == 0x09:
        traits, size = v[3], v[4]
        return out + struct.pack(">qBd", v[0], v[1], v[2]) + traits[0] + struct.pack(">ddd", traits[1], *size)
    if tag == 0x0A:
        return out + ls(v)
    if tag == 0x0B:
        return out + struct.pack(">H", len(v)) + b"".join(write_value(item) for item in v)
    if tag == 0x0C:
        return out + struct.pack(">dddd", *v)
    return out  # 0x00: no payload


def read_values(r):
    return [read_value(r) for _ in range(r.unpack(">B"))]


def write_values(values):
    return struct.pack(">B", len(values)) + b"".join(write_value(v) for v in values)


def decode(header, body, in_batch=False):
    """The message as (header fields, body fields); raises Malformed. Trailing bytes are ignored."""
    if len(header) < HEADER.size:
        raise Malformed("header of %d bytes" % len(header))
    sig, major, minor, command, flags, _, corr, clock, step, _ = HEADER.unpack_from(header)
    if sig != b"TR" or major != 1 or command not in COMMANDS:
        raise Malformed("bad signature, major version or command")
    r = Reader(body)
    if command == 0x01:    # HELLO
        fields = (r.text(">H"), r.text(">H"), r.unpack(">I"))
    elif command == 0x02:  # SETUP, then its optional tails: peers, behaviour names (1.3), §7.2
        fields = (r.text(">H"), r.text(">H"), r.text(">I"), r.unpack(">I"), r.unpack(">I"))
        for read_entry in (lambda: (r.text(">H"), r.text(">H"), r.text(">H")), lambda: (r.unpack(">B"), r.text(">H"))):
            try:
                fields += ([read_entry() for _ in range(r.unpack(">H"))],)
            except Malformed:
                break  # a tail that does not read is ignored, like trailing bytes
    elif command == 0x03:  # READY
        fields = (r.text(">H"),)
    elif command == 0x10:  # CALL
        target = (r.text(">H"), r.text(">H"), r.unpack(">I"))
        code = r.unpack(">B")
        if code not in CALL_CODES:
            raise Malformed("unknown call code 0x%02x" % code)
        fields = (target, code, read_values(r))
    elif command == 0x11:  # RETURN
        status = r.flag()
        fields = (status, r.text(">H") if status else read_values(r))
    elif command == 0x40:  # ERROR
        fields = (r.unpack(">H"), r.text(">H"))
    elif command == 0x51:  # TRACE-DATA: form octet (bit 0 last, bit 1 compact since 1.2), then the trace
        form = r.unpack(">B")
        if form > 3:
            raise Malformed("TRACE-DATA form octet %d is not 0 to 3" % form)
        fields = (form, r.take(r.unpack(">I")) if form & 2 else r.text(">I"))
    elif command == 0x60:  # BATCH: u32 count, then per entry u32 length + header, u32 length + body
        if in_batch:
            raise Malformed("BATCH inside a BATCH")
        count = r.unpack(">I")
        if count > (len(body) - 4) // 8:
            raise Malformed("batch count %d exceeds the bytes left" % count)
        fields = [decode(r.take(r.unpack(">I")), r.take(r.unpack(">I")), True) for _ in range(count)]
    else:                  # HEARTBEAT, GOODBYE, GOODBYE-ACK, TRACE-REQUEST: empty body
        fields = ()
    return (minor, command, flags, corr, clock, step), fields


def encode(message):
    (minor, command, flags, corr, clock, step), f = message
    header = HEADER.pack(b"TR", 1, minor, command, flags, 0, corr, clock, step, 0)
    if command == 0x01:
        body = s(f[0]) + s(f[1]) + struct.pack(">I", f[2])
    elif command == 0x02:
        body = s(f[0]) + s(f[1]) + ls(f[2]) + struct.pack(">II", f[3], f[4])
        for tail in f[5:]:  # peers (node, endpoint, key), then behaviours (kind, name)
            body += struct.pack(">H", len(tail))
            for entry in tail:
                body += b"".join(s(x) if isinstance(x, str) else struct.pack(">B", x) for x in entry)
    elif command == 0x03:
        body = s(f[0])
    elif command == 0x10:
        node, controller, incarnation = f[0]
        body = s(node) + s(controller) + struct.pack(">IB", incarnation, f[1]) + write_values(f[2])
    elif command == 0x11:
        body = struct.pack(">B", f[0]) + (s(f[1]) if f[0] else write_values(f[1]))
    elif command == 0x40:
        body = struct.pack(">H", f[0]) + s(f[1])
    elif command == 0x51:
        body = struct.pack(">B", f[0]) + (struct.pack(">I", len(f[1])) + f[1] if f[0] & 2 else ls(f[1]))
    elif command == 0x60:
        body = struct.pack(">I", len(f))
        for entry in f:
            entry_header, entry_body = encode(entry)
            body += struct.pack(">I", len(entry_header)) + entry_header + struct.pack(">I", len(entry_body)) + entry_body
    else:
        body = b""
    return header, body


def check(path):
    """A list of problems with one vector file (empty when it round-trips)."""
    with open(path, "r", encoding="ascii") as handle:
        lines = handle.read().split("\n")
    if len(lines) != 3 or lines[2] != "" or any(line != line.lower() for line in lines):
        return ["not two lowercase hex lines ending in LF"]
    header, body = binascii.unhexlify(lines[0]), binascii.unhexlify(lines[1])
    problems = []
    try:
        fields, values = decode(header, body)
    except Malformed as error:
        return ["rejected: %s" % error]
    again = encode((fields, values))
    if again != (header, body):
        problems.append("re-encoded as %s / %s" % (binascii.hexlify(again[0]).decode(), binascii.hexlify(again[1]).decode()))
    # SETUP's optional tails (§7.2): cut inside them, it is a SETUP without (the rest of) them.
    required = len(encode((fields, values[:5]))[1]) if fields[1] == 0x02 else len(body)
    for cut in range(len(body)):
        try:
            decode(header, body[:cut])
            if cut < required:
                problems.append("body cut to %d bytes was accepted" % cut)
        except Malformed:
            pass
    return problems


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: wire_golden.py VECTOR_FOLDER", file=sys.stderr)
        return 2
    names = sorted(name for name in os.listdir(argv[1]) if name.endswith(".hex"))
    if not names:
        print("no .hex files in %s" % argv[1], file=sys.stderr)
        return 2
    failures = 0
    for name in names:
        problems = check(os.path.join(argv[1], name))
        failures += bool(problems)
        print("%s %s%s" % ("FAIL" if problems else "ok  ", name, "".join("\n    " + p for p in problems)))
    print("%d vectors, %d failed" % (len(names), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
