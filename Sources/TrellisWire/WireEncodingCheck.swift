/// Walks a message before it is written, for `WireMessage.validateForEncoding()`: every string
/// and list against its length prefix, the values of a CALL or RETURN against their count, and
/// an upper bound of the encoded size — the header, and each value at most its fixed part plus
/// what its strings hold — against the protocol's largest message.
struct WireEncodingCheck {
    /// Where in the body the walk is ("value 2", "item 1"), for the error.
    private var path: [String] = []
    /// The upper bound of the encoded size so far.
    private var bytes = WireLimits.fixedPartBound

    /// Checks `body`, then the whole message's size.
    static func check(_ body: WireBody) throws(WireError) {
        var check = WireEncodingCheck()
        try check.fields(of: body)
        guard check.bytes <= WireLimits.maxMessageBytes else {
            throw WireError(part: .body, path: [], reason: .limitExceeded(
                "a message of about \(check.bytes) bytes exceeds the largest message, \(WireLimits.maxMessageBytes) bytes"))
        }
    }

    private mutating func fields(of body: WireBody) throws(WireError) {
        switch body {
        case .hello(let node, let runID, _, let endpoint):
            try check(string: node, "node")
            try check(string: runID, "run id")
            try check(string: endpoint, "endpoint")
        case .setup(let runID, let node, let scenario, _, _, let peers, let behaviors, let implementations):
            try check(string: runID, "run id")
            try check(string: node, "node")
            try check(string: scenario, "scenario", limit: WireLimits.maxLongStringBytes)
            for peer in peers {
                try check(string: peer.node, "peer node")
                try check(string: peer.endpoint, "peer endpoint")
                try check(string: peer.publicKey, "peer key")
            }
            for behavior in behaviors {
                bytes += 1
                try check(string: behavior.name, "behaviour name")
            }
            for implementation in implementations {
                try check(string: implementation, "behaviour type")
            }
        case .ready(let node):
            try check(string: node, "node")
        case .call(let target, _, let arguments):
            try check(string: target.node, "target node")
            try check(string: target.controller, "target controller")
            try check(values: arguments)
        case .return(.ok(let values)):
            try check(values: values)
        case .return(.fault(let text)):
            try check(string: text, "fault text")
        case .heartbeat, .goodbye, .goodbyeAck, .traceRequest:
            break
        case .error(_, let text):
            try check(string: text, "text")
        case .traceData(_, let lines):
            try check(string: lines, "trace", limit: WireLimits.maxLongStringBytes)
        case .compactTraceData(_, let capture):
            bytes += 4 + capture.count
        }
    }

    private mutating func check(string: String, _ field: String, limit: Int = WireLimits.maxStringBytes) throws(WireError) {
        let count = string.utf8.count
        bytes += 4 + count
        guard count <= limit else {
            throw WireError(part: .body, path: path, reason: .limitExceeded("\(field) of \(count) bytes exceeds the limit of \(limit)"))
        }
    }

    private mutating func check(values: [WireValue]) throws(WireError) {
        guard values.count <= WireLimits.maxValueCount else {
            throw WireError(part: .body, path: path, reason: .limitExceeded(
                "\(values.count) values exceed the limit of \(WireLimits.maxValueCount)"))
        }
        for (index, value) in values.enumerated() {
            path.append("value \(index + 1)")
            try check(value, level: 1)
            path.removeLast()
        }
    }

    private mutating func check(_ value: WireValue, level: Int) throws(WireError) {
        bytes += WireLimits.fixedPartBound
        switch value {
        case .none, .bool, .int, .double, .size, .rect, .traits, .transition:
            break
        case .string(let text): try check(string: text, "string")
        case .longString(let text): try check(string: text, "long string", limit: WireLimits.maxLongStringBytes)
        case .address(let address):
            try check(string: address.node, "address node")
            try check(string: address.controller, "address controller")
        case .eventRef(let ref): try check(string: ref.node, "eventref node")
        case .list(let items):
            guard level <= WireLimits.maxListNesting else {
                throw WireError(part: .body, path: path, reason: .limitExceeded("list nested deeper than \(WireLimits.maxListNesting) lists"))
            }
            guard items.count <= WireLimits.maxListCount else {
                throw WireError(part: .body, path: path, reason: .limitExceeded(
                    "list of \(items.count) items exceeds the limit of \(WireLimits.maxListCount)"))
            }
            for (index, item) in items.enumerated() {
                path.append("item \(index + 1)")
                try check(item, level: level + 1)
                path.removeLast()
            }
        }
    }
}
