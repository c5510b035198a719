#!/usr/bin/env python3
"""A TWP/1 worker node, written from Protocols/wire-protocol.md, trace-format.md and scenario-format.md.

It hosts the controllers that the scenario's placement puts on it — view controllers of every
kind with the scenario's overrides (§8.3, §8.4), the presentation controllers of their
presentations and the adaptive wrappers those create (§8.5) — in a run started by
`trellis run --transport zmq --node NAME=ENDPOINT`:

    /usr/bin/python3 Tests/Interop/trellis_node.py --name py --bind ipc:///tmp/run/py.sock \\
        --peer main=ipc:///tmp/run/main.sock [--connect-timeout SECONDS] [--verbose]

It makes the copies of the scenario's `performSegue` steps itself (TSF/1 §6.5), as every node
does, and hosts those the placement gives it like the file's own controllers.

It knows no Swift behaviours (SPEC §4.1): a SETUP naming any is refused with ERROR 8 (§7.2, §9.1),
and so is one whose steps perform a custom segue, whose registered Swift behaviour it lacks.

Exit status: 0 after the conductor's GOODBYE, 2 bad usage or after the GOODBYE of a conductor
whose SETUP it refused for behaviours it lacks, 3 when the conductor was silent for
the peer-gone timeout (or did not come within --connect-timeout seconds, default 60).
"""
import json
import math
import os
import struct
import sys
import time
import zlib

import zmq

HEADER = struct.Struct(">2sBBBBHQQII")  # §5
HELLO, SETUP, READY, CALL, RETURN, HEARTBEAT = 0x01, 0x02, 0x03, 0x10, 0x11, 0x20
GOODBYE, GOODBYE_ACK, ERROR, TRACE_REQUEST, TRACE_DATA, BATCH = 0x30, 0x31, 0x40, 0x50, 0x51, 0x60
COMMANDS = {HELLO, SETUP, READY, CALL, RETURN, HEARTBEAT, GOODBYE, GOODBYE_ACK, ERROR, TRACE_REQUEST, TRACE_DATA, BATCH}
CALL_CODES = set(range(0x01, 0x0B)) | set(range(0x20, 0x2D)) | set(range(0x40, 0x47)) | {0x60, 0x61, 0x62}
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
NONE, BOOL, INT, STRING, SIZE, TRAIT, ADDRESS, REF, TRANSITION, RECT = 0, 1, 2, 4, 5, 6, 7, 8, 9, 0x0C
CAUSE = {REF, NONE}
SIGNATURES = {  # §8: name, the tags each argument may have, who serves it (vc: view controller, pc, or both)
    0x01: ("viewWillTransition", [{SIZE}, {TRANSITION}, CAUSE], "both"),
    0x02: ("traitTransition", [{TRAIT}, {BOOL}, {TRANSITION}, CAUSE], "both"),
    0x03: ("applyPendingTraits", [CAUSE], "both"), 0x04: ("layout", [{RECT}, CAUSE], "both"),
    0x05: ("preferredContentSizeDidChange", [{STRING}, {SIZE}, CAUSE], "both"),
    0x06: ("systemLayoutFittingSizeDidChange", [{STRING}, CAUSE], "both"),
    0x07: ("initialLayout", [{RECT, NONE}, {TRAIT}, CAUSE], "both"), 0x08: ("appearance", [{STRING}, CAUSE], "both"),
    0x09: ("refresh", [{RECT}, {TRAIT}, CAUSE], "both"), 0x20: ("snapshot", [], "vc"),
    0x0A: ("performAction", [{STRING}, {STRING}, {REF}], "both"),
    0x21: ("setPreferredContentSize", [{SIZE}, CAUSE], "vc"), 0x22: ("notifySystemLayoutFittingSizeDidChange", [CAUSE], "vc"),
    0x23: ("setOverrideTraits", [{TRAIT, NONE}, {STRING}, {TRANSITION}, CAUSE], "vc"),
    0x24: ("setContainer", [{ADDRESS, NONE}], "both"), 0x25: ("attachPresentation", [{ADDRESS}, {BOOL}], "vc"),
    0x26: ("detachPresentation", [], "vc"), 0x27: ("appendChild", [{ADDRESS}], "vc"), 0x28: ("removeLastChild", [], "vc"),
    0x29: ("replaceChild", [{INT}, {ADDRESS}], "vc"), 0x2A: ("select", [{INT}, CAUSE], "vc"),
    0x2B: ("showChild", [{INT}, CAUSE], "vc"), 0x2C: ("childFrame", [{STRING}], "vc"),
    0x40: ("makePresentationController", [{STRING}, {SIZE}, {TRAIT}, {SIZE}, CAUSE], "vc"),
    0x41: ("adaptForPresentation", [CAUSE], "pc"), 0x42: ("prepareDisplayed", [], "pc"),
    0x43: ("presentationCallback", [{STRING}, {BOOL}, CAUSE], "pc"), 0x44: ("initialPresentationLayout", [CAUSE], "pc"),
    0x45: ("presentationState", [], "pc"), 0x46: ("displayedAppearance", [{STRING}, CAUSE], "pc")}
OPTIONAL_TAILS = {0x43: {TRANSITION, NONE}}  # §8: a bracketed last argument (1.4), left off when none
UNSPECIFIED = (0,) * 6 + (0.0,)
APPEARANCE = ("viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear")
PRESENTATION_CALLBACKS = ("presentationTransitionWillBegin", "presentationTransitionDidEnd",
                          "dismissalTransitionWillBegin", "dismissalTransitionDidEnd")
KINDS = {"viewWillTransition": "delivery", "willTransition": "delivery", "traitCollectionDidChange": "delivery",  # TTF/1 §4.3
         "preferredContentSizeDidChange": "delivery", "systemLayoutFittingSizeDidChange": "delivery",
         "sizeForChild": "query", "frameOfPresentedViewInContainerView": "query", "suppressed": "suppression",
         "adaptivePresentationStyle": "presentation", "willPresentWithAdaptiveStyle": "presentation",
         "warning": "warning", "error": "error", "fault": "fault"}
KINDS.update({name: "appearance" for name in APPEARANCE})
KINDS.update({name: "presentation" for name in PRESENTATION_CALLBACKS})
KINDS.update({name: "layout" for name in ("viewWillLayoutSubviews", "viewDidLayoutSubviews",
                                          "containerViewWillLayoutSubviews", "containerViewDidLayoutSubviews")})

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


# --- Values sent in CALLs (§6.4) -----------------------------------------------------------------

def enc_size(size):
    return struct.pack(">Bdd", SIZE, *size)


def enc_rect(rect):
    return struct.pack(">Bdddd", RECT, *rect)


def enc_traits(traits):
    return struct.pack(">B6Bd", TRAIT, *traits)


def enc_bool(flag):
    return struct.pack(">BB", BOOL, 1 if flag else 0)


def enc_str(text):
    return bytes([STRING]) + s(text)


