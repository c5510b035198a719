#!/usr/bin/env python3
"""A TWP/1 worker node, written from Protocols/wire-protocol.md and Protocols/trace-format.md.

It hosts the controllers that the scenario's placement puts on it as leaf view controllers with
UIKit's default behaviour, in a run started by `trellis run --transport zmq --node NAME=ENDPOINT`:

    /usr/bin/python3 Tests/Interop/trellis_node.py --name py --bind ipc:///tmp/run/py.sock \\
        --peer main=ipc:///tmp/run/main.sock [--connect-timeout SECONDS] [--verbose]

Exit status: 0 after the conductor's GOODBYE, 2 bad usage, 3 when the conductor was silent for
the peer-gone timeout (or did not come within --connect-timeout seconds, default 60).
"""
import json
import os
import struct
import sys
import time

import zmq

HEADER = struct.Struct(">2sBBBBHQQII")  # §5
HELLO, SETUP, READY, CALL, RETURN, HEARTBEAT = 0x01, 0x02, 0x03, 0x10, 0x11, 0x20
GOODBYE, GOODBYE_ACK, ERROR, TRACE_REQUEST, TRACE_DATA, BATCH = 0x30, 0x31, 0x40, 0x50, 0x51, 0x60
COMMANDS = {HELLO, SETUP, READY, CALL, RETURN, HEARTBEAT, GOODBYE, GOODBYE_ACK, ERROR, TRACE_REQUEST, TRACE_DATA, BATCH}
CALL_CODES = set(range(0x01, 0x0A)) | set(range(0x20, 0x2D)) | set(range(0x40, 0x47)) | {0x60, 0x61, 0x62}
TRAITS = (("horizontalSizeClass", ("unspecified", "compact", "regular")),  # §6.3 and TSF/1 §4.3
          ("verticalSizeClass", ("unspecified", "compact", "regular")),
          ("userInterfaceIdiom", ("unspecified", "phone", "pad", "tv", "carPlay", "mac", "vision")),
          ("layoutDirection", ("unspecified", "leftToRight", "rightToLeft")),
          ("userInterfaceStyle", ("unspecified", "light", "dark")),
          ("preferredContentSizeCategory", ("unspecified", "extraSmall", "small", "medium", "large", "extraLarge",
           "extraExtraLarge", "extraExtraExtraLarge", "accessibilityMedium", "accessibilityLarge",
           "accessibilityExtraLarge", "accessibilityExtraExtraLarge", "accessibilityExtraExtraExtraLarge")))
TAGS = ("none", "bool", "int", "double", "string", "size", "traits", "address", "eventref", "transition",
        "long string", "list", "rect")
NONE, BOOL, STRING, SIZE, TRAIT, ADDRESS, REF, TRANSITION, RECT = 0, 1, 4, 5, 6, 7, 8, 9, 0x0C
CAUSE = {REF, NONE}
SIGNATURES = {  # §8, the call codes a leaf view controller serves: name, the tags each argument may have
    0x01: ("viewWillTransition", [{SIZE}, {TRANSITION}, CAUSE]),
    0x02: ("traitTransition", [{TRAIT}, {BOOL}, {TRANSITION}, CAUSE]),
    0x03: ("applyPendingTraits", [CAUSE]), 0x04: ("layout", [{RECT}, CAUSE]),
    0x07: ("initialLayout", [{RECT, NONE}, {TRAIT}, CAUSE]), 0x08: ("appearance", [{STRING}, CAUSE]),
    0x09: ("refresh", [{RECT}, {TRAIT}, CAUSE]), 0x20: ("snapshot", []),
    0x21: ("setPreferredContentSize", [{SIZE}, CAUSE]), 0x22: ("notifySystemLayoutFittingSizeDidChange", [CAUSE]),
    0x24: ("setContainer", [{ADDRESS, NONE}]), 0x2C: ("childFrame", [{STRING}])}
UNSPECIFIED = (0,) * 6 + (0.0,)
APPEARANCE = ("viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear")


class Malformed(Exception):
    def __init__(self, code, text):
        super().__init__(text)
        self.code = code


