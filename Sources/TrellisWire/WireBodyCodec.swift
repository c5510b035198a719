/// The byte layout of each command's body (Protocols/wire-protocol.md §6).
extension WireBody {
    /// The body frame.
    public func encode() -> [UInt8] {
        var writer = WireWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Appends the body's bytes to what `writer` holds.
    func encode(into writer: inout WireWriter) {
        switch self {
        case .hello(let node, let runID, let capabilities, let endpoint):
            writer.string(node)
            writer.string(runID)
            writer.u32(capabilities)
            // Optional trailing field: absent when empty, so 1.0 bodies stay byte-identical.
            if !endpoint.isEmpty { writer.string(endpoint) }
        case .setup(let runID, let node, let scenarioJSON, let heartbeat, let timeout, let peers, let behaviors, let implementations):
            writer.string(runID)
            writer.string(node)
            writer.longString(scenarioJSON)
            writer.u32(heartbeat)
            writer.u32(timeout)
            // Optional trailing fields, each absent when empty and nothing follows, so that a
            // SETUP without them stays byte-identical to 1.0's: the peer list (written empty
            // when behaviours follow), then the behaviour names (1.3).
            if !peers.isEmpty || !behaviors.isEmpty {
                writer.u16(UInt16(min(peers.count, Int(UInt16.max))))
                for peer in peers.prefix(Int(UInt16.max)) {
                    writer.string(peer.node)
                    writer.string(peer.endpoint)
                    writer.string(peer.publicKey)
                }
            }
            if !behaviors.isEmpty {
                writer.u16(UInt16(min(behaviors.count, Int(UInt16.max))))
                for behavior in behaviors.prefix(Int(UInt16.max)) {
                    writer.u8(behavior.kind)
                    writer.string(behavior.name)
                }
                // Their types (1.6), only after the behaviours.
                if !implementations.isEmpty {
                    writer.u16(UInt16(min(implementations.count, Int(UInt16.max))))
                    for implementation in implementations.prefix(Int(UInt16.max)) { writer.string(implementation) }
                }
            }
        case .ready(let node):
            writer.string(node)
        case .call(let target, let code, let arguments):
            writer.address(target)
            writer.u8(code.rawValue)
            writer.values(arguments)
        case .return(.ok(let values)):
            writer.u8(0)
            writer.values(values)
        case .return(.fault(let text)):
            writer.u8(1)
            writer.string(text)
        case .heartbeat, .goodbye, .goodbyeAck, .traceRequest:
            break
        case .error(let code, let text):
            writer.u16(code)
            writer.string(text)
        case .traceData(let last, let jsonLines):
            writer.bool(last)
            writer.longString(jsonLines)
        case .compactTraceData(let last, let capture):
            writer.u8(WireTraceDataForm.compact | (last ? WireTraceDataForm.last : 0))
            writer.octets(capture)
        }
    }

    /// SETUP's optional peer list: a u16 count, then (node, endpoint, public key) strings.
    static func peers(_ reader: inout WireReader) throws(WireError) -> [WirePeer] {
        let count = Int(try reader.u16())
        // Each peer takes six bytes at least (three empty strings): cap by what is left.
        guard count * 6 <= reader.remaining else {
            throw reader.failure(.countPastEnd(count: count, left: reader.remaining), at: reader.offset)
        }
        var peers: [WirePeer] = []
        for _ in 0..<count {
            peers.append(WirePeer(node: try reader.string(), endpoint: try reader.string(), publicKey: try reader.string()))
        }
        return peers
    }

    /// SETUP's optional behaviour list (1.3): a u16 count, then (u8 kind, string name).
    static func behaviors(_ reader: inout WireReader) throws(WireError) -> [WireBehavior] {
        let count = Int(try reader.u16())
        // Each name takes three bytes at least (a kind and an empty string): cap by what is left.
        guard count * 3 <= reader.remaining else {
            throw reader.failure(.countPastEnd(count: count, left: reader.remaining), at: reader.offset)
        }
        var behaviors: [WireBehavior] = []
        for _ in 0..<count {
            behaviors.append(WireBehavior(kind: try reader.u8(), name: try reader.string()))
        }
        return behaviors
    }

    /// SETUP's optional list of the behaviours' types (1.6): a u16 count, then strings.
    static func strings(_ reader: inout WireReader) throws(WireError) -> [String] {
        let count = Int(try reader.u16())
        // Each string takes two bytes at least (its length): cap by what is left.
        guard count * 2 <= reader.remaining else {
            throw reader.failure(.countPastEnd(count: count, left: reader.remaining), at: reader.offset)
        }
        var strings: [String] = []
        for _ in 0..<count { strings.append(try reader.string()) }
        return strings
    }

    /// Reads the body of a `command` message. Bytes after the last field are ignored.
    public static func decode(_ command: WireCommand, _ frame: [UInt8]) throws(WireError) -> WireBody {
        try decode(command, frame, range: 0..<frame.count)
    }

    /// Reads the body frame at `range` of `bytes` (a BATCH entry is read in place).
    static func decode(_ command: WireCommand, _ bytes: [UInt8], range: Range<Int>) throws(WireError) -> WireBody {
        try WireReader.borrowing(bytes) { raw throws(WireError) in try decode(command, raw, range: range) }
    }

    /// Reads the body frame at `range` of borrowed bytes.
    static func decode(_ command: WireCommand, _ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(WireError) -> WireBody {
        var reader = WireReader(bytes, range: range, part: .body)
        switch command {
        case .batch:
            // A BATCH is a container of messages, not a message (WireBatch): never one of its entries.
            throw WireError(part: .header, offset: WireHeader.commandOffset, reason: .nestedBatch)
        case .hello:
            let node = try reader.within("node") { reader throws(WireError) in try reader.string() }
            let runID = try reader.within("run id") { reader throws(WireError) in try reader.string() }
            let capabilities = try reader.within("capabilities") { reader throws(WireError) in try reader.u32() }
            // The optional tail: bytes that do not read as one are ignored like any trailing bytes.
            var tail = reader
            let endpoint = reader.remaining > 0 ? ((try? tail.string()) ?? "") : ""
            return .hello(node: node, runID: runID, capabilities: capabilities, endpoint: endpoint)
        case .setup:
            let runID = try reader.within("run id") { reader throws(WireError) in try reader.string() }
            let node = try reader.within("node") { reader throws(WireError) in try reader.string() }
            let scenario = try reader.within("scenario") { reader throws(WireError) in try reader.longString() }
            let heartbeat = try reader.within("heartbeat interval") { reader throws(WireError) in try reader.u32() }
            let timeout = try reader.within("peer-gone timeout") { reader throws(WireError) in try reader.u32() }
            // The optional tail: bytes that do not read as a peer list, then as a behaviour
            // list, are ignored like any trailing bytes.
            var tail = reader
            var peers: [WirePeer] = []
            var behaviors: [WireBehavior] = []
            var implementations: [String] = []
            if tail.remaining > 0, let listed = try? Self.peers(&tail) {
                peers = listed
                if tail.remaining > 0, let named = try? Self.behaviors(&tail) {
                    behaviors = named
                    if tail.remaining > 0 { implementations = (try? Self.strings(&tail)) ?? [] }
                }
            }
            return .setup(
                runID: runID, node: node, scenarioJSON: scenario, heartbeatIntervalMilliseconds: heartbeat,
                peerGoneTimeoutMilliseconds: timeout, peers: peers, behaviors: behaviors, implementations: implementations)
        case .ready:
            return .ready(node: try reader.within("node") { reader throws(WireError) in try reader.string() })
        case .call:
            let target = try reader.within("target") { reader throws(WireError) in try reader.address() }
            let codeOffset = reader.offset
            let octet = try reader.within("call code") { reader throws(WireError) in try reader.u8() }
            guard let code = WireCallCode(rawValue: octet) else {
                throw reader.failure(.unknownCallCode(octet), at: codeOffset)
            }
            return .call(target: target, code: code, arguments: try reader.values())
        case .return:
            let isFault = try reader.zeroOrOne("status")
            if isFault {
                let text = try reader.within("fault text") { reader throws(WireError) in try reader.string() }
                return .return(.fault(text))
            }
            return .return(.ok(try reader.values()))
        case .heartbeat: return .heartbeat
        case .goodbye: return .goodbye
        case .goodbyeAck: return .goodbyeAck
        case .traceRequest: return .traceRequest
        case .error:
            let code = try reader.within("error code") { reader throws(WireError) in try reader.u16() }
            let text = try reader.within("text") { reader throws(WireError) in try reader.string() }
            return .error(code: code, text: text)
        case .traceData:
            // 1.0: a bool (last); 1.2 sets bit 1 for the compact form (§7.8).
            let formOffset = reader.offset
            let form = try reader.u8("form")
            guard form & ~(WireTraceDataForm.last | WireTraceDataForm.compact) == 0 else {
                throw reader.failure(.unknownOctet(field: "form", value: form, expected: "0x00 to 0x03"), at: formOffset)
            }
            let last = form & WireTraceDataForm.last != 0
            if form & WireTraceDataForm.compact != 0 {
                let capture = try reader.within("capture") { reader throws(WireError) in try reader.octets() }
                return .compactTraceData(last: last, capture: capture)
            }
            let lines = try reader.within("trace") { reader throws(WireError) in try reader.longString() }
            return .traceData(last: last, jsonLines: lines)
        }
    }
}