def enc_address(address):
    return bytes([ADDRESS]) + s(address[0]) + s(address[1]) + struct.pack(">I", address[2])


def enc_cause(cause):
    return bytes([NONE]) if cause is None else bytes([REF]) + s(cause[0]) + struct.pack(">Q", cause[1])


def enc_transition(transition):  # id, animated, duration, window traits, window size (§6.2)
    ident, animated, duration, traits, size = transition
    return struct.pack(">Bq?d6Bddd", TRANSITION, ident, animated, duration, *traits, *size)


# --- Values in the trace (TTF/1 §3.2, §4.4) ----------------------------------------------------------

def size_json(size):
    return [number(v) for v in size]


def size_text(size):
    return "%sx%s" % tuple(number(v) for v in size)


def traits_of(spec):  # a TSF/1 §4.3 trait object → the seven values of §6.3
    spec = spec or {}
    return tuple(cases.index(spec.get(name, "unspecified")) for name, cases in TRAITS) + (float(spec.get("displayScale", 0)),)


def overlay(base, over):  # §8.2: each specified trait of `over` replaces the one of `base`
    if over is None:
        return base
    return tuple(o if o else b for b, o in zip(base[:6], over[:6])) + (over[6] if over[6] != 0 else base[6],)


def rounded(value, how):  # TSF/1 §5.5 `round`: within 1e-6 of a whole number is that number first
    whole = math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)
    if abs(value - whole) < 1e-6:
        return float(whole)
    if how == "floor":
        return float(math.floor(value))
    if how == "ceil":
        return float(math.ceil(value))
    return float(whole)  # nearest: halves away from zero, as C's roundf


def size_rule(rule, child, parent):  # TSF/1 §5.5; None where the rule leaves the default
    if not rule:
        return None
    if "fraction" in rule:
        size = (parent[0] * rule["fraction"][0], parent[1] * rule["fraction"][1])
        return tuple(rounded(v, rule["round"]) for v in size) if "round" in rule else size
    if "fixed" in rule:
        return tuple(float(v) for v in rule["fixed"])
    if child in rule.get("perChild", {}):
        return tuple(float(v) for v in rule["perChild"][child])
    return None


def grant(policy, current, requested):  # §8.3 GRANT (TSF/1 §5.6)
    if policy == "all":
        return requested
    if isinstance(policy, dict) and "clamp" in policy:
        return (min(requested[0], policy["clamp"][0]), min(requested[1], policy["clamp"][1]))
    if isinstance(policy, dict) and "fraction" in policy:
        f = policy["fraction"]
        return (current[0] + f * (requested[0] - current[0]), current[1] + f * (requested[1] - current[1]))
    return current


ZERO, ORIGIN, COMPACT = (0.0, 0.0), (0.0, 0.0), 1
SPLIT_PRIMARY, SPLIT_DIVIDER = 320.0, 1.0  # §8.3: a regular split's primary column and the divider after it (SPEC §3.2, R61)


class Remote:
    """An endpoint on another node (§8.2): every call is a CALL, waited for while serving the inbox."""

    def __init__(self, node, address):
        self.node, self.address, self.id = node, address, address[1]

    def call(self, code, *values):
        self.node.call_out(self.address, code, list(values))

    def viewWillTransition(self, size, transition, cause):
        self.call(0x01, enc_size(size), enc_transition(transition), enc_cause(cause))

    def traitTransition(self, traits, deliver, transition, cause):
        self.call(0x02, enc_traits(traits), enc_bool(deliver), enc_transition(transition), enc_cause(cause))

    def applyPendingTraits(self, cause):
        self.call(0x03, enc_cause(cause))

    def layout(self, frame, cause):
        self.call(0x04, enc_rect(frame), enc_cause(cause))

    def preferredContentSizeDidChange(self, child, size, cause):
        self.call(0x05, enc_str(child), enc_size(size), enc_cause(cause))

    def systemLayoutFittingSizeDidChange(self, child, cause):
        self.call(0x06, enc_str(child), enc_cause(cause))

    def initialLayout(self, frame, traits, cause):
        self.call(0x07, bytes([NONE]) if frame is None else enc_rect(frame), enc_traits(traits), enc_cause(cause))

    def appearance(self, name, cause):
        self.call(0x08, enc_str(name), enc_cause(cause))

    def refresh(self, frame, traits, cause):
        self.call(0x09, enc_rect(frame), enc_traits(traits), enc_cause(cause))


class Slot:
    """A child (or a presentation, or what a presentation controller displays) as its holder knows it."""

    def __init__(self, endpoint, size=ZERO):
        self.endpoint, self.size, self.announced, self.walked, self.inherits = endpoint, size, None, False, False