class Reader:
    """Reads a frame field by field, checking every length against the bytes left (§6.1)."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, count):
        if self.pos + count > len(self.data):
            raise Malformed(4, "body: %d bytes needed at offset %d, %d left" % (count, self.pos, len(self.data) - self.pos))
        self.pos += count
        return self.data[self.pos - count:self.pos]

    def unpack(self, fmt):
        values = struct.unpack(fmt, self.take(struct.calcsize(fmt)))
        return values[0] if len(values) == 1 else values

    def flag(self):
        octet = self.unpack(">B")
        if octet > 1:
            raise Malformed(4, "body: octet %d at offset %d is not 0 or 1" % (octet, self.pos - 1))
        return bool(octet)

    def text(self, fmt=">H"):
        try:
            return self.take(self.unpack(fmt)).decode("utf-8")
        except UnicodeDecodeError as error:
            raise Malformed(4, "body: invalid UTF-8: %s" % error)

    def traits(self):
        octets = self.take(6)
        for octet, (name, cases) in zip(octets, TRAITS):
            if octet >= len(cases):
                raise Malformed(4, "body: unknown %s index %d" % (name, octet))
        return tuple(octets) + (self.unpack(">d"),)

    def value(self, level=1):
        tag = self.unpack(">B")
        read = {NONE: lambda: None, BOOL: self.flag, 2: lambda: self.unpack(">q"), 3: lambda: self.unpack(">d"),
                STRING: self.text, SIZE: lambda: self.unpack(">dd"), TRAIT: self.traits,
                ADDRESS: lambda: (self.text(), self.text(), self.unpack(">I")), REF: lambda: (self.text(), self.unpack(">Q")),
                TRANSITION: lambda: (self.unpack(">q"), self.flag(), self.unpack(">d"), self.traits(), self.unpack(">dd")),
                0x0A: lambda: self.text(">I"), 0x0B: lambda: self.values(">H", level),
                RECT: lambda: self.unpack(">dddd")}.get(tag)  # x, y, width, height (§6.2)
        if read is None:
            raise Malformed(4, "body: unknown tag 0x%02x at offset %d" % (tag, self.pos - 1))
        return tag, read()

    def values(self, fmt=">B", depth=0):  # depth: the list level of these values' list, 0 for a body (§6.4)
        count = self.unpack(fmt)
        if count > len(self.data) - self.pos or depth > 16:
            raise Malformed(4, "body: %d values at offset %d: too many or nested too deep" % (count, self.pos))
        return [self.value(depth + 1) for _ in range(count)]


def s(text, fmt=">H"):
    data = text.encode("utf-8")
    return struct.pack(fmt, len(data)) + data


def number(value):
    """TTF/1 §3.2: rounded to thousandths (ties away from zero), an integer when whole."""
    scaled = abs(value) * 1000
    thousandths = int(scaled) + (1 if scaled - int(scaled) >= 0.5 else 0)
    sign = "-" if value < 0 and thousandths else ""
    if thousandths % 1000 == 0:
        return int("%s%d" % (sign, thousandths // 1000))
    return float("%s%d.%s" % (sign, thousandths // 1000, ("%03d" % (thousandths % 1000)).rstrip("0")))


def traits_json(traits):  # TTF/1 §4.4: all seven, displayScale fourth
    fields = [(name, cases[traits[index]]) for index, (name, cases) in enumerate(TRAITS)]
    return dict(fields[:3] + [("displayScale", number(traits[6]))] + fields[3:])


class Peer:
    def __init__(self, name, socket):
        self.name, self.socket = name, socket
        self.greeted = self.listed = self.gone = self.acked = False
        self.last_received, self.last_sent, self.goodbye_id = None, 0.0, None


class Leaf:
    def __init__(self, ident, preferred, container):
        self.id, self.incarnation, self.preferred, self.container = ident, 1, preferred, container
        self.origin, self.size, self.traits, self.pending_traits = (0.0, 0.0), (0.0, 0.0), UNSPECIFIED, None


class Node:
    def __init__(self, name, bind, peers, connect_timeout, verbose):
        self.name, self.verbose, self.started = name, verbose, time.monotonic()
        self.connect_deadline = self.started + connect_timeout
        self.clock = self.seq = self.step = self.next_id = 0
        self.interval, self.timeout = 0.25, 2.0  # §9.5 defaults until SETUP
        self.run_id, self.conductor, self.leaves, self.events, self.replies, self.closing = "", None, {}, [], {}, None
        self.backlog = []  # entries of a BATCH not served yet (§7.9): served before the inbox is read again
        self.context = zmq.Context()
        self.inbox = self.context.socket(zmq.ROUTER)
        self.inbox.setsockopt(zmq.LINGER, 500)
        self.inbox.bind(bind)
        self.endpoint = self.inbox.getsockopt(zmq.LAST_ENDPOINT).decode()
        self.peers = {}
        for peer_name, endpoint in peers:
            self.connect(peer_name, endpoint)

    def log(self, text):
        if self.verbose:
            sys.stderr.write("[%s %.3f] %s\n" % (self.name, time.monotonic() - self.started, text))

    def connect(self, peer_name, endpoint):  # §3: a DEALER whose routing id is our name, then HELLO (§7.1)
        socket = self.context.socket(zmq.DEALER)
        socket.setsockopt(zmq.ROUTING_ID, self.name.encode("utf-8"))
        for option, value in ((zmq.LINGER, 500), (zmq.SNDHWM, 10000), (zmq.SNDTIMEO, 2000)):
            socket.setsockopt(option, value)
        socket.connect(endpoint)
        peer = self.peers[peer_name] = Peer(peer_name, socket)
        self.send(peer, HELLO, s(self.name) + s(self.run_id) + struct.pack(">I", 0) + s(self.endpoint))
        return peer

    def send(self, peer, command, body, correlation=0, step=None):
        if peer.gone:
            return
        header = HEADER.pack(b"TR", 1, 1, command, 0, 0, correlation, self.clock, self.step if step is None else step, 0)
        try:
            peer.socket.send_multipart([header, body])
        except zmq.Again:  # §3 rule 6: never silently
            sys.stderr.write("%s: queue full: message 0x%02x to %s failed\n" % (self.name, command, peer.name))
        peer.last_sent = time.monotonic()
        self.log("-> %s 0x%02x #%d clock %d" % (peer.name, command, correlation, self.clock))

    def reject(self, peer, code, correlation, text):
        sys.stderr.write("%s: rejected a message from %s: %s\n" % (self.name, peer.name, text))
        self.send(peer, ERROR, struct.pack(">H", code) + s(text), correlation)

    def record(self, leaf, kind, message, payload, cause, transition, step):  # TTF/1 §4.2, §4.7 rule 1
        self.clock += 1
        self.seq += 1
        self.events.append(json.dumps({
            "v": "1.0", "run": self.run_id, "node": self.name, "seq": self.seq, "lamport": self.clock,
            "cause": "%s#%d" % cause if cause else None, "controller": leaf.id, "transition": transition,
            "step": step, "kind": kind, "message": message, "payload": payload,
            "time": time.monotonic_ns() - int(self.started * 1e9)}, separators=(",", ":"), ensure_ascii=False))

    def pump(self, wait=0.05):
        """Serves one message if one comes within `wait`, then heartbeats and gone peers (§9.5)."""
        if self.backlog:
            self.backlog.pop(0)()
        elif self.inbox.poll(int(wait * 1000)):
            self.handle(self.inbox.recv_multipart())
        now = time.monotonic()
        for peer in self.peers.values():
            if peer.gone:
                continue
            heard = peer.last_received  # silence counts from the first message heard; before SETUP, the connect timeout
            if (heard is None and self.conductor is None and now > self.connect_deadline) or (heard and now - heard > self.timeout):
                peer.gone = True
                sys.stderr.write("%s: peer %s gone: nothing received for %d ms\n" % (self.name, peer.name, (now - (heard or self.started)) * 1000))
                if self.closing is None and (peer.name == self.conductor or self.conductor is None):
                    sys.exit(3)
            elif peer.goodbye_id is None and now - peer.last_sent >= self.interval:
                self.send(peer, HEARTBEAT, b"")

    def handle(self, frames):
        peer = self.peers.get(frames[0].decode("utf-8", "replace"))
        if peer is None or peer.gone:  # §3 rule 4: no DEALER leads to it
            return sys.stderr.write("%s: dropped a message from %r\n" % (self.name, frames[0]))
        peer.last_received = time.monotonic()
        if len(frames) != 3:
            return self.reject(peer, 1, 0, "expected 2 frames, got %d" % (len(frames) - 1))
        self.serve(peer, frames[1], frames[2])

    def unbatch(self, peer, body):
        """BATCH (§7.9): queues the entries, in order, each to be served as if it came alone."""
        reader, entries = Reader(body), []
        try:
            count = reader.unpack(">I")
            if count > (len(body) - 4) // 8:
                raise Malformed(4, "body: batch: count %d exceeds the bytes left" % count)
            for index in range(count):
                entries.append((reader.take(reader.unpack(">I")), reader.take(reader.unpack(">I"))))
        except Malformed as error:  # the entries before the break are still served, then the ERROR
            entries.append((None, "body: batch entry %d: %s" % (len(entries) + 1, error)))
        for header, body in entries:
            if header is None:
                self.backlog.append(lambda text=body: self.reject(peer, 4, 0, text))
            else:
                self.backlog.append(lambda header=header, body=body: self.serve(peer, header, body, True))

    def serve(self, peer, header, body, in_batch=False):
        if len(header) < 32:
            return self.reject(peer, 1, 0, "header: %d bytes, expected at least 32" % len(header))
        signature, major, _, command, _, _, correlation, clock, step, _ = HEADER.unpack_from(header)
        if signature != b"TR":
            return self.reject(peer, 1, 0, "header: wrong signature")
        if major != 1 or command not in COMMANDS:
            return self.reject(peer, 2 if major != 1 else 3, correlation, "header: major %d, command 0x%02x" % (major, command))
        if command == BATCH:
            if in_batch:
                return self.reject(peer, 4, 0, "header: BATCH inside a BATCH")
            return self.unbatch(peer, body)
        self.clock = max(self.clock, clock)  # §9.4 rule 2
        self.log("<- %s 0x%02x #%d clock %d step %d" % (peer.name, command, correlation, clock, step))
        try:
            reader = Reader(body)
            if command == ERROR:  # never answered; it fails the request it names (§9.3 rule 4)
                code, text = reader.unpack(">H"), reader.text()
                sys.stderr.write("%s: ERROR %d from %s: %s\n" % (self.name, code, peer.name, text))
                if (peer.name, correlation) in self.replies:
                    self.replies[(peer.name, correlation)] = "error %d: %s" % (code, text)
            elif command == HELLO:
                if reader.text() != peer.name or peer.greeted:
                    return self.reject(peer, 6, 0, "HELLO: wrong node name, or a second HELLO")
                peer.greeted = True
                reader.text()
                peer.capabilities = reader.unpack(">I")  # bit 0: it reads compact TRACE-DATA (§7.1)
            elif not (peer.greeted or peer.listed):  # §9.1 rule 3
                self.reject(peer, 6, correlation, "no HELLO from %s yet" % peer.name)
            elif command == SETUP:
                self.setup(peer, reader, correlation)
            elif command == CALL:
                target, code = (reader.text(), reader.text(), reader.unpack(">I")), reader.unpack(">B")
                if code not in CALL_CODES:
                    return self.reject(peer, 5, correlation, "body: unknown call code 0x%02x" % code)
                self.step = step
                result = self.call(target, code, reader.values(), step)
                if isinstance(result, str):  # RETURN fault (§7.5)
                    sys.stderr.write("%s: CALL 0x%02x to %s failed: %s\n" % (self.name, code, target[1], result))
                body = b"\x01" + s(result) if isinstance(result, str) else bytes([0, len(result)]) + b"".join(result)
                self.send(peer, RETURN, body, correlation, step)  # with the clock after the call (§9.4 rule 3)
            elif command == RETURN:
                if (peer.name, correlation) in self.replies:
                    self.replies[(peer.name, correlation)] = "ok" if reader.unpack(">B") == 0 else reader.text()
            elif command == TRACE_REQUEST:
                self.send_trace(peer, correlation)
            elif command == GOODBYE:  # §9.8: everything before it was served (one thread, FIFO)
                self.send(peer, GOODBYE_ACK, b"", correlation)
                if peer.name == self.conductor and self.closing is None:
                    self.closing, self.next_id = time.monotonic(), self.next_id + 1
                    peer.goodbye_id = self.next_id
                    self.send(peer, GOODBYE, b"", peer.goodbye_id)
            elif command == GOODBYE_ACK:
                peer.acked = peer.acked or correlation == peer.goodbye_id
            elif command != HEARTBEAT:
                self.reject(peer, 6, correlation, "unexpected command 0x%02x" % command)
        except Malformed as error:
            self.reject(peer, error.code, correlation, str(error))

    def setup(self, peer, reader, correlation):
        run_id, node, scenario, interval, timeout = reader.text(), reader.text(), reader.text(">I"), *reader.unpack(">II")
        if node != self.name or self.conductor is not None:
            return self.reject(peer, 6, correlation, "SETUP: for node %s, or a second SETUP" % node)
        try:  # the optional peers tail (§7.2); ignored when it does not read as such a list
            listed = [(reader.text(), reader.text(), reader.text()) for _ in range(reader.unpack(">H"))]
        except Malformed:
            listed = []
        try:
            document = json.loads(scenario)
            placement, controllers = document.get("placement", {}), document["controllers"]
        except (ValueError, KeyError, AttributeError) as error:
            return self.reject(peer, 7, correlation, "node %s cannot set up: %r" % (self.name, error))
        parent = {child: ident for ident, spec in controllers.items() for child in spec.get("children", [])}
        companion = {}  # controllers outside the tree live with the one their first present/show/push names
        for step in reversed(document.get("steps", [])):
            for action, other in (("present", "from"), ("show", "from"), ("showDetail", "from"), ("push", "onto")):
                if isinstance(step, dict) and action in step:
                    companion[step[action]] = step.get(other)

        def node_of(ident):  # TSF/1 §7: unplaced controllers live with their parent, the root with the conductor
            seen = set()
            while ident not in placement and ident not in seen and (parent.get(ident) or companion.get(ident)):
                seen.add(ident)
                ident = parent.get(ident) or companion.get(ident)
            return placement.get(ident, peer.name)
        for ident in sorted(key for key in controllers if node_of(key) == self.name):
            spec = controllers.get(ident) or {}
            if spec.get("children"):
                return self.reject(peer, 7, correlation, "node %s hosts leaves only; %s has children" % (self.name, ident))
            container = (node_of(parent[ident]), parent[ident], 1) if ident in parent else None
            preferred = tuple(float(v) for v in spec.get("preferredContentSize", [0, 0]))
            self.leaves[ident] = Leaf(ident, preferred, container if container and container[0] != self.name else None)
        self.run_id, self.conductor, self.interval, self.timeout = run_id, peer.name, interval / 1000.0, timeout / 1000.0
        self.run_nodes = set(placement.values()) | {self.name, peer.name}  # the nodes a cause may name (§8)
        for other, endpoint, _key in listed:
            if other != self.name:
                (self.peers.get(other) or self.connect(other, endpoint)).listed = True
        self.send(peer, READY, s(self.name), correlation)

    def call(self, target, code, arguments, step):
        """Carries out a CALL on a hosted leaf: the RETURN's values, or a fault text (§9.3 rule 3)."""
        leaf = self.leaves.get(target[1]) if target[0] == self.name else None
        if leaf is None:
            return "no controller %s on node %s" % (target[1], self.name)
        if target[2] != leaf.incarnation:
            return "stale incarnation %d of %s (now %d)" % (target[2], leaf.id, leaf.incarnation)
        name, tags = SIGNATURES.get(code, (None, None))
        if name is None:  # structure changes have nothing to change in a leaf; presentation is not served
            return [] if 0x23 <= code <= 0x2B else "%s hosts leaf view controllers only (call code 0x%02x)" % (self.name, code)
        if len(arguments) != len(tags):
            return "%s: %d arguments, expected %d" % (name, len(arguments), len(tags))
        for index, ((tag, _), allowed) in enumerate(zip(arguments, tags)):
            if tag not in allowed:
                return "%s: argument %d is a %s, expected a %s" % (name, index + 1, TAGS[tag], " or ".join(TAGS[t] for t in sorted(allowed)))
        values = [value for _, value in arguments]
        cause = values[-1] if tags and tags[-1] is CAUSE else None
        if cause and cause[0] not in self.run_nodes:
            return "%s: cause %s#%d names no node of this run" % (name, cause[0], cause[1])

        def record(kind, message, payload, transition=None):
            self.record(leaf, kind, message, payload, cause, transition, step)

        def layout():
            record("layout", "viewWillLayoutSubviews", {})
            record("layout", "viewDidLayoutSubviews", {})
        if code in (0x04, 0x07, 0x09) and values[0] is not None:  # a frame: x, y, width, height (§6.2)
            leaf.origin, frame_size = values[0][:2], values[0][2:]
        if code == 0x01:  # the size arrives now; the layout pass applies it (layout's frame carries it)
            record("delivery", "viewWillTransition", {"to": [number(v) for v in values[0]]}, values[1][0])
        elif code == 0x02:  # willTransition where the traits change, unless below a suppression
            if values[0] != leaf.traits and values[1]:
                record("delivery", "willTransition", {"to": traits_json(values[0])}, values[2][0])
            leaf.pending_traits = values[0]
        elif code == 0x07 or (code == 0x09 and leaf.traits == UNSPECIFIED):  # first layout: traits set silently
            leaf.traits = values[1]
            if values[0] is not None:  # none: no frame, no layout callbacks
                leaf.size = frame_size
                layout()
        elif code in (0x03, 0x09):  # applyPendingTraits; refresh: the container's traits, then its size
            new = values[1] if code == 0x09 else leaf.pending_traits
            if new is not None and new != leaf.traits:
                record("delivery", "traitCollectionDidChange", {"previous": traits_json(leaf.traits)})
                leaf.traits = new
            leaf.pending_traits = None
            if code == 0x09 and frame_size != leaf.size:
                leaf.size = frame_size
                layout()
        elif code == 0x04:  # the frame's size is the size this pass applies; callbacks only where it changed
            if frame_size != leaf.size:
                leaf.size = frame_size
                layout()
        elif code == 0x08:
            if values[0] not in APPEARANCE:
                return "appearance: unknown callback %s" % values[0]
            record("appearance", values[0], {})
        elif code == 0x20:
            return [struct.pack(">Bdd", SIZE, *leaf.size), struct.pack(">B6Bd", TRAIT, *leaf.traits),
                    struct.pack(">Bdd", SIZE, *leaf.preferred)]
        elif code == 0x24:
            leaf.container = values[0]
        elif code == 0x2C:  # a leaf gives no child a frame
            return [struct.pack(">B", NONE)]
        elif code in (0x21, 0x22):  # the container hears of it (R22, R27): a CALL back, served re-entrantly
            if code == 0x21 and values[0] == leaf.preferred:  # an unchanged preferred size tells nobody
                return []
            leaf.preferred = values[0] if code == 0x21 else leaf.preferred
            if leaf.container is not None:
                size = [struct.pack(">Bdd", SIZE, *values[0])] if code == 0x21 else []
                ref = b"\x08" + s(cause[0]) + struct.pack(">Q", cause[1]) if cause else b"\x00"
                outcome = self.request(leaf.container, 0x05 if code == 0x21 else 0x06, [b"\x04" + s(leaf.id)] + size + [ref], step)
                if outcome != "ok":
                    return "%s: the container's call failed: %s" % (name, outcome)
        return []

    def request(self, address, code, values, step):
        peer = self.peers.get(address[0])
        if peer is None or peer.gone:
            return "node %s unknown or gone" % address[0]
        self.next_id += 1
        key = (peer.name, self.next_id)
        self.replies[key] = None
        body = s(address[0]) + s(address[1]) + struct.pack(">IBB", address[2], code, len(values)) + b"".join(values)
        self.send(peer, CALL, body, self.next_id, step)
        while self.replies[key] is None and not peer.gone:  # §3 rule 7: keep serving meanwhile
            self.pump()
        return self.replies.pop(key) or "node %s gone" % peer.name

    def send_trace(self, peer, correlation):
        """TRACE-DATA: the events recorded since the last one, in parts of about 1 MiB (§7.8, §9.7):
        whole TCF/1 captures when the conductor's HELLO announced the compact form, else JSON Lines."""
        if getattr(peer, "capabilities", 0) & COMPACT_TRACE:
            parts = compact_captures([json.loads(line) for line in self.events], 1 << 20)
            self.events = []
            for index, capture in enumerate(parts):
                last = 1 if index == len(parts) - 1 else 0
                self.send(peer, TRACE_DATA, bytes([2 | last]) + struct.pack(">I", len(capture)) + capture, correlation)
            return
        parts, size = [[]], 0
        for line in self.events:
            if parts[-1] and size + len(line) + 1 > 1 << 20:
                parts, size = parts + [[]], 0
            parts[-1].append(line + "\n")
            size += len(line.encode("utf-8")) + 1
        self.events = []
        for index, lines in enumerate(parts):
            self.send(peer, TRACE_DATA, bytes([index == len(parts) - 1]) + s("".join(lines), ">I"), correlation)

    def run(self):
        while self.closing is None:
            self.pump()
        conductor = self.peers[self.conductor]
        while not conductor.acked and not conductor.gone and time.monotonic() - self.closing < self.timeout:
            self.pump()
        if not conductor.acked:  # §9.8 rule 4: the last ACK may be lost; not an error
            sys.stderr.write("%s: note: no GOODBYE-ACK from %s\n" % (self.name, self.conductor))
            conductor.socket.setsockopt(zmq.LINGER, 0)  # our GOODBYE has nobody left to reach
        for peer in self.peers.values():
            peer.socket.close()
        self.inbox.close()
        self.context.term()
        return 0


