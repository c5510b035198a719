import TrellisJSON
import TrellisModel
import TrellisTrace

/// Writes capture lines (`Protocols/trace-format.md`, version 1.1) of compact events straight
/// into bytes: a header line when the run id changes, then event lines. It is the one writer of
/// event lines (`TraceCaptureFormat.eventLine` and `line` use it too); tests compare its bytes
/// with an independent `String` writer for every message, and with golden files. Made without
/// a `String` or an allocation per event:
/// - what repeats is made once and copied: each controller's quoted name and each size's
///   numbers once per recorder (its table position), the time's closing text once per time run
///   (the clock changes every few milliseconds), the fields after the controller of each
///   frequent form once per step and transition, the cause once per cause
///   (`CaptureLineSlots`);
/// - numbers are written two digits at a time, strings escaped byte by byte
///   (`JSONTextBytes.swift`), the rare events outside the compact form's payloads through
///   `CaptureLinePayloadBytesWriter`.
///
/// Room for a whole frequent line is made once per line (`lineBound`), then its pieces are
/// copied unchecked into the buffer through a cursor (`CaptureLineCursor`), its end stored
/// once. As with the buffer's own fields, only the file writer's queue uses an encoder, one
/// call at a time: run-time exclusivity checks of the caches, read for every event, would
/// prove nothing.
final class CaptureLineEncoder: CaptureByteBuffer {
    /// `"name"` of each interned controller, one after the other in `quotedNames`, made when
    /// first needed: controller `i`'s bytes are `quotedNames[quotedRanges[i]]`. Like
    /// `sizeTexts`, it ends with `wordPadding` bytes after its last text (`putWords`).
    @exclusivity(unchecked) private var quotedNames = CaptureLineEncoder.padding
    @exclusivity(unchecked) private var quotedRanges: [Range<Int>] = []
    /// How many of `quotedRanges` are not quoted yet: while none is and no controller was
    /// interned, a chunk's events need not be looked through for names.
    @exclusivity(unchecked) private var unquoted = 0
    @exclusivity(unchecked) private var longestName = 0
    /// `width,height` of each interned size, one after the other in `sizeTexts`: size `i`'s
    /// bytes are `sizeTexts[sizeRanges[i]]`.
    @exclusivity(unchecked) private var sizeTexts = CaptureLineEncoder.padding
    @exclusivity(unchecked) private var sizeRanges: [Range<Int>] = []
    @exclusivity(unchecked) private var longestSize = 0
    /// `"node#` of each node, for causes, one after the other in `causeTexts` (padded as
    /// `quotedNames` is): node `i`'s bytes are `causeTexts[causeRanges[i]]`.
    @exclusivity(unchecked) private var causeTexts = CaptureLineEncoder.padding
    @exclusivity(unchecked) private var causeRanges: [Range<Int>] = []
    @exclusivity(unchecked) private var longestCausePrefix = 0
    /// `{"seq":`, or `{"node":…,"seq":` for a recorder whose node is not the header's.
    @exclusivity(unchecked) private var linePrefix: [UInt8] = []
    @exclusivity(unchecked) private var prefixNode: String?
    /// The runs of a frequent line that repeat: `]},"time":…}` and a newline (the end of every
    /// line of the time `tailTime`, from its first, second or third byte on), the fields after
    /// the controller for each message form (those of the step and transition `middleKey`),
    /// the last cause with the key after it, and `linePrefix`.
    private let slots = CaptureLineSlots()
    @exclusivity(unchecked) private var tailTime: UInt64?
    /// The step and transition the middles were made for (`middleKey(_:)`); 0 in
    /// `middleTransitions` before the first.
    @exclusivity(unchecked) private var middleKey: UInt64 = 0
    @exclusivity(unchecked) private var middleTransitions: UInt8 = 0
    /// The cause the cause slot holds (`noCauseKept` for none): its node and its sequence.
    @exclusivity(unchecked) private var slotCauseNode = CaptureLineEncoder.noCauseKept
    @exclusivity(unchecked) private var slotCauseSequence: UInt64 = 0
    /// Whether `linePrefix` fits its slot.
    @exclusivity(unchecked) private var prefixInSlot = false
    /// The last header line written.
    @exclusivity(unchecked) private var header: TraceCaptureFormat.Header?
    /// The recorder whose tables the caches above follow (its chunk pool stands for it). Weak,
    /// not an `ObjectIdentifier`: a recorder freed and another made after it may get the same
    /// address, and its tables must not be read through the first one's caches.
    @exclusivity(unchecked) private weak var tablesOwner: TraceChunkPool?
    /// The most bytes a frequent line can take: the prefix, a cause prefix, two names, three
    /// sizes' texts, and less than 1024 bytes of slots' texts (the middle, the cause, the tail:
    /// at most `CaptureLineSlots.textRoom` each), other numbers (at most 20 bytes each), keys
    /// and punctuation; and what `putWords` writes past the last piece.
    @exclusivity(unchecked) private var lineBound = 0
    /// The text of the last line's sequence number and Lamport clock, counted up line by line.
    @exclusivity(unchecked) private var sequenceText = DecimalTextCounter()
    @exclusivity(unchecked) private var lamportText = DecimalTextCounter()