class ViewController:
    """A view controller of any kind (§8.3, §8.4)."""

    def __init__(self, node, ident, spec, children):
        self.node, self.id, self.spec = node, ident, spec
        self.kind, self.selected = spec.get("kind", "view"), spec.get("selected", 0)
        self.slots, self.origins = [Slot(child) for child in children], [ORIGIN] * len(children)
        self.size, self.origin, self.traits, self.pending = ZERO, ORIGIN, UNSPECIFIED, None
        self.overrides = {child: traits_of(t) for child, t in spec.get("traitOverrides", {}).items()}
        self.preferred = tuple(float(v) for v in spec.get("preferredContentSize", [0, 0]))
        self.container = self.presentation = None
        behaviour = spec.get("overrides", {})
        self.on_size, self.on_traits = behaviour.get("viewWillTransition", "super"), behaviour.get("willTransition", "super")
        self.rule, self.grant = behaviour.get("sizeForChild"), behaviour.get("grant", "none")
        self.layout_rule = spec.get("layout", "overlay")

    def record(self, message, payload, cause, transition=None):
        return self.node.record(self.id, message, payload, cause, transition)

    def index(self, child):
        return next((i for i, slot in enumerate(self.slots) if slot.endpoint.id == child), None)

    def transitioning(self):
        return self.pending or self.traits

    def targets(self, horizontal=None):  # §8.3 TARGETS
        count = len(self.slots)
        if count == 0 or (self.kind == "tab" and not 0 <= self.selected < count):
            return []
        if self.kind == "navigation":
            return [count - 1]
        if self.kind == "tab":
            return [self.selected]
        if self.kind == "split":
            horizontal = self.transitioning()[0] if horizontal is None else horizontal
            return [0] if horizontal == COMPACT else list(range(min(count, 2)))
        return list(range(count))

    def child_size(self, i, parent):  # §8.3 CHILD-SIZE: SFC's answer, which the layout also sizes with (R2a)
        answer = size_rule(self.rule, self.slots[i].endpoint.id, parent)
        if answer is None and self.kind == "split" and self.transitioning()[0] != COMPACT:
            primary = min(SPLIT_PRIMARY, parent[0])
            answer = (primary, parent[1]) if i == 0 else (max(0.0, parent[0] - primary - SPLIT_DIVIDER), parent[1])
        return parent if answer is None else answer

    def sfc(self, i, parent, cause, transition):  # §8.3 SFC
        child, answer = self.slots[i].endpoint.id, self.child_size(i, parent)
        self.record("sizeForChild", {"child": child, "parent": size_json(parent), "answer": size_json(answer)}, cause, transition)
        return answer

    def place(self):  # §8.3 PLACE (R61)
        if self.kind != "split" and (self.kind != "view" or self.layout_rule == "overlay"):
            return
        visible, origins = self.targets(), [ORIGIN] * len(self.slots)
        if self.kind == "split":
            if visible == [0, 1]:
                origins[1] = (self.slots[0].size[0] + SPLIT_DIVIDER, 0.0)
        elif self.layout_rule in ("row", "column"):
            offset = 0.0
            for i in visible:
                origins[i] = (offset, 0.0) if self.layout_rule == "row" else (0.0, offset)
                offset += self.slots[i].size[0 if self.layout_rule == "row" else 1]
        else:
            points = self.layout_rule.get("origins", {})
            for i in visible:
                origins[i] = tuple(float(v) for v in points.get(self.slots[i].endpoint.id, ORIGIN))
        self.origins = origins

    def frame_of(self, i):
        return self.origins[i] + self.slots[i].size

    def traits_of(self, i, traits):
        return overlay(traits, self.overrides.get(self.slots[i].endpoint.id))

    def suppressed(self, message, forwarded, cause, transition):  # §8.3 SUPPRESSED (R8)
        cut = [self.slots[i].endpoint.id for i in self.targets() if i not in forwarded]
        cut += [self.presentation.endpoint.id] if self.presentation else []
        self.record("suppressed", {"message": message, "cut": cut}, cause, transition)

    def listed(self, override):  # the slot index (None: no longer a child), child id and entry of a forwardTo list
        for entry in override["forwardTo"]:
            child = entry if isinstance(entry, str) else entry["child"]
            yield self.index(child), child, entry

    def misuse(self, text, cause, transition):
        self.record("error", {"text": text}, cause, transition)

    def resize(self, items, cause):  # §8.3 RESIZE (R25)
        changed = [(i, size) for i, size in items if size != self.slots[i].size]
        transition = self.node.window_transition() if changed else None
        if transition is None:
            return
        for i, size in changed:
            self.slots[i].announced = size
            self.slots[i].endpoint.viewWillTransition(size, transition, cause)
        self.layout(self.origin + self.size, cause)
        self.node.end_transition(transition, cause)

    # §8.4, call by call

    def viewWillTransition(self, size, transition, cause):
        event = self.record("viewWillTransition", {"to": size_json(size)}, cause, transition[0])
        if self.on_size == "super":
            for i in self.targets():
                answer = self.sfc(i, size, event, transition[0])
                if answer != self.slots[i].size:  # R4
                    self.slots[i].announced = answer
                    self.slots[i].endpoint.viewWillTransition(answer, transition, event)
            if self.presentation:  # R6: then the presentation controller, with this size
                self.presentation.announced = size
                self.presentation.endpoint.viewWillTransition(size, transition, event)
            return
        forwarded = []
        for i, child, entry in (self.listed(self.on_size) if self.on_size != "noSuper" else []):  # R9: no R4 skip
            sized = isinstance(entry, dict) and "size" in entry
            if i is None:  # a pop or a replaced column took it away
                if not sized:
                    self.misuse("sizeForChild: %s is not a child of %s" % (child, self.id), event, transition[0])
                self.misuse("forwardViewWillTransition: %s is not a child of %s" % (child, self.id), event, transition[0])
                continue
            child_size = tuple(float(v) for v in entry["size"]) if sized else self.sfc(i, size, event, transition[0])
            forwarded.append(i)
            self.slots[i].announced = child_size
            self.slots[i].endpoint.viewWillTransition(child_size, transition, event)
        self.suppressed("viewWillTransition", forwarded, event, transition[0])

    def walk(self, traits, indices, deliver, transition, cause):
        for i in indices:
            if not self.slots[i].walked:
                self.slots[i].walked = True
                self.slots[i].endpoint.traitTransition(self.traits_of(i, traits), deliver, transition, cause)

    def walk_presentation(self, deliver, transition, cause):
        slot = self.presentation
        if slot and not slot.walked:
            slot.walked = True
            slot.endpoint.traitTransition(self.transitioning() if slot.inherits else transition[3], deliver, transition, cause)

    def traitTransition(self, traits, deliver, transition, cause):
        for slot in self.slots + ([self.presentation] if self.presentation else []):
            slot.walked = False
        if traits == self.traits:  # R16
            self.pending = None
            return self.walk_presentation(deliver, transition, cause)
        self.pending = traits
        if not deliver:
            self.walk(traits, self.targets(), False, transition, cause)
            return self.walk_presentation(False, transition, cause)
        event = self.record("willTransition", {"to": traits_json(traits)}, cause, transition[0])
        if self.on_traits == "super":
            self.walk(traits, self.targets(), True, transition, event)
            return self.walk_presentation(True, transition, event)
        forwarded = []
        for i, child, _ in (self.listed(self.on_traits) if self.on_traits != "noSuper" else []):
            if i is None:
                self.misuse("forwardWillTransition: %s is not a child of %s" % (child, self.id), event, transition[0])
                continue
            forwarded.append(i)
            self.walk(self.transitioning(), [i], True, transition, event)
        self.suppressed("willTransition", forwarded, event, transition[0])
        self.walk(traits, self.targets(), False, transition, event)
        self.walk_presentation(False, transition, event)

    def applyPendingTraits(self, cause):
        after, columns_changed = cause, False
        if self.pending is not None:
            previous, self.traits, self.pending = self.traits, self.pending, None
            columns_changed = self.kind == "split" and previous[0] != self.traits[0]
            after = self.record("traitCollectionDidChange", {"previous": traits_json(previous)}, cause)
        for slot in self.slots + ([self.presentation] if self.presentation else []):
            if slot.walked:
                slot.walked = False
                slot.endpoint.applyPendingTraits(after)
        if columns_changed:  # a split's columns change in a transition of their own
            items = [(i, self.sfc(i, self.size, after, None)) for i in self.targets() if self.slots[i].announced is None]
            self.resize(items, after)

    def layout(self, frame, cause):
        self.origin, changed = frame[:2], False
        for slot in self.slots:
            if slot.announced is not None and slot.announced != slot.size:
                slot.size, changed = slot.announced, True
        presentation = None
        if self.presentation and self.presentation.announced is not None:
            presentation = self.presentation
            presentation.size, presentation.announced = presentation.announced, None
        event = cause
        if frame[2:] != self.size or changed:
            self.size = frame[2:]
            self.place()
            event = self.node.layout_pair(self.id, frame, cause)
        for i, slot in enumerate(self.slots):
            if slot.announced is not None:
                slot.announced = None
                slot.endpoint.layout(self.frame_of(i), event)
        if presentation:
            presentation.endpoint.layout(ORIGIN + self.size, event)

    def initialLayout(self, frame, traits, cause):
        self.traits, self.pending = traits, None
        visible, event = self.targets(), cause
        resized = frame is not None and frame[2:] != self.size
        if frame is not None:
            self.size, self.origin = frame[2:], frame[:2]
            event = self.record("viewWillLayoutSubviews", {"frame": size_json(frame)}, cause)
            for i in visible:  # R2a: sized by the layout, no query
                self.slots[i].size = self.child_size(i, frame[2:])
            self.place()
            self.record("viewDidLayoutSubviews", {}, cause)
        for i, slot in enumerate(self.slots):
            slot.endpoint.initialLayout(self.frame_of(i) if frame is not None and i in visible else None, self.traits_of(i, traits), event)
        if resized and self.presentation:  # what it presents in its context follows (R62, R63)
            self.presentation.size = self.size
            self.presentation.endpoint.layout(ORIGIN + self.size, event)

    def performAction(self, action, value, cause):  # §8.6: no Swift behaviour here, so nothing handles it
        return [enc_str("notHandled"), enc_str(""), enc_str("")]

    def refresh(self, frame, traits, cause):
        self.origin = frame[:2]
        if self.traits == UNSPECIFIED:
            self.initialLayout(frame, traits, cause)
            return
        if traits != self.traits:
            previous, self.traits = self.traits, traits
            event = self.record("traitCollectionDidChange", {"previous": traits_json(previous)}, cause)
            for i in self.targets():
                self.slots[i].endpoint.refresh(self.frame_of(i), self.traits_of(i, traits), event)
        if frame[2:] != self.size:
            self.initialLayout(frame, self.traits, cause)

    def appearance(self, name, cause):
        if name not in APPEARANCE:
            return "appearance: unknown callback %s" % name
        event = self.record(name, {}, cause)
        for i in self.targets(self.traits[0]):
            self.slots[i].endpoint.appearance(name, event)

    def preferredContentSizeDidChange(self, child, size, cause):
        event = self.record("preferredContentSizeDidChange", {"child": child}, cause)
        i = self.index(child)
        if i is None:
            self.record("error", {"text": "preferredContentSizeDidChange: %s is not a child of %s" % (child, self.id)}, event)
            return
        self.resize([(i, grant(self.grant, self.slots[i].size, size))], event)

    def systemLayoutFittingSizeDidChange(self, child, cause):
        self.record("systemLayoutFittingSizeDidChange", {"child": child}, cause)

    def setPreferredContentSize(self, size, cause):
        if size != self.preferred:
            self.preferred = size
            if self.container:
                self.container.preferredContentSizeDidChange(self.id, size, cause)

    def notifySystemLayoutFittingSizeDidChange(self, cause):
        if self.container:
            self.container.systemLayoutFittingSizeDidChange(self.id, cause)

    def setOverrideTraits(self, traits, child, transition, cause):
        i = self.index(child)
        if i is None:
            return "\"%s\" is not a child of \"%s\"" % (child, self.id)
        self.overrides[child] = traits
        if i not in self.targets():
            return None  # a hidden child takes the override when it is shown (refresh)
        self.slots[i].endpoint.traitTransition(self.traits_of(i, self.traits), True, transition, cause)
        self.slots[i].endpoint.applyPendingTraits(cause)

    def setContainer(self, container):
        self.container = container

    def attachPresentation(self, controller, inherits):
        self.presentation = Slot(controller, self.size)
        self.presentation.inherits = inherits

    def detachPresentation(self):
        self.presentation = None

    def appendChild(self, child):
        self.slots.append(Slot(child))
        self.origins.append(ORIGIN)

    def removeLastChild(self):
        if len(self.slots) > 1:
            self.slots.pop()
            self.origins.pop()

    def replaceChild(self, i, child):
        if 0 <= i < len(self.slots):
            self.slots[i], self.origins[i] = Slot(child), ORIGIN

    def select(self, i, cause):
        if 0 <= i < len(self.slots):
            self.selected = i
            self.showChild(i, cause)

    def showChild(self, i, cause):
        if 0 <= i < len(self.slots):
            self.slots[i].size = self.child_size(i, self.size)  # R2a: no query
            self.place()
            self.slots[i].endpoint.refresh(self.frame_of(i), self.traits_of(i, self.traits), cause)

    def snapshot(self):
        return [enc_size(self.size), enc_traits(self.traits), enc_size(self.preferred), enc_rect(self.origin + self.size)]

    def childFrame(self, child):
        i = self.index(child)
        return [bytes([NONE]) if i is None else enc_rect(self.frame_of(i))]

    def makePresentationController(self, style, size, traits, window, cause):
        controller = PresentationController(self.node, self, style, size, traits, window)
        self.node.receivers[controller.id] = controller  # replaces an earlier pc:P (§9.9 rule 6)
        return [enc_address((self.node.name, controller.id, 1))]


