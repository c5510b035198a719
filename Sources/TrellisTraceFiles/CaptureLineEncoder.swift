import TrellisJSON
import TrellisModel
import TrellisTrace

/// Writes capture lines (`Protocols/trace-format.md`, version 1.1) of compact events straight
/// into bytes: a header line when the run id changes, then event lines; the quoted names are made
/// once per name, numbers are written two digits at a time, and only the rare events outside the
/// compact form go through `TraceCaptureFormat.eventLine(for:headerNode:)`. The bytes are the
/// same as that function's.
///
/// Room for a whole compact line is made once per line (`lineBound`), then its pieces are copied
/// unchecked into the buffer.
final class CaptureLineEncoder: CaptureByteBuffer {
    /// `"name"` of each interned controller, one after the other in `quotedNames`, made when
    /// first needed: controller `i`'s bytes are `quotedNames[quotedRanges[i]]`.
    private var quotedNames: [UInt8] = []
    private var quotedRanges: [Range<Int>] = []
    private var longestName = 0
    /// `"node#` of each node, for causes.
    private var causePrefixes: [[UInt8]] = []
    /// `{"seq":`, or `{"node":…,"seq":` for a recorder whose node is not the header's.
    private var linePrefix: [UInt8] = []
    private var prefixNode: String?
    /// The last header line written.
    private var header: TraceCaptureFormat.Header?
    /// The recorder whose tables the caches above follow (its chunk pool stands for it).
    private var tablesOwner: ObjectIdentifier?
    /// The most bytes a compact line can take: the prefix, a cause prefix, two names, and less
    /// than 768 bytes of numbers (ten of at most 25 bytes), keys and punctuation.
    private var lineBound = 0

