import TrellisModel
import TrellisTrace

/// Writes the compact binary capture (`Protocols/compact-trace-format.md`) into a growing
/// buffer: from full events (`append(_:runID:)`, for converting and for `trellis run`) or
/// straight from a recorder's chunks of compact events (`encode(_:)`, for file traces), the
/// bytes the same either way. Names and sizes are defined once, the first time an event needs
/// them; an event carries only the fields that differ from the event before it.
final class CompactCaptureEncoder: CaptureByteBuffer {
    private typealias Format = CompactCaptureFormat

    // The fields below are touched for every event; only one thread uses an encoder, one call
    // at a time (a file writer's queue), so the run-time exclusivity checks would prove nothing.

    private var wroteFileHeader = false
    private var names: [String: UInt32] = [:]
    private var sizes: [SizeKey: UInt32] = [:]
    private var run: String?
    /// The fields of the event before, which the next one's flags refer to.
    @exclusivity(unchecked) private var previous = CompactCaptureFormat.PreviousEvent<UInt32>(node: 0)
    /// Events written so far.
    @exclusivity(unchecked) private(set) var events = 0
    /// A definition record's or a payload's bytes before they are placed.
    private var scratch: [UInt8] = []

    /// For chunks: the name and size table positions of the recorder whose chunks came last,
    /// mapped to this file's (`UInt32.max` for not yet defined).
    /// Weak, not an `ObjectIdentifier`: a recorder freed and another made after it may get the
    /// same address.
    private weak var tablesOwner: TraceChunkPool?
    @exclusivity(unchecked) private var controllerMap: [UInt32] = []
    @exclusivity(unchecked) private var nodeMap: [UInt32] = []
    @exclusivity(unchecked) private var sizeMap: [UInt32] = []

    private struct SizeKey: Hashable {
        var width: UInt64
        var height: UInt64
    }

    /// The bytes written since the last `removeAll()`.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The CRC-32 of the bytes of the file before `checksummed` (what `removeAll()` dropped
    /// included): folded when the buffer is emptied and at the END record, off the router's
    /// thread for a file trace (the writer's queue).
    private var checksum = CaptureChecksum()
    /// How many bytes of the buffer are folded into `checksum`.
    private var checksummed = 0
    /// Whether the END record is written: nothing more is.
    private(set) var finished = false

    override func removeAll() {
        foldChecksum()
        checksummed = 0
        super.removeAll()
    }

    override func trade(with block: inout CaptureByteBlock, keeping tail: Int) {
        foldChecksum()
        super.trade(with: &block, keeping: tail)
        checksummed = count
    }

    private func foldChecksum() {
        checksum.update(UnsafeRawBufferPointer(start: base + checksummed, count: count - checksummed))
        checksummed = count
    }

    /// Ends the file with its END record (TCF/1 §3.1): the number of events and the CRC-32 of
    /// every byte before the record. A file with no events is the header and this record.
    func finish() {
        guard !finished else { return }
        startFile()
        foldChecksum()
        var body: [UInt8] = []
        Self.varint(UInt64(events), into: &body)
        let crc = checksum.value
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        record(.end, body)
        finished = true
    }

    /// The whole file: what was written, ended by its END record.
    var finishedBytes: [UInt8] {
        finish()
        return bytes
    }

    /// Appends `bytes`, making room for them first.
    private func append(bytes: [UInt8]) {
        reserve(bytes.count)
        put(bytes)
    }

    @inline(__always)
    private func putVarint(_ value: UInt64) {
        Self.varint(value) { put($0) }
    }

    @inline(__always)
    private func putVarint(_ value: UInt32) {
        putVarint(UInt64(value))
    }

    /// The most bytes an event's head and a frequent event's payload take: tag, flags, seven
    /// varints of at most ten bytes and a transition marker, then a marker and three varints.
    private static let eventBound = 2 + 7 * 10 + 1 + 1 + 3 * 10