class PresentationController:
    """pc:P (§8.5): sizes, places and adapts what a presentation shows."""

    def __init__(self, node, presented, style, size, traits, window):
        self.node, self.presented, self.id, self.style, self.adapted = node, presented, "pc:" + presented.id, style, "none"
        spec = presented.spec.get("presentationController", {}) if style == "custom" else {}
        behaviour = spec.get("overrides", {})
        self.rule, self.frame_rule = spec.get("sizeForChild", behaviour.get("sizeForChild")), spec.get("frame")
        self.grant = spec.get("grant", behaviour.get("grant"))
        self.fullscreen, self.removes = spec.get("shouldPresentInFullscreen", True), spec.get("shouldRemovePresentersView", False)
        self.override = traits_of(spec["overrideTraits"]) if "overrideTraits" in spec else None
        self.on_size, self.on_traits = behaviour.get("viewWillTransition", "super"), behaviour.get("willTransition", "super")
        self.delegate = presented.spec.get("adaptiveDelegate")
        self.displayed, self.displayed_origin, self.wrapper = Slot(presented), ORIGIN, None
        self.size, self.traits, self.pending, self.window = size, traits, None, window
        self.presented_preferred, self.presented_size, self.told, self.resizing = presented.preferred, ZERO, False, None
        self.laid_out, self.source, self.adapted_in, self.last_size = None, None, None, None
        # R63: a frame rule stands for the seed's containerViewWillLayoutSubviews, which places the view again
        self.reapplies = self.frame_rule is not None and behaviour.get("containerViewWillLayoutSubviews") != "super"

    def record(self, message, payload, cause, transition=None):
        return self.node.record(self.id, message, payload, cause, transition)

    def effective(self):  # the style in effect
        return self.adapted if self.adapted != "none" else self.style

    def rules_apply(self):
        return self.style != "custom" or self.adapted == "none"

    def covers_context(self):
        style = self.effective()
        return style in ("currentContext", "overCurrentContext") or (style == "custom" and not self.fullscreen)

    def bounds(self):
        return ORIGIN + (self.size if self.covers_context() else self.window)

    def presented_view_frame(self):
        return self.displayed_origin + self.displayed.size

    def presented_traits(self, traits):
        return overlay(traits, self.override)

    def presented_size_for(self, parent):  # PRESENTED-SIZE (SPEC §3.5)
        style, window, preferred = self.effective(), self.window, self.presented_preferred
        regular = (self.pending or self.traits)[0] != COMPACT
        clamp = lambda size: (min(size[0], window[0]), min(size[1], window[1]))
        wanted = lambda fallback: preferred if preferred[0] > 0 and preferred[1] > 0 else fallback
        if style in ("fullScreen", "overFullScreen"):
            return window
        if style == "formSheet":
            return clamp(wanted((540.0, 620.0))) if regular else window
        if style == "pageSheet":
            return clamp((768.0, window[1])) if regular else window
        if style == "popover":
            return clamp(wanted((320.0, 480.0)))
        return parent

    def displayed_size(self, parent):  # PC-SIZE: SFC's answer, unrecorded (R2a)
        answer = size_rule(self.rule, self.displayed.endpoint.id, parent) if self.rules_apply() else None
        return self.presented_size_for(parent) if answer is None else answer

    def sfc(self, parent, cause, transition):  # PC-SFC
        child, answer = self.displayed.endpoint.id, self.displayed_size(parent)
        self.record("sizeForChild", {"child": child, "parent": size_json(parent), "answer": size_json(answer)}, cause, transition)
        return answer

    def frame(self):  # FRAME (R62)
        bounds, size, style = self.bounds(), self.presented_size, self.effective()
        rule = self.frame_rule if self.rules_apply() else None
        if rule and "fixed" in rule:
            return tuple(float(v) for v in rule["fixed"])
        mid_x, mid_y = bounds[0] + bounds[2] / 2, bounds[1] + bounds[3] / 2  # as CGRect computes them
        if rule:
            x = {"left": bounds[0], "right": (bounds[0] + bounds[2]) - size[0]}.get(rule["align"], mid_x - size[0] / 2)
            y = {"top": bounds[1], "bottom": (bounds[1] + bounds[3]) - size[1]}.get(rule["align"], mid_y - size[1] / 2)
            return (x, y) + size
        if style in ("formSheet", "pageSheet"):
            return (mid_x - size[0] / 2, mid_y - size[1] / 2) + size
        if style == "popover":
            source = self.source or (mid_x, mid_y, 0.0, 0.0)
            return popover_frame(size, source, bounds)
        return bounds

    def layout_container(self, cause, presenting=False):  # LAYOUT-CONTAINER (R63)
        previous, self.laid_out = self.laid_out, self.bounds()
        if previous is not None and not presenting:  # AUTORESIZE: margins kept, never below zero
            w, h = self.displayed.size
            self.displayed.size = (max(0.0, w + self.laid_out[2] - previous[2]), max(0.0, h + self.laid_out[3] - previous[3]))
        self.source = self.node.popover_source(self.presented.id) if self.effective() == "popover" else None
        event = self.record("containerViewWillLayoutSubviews", {"frame": size_json(self.laid_out)}, cause)
        placed = presenting or self.effective() != "custom" or self.reapplies
        if placed:
            frame = self.frame()
            self.record("frameOfPresentedViewInContainerView", {"frame": size_json(frame)}, event)
            self.displayed_origin, self.displayed.size = frame[:2], frame[2:]
        if self.effective() == "custom" and self.told and self.displayed.size != self.presented_size:
            who, shown, told = self.displayed.endpoint.id, self.displayed.size, size_text(self.presented_size)
            text = ("frameOfPresentedViewInContainerView gives %s %s, but sizeForChild gave %s" % (who, size_text(shown), told)) if placed \
                else ("%s keeps its frame %s %s, autoresized with the container view, but sizeForChild gave %s: "
                      "containerViewWillLayoutSubviews does not place it again" % (
                          who, "%s,%s" % tuple(number(v) for v in self.displayed_origin), size_text(shown), told))
            self.record("warning", {"text": text}, event)
        self.record("containerViewDidLayoutSubviews", {}, cause)
        return event

    def adapt(self, traits, cause, at_presentation):  # ADAPT (R48–R52)
        if self.style in ("fullScreen", "overFullScreen", "none") or (self.style == "custom" and self.delegate is None):
            return
        profile = self.node.profile
        compact_width, compact_height = traits[0] == COMPACT, traits[1] == COMPACT
        compact = compact_width or (profile == "ios13" and compact_height)
        if at_presentation and not compact:
            return
        answer = (self.delegate or {}).get("style")
        if not compact or (self.style == "custom" and answer is None):
            answer = "none"
        elif answer not in ("fullScreen", "overFullScreen", "formSheet", "none"):
            answer = default_adaptive_style(self.style, compact_width, compact_height, profile)
        adapted = "none" if answer == self.style else answer
        self.record("adaptivePresentationStyle", {"style": answer}, cause)
        wraps = adapted != "none" and (self.delegate or {}).get("wrapIn") == "navigation"
        if wraps and self.wrapper is None:
            self.install_wrapper()
        elif not wraps and self.wrapper is not None:
            self.remove_wrapper()
        self.record("willPresentWithAdaptiveStyle", {"style": adapted}, cause)
        self.adapted = adapted

    def install_wrapper(self):  # INSTALL-WRAPPER (R49)
        wrapper = ViewController(self.node, "wrap:" + self.presented.id, {"kind": "navigation"}, [self.presented])
        wrapper.size, wrapper.origin, wrapper.traits = self.displayed.size, self.displayed_origin, self.traits
        wrapper.slots[0].size = self.displayed.size
        self.presented.container, wrapper.container = wrapper, self
        self.node.receivers[wrapper.id] = wrapper
        self.wrapper, self.displayed = wrapper, Slot(wrapper, self.displayed.size)
        self.node.window_call(0x60, [enc_str(self.presented.id), enc_address((self.node.name, wrapper.id, 1))])

    def remove_wrapper(self):  # REMOVE-WRAPPER
        size = self.wrapper.slots[0].size
        self.presented.container, self.wrapper = self, None
        self.displayed = Slot(self.presented, size)
        self.presented_preferred = self.presented.preferred
        self.node.window_call(0x60, [enc_str(self.presented.id), bytes([NONE])])

    def resize_displayed(self, size, cause):  # RESIZE-DISPLAYED (R25)
        transition = self.node.window_transition() if size != self.displayed.size else None
        if transition is not None:
            self.displayed.announced = self.resizing = size
            self.displayed.endpoint.viewWillTransition(size, transition, cause)
            self.layout(ORIGIN + self.size, cause)
            self.node.end_transition(transition, cause)

    # §8.5, call by call

    def adaptForPresentation(self, cause):
        self.adapt(self.traits, cause, True)

    def prepareDisplayed(self):
        self.displayed.endpoint.initialLayout(None, self.presented_traits(self.traits), None)

    def presentationCallback(self, name, value, cause):
        if name not in PRESENTATION_CALLBACKS:
            return "presentationCallback: unknown callback %s" % name
        self.record(name, {"completed" if name.endswith("DidEnd") else "animated": value}, cause)

    def initialPresentationLayout(self, cause):  # R2a: no query; the transition gives the R62 frame
        self.presented_size = self.displayed.size = self.displayed_size(self.size)
        self.told = False
        event = self.layout_container(cause, presenting=True)
        self.displayed.endpoint.initialLayout(self.presented_view_frame(), self.presented_traits(self.traits), event)

    def presentationState(self):
        style = self.effective()
        removes = style in ("fullScreen", "currentContext") or (style == "custom" and self.removes)
        return [enc_bool(removes), enc_str(self.displayed.endpoint.id), enc_str(style), enc_bool(self.covers_context()),
                enc_rect(self.bounds()), enc_rect(self.presented_view_frame())]

    def displayedAppearance(self, name, cause):
        if name not in APPEARANCE:
            return "displayedAppearance: unknown callback %s" % name
        self.displayed.endpoint.appearance(name, cause)

    def viewWillTransition(self, size, transition, cause):
        event = self.record("viewWillTransition", {"to": size_json(size)}, cause, transition[0])
        self.window, self.last_size = transition[4], transition[0]
        if self.on_size == "noSuper":
            self.record("suppressed", {"message": "viewWillTransition", "cut": [self.displayed.endpoint.id]}, event, transition[0])
            return
        answer = self.sfc(size, event, transition[0])
        self.presented_size, self.told = answer, True
        if answer != self.displayed.size:  # R4
            self.displayed.announced = answer
            self.displayed.endpoint.viewWillTransition(answer, transition, event)

    def walk_displayed(self, traits, deliver, transition, cause):
        if not self.displayed.walked:
            self.displayed.walked = True
            self.displayed.endpoint.traitTransition(self.presented_traits(traits), deliver, transition, cause)

    def traitTransition(self, traits, deliver, transition, cause):
        self.displayed.walked, self.window = False, transition[4]
        if traits == self.traits:
            self.pending = None
            return self.walk_displayed(traits, deliver, transition, cause)
        self.pending = traits
        if not deliver:
            return self.walk_displayed(traits, False, transition, cause)
        event = self.record("willTransition", {"to": traits_json(traits)}, cause, transition[0])
        if self.on_traits == "noSuper":
            self.record("suppressed", {"message": "willTransition", "cut": [self.displayed.endpoint.id]}, event, transition[0])
            return self.walk_displayed(traits, False, transition, event)
        if traits[0] != self.traits[0] or (self.node.profile == "ios13" and traits[1] != self.traits[1]):  # R48
            before = self.effective()
            self.adapt(traits, event, False)
            if self.effective() != before:
                self.adapted_in = transition[0]
        self.walk_displayed(traits, True, transition, event)

    def applyPendingTraits(self, cause):
        after = cause
        if self.pending is not None:
            previous, self.traits, self.pending = self.traits, self.pending, None
            after = self.record("traitCollectionDidChange", {"previous": traits_json(previous)}, cause)
        if self.displayed.walked:
            self.displayed.walked = False
            self.displayed.endpoint.applyPendingTraits(after)
        adapted_in, self.adapted_in = self.adapted_in, None
        if adapted_in is not None and adapted_in != self.last_size:  # R52: a style change that brought no size
            self.resize_displayed(self.sfc(self.size, after, adapted_in), after)

    def layout(self, frame, cause):
        self.size, announced, self.displayed.announced = frame[2:], self.displayed.announced, None
        resizing, self.resizing = self.resizing, None
        before = self.displayed.size
        if announced is not None:
            self.presented_size = announced
        if (announced is None or announced == before) and self.laid_out == self.bounds():
            if announced is not None:
                self.displayed.endpoint.layout(self.presented_view_frame(), cause)
            return
        if resizing is not None:  # the presentation controller's own resize sets the size; R7's does not (R63)
            self.displayed.size = resizing
        event = self.layout_container(cause)
        if announced is not None or self.displayed.size != before:
            self.displayed.endpoint.layout(self.presented_view_frame(), event)

    def preferredContentSizeDidChange(self, child, size, cause):
        event = self.record("preferredContentSizeDidChange", {"child": child}, cause)
        if child == self.presented.id:
            self.presented_preferred = size
        policy = self.grant
        if policy is None:
            regular = self.traits[0] != COMPACT
            policy = {"clamp": self.window} if self.effective() == "popover" or (self.effective() == "formSheet" and regular) else "none"
        self.resize_displayed(grant(policy, self.displayed.size, size), event)

    def systemLayoutFittingSizeDidChange(self, child, cause):
        self.record("systemLayoutFittingSizeDidChange", {"child": child}, cause)

    def initialLayout(self, frame, traits, cause):
        self.traits = traits
        if frame is not None:
            self.size = frame[2:]

    def performAction(self, action, value, cause):  # §8.6: no Swift behaviour here, so nothing handles it
        return [enc_str("notHandled"), enc_str(""), enc_str("")]

    def refresh(self, frame, traits, cause):
        pass

    def appearance(self, name, cause):
        pass

    def setContainer(self, container):
        pass