    /// "00" to "99".
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends one line and a newline.
    func append(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            reserve(bytes.count + 1)
            put(UnsafeRawBufferPointer(bytes))
        }
        put(0x0A)
    }

    func encode(_ chunk: TraceChunk) {
        // The name caches are by table position: chunks of another recorder (a writer shared by
        // two) number their names differently, so its first chunk starts them afresh.
        let owner = chunk.buffers.map(ObjectIdentifier.init)
        if owner != tablesOwner {
            tablesOwner = owner
            quotedNames.removeAll()
            quotedRanges.removeAll()
            longestName = 0
            causePrefixes.removeAll()
            prefixNode = nil
        }
        let node = chunk.tables.nodes.first ?? ""
        if header?.runID != chunk.runID {
            header = TraceCaptureFormat.Header(runID: chunk.runID, node: node)
            append(TraceCaptureFormat.headerLine(runID: chunk.runID, node: node))
            prefixNode = nil
        }
        if prefixNode != node {
            prefixNode = node
            linePrefix = Array((node == header?.node ? "{\"seq\":" : "{\"node\":" + JSONWriter.quoted(node) + ",\"seq\":").utf8)
        }
        while causePrefixes.count < chunk.tables.nodes.count {
            let quoted = JSONWriter.quoted(chunk.tables.nodes[causePrefixes.count])
            causePrefixes.append(Array(quoted.utf8.dropLast()) + [0x23])
        }
        if quotedRanges.count < chunk.tables.controllers.count {
            quotedRanges.append(contentsOf: repeatElement(0..<0, count: chunk.tables.controllers.count - quotedRanges.count))
        }
        // First the names this chunk needs, then the lines with the names' bytes borrowed once.
        for events in chunk.log.chunks {
            for event in events {
                quote(event.controller, chunk)
                if case .sizeForChild = event.code { quote(event.detail, chunk) }
            }
        }
        lineBound = linePrefix.count + (causePrefixes.map(\.count).max() ?? 0) + 2 * longestName + 768
        quotedNames.withUnsafeBytes { names in
            chunk.log.forEach { event, sequence, time in
                encode(event, sequence: sequence, time: time, chunk, names: names)
            }
        }
    }

    private func quote(_ index: UInt32, _ chunk: TraceChunk) {
        let position = Int(index)
        guard quotedRanges[position].isEmpty else { return }
        let start = quotedNames.count
        quotedNames.append(contentsOf: JSONWriter.quoted(chunk.tables.controllers[position].name).utf8)
        quotedRanges[position] = start..<quotedNames.count
        longestName = max(longestName, quotedNames.count - start)
    }

    private func encode(_ event: CompactTraceEvent, sequence: UInt64, time: UInt64, _ chunk: TraceChunk, names: UnsafeRawBufferPointer) {
        if case .other = event.code {
            let full = chunk.log.event(event, sequence: sequence, time: time, tables: chunk.tables)
            append(TraceCaptureFormat.eventLine(for: full, headerNode: header?.node ?? ""))
            return
        }
        reserve(lineBound)
        switch event.code {
        case .other:
            return
        case .viewWillTransition:
            head(event, sequence, names, kind: "delivery", message: "viewWillTransition")
            put("{\"to\":")
            size(chunk.tables.sizes[Int(event.first)])
        case .sizeForChild:
            head(event, sequence, names, kind: "query", message: "sizeForChild")
            put("{\"child\":")
            put(UnsafeRawBufferPointer(rebasing: names[quotedRanges[Int(event.detail)]]))
            put(",\"parent\":")
            size(chunk.tables.sizes[Int(event.first)])
            put(",\"answer\":")
            size(chunk.tables.sizes[Int(event.second)])
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            let message: StaticString = if case .viewWillLayoutSubviews = event.code { "viewWillLayoutSubviews" } else { "viewDidLayoutSubviews" }
            head(event, sequence, names, kind: "layout", message: message)
            put("{")
            if event.detail == CompactTraceEvent.frameAtZero || event.detail == CompactTraceEvent.frameWithOrigin {
                put(event.detail == CompactTraceEvent.frameAtZero ? "\"frame\":[0,0," : "\"frame\":[")
                if event.detail == CompactTraceEvent.frameWithOrigin {
                    pair(chunk.tables.sizes[Int(event.first)])
                    put(",")
                }
                pair(chunk.tables.sizes[Int(event.second)])
                put("]")
            }
        }
        put("},\"time\":")
        decimal(time)
        put("}\n")
    }

    /// Everything up to the payload.
    private func head(_ event: CompactTraceEvent, _ sequence: UInt64, _ names: UnsafeRawBufferPointer, kind: StaticString, message: StaticString) {
        put(linePrefix)
        decimal(sequence)
        put(",\"lamport\":")
        decimal(sequence &+ UInt64(event.lamportOffset))
        put(",\"cause\":")
        if event.causeNode >= 0 {
            put(causePrefixes[Int(event.causeNode)])
            decimal(event.causeSequence)
            put(0x22)
        } else {
            put("null")
        }
        put(",\"controller\":")
        put(UnsafeRawBufferPointer(rebasing: names[quotedRanges[Int(event.controller)]]))
        put(",\"transition\":")
        if let transition = event.transition { integer(Int64(transition)) } else { put("null") }
        put(",\"step\":")
        integer(Int64(event.step))
        put(",\"kind\":\"")
        put(kind)
        put("\",\"message\":\"")
        put(message)
        put("\",\"payload\":")
    }

    private func size(_ size: Size) {
        put(0x5B)
        pair(size)
        put(0x5D)
    }

    /// The two numbers of a size (or of an origin kept as one), comma-separated.
    private func pair(_ size: Size) {
        number(size.width)
        put(0x2C)
        number(size.height)
    }

    /// `CanonicalNumber.format`, without a string for whole numbers.
    private func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            var text = CanonicalNumber.format(value)
            text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        }
    }

    private func integer(_ value: Int64) {
        if value < 0 { put(0x2D) }
        decimal(value.magnitude)
    }

    private func decimal(_ value: UInt64) {
        var digits = 1
        var limit: UInt64 = 10
        while value >= limit {
            digits += 1
            if digits == 20 { break }
            limit &*= 10
        }
        var rest = value
        var position = count &+ digits
        let pairs = Self.digitPairs.utf8Start
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            position &-= 2
            base[position] = pairs[pair]
            base[position &+ 1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            base[position &- 2] = pairs[pair]
            base[position &- 1] = pairs[pair &+ 1]
        } else {
            base[position &- 1] = 0x30 &+ UInt8(truncatingIfNeeded: rest)
        }
        count &+= digits
    }
}
