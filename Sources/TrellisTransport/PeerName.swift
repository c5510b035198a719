/// The name by which a node knows the sender of an inbound message, made from the routing id
/// its ROUTER prepends, and back.
///
/// A node of the run sets its routing id to its node name (TWP §3): UTF-8, the first octet not
/// zero; such an id is its name, verbatim. Any other id — one libzmq generates for a socket
/// that set none (five octets, the first zero), or octets that are not UTF-8 — belongs to a
/// stranger, and is named `U+0000` followed by the id's octets in hex. That form starts with
/// the octet no node name starts with, so a stranger can never pass for a node; it is one to
/// one, so two strangers never share a name; and it turns back into the exact octets, so an
/// ERROR sent back through the inbox reaches the stranger that caused it (decoding such an id
/// as UTF-8 with replacement characters did neither).
package enum PeerName {
    /// The name of the peer whose routing id is `routingID`.
    package static func of(routingID: [UInt8]) -> String {
        if let first = routingID.first, first != 0, let name = String(validating: routingID, as: UTF8.self) {
            return name
        }
        var name = "\u{0}"
        name.unicodeScalars.reserveCapacity(1 + 2 * routingID.count)
        for octet in routingID {
            name.unicodeScalars.append(hexDigit(octet >> 4))
            name.unicodeScalars.append(hexDigit(octet & 0xF))
        }
        return name
    }

    /// The routing id of the peer named `name` (`of(routingID:)` read backwards).
    package static func routingID(of name: String) -> [UInt8] {
        guard name.utf8.first == 0 else { return Array(name.utf8) }
        var octets: [UInt8] = []
        var high: UInt8?
        for digit in name.utf8.dropFirst() {
            guard let value = hexValue(digit) else { return Array(name.utf8) }
            if let first = high {
                octets.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return octets
    }

    /// `name` as a reader sees it in a trace or a message: a stranger's id as `routing id 0x…`.
    package static func readable(_ name: String) -> String {
        name.utf8.first == 0 ? "routing id 0x" + name.dropFirst() : name
    }

    private static func hexDigit(_ value: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(value < 10 ? 0x30 + value : 0x61 + value - 10)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