def default_adaptive_style(style, compact_width, compact_height, profile):  # ADAPT's table
    if style == "popover" and profile == "ios13":
        return "fullScreen" if compact_height else "formSheet" if compact_width else "none"
    if style == "popover":
        return "overFullScreen" if compact_width else "none"
    if style in ("formSheet", "pageSheet"):
        return "fullScreen" if (compact_height if profile == "ios13" else compact_width) else "none"
    if style in ("currentContext", "overCurrentContext"):
        return "fullScreen" if compact_width else "none"
    return "none"


def popover_frame(size, source, bounds):  # POPOVER-FRAME (R62)
    (w, h), (sx, sy, sw, sh), (bx, by, bw, bh) = size, source, bounds
    if sy + sh + h <= by + bh:
        x, y = sx + sw / 2 - w / 2, sy + sh
    elif sy - h >= by:
        x, y = sx + sw / 2 - w / 2, sy - h
    elif sx + sw + w <= bx + bw:
        x, y = sx + sw, sy + sh / 2 - h / 2
    else:
        x, y = sx - w, sy + sh / 2 - h / 2
    x = max(bx, min(x, max(bx, bx + bw - w)))
    y = max(by, min(y, max(by, by + bh - h)))
    return (x, y, w, h)


class CustomSegue(Exception):
    """A `performSegue` of a `custom` segue: what it does is the conductor's registered Swift code."""