COMPACT_TRACE = 1  # HELLO capability bit 0 (§7.1): the sender reads TRACE-DATA in the compact form
TCF_HEADER = b"\x89TRL\r\n\x1a\n\x01\x00"  # TCF/1 §3: magic, major 1, minor 0
TCF_CODES = {"step": 0, "viewWillTransition": 1, "sizeForChild": 2, "frameOfPresentedViewInContainerView": 3,
             "willTransition": 4, "traitCollectionDidChange": 5, "preferredContentSizeDidChange": 6,
             "systemLayoutFittingSizeDidChange": 7, "suppressed": 8, "viewWillLayoutSubviews": 9,
             "viewDidLayoutSubviews": 10, "containerViewWillLayoutSubviews": 11, "containerViewDidLayoutSubviews": 12,
             "alongsideTransition": 13, "transitionCompletion": 14, "warning": 15, "error": 16, "fault": 17, "note": 18,
             "presentCompletion": 25, "dismissCompletion": 25, "show": 26, "showDetail": 26, "push": 27, "pop": 28,
             "replaceDetail": 29, "select": 30, "present": 21, "dismiss": 22, "adaptivePresentationStyle": 23,
             "willPresentWithAdaptiveStyle": 24}
TCF_CODES.update({name: 19 for name in APPEARANCE})
TCF_PRESENTATION = ("presentationTransitionWillBegin", "presentationTransitionDidEnd",
                    "dismissalTransitionWillBegin", "dismissalTransitionDidEnd")
