/// A READY command's properties (RFC 23 "Commands", `metadata = *property`): each a name of
/// 1–255 characters from `ALPHA / DIGIT / - _ . +`, then a 4-byte size and the value. Names
/// compare without case.
public struct ZMTPMetadata: Equatable, Sendable {
    /// One name and its value.
    public struct Property: Equatable, Sendable {
        public var name: String
        public var value: [UInt8]

        /// A property as it goes on the wire.
        public init(name: String, value: [UInt8]) {
            self.name = name
            self.value = value
        }
    }

    /// The properties in the order they came (or go).
    public var properties: [Property]

    /// Metadata of these properties.
    public init(_ properties: [Property] = []) {
        self.properties = properties
    }

    /// A socket's READY: its type, and its identity when it has one to give (a DEALER's routing
    /// id, which a ROUTER uses to address it; libzmq sends the property even when empty).
    public init(socketType: ZMTPSocketType, identity: [UInt8]) {
        properties = [Property(name: "Socket-Type", value: Array(socketType.name.utf8))]
        if socketType.sendsIdentity { properties.append(Property(name: "Identity", value: identity)) }
    }

    /// The first property of this name, compared without case.
    public subscript(name: String) -> [UInt8]? {
        let wanted = name.lowercased()
        return properties.first { $0.name.lowercased() == wanted }?.value
    }

    /// The properties as the READY command's data carries them.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        for property in properties {
            let name = Array(property.name.utf8.prefix(255))
            bytes.append(UInt8(name.count))
            bytes.append(contentsOf: name)
            let size = UInt32(truncatingIfNeeded: property.value.count)
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
            bytes.append(contentsOf: property.value)
        }
        return bytes
    }

    /// Reads the properties; a name or size that runs past the end is an error.
    public static func decode(_ data: ArraySlice<UInt8>) throws(ZMTPError) -> ZMTPMetadata {
        var properties: [Property] = []
        var index = data.startIndex
        while index < data.endIndex {
            let nameSize = Int(data[index])
            let nameStart = index + 1
            guard nameSize > 0, data.endIndex - nameStart >= nameSize + 4 else { throw .badCommand("READY property runs past the command") }
            let nameBytes = data[nameStart..<nameStart + nameSize]
            guard nameBytes.allSatisfy(isNameCharacter) else { throw .badCommand("READY property name has a character the RFC does not allow") }
            var size = 0
            for offset in 0..<4 { size = size << 8 | Int(data[nameStart + nameSize + offset]) }
            let valueStart = nameStart + nameSize + 4
            guard data.endIndex - valueStart >= size else { throw .badCommand("READY property value runs past the command") }
            properties.append(Property(name: String(decoding: nameBytes, as: UTF8.self), value: Array(data[valueStart..<valueStart + size])))
            index = valueStart + size
        }
        return ZMTPMetadata(properties)
    }

    /// `name-char = ALPHA / DIGIT / "-" / "_" / "." / "+"`.
    static func isNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "+"):
            true
        default:
            false
        }
    }
}