def renamed_copy(spec, name, renamed):  # TSF/1 §6.5 rule 1: a copy names the copies of its subtree
    def copy(ident):
        return renamed.get(ident, ident)
    spec = json.loads(json.dumps(spec))  # a deep copy: the copy's members are its own
    spec["children"] = [copy(child) for child in spec.get("children", [])]
    if "traitOverrides" in spec:
        spec["traitOverrides"] = {copy(k): v for k, v in spec["traitOverrides"].items()}
    if isinstance(spec.get("layout"), dict) and "origins" in spec["layout"]:
        spec["layout"]["origins"] = {copy(k): v for k, v in spec["layout"]["origins"].items()}
    overrides = spec.get("overrides", {})
    for key in ("viewWillTransition", "willTransition"):
        if isinstance(overrides.get(key), dict):
            overrides[key]["forwardTo"] = [dict(t, child=copy(t["child"])) if isinstance(t, dict) else copy(t)
                                           for t in overrides[key].get("forwardTo", [])]
    if isinstance(overrides.get("sizeForChild"), dict) and "perChild" in overrides["sizeForChild"]:
        overrides["sizeForChild"]["perChild"] = {copy(k): v for k, v in overrides["sizeForChild"]["perChild"].items()}
    if isinstance(spec.get("popoverSource"), dict):
        spec["popoverSource"]["view"] = copy(spec["popoverSource"]["view"])
    return spec