    // MARK: Full events

    /// Appends `event` of run `runID`; a run id other than the last one's starts a RUN record
    /// (whose node is this event's).
    func append(_ event: TraceEvent, runID: String) {
        begin(runID: runID, node: event.id.node)
        let node = name(event.id.node)
        let controller = name(event.controller.name)
        let causeNode = event.cause.map { name($0.node) }
        // The payload goes to `scratch` first: what it names is defined (records written) before
        // the event starts.
        var payload = CompactPayloadWriter(encoder: self, bytes: [])
        swap(&payload.bytes, &scratch)
        payload.bytes.removeAll(keepingCapacity: true)
        let code = TraceMessageSchema.fields(of: event.message, &payload).code
        swap(&payload.bytes, &scratch)
        head(code, node: node, sequence: event.id.sequence, lamport: event.lamport, causeNode: causeNode,
             causeSequence: event.cause?.sequence ?? 0, transition: event.transition, step: event.step, time: event.time,
             controller: controller)
        append(bytes: scratch)
    }

    // MARK: Chunks of compact events

    /// Appends the events of a recorder's chunk.
    func encode(_ chunk: TraceChunk) {
        startFile()
        if chunk.buffers == nil || chunk.buffers !== tablesOwner {
            tablesOwner = chunk.buffers
            controllerMap.removeAll()
            nodeMap.removeAll()
            sizeMap.removeAll()
        }
        let tables = chunk.tables
        if controllerMap.count < tables.controllers.count {
            controllerMap.append(contentsOf: repeatElement(UInt32.max, count: tables.controllers.count - controllerMap.count))
        }
        if sizeMap.count < tables.sizes.count {
            sizeMap.append(contentsOf: repeatElement(UInt32.max, count: tables.sizes.count - sizeMap.count))
        }
        if nodeMap.count < tables.nodes.count {
            nodeMap.append(contentsOf: repeatElement(UInt32.max, count: tables.nodes.count - nodeMap.count))
        }
        begin(runID: chunk.runID, node: tables.nodes.first ?? "")
        let ownNode = mapNode(0, tables)
        let codes = Self.recorderCodes
        chunk.log.forEach { event, sequence, time in
            encode(event, sequence: sequence, time: time, node: ownNode, codes: codes, chunk, tables)
        }
    }

    /// Appends one event of a recorder's chunk: a compact one straight from its table indices,
    /// an `.other` one as the full event it stands for.
    @inline(__always)
    private func encode(
        _ event: CompactTraceEvent, sequence: UInt64, time: UInt64, node: UInt32, codes: RecorderCodes, _ chunk: TraceChunk,
        _ tables: TraceTables.Snapshot
    ) {
        let code: UInt8
        switch event.code {
        case .other:
            append(chunk.log.event(event, sequence: sequence, time: time, tables: tables), runID: chunk.runID)
            return
        case .viewWillTransition: code = codes.viewWillTransition
        case .sizeForChild: code = codes.sizeForChild
        case .viewWillLayoutSubviews: code = codes.viewWillLayoutSubviews
        case .viewDidLayoutSubviews: code = codes.viewDidLayoutSubviews
        }
        // What the event names is defined before the event starts, in the order
        // `append(_:runID:)` defines it: controller, cause node, then the payload's.
        let controller = mapController(event.controller, tables)
        let causeNode = event.causeNode < 0 ? nil : mapNode(Int(event.causeNode), tables)
        var first: UInt32 = 0, second: UInt32 = 0, child: UInt32 = 0
        switch event.code {
        case .other: return
        case .viewWillTransition:
            first = mapSize(event.first, tables)
        case .sizeForChild:
            child = mapController(event.detail, tables)
            first = mapSize(event.first, tables)
            second = mapSize(event.second, tables)
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            if event.detail == CompactTraceEvent.frameWithOrigin { first = mapSize(event.first, tables) }
            if event.detail == CompactTraceEvent.frameAtZero || event.detail == CompactTraceEvent.frameWithOrigin {
                second = mapSize(event.second, tables)
            }
        }
        head(code, node: node, sequence: sequence, lamport: sequence &+ UInt64(event.lamportOffset),
             causeNode: causeNode, causeSequence: event.causeSequence,
             transition: event.transition, step: Int(event.step), time: time, controller: controller)
        switch event.code {
        case .other: return
        case .viewWillTransition: putVarint(first)
        case .sizeForChild:
            putVarint(child)
            putVarint(first)
            putVarint(second)
        case .viewWillLayoutSubviews, .viewDidLayoutSubviews: putFrame(detail: event.detail, origin: first, size: second)
        }
    }