TCF_CODES.update({name: 20 for name in TCF_PRESENTATION})
MASK64 = (1 << 64) - 1


def varint(value):  # TCF/1 §3: unsigned LEB128
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes(out + bytes([value]))


def zigzag(value):  # of a 64-bit two's complement number (wrapping differences are taken mod 2^64)
    value &= MASK64
    signed = value - (1 << 64) if value >> 63 else value
    return ((signed << 1) ^ (signed >> 63)) & MASK64


class CompactCapture:
    """One whole TCF/1 capture (Protocols/compact-trace-format.md) of TTF/1 §4.2 events (dicts)."""

    def __init__(self):
        self.out, self.names, self.sizes, self.run = bytearray(TCF_HEADER), {}, {}, None
        self.node = self.seq = self.offset = self.cause = self.step = self.time = 0
        self.transition = None

    def record(self, tag, body):  # §3.1: tag, varint length, body
        self.out += bytes([tag]) + varint(len(body)) + body

    def name(self, text):
        if text not in self.names:
            self.names[text] = len(self.names)
            self.record(0x02, text.encode("utf-8"))
        return self.names[text]

    def size(self, width, height):
        key = struct.pack("<dd", float(width), float(height))
        if key not in self.sizes:
            self.sizes[key] = len(self.sizes)
            self.record(0x03, key)
        return self.sizes[key]

    def text(self, value):
        data = value.encode("utf-8")
        return varint(len(data)) + data

    def traits(self, traits):  # §3.2: three names, the scale (double), three names
        names = [self.name(traits[name]) for name, _ in TRAITS]
        return b"".join(map(varint, names[:3])) + struct.pack("<d", float(traits["displayScale"])) + b"".join(map(varint, names[3:]))

    def frame(self, payload):  # layout events: marker 0 none, 1 at +0,+0 then size, 2 origin then size
        if "frame" not in payload:
            return b"\x00"
        x, y, width, height = (float(v) for v in payload["frame"])
        if struct.pack("<dd", x, y) == bytes(16):
            return b"\x01" + varint(self.size(width, height))
        return b"\x02" + varint(self.size(x, y)) + varint(self.size(width, height))

    def payload(self, message, p):  # §3.2's table, defining what it names in its order
        code = TCF_CODES[message]
        if code == 0:
            return varint(zigzag(p["number"])) + self.text(p["description"])
        if code == 1:
            return varint(self.size(*p["to"]))
        if code == 2:
            return b"".join(map(varint, (self.name(p["child"]), self.size(*p["parent"]), self.size(*p["answer"]))))
        if code == 3:
            x, y, width, height = p["frame"]
            return varint(self.size(x, y)) + varint(self.size(width, height))
        if code in (4, 5):
            return self.traits(p["to" if code == 4 else "previous"])
        if code in (6, 7, 26, 27, 28, 29):
            head = varint(self.name(p["child"]))
            return head + (bytes([message == "showDetail"]) if code == 26 else b"")
        if code == 8:
            return varint(self.name(p["message"])) + varint(len(p["cut"])) + b"".join(varint(self.name(c)) for c in p["cut"])
        if 9 <= code <= 12:
            return self.frame(p)
        if code in (13, 14):
            return varint(zigzag(p["transition"]))
        if 15 <= code <= 18:
            return self.text(p["text"])
        if code == 19:
            return bytes([APPEARANCE.index(message)])
        if code == 20:
            return bytes([TCF_PRESENTATION.index(message), bool(p.get("animated", p.get("completed")))])
        if code == 21:
            return b"".join(varint(self.name(p[key])) for key in ("presented", "style", "transitionStyle"))
        if code == 22:
            return varint(self.name(p["presented"]))
        if code in (23, 24):
            return varint(self.name(p["style"]))
        if code == 25:
            return varint(self.name(p["action"])) + varint(self.name(p["target"]))
        return varint(self.name(p["child"])) + varint(zigzag(p["index"]))  # 30: select

    def add(self, event):
        """Appends one event: a RUN record first when the run changes, then tag, flags, the fields
        that differ from the event before (§3.2), the controller and the payload."""
        if event["run"] != self.run:
            node = self.name(event["node"])
            self.record(0x01, self.text(event["run"]) + varint(node))
            self.run, self.node = event["run"], node
        node, controller = self.name(event["node"]), self.name(event["controller"])
        cause = event.get("cause")
        cause_node, cause_seq = (cause.rsplit("#", 1) if cause else (None, None))
        cause_node = None if cause is None else self.name(cause_node)
        payload = self.payload(event["message"], event["payload"])
        seq, offset = event["seq"], (event["lamport"] - event["seq"]) & MASK64
        transition, step, moment = event.get("transition"), event["step"], event["time"]
        flags, fields = 0, b""
        if node != self.node:
            flags, fields = flags | 0x01, fields + varint(node)
        if seq != (self.seq + 1) & MASK64:
            flags, fields = flags | 0x02, fields + varint(seq)
        if offset != self.offset:
            flags, fields = flags | 0x04, fields + varint(zigzag(offset))
        if cause_node is not None:
            flags, fields = flags | 0x08, fields + varint(cause_node) + varint(zigzag(int(cause_seq) - self.cause))
            self.cause = int(cause_seq)
        if transition != self.transition:
            flags, fields = flags | 0x10, fields + (b"\x00" if transition is None else b"\x01" + varint(zigzag(transition)))
        if step != self.step:
            flags, fields = flags | 0x20, fields + varint(zigzag(step))
        if moment != self.time:
            flags, fields = flags | 0x40, fields + varint(zigzag(moment - self.time))
        self.out += bytes([0x40 + TCF_CODES[event["message"]], flags]) + fields + varint(controller) + payload
        self.node, self.seq, self.offset, self.transition, self.step, self.time = node, seq, offset, transition, step, moment


def compact_captures(events, part_bytes):
    """TRACE-DATA's compact form (§7.8): whole captures, each cut once it holds `part_bytes`;
    at least one (just the header when there are no events)."""
    parts, capture = [], CompactCapture()
    for event in events:
        capture.add(event)
        if len(capture.out) >= part_bytes:
            parts, capture = parts + [bytes(capture.out)], CompactCapture()
    return parts + [bytes(capture.out)] if capture.names or not parts else parts



def main(argv):
    options, peers, args = {"--connect-timeout": "60"}, [], list(argv[1:])
    while args:
        option = args.pop(0)
        if option == "--verbose":
            options[option] = "1"
        elif option in ("--name", "--bind", "--peer", "--connect-timeout") and args:
            value = args.pop(0)
            if option == "--peer" and "=" in value:
                peers.append(tuple(value.split("=", 1)))
            options[option] = value
        else:
            options = {}
            break
    if "--name" not in options or "--bind" not in options or not peers:
        sys.stderr.write(__doc__)
        return 2
    verbose = "--verbose" in options or bool(os.environ.get("TRELLIS_NODE_VERBOSE"))
    return Node(options["--name"], options["--bind"], peers, float(options["--connect-timeout"]), verbose).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