    /// The bytes after the last text of `quotedNames` and `sizeTexts`, for `putWords`.
    private static let padding = [UInt8](repeating: 0, count: wordPadding)

    /// Appends one line and a newline.
    func append(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            reserve(bytes.count + 1)
            put(UnsafeRawBufferPointer(bytes))
        }
        put(0x0A)
    }

    /// Appends the event line of a full event, after a header line naming `headerNode`: what
    /// `TraceCaptureFormat.eventLine` writes and a newline, for the files written whole
    /// (`CaptureFileEncoding`: `run --trace`, `convert`, `merge`).
    func append(_ event: TraceEvent, headerNode: String) {
        reserve(16)
        put(0x7B)
        if event.id.node != headerNode {
            put("\"node\":")
            putQuoted(event.id.node)
            reserve(1)
            put(0x2C)
        }
        reserve(32)
        put("\"seq\":")
        putDecimal(event.id.sequence)
        reserve(16)
        put(",\"lamport\":")
        putDecimal(event.lamport)
        reserve(16)
        put(",\"cause\":")
        if let cause = event.cause {
            // `"node#sequence"`: the node's text escaped, then its closing quote moved after the number.
            putQuoted(cause.node)
            count -= 1
            reserve(1)
            put(0x23)
            putDecimal(cause.sequence)
            reserve(1)
            put(0x22)
        } else {
            reserve(4)
            put("null")
        }
        reserve(16)
        put(",\"controller\":")
        putQuoted(event.controller.name)
        putMessageFields(of: event)
        reserve(16)
        put(",\"time\":")
        putDecimal(event.time)
        reserve(2)
        put("}\n")
    }

    func encode(_ chunk: TraceChunk) {
        encode(chunk, handOverPast: .max) { _ in }
    }

    /// Encodes `chunk`, calling `handOver` whenever the bytes written pass `limit` (a file
    /// writer trades the storage for fresh storage there: a chunk's lines, about 3 MB, need not
    /// be held whole, and the blocks going round stay the size of a hand-over).
    func encode(_ chunk: TraceChunk, handOverPast limit: Int, _ handOver: (CaptureByteBuffer) -> Void) {
        follow(chunk)
        quotedNames.withUnsafeBytes { names in
            sizeTexts.withUnsafeBytes { sizes in
                causeTexts.withUnsafeBytes { causes in
                    let texts = Texts(names: names, sizes: sizes, causes: causes)
                    chunk.log.forEach { event, sequence, time in
                        if time != tailTime { makeTimeTail(time) }
                        encode(event, sequence: sequence, chunk, texts)
                        if count >= limit { handOver(self) }
                    }
                }
            }
        }
    }

    /// The caches of quoted names, sizes' texts and causes' node texts while a chunk is encoded
    /// (they change only in `follow`, between chunks).
    private struct Texts {
        var names: UnsafeRawBufferPointer
        var sizes: UnsafeRawBufferPointer
        var causes: UnsafeRawBufferPointer
    }

    /// Brings the caches up to `chunk`: its recorder, run, node, nodes, names and sizes.
    private func follow(_ chunk: TraceChunk) {
        // The caches are by table position: chunks of another recorder (a writer shared by two)
        // number their names and sizes differently, so its first chunk starts them afresh.
        // A chunk without a pool (made outside a recorder) is of no recorder known.
        if chunk.buffers == nil || chunk.buffers !== tablesOwner {
            tablesOwner = chunk.buffers
            quotedNames = Self.padding
            quotedRanges.removeAll()
            unquoted = 0
            longestName = 0
            sizeTexts = Self.padding
            sizeRanges.removeAll()
            longestSize = 0
            causeTexts = Self.padding
            causeRanges.removeAll()
            longestCausePrefix = 0
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
            prefixInSlot = linePrefix.withUnsafeBytes { slots.store($0, in: CaptureLineSlots.prefix) }
        }
        // The cause slot names a node by its text, from the tables of the chunk before.
        slotCauseNode = Self.noCauseKept
        while causeRanges.count < chunk.tables.nodes.count {
            let quoted = JSONWriter.quoted(chunk.tables.nodes[causeRanges.count])
            let text = Self.appendPadded(quoted.utf8.dropLast() + [0x23], to: &causeTexts)
            causeRanges.append(text)
            longestCausePrefix = max(longestCausePrefix, text.count)
        }
        followSizes(chunk.tables.sizes)
        followNames(chunk)
        lineBound = linePrefix.count + longestCausePrefix + 2 * longestName + 3 * longestSize + 1024 + Self.wordPadding
    }

    /// Makes the text of the sizes interned since the last chunk.
    private func followSizes(_ sizes: [Size]) {
        while sizeRanges.count < sizes.count {
            let size = sizes[sizeRanges.count]
            let start = count
            putCanonical(size.width)
            reserve(1)
            put(0x2C)
            putCanonical(size.height)
            // Written at the end of the buffer to reuse its number writers, then moved.
            let text = Self.appendPadded(UnsafeRawBufferPointer(start: base + start, count: count - start), to: &sizeTexts)
            count = start
            sizeRanges.append(text)
            longestSize = max(longestSize, text.count)
        }
    }

    /// Quotes the names this chunk's events need that are not quoted yet.
    private func followNames(_ chunk: TraceChunk) {
        if quotedRanges.count < chunk.tables.controllers.count {
            unquoted += chunk.tables.controllers.count - quotedRanges.count
            quotedRanges.append(contentsOf: repeatElement(0..<0, count: chunk.tables.controllers.count - quotedRanges.count))
        }
        guard unquoted > 0 else { return }
        for events in chunk.log.chunks {
            for event in events {
                quote(event.controller, chunk)
                if case .sizeForChild = event.code { quote(event.detail, chunk) }
            }
        }
    }

    private func quote(_ index: UInt32, _ chunk: TraceChunk) {
        let position = Int(index)
        guard quotedRanges[position].isEmpty else { return }
        let text = Self.appendPadded(JSONWriter.quoted(chunk.tables.controllers[position].name).utf8, to: &quotedNames)
        quotedRanges[position] = text
        unquoted -= 1
        longestName = max(longestName, text.count)
    }

    /// Appends `text` to a cache that ends with `wordPadding` bytes, before them; where it went.
    private static func appendPadded(_ text: some Collection<UInt8>, to cache: inout [UInt8]) -> Range<Int> {
        let start = cache.count - wordPadding
        cache.replaceSubrange(start..., with: text)
        let end = cache.count
        cache.append(contentsOf: padding)
        return start..<end
    }

    /// Copies a cache's text (`quotedNames`, `sizeTexts`, `causeTexts`) with `putWords`.
    @inline(__always)
    private func putText(_ cache: UnsafeRawBufferPointer, _ range: Range<Int>, _ out: inout CaptureLineCursor) {
        if let start = cache.baseAddress { out.putWords(start + range.lowerBound, range.count) }
    }

    /// Makes the tail slot the end of a line of `time`: `]},"time":…}` and a newline.
    private func makeTimeTail(_ time: UInt64) {
        let start = count
        reserve(10)
        put("]},\"time\":")
        putDecimal(time)
        reserve(2)
        put("}\n")
        slots.store(UnsafeRawBufferPointer(start: base + start, count: count - start), in: CaptureLineSlots.tail)
        count = start
        tailTime = time
    }

    /// The tail slot from its byte `offset` on: 0 after a bracket's last number, 1 after an open
    /// payload object, 2 after a closed one.
    @inline(__always)
    private func putTail(from offset: Int, _ out: inout CaptureLineCursor) {
        out.putWords(slots.text(CaptureLineSlots.tail) + offset, slots.count(CaptureLineSlots.tail) &- offset)
    }

    @inline(__always)
    private func putMiddle(_ form: Int, _ out: inout CaptureLineCursor) {
        out.putWords(slots.text(CaptureLineSlots.middles &+ form), slots.count(CaptureLineSlots.middles &+ form))
    }

    /// The middles' key: an event's step and transition in one word, and 1 without a transition
    /// or 2 with one.
    @inline(__always)
    private static func middleKey(_ event: CompactTraceEvent) -> (UInt64, UInt8) {
        let transition = event.hasTransition ? UInt32(bitPattern: event.transitionID) : 0
        return (UInt64(UInt32(bitPattern: event.step)) << 32 | UInt64(transition), event.hasTransition ? 2 : 1)
    }

    /// The fields from `,"transition":` to the payload's first value of each frequent form, the
    /// middle slots' texts: `viewWillTransition`, `sizeForChild`, then each layout callback
    /// without a frame, with one at (0,0) (its origin written) and with one at an origin.
    private static let forms: [StaticString] = [
        ",\"kind\":\"delivery\",\"message\":\"viewWillTransition\",\"payload\":{\"to\":[",
        ",\"kind\":\"query\",\"message\":\"sizeForChild\",\"payload\":{\"child\":",
        ",\"kind\":\"layout\",\"message\":\"viewWillLayoutSubviews\",\"payload\":{",
        ",\"kind\":\"layout\",\"message\":\"viewWillLayoutSubviews\",\"payload\":{\"frame\":[0,0,",
        ",\"kind\":\"layout\",\"message\":\"viewWillLayoutSubviews\",\"payload\":{\"frame\":[",
        ",\"kind\":\"layout\",\"message\":\"viewDidLayoutSubviews\",\"payload\":{",
        ",\"kind\":\"layout\",\"message\":\"viewDidLayoutSubviews\",\"payload\":{\"frame\":[0,0,",
        ",\"kind\":\"layout\",\"message\":\"viewDidLayoutSubviews\",\"payload\":{\"frame\":[",
    ]

    /// Makes the middle slots for the transition and step of `event` (written at the end of the
    /// buffer to reuse its number writers, then moved; before the line's first byte).
    @inline(never)
    private func makeMiddles(_ event: CompactTraceEvent) {
        let start = count
        reserve(64)
        put(",\"transition\":")
        if let transition = event.transition { putInteger(Int64(transition)) } else { put("null") }
        reserve(16)
        put(",\"step\":")
        putInteger(Int64(event.step))
        let fieldsEnd = count
        for (form, text) in Self.forms.enumerated() {
            count = fieldsEnd
            reserve(text.utf8CodeUnitCount)
            put(text)
            // At most 14 + 11 + 8 + 11 bytes of fields and 76 of a form: always fits.
            slots.store(UnsafeRawBufferPointer(start: base + start, count: count - start), in: CaptureLineSlots.middles + form)
        }
        count = start
        (middleKey, middleTransitions) = Self.middleKey(event)
    }

    private func encode(_ event: CompactTraceEvent, sequence: UInt64, _ chunk: TraceChunk, _ texts: Texts) {
        guard event.code != .other else {
            other(event, sequence: sequence, chunk, texts)
            return
        }
        let key = Self.middleKey(event)
        if key.0 != middleKey || key.1 != middleTransitions { makeMiddles(event) }
        reserve(lineBound)
        var out = CaptureLineCursor(at: self)
        head(event, sequence, texts, &out)
        switch event.code {
        case .other:
            // Written by `other` (the guard above).
            return
        case .viewWillTransition:
            putMiddle(0, &out)
            putText(texts.sizes, sizeRanges[Int(event.first)], &out)
            putTail(from: 0, &out)
        case .sizeForChild:
            putMiddle(1, &out)
            putText(texts.names, quotedRanges[Int(event.detail)], &out)
            out.put(",\"parent\":[")
            putText(texts.sizes, sizeRanges[Int(event.first)], &out)
            out.put("],\"answer\":[")
            putText(texts.sizes, sizeRanges[Int(event.second)], &out)
            putTail(from: 0, &out)
        case .viewWillLayoutSubviews:
            layout(event, firstForm: 2, texts.sizes, &out)
        case .viewDidLayoutSubviews:
            layout(event, firstForm: 5, texts.sizes, &out)
        }
        count(upTo: out)
    }

    /// Everything from the line's start to the controller's name.
    @inline(__always)
    private func head(_ event: CompactTraceEvent, _ sequence: UInt64, _ texts: Texts, _ out: inout CaptureLineCursor) {
        if prefixInSlot {
            out.putWords(slots.text(CaptureLineSlots.prefix), slots.count(CaptureLineSlots.prefix))
        } else {
            linePrefix.withUnsafeBytes { out.put($0) }
        }
        sequenceText.put(sequence, at: &out)
        out.put(",\"lamport\":")
        if event.lamportOffset == 0 {
            sequenceText.putAgain(at: &out)
        } else {
            lamportText.put(sequence &+ UInt64(event.lamportOffset), at: &out)
        }
        if event.causeNode == slotCauseNode && event.causeSequence == slotCauseSequence {
            out.putWords(slots.text(CaptureLineSlots.cause), slots.count(CaptureLineSlots.cause))
        } else {
            cause(event, texts.causes, &out)
        }
        putText(texts.names, quotedRanges[Int(event.controller)], &out)
    }

    /// `,"cause":` and the cause, `"node#sequence"` or `null`, then `,"controller":`; kept in
    /// the cause slot for the lines after with the same cause.
    private func cause(_ event: CompactTraceEvent, _ causes: UnsafeRawBufferPointer, _ out: inout CaptureLineCursor) {
        let start = out.position
        if event.causeNode >= 0 {
            out.put(",\"cause\":")
            putText(causes, causeRanges[Int(event.causeNode)], &out)
            out.putDecimal(event.causeSequence)
            out.put("\",\"controller\":")
        } else {
            out.put(",\"cause\":null,\"controller\":")
        }
        let kept = slots.storeWords(start, out.position - start, in: CaptureLineSlots.cause)
        slotCauseNode = kept ? event.causeNode : Self.noCauseKept
        slotCauseSequence = event.causeSequence
    }

    /// `slotCauseNode` while the cause slot holds nothing (-1 is an event's "no cause").
    private static let noCauseKept = Int16.min

    /// A layout event's payload from its first value and the line's tail: `"frame":[x,y,width,height]`
    /// if it carries one. `firstForm`: the middle of its callback without a frame.
    @inline(__always)
    private func layout(_ event: CompactTraceEvent, firstForm: Int, _ sizes: UnsafeRawBufferPointer, _ out: inout CaptureLineCursor) {
        switch event.detail {
        case CompactTraceEvent.frameAtZero:
            putMiddle(firstForm &+ 1, &out)
        case CompactTraceEvent.frameWithOrigin:
            putMiddle(firstForm &+ 2, &out)
            putText(sizes, sizeRanges[Int(event.first)], &out)
            out.put(0x2C)
        default:
            putMiddle(firstForm, &out)
            putTail(from: 1, &out)
            return
        }
        putText(sizes, sizeRanges[Int(event.second)], &out)
        putTail(from: 0, &out)
    }

    /// An event outside the compact form's payloads: its message and clocks from the log's side
    /// table, its payload through the schema.
    private func other(_ compact: CompactTraceEvent, sequence: UInt64, _ chunk: TraceChunk, _ texts: Texts) {
        let event = chunk.log.event(compact, sequence: sequence, time: tailTime ?? 0, tables: chunk.tables)
        reserve(lineBound)
        put(linePrefix)
        putDecimal(sequence)
        put(",\"lamport\":")
        putDecimal(event.lamport)
        var out = CaptureLineCursor(at: self)
        cause(compact, texts.causes, &out)
        putText(texts.names, quotedRanges[Int(compact.controller)], &out)
        count(upTo: out)
        putMessageFields(of: event)
        // The payload object is closed: the tail without its bracket and brace.
        reserve(CaptureLineSlots.slotSize)
        out = CaptureLineCursor(at: self)
        putTail(from: 2, &out)
        count(upTo: out)
    }

    /// `,"transition":…,"step":…,"kind":…,"message":…,"payload":{…}`: the fields of a line
    /// after its controller, for a full event and for a compact one outside the frequent forms.
    private func putMessageFields(of event: TraceEvent) {
        reserve(32)
        put(",\"transition\":")
        if let transition = event.transition { putInteger(Int64(transition)) } else { reserve(4); put("null") }
        reserve(16)
        put(",\"step\":")
        putInteger(Int64(event.step))
        reserve(16)
        put(",\"kind\":")
        putQuoted(event.message.kind)
        reserve(16)
        put(",\"message\":")
        // Quoted like every other string: a completion's name is made of its action.
        putQuoted(event.message.name)
        reserve(16)
        put(",\"payload\":")
        CaptureLinePayloadBytesWriter.append(event.message, to: self)
    }
}