    private typealias RecorderCodes = (viewWillTransition: UInt8, sizeForChild: UInt8, viewWillLayoutSubviews: UInt8, viewDidLayoutSubviews: UInt8)

    /// The codes of the recorder's own compact events (`CompactTraceEvent.Code`), as the schema
    /// gives them; their payloads above are what `CompactPayloadWriter` writes for the same
    /// messages (the golden tests compare the two paths).
    private static let recorderCodes: RecorderCodes = (
        viewWillTransition: TraceMessageSchema.code(of: .viewWillTransition(to: .zero)),
        sizeForChild: TraceMessageSchema.code(of: .sizeForChild(child: "", parent: .zero, answer: .zero)),
        viewWillLayoutSubviews: TraceMessageSchema.code(of: .layout(.viewWillLayoutSubviews)),
        viewDidLayoutSubviews: TraceMessageSchema.code(of: .layout(.viewDidLayoutSubviews)))

    /// A compact layout event's frame, as `CompactPayloadWriter.frame` writes it.
    @inline(__always)
    private func putFrame(detail: UInt32, origin: UInt32, size: UInt32) {
        switch detail {
        case CompactTraceEvent.frameAtZero:
            put(Format.FrameMarker.atZero.rawValue)
            putVarint(size)
        case CompactTraceEvent.frameWithOrigin:
            put(Format.FrameMarker.withOrigin.rawValue)
            putVarint(origin)
            putVarint(size)
        default:
            put(Format.FrameMarker.none.rawValue)
        }
    }

    @inline(__always)
    private func mapController(_ index: UInt32, _ tables: TraceTables.Snapshot) -> UInt32 {
        let mapped = controllerMap[Int(index)]
        if mapped != UInt32.max { return mapped }
        let defined = name(tables.controllers[Int(index)].name)
        controllerMap[Int(index)] = defined
        return defined
    }

    @inline(__always)
    private func mapNode(_ index: Int, _ tables: TraceTables.Snapshot) -> UInt32 {
        let mapped = nodeMap[index]
        if mapped != UInt32.max { return mapped }
        let defined = name(tables.nodes[index])
        nodeMap[index] = defined
        return defined
    }

    @inline(__always)
    private func mapSize(_ index: UInt32, _ tables: TraceTables.Snapshot) -> UInt32 {
        let mapped = sizeMap[Int(index)]
        if mapped != UInt32.max { return mapped }
        let defined = size(tables.sizes[Int(index)])
        sizeMap[Int(index)] = defined
        return defined
    }

    // MARK: Records

    /// Writes the file header once, and a RUN record when the run id changes.
    private func begin(runID: String, node: String) {
        startFile()
        guard run != runID else { return }
        let nodeIndex = name(node)
        var body: [UInt8] = []
        Self.text(runID, into: &body)
        Self.varint(nodeIndex, into: &body)
        record(.run, body)
        run = runID
        previous.node = nodeIndex
    }

    /// The file header, before anything else.
    private func startFile() {
        guard !wroteFileHeader else { return }
        append(bytes: Format.fileHeader)
        wroteFileHeader = true
    }