def expand_segues(document):
    """TSF/1 §6.5: the copies the `performSegue` steps make, added to `controllers` (in the order
    made, each subtree parent first) and `placement` (rule 6), and each copied destination's
    companion (its source, §7 rule 4). Returns the steps' companions, the first step wins."""
    controllers, placement = document["controllers"], document.setdefault("placement", {})
    originals, segues = dict(controllers), document.get("segues", {})
    counts, latest, companion = {}, {}, {}
    for step in document.get("steps", []):
        if not isinstance(step, dict):
            continue
        for action, other in (("present", "from"), ("show", "from"), ("showDetail", "from"), ("push", "onto")):
            if action in step:
                companion.setdefault(step[action], step.get(other))
        segue = segues.get(step.get("performSegue"))
        if segue is None or segue["kind"] == "unwind":
            continue
        if segue["kind"] == "custom":
            raise CustomSegue(segue.get("customClass", ""))
        destination, source = segue.get("destination"), latest.get(segue["from"], segue["from"])
        if destination not in originals:
            continue
        order, renamed, pending = [], {}, [destination]
        while pending:  # preorder: each controller once, children in order
            ident = pending.pop()
            if ident in renamed or ident not in originals:
                continue
            counts[ident] = counts.get(ident, 0) + 1
            renamed[ident] = "%s~%d" % (ident, counts[ident])
            order.append(ident)
            pending.extend(reversed(originals[ident].get("children", [])))
        for ident in order:
            name, spec = renamed[ident], renamed_copy(originals[ident], renamed[ident], renamed)
            if ident == destination:  # rule 2: the segue's fields on the destination's copy
                if "style" in segue:
                    spec["modalPresentationStyle"] = segue["style"]
                if "transitionStyle" in segue:
                    spec["modalTransitionStyle"] = segue["transitionStyle"]
                if segue["kind"] == "popoverPresentation":
                    spec["modalPresentationStyle"] = "popover"
                    if "anchor" in segue:
                        anchor = segue["anchor"]
                        spec["popoverSource"] = dict(anchor, view=latest.get(anchor["view"], anchor["view"]))
            controllers[name] = spec
            if ident in placement:
                placement[name] = placement[ident]
        for ident in order:
            latest[ident] = renamed[ident]
        companion.setdefault(renamed[destination], source)
    return companion