    /// The name table index of `text`, defined by a NAME record the first time.
    func name(_ text: String) -> UInt32 {
        if let index = names[text] { return index }
        let index = UInt32(truncatingIfNeeded: names.count)
        names[text] = index
        record(.name, Array(text.utf8))
        return index
    }

    /// The size table index of `size` (bit for bit), defined by a SIZE record the first time.
    func size(_ size: Size) -> UInt32 {
        let key = SizeKey(width: size.width.bitPattern, height: size.height.bitPattern)
        if let index = sizes[key] { return index }
        let index = UInt32(truncatingIfNeeded: sizes.count)
        sizes[key] = index
        var body: [UInt8] = []
        Self.double(size.width, into: &body)
        Self.double(size.height, into: &body)
        record(.size, body)
        return index
    }

    private func record(_ tag: Format.Record, _ body: [UInt8]) {
        reserve(11)
        put(tag.rawValue)
        putVarint(UInt64(body.count))
        append(bytes: body)
    }

    /// The event's tag, flags and the fields that differ from the event before.
    @inline(__always)
    private func head(
        _ code: UInt8, node: UInt32, sequence: UInt64, lamport: UInt64, causeNode: UInt32?, causeSequence: UInt64,
        transition: Int?, step: Int, time: UInt64, controller: UInt32
    ) {
        typealias Flag = Format.Flag
        let lamportOffset = lamport &- sequence
        var flags: UInt8 = 0
        if node != previous.node { flags |= Flag.node }
        if sequence != previous.sequence &+ 1 { flags |= Flag.sequence }
        if lamportOffset != previous.lamportOffset { flags |= Flag.lamport }
        if causeNode != nil { flags |= Flag.cause }
        if transition != previous.transition { flags |= Flag.transition }
        if step != previous.step { flags |= Flag.step }
        if time != previous.time { flags |= Flag.time }
        reserve(Self.eventBound)
        put(Format.eventTagBase + code)
        put(flags)
        if flags & Flag.node != 0 { putVarint(node) }
        if flags & Flag.sequence != 0 { putVarint(sequence) }
        if flags & Flag.lamport != 0 { putVarint(Format.zigzag(Int64(bitPattern: lamportOffset))) }
        if let causeNode {
            putVarint(causeNode)
            putVarint(Format.zigzag(Int64(bitPattern: causeSequence &- previous.causeSequence)))
            previous.causeSequence = causeSequence
        }
        if flags & Flag.transition != 0 {
            if let transition {
                put(1)
                putVarint(Format.zigzag(Int64(transition)))
            } else {
                put(0)
            }
        }
        if flags & Flag.step != 0 { putVarint(Format.zigzag(Int64(step))) }
        if flags & Flag.time != 0 { putVarint(Format.zigzag(Int64(bitPattern: time &- previous.time))) }
        putVarint(controller)
        previous.become(node: node, sequence: sequence, lamportOffset: lamportOffset, transition: transition, step: step, time: time)
        events += 1
    }

    // MARK: Numbers and text

    /// LEB128: seven bits a byte, least significant first, the high bit set on all but the last.
    @inline(__always)
    static func varint(_ value: UInt64, _ emit: (UInt8) -> Void) {
        var rest = value
        while rest >= 0x80 {
            emit(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        emit(UInt8(truncatingIfNeeded: rest))
    }

    @inline(__always)
    static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        varint(value) { bytes.append($0) }
    }

    @inline(__always)
    static func varint(_ value: UInt32, into bytes: inout [UInt8]) {
        varint(UInt64(value), into: &bytes)
    }

    static func signed(_ value: Int, into bytes: inout [UInt8]) {
        varint(CompactCaptureFormat.zigzag(Int64(value)), into: &bytes)
    }

    static func text(_ text: String, into bytes: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        varint(UInt64(utf8.count), into: &bytes)
        bytes.append(contentsOf: utf8)
    }

    static func double(_ value: Double, into bytes: inout [UInt8]) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
}