class Node:
    def __init__(self, name, bind, peers, connect_timeout, verbose):
        self.name, self.verbose, self.started = name, verbose, time.monotonic()
        self.connect_deadline = self.started + connect_timeout
        self.clock = self.seq = self.step = self.next_id = 0
        self.interval, self.timeout = 0.25, 2.0  # §9.5 defaults until SETUP
        self.run_id, self.conductor, self.receivers, self.events, self.replies, self.closing = "", None, {}, [], {}, None
        self.results, self.remotes, self.profile = {}, {}, "ios8"  # RETURN values; endpoints on other nodes (§8.2)
        self.exit_status = 0  # 2 once it refused its conductor's SETUP for behaviours it lacks
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

    def record(self, controller, message, payload, cause, transition=None):  # TTF/1 §4.2, §4.7 rule 1
        """Records an event of the CALL being served (its step); returns its eventref (§8.2 "Recording")."""
        self.clock += 1
        self.seq += 1
        self.events.append(json.dumps({
            "v": "1.0", "run": self.run_id, "node": self.name, "seq": self.seq, "lamport": self.clock,
            "cause": "%s#%d" % cause if cause else None, "controller": controller, "transition": transition,
            "step": self.step, "kind": KINDS.get(message, "note"), "message": message, "payload": payload,
            "time": time.monotonic_ns() - int(self.started * 1e9)}, separators=(",", ":"), ensure_ascii=False))
        return self.name, self.seq

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
                    ok = reader.unpack(">B") == 0
                    self.results[(peer.name, correlation)] = reader.values() if ok else []
                    self.replies[(peer.name, correlation)] = "ok" if ok else reader.text()
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
            listed, reader = [], None
        try:  # then the optional behaviour names (§7.2, 1.3): (u8 kind, string name) each
            named = [(reader.unpack(">B"), reader.text()) for _ in range(reader.unpack(">H"))] if reader else []
        except Malformed:
            named = []
        if named:  # this node knows no Swift behaviours: it refuses every one a SETUP names (§9.1 rule 4)
            kinds = {0: "view-controller behaviour", 1: "presentation-controller behaviour", 2: "adaptive delegate"}
            names = ", ".join("%s (%s)" % (name, kinds.get(kind, "behaviour of kind %d" % kind)) for kind, name in named)
            self.conductor, self.exit_status = peer.name, 2  # it can never be set up: it leaves at this peer's GOODBYE
            return self.reject(peer, 8, correlation, "node %s does not know the behaviours %s: it is %s, which registers no Swift behaviours"
                               % (self.name, names, os.path.basename(sys.argv[0])))
        try:
            document = json.loads(scenario)
            # controllers outside the tree live with the one their first present/show/push/performSegue names
            companion = expand_segues(document)
            placement, controllers = document["placement"], document["controllers"]
            parent = {child: ident for ident, spec in controllers.items() for child in spec.get("children", [])}
        except CustomSegue as segue:  # only the conductor's Swift code says what it does (TSF/1 §6.5 rule 5)
            self.conductor, self.exit_status = peer.name, 2
            return self.reject(peer, 8, correlation, "node %s does not know the segue behaviour %s: it is %s, which registers no Swift behaviours"
                               % (self.name, segue.args[0], os.path.basename(sys.argv[0])))
        except (ValueError, KeyError, AttributeError, TypeError) as error:
            return self.reject(peer, 7, correlation, "node %s cannot set up: %r" % (self.name, error))

        def node_of(ident):  # TSF/1 §7: unplaced controllers live with their parent, the root with the conductor
            seen = set()
            while ident not in placement and ident not in seen and (parent.get(ident) or companion.get(ident)):
                seen.add(ident)
                ident = parent.get(ident) or companion.get(ident)
            return placement.get(ident, peer.name)
        self.run_id, self.conductor, self.interval, self.timeout = run_id, peer.name, interval / 1000.0, timeout / 1000.0
        self.profile = document.get("profile", "ios8")
        hosted = [ident for ident in controllers if node_of(ident) == self.name]
        for ident in hosted:  # §8.3: the view controllers, then their children and containers (§7.2)
            self.receivers[ident] = ViewController(self, ident, controllers.get(ident) or {}, [])

        def endpoint(ident):
            return self.receivers[ident] if ident in self.receivers else self.endpoint_for((node_of(ident), ident, 1))
        for ident in hosted:
            controller = self.receivers[ident]
            for child in controller.spec.get("children", []):
                controller.slots.append(Slot(endpoint(child)))
                controller.origins.append(ORIGIN)
            controller.container = endpoint(parent[ident]) if ident in parent else None
        self.run_nodes = set(placement.values()) | {self.name, peer.name}  # the nodes a cause may name (§8)
        for other, endpoint_text, _key in listed:
            if other != self.name:
                (self.peers.get(other) or self.connect(other, endpoint_text)).listed = True
        self.send(peer, READY, s(self.name), correlation)

    def endpoint_for(self, address):
        """A receiver hosted here, or the stand-in for an address on another node (§8.2)."""
        if address[0] == self.name and address[1] in self.receivers:
            return self.receivers[address[1]]
        if address not in self.remotes:
            self.remotes[address] = Remote(self, address)
        return self.remotes[address]

    def call(self, target, code, arguments, step):
        """Carries out a CALL: the RETURN's values, or a fault text (§9.3 rule 3)."""
        receiver = self.receivers.get(target[1]) if target[0] == self.name else None
        if receiver is None:
            return "no controller %s on node %s" % (target[1], self.name)
        if target[2] != 1:
            return "stale incarnation %d of %s (now 1)" % (target[2], target[1])
        name, tags, served_by = SIGNATURES.get(code, (None, None, None))
        if name is None:
            return "call code 0x%02x goes to the conductor's window, not to %s" % (code, target[1])
        if served_by != "both" and (served_by == "pc") != isinstance(receiver, PresentationController):
            return "%s: %s is not a %s" % (name, target[1], "presentation controller" if served_by == "pc" else "view controller")
        if code in OPTIONAL_TAILS and len(arguments) == len(tags) + 1:
            # §8.7: a transition for a Swift behaviour's coordinator; this node hosts none.
            if arguments[-1][0] not in OPTIONAL_TAILS[code]:
                return "%s: argument %d is a %s, expected a transition or none" % (name, len(arguments), TAGS[arguments[-1][0]])
            arguments = arguments[:-1]
        if len(arguments) != len(tags):
            return "%s: %d arguments, expected %d" % (name, len(arguments), len(tags))
        for index, ((tag, _), allowed) in enumerate(zip(arguments, tags)):
            if tag not in allowed:
                return "%s: argument %d is a %s, expected a %s" % (name, index + 1, TAGS[tag], " or ".join(TAGS[t] for t in sorted(allowed)))
        values = [self.endpoint_for(value) if tag == ADDRESS else value for tag, value in arguments]
        cause = values[-1] if tags and tags[-1] is CAUSE else None
        if cause and cause[0] not in self.run_nodes:
            return "%s: cause %s#%d names no node of this run" % (name, cause[0], cause[1])
        result = getattr(receiver, name)(*values)  # a fault text, the RETURN's values, or None: no values
        return result if isinstance(result, (str, list)) else []

    def call_out(self, address, code, values):
        """One CALL from a hosted receiver (§8.2 "Endpoints"): its results, or None when it failed (a fault event)."""
        correlation = self.next_id + 1  # the id `request` gives it
        outcome = self.request(address, code, values, self.step)
        results = self.results.pop((address[0], correlation), [])
        if outcome != "ok":
            sys.stderr.write("%s: CALL 0x%02x to %s on %s failed: %s\n" % (self.name, code, address[1], address[0], outcome))
            # TWP/1 §9.3 rule 5: the target's fault; the conductor's window is named by its node.
            self.record(address[1] or "node:" + address[0], "fault", {"text": "call 0x%02x to %s on node %s failed: %s" % (
                code, address[1] or "the window", address[0], outcome)}, None)
            return None
        return results

    def window_call(self, code, values):  # the conductor's window: its node, empty id, incarnation 0 (§8.5)
        return self.call_out((self.conductor, "", 0), code, values)

    def window_transition(self):
        """RECEIPT's transition (§8.2, §9.9 rule 2): the window's next one, animated; None when the call failed."""
        results = self.window_call(0x62, [enc_bool(True)])
        return results[0][1] if results and results[0][0] == TRANSITION else None

    def end_transition(self, transition, cause):
        """§8.7: the window runs the coordinator blocks other nodes registered in this node's transition."""
        self.window_call(0x65, [enc_transition(transition), enc_cause(cause)])

    def popover_source(self, presented):
        results = self.window_call(0x61, [enc_str(presented)])
        return results[0][1] if results and results[0][0] == RECT else None

    def layout_pair(self, controller, frame, cause):  # LAYOUT (§8.2)
        event = self.record(controller, "viewWillLayoutSubviews", {"frame": size_json(frame)}, cause)
        self.record(controller, "viewDidLayoutSubviews", {}, cause)
        return event

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
        return self.exit_status


COMPACT_TRACE = 1  # HELLO capability bit 0 (§7.1): the sender reads TRACE-DATA in the compact form
TCF_HEADER = b"\x89TRL\r\n\x1a\n\x01\x01"  # TCF/1 §3: magic, major 1, minor 1 (ends with an END record)
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
        self.events = 0
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
        self.events += 1
        self.node, self.seq, self.offset, self.transition, self.step, self.time = node, seq, offset, transition, step, moment

    def finished(self):  # TCF 1.1 §3.1: END, the event count and the CRC-32 (zlib's) of every byte before it
        return bytes(self.out) + bytes([0x04]) + varint(len(varint(self.events)) + 4) + varint(self.events) \
            + struct.pack("<I", zlib.crc32(self.out) & 0xFFFFFFFF)


def compact_captures(events, part_bytes):
    """TRACE-DATA's compact form (§7.8): whole captures, each cut once it holds `part_bytes`;
    at least one (just the header and the END record when there are no events)."""
    parts, capture = [], CompactCapture()
    for event in events:
        capture.add(event)
        if len(capture.out) >= part_bytes:
            parts, capture = parts + [capture.finished()], CompactCapture()
    return parts + [capture.finished()] if capture.names or not parts else parts



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
