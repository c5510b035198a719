import Foundation
import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// The one schema both capture codecs follow (`TraceMessageSchema`): its codes and names are
/// the ones the format documents give, each once.
@Suite("Trace message schema: one list for both capture forms")
struct TraceMessageSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("every compact code from 0 has a message, and every message name is one prototype's")
    func denseAndUnique() {
        let byCode = TraceMessageSchema.prototypesByCode
        #expect(byCode.count == 33)
        #expect(byCode.allSatisfy { !$0.isEmpty }, "codes without a message: \(byCode.indices.filter { byCode[$0].isEmpty })")
        let names = TraceMessageSchema.prototypes.map(\.name)
        #expect(Set(names).count == names.count, "names given twice: \(names.filter { name in names.filter { $0 == name }.count > 1 })")
        #expect(TraceMessageSchema.prototypesByName.count == names.count)
        for prototype in TraceMessageSchema.prototypes {
            #expect(TraceMessageSchema.prototypesByName[prototype.name] == prototype)
        }
    }

    @Test("the codes and the names of each are TCF/1 §3.2's table, variants in their octet's order")
    func compactTable() throws {
        let document = try String(contentsOf: Self.root.appendingPathComponent("Protocols/compact-trace-format.md"), encoding: .utf8)
        var documented: [Int: [String]] = [:]
        for line in document.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let codes = cells[0].split(separator: "–").compactMap { Int($0) }
            guard cells.count >= 3, !codes.isEmpty else { continue }
            // The names are the message cell's quoted words; for the callbacks, the payload's octets'.
            var names = Self.quoted(cells[1])
            if names.isEmpty { names = Self.quoted(String(cells[2].split(separator: ";")[0])) }
            if codes.count == 2 {
                #expect(names.count == codes[1] - codes[0] + 1, "\(line)")
                for (offset, name) in names.enumerated() { documented[codes[0] + offset] = [name] }
            } else {
                documented[codes[0]] = names
            }
        }
        let schema = TraceMessageSchema.prototypesByCode.map { $0.map(\.name) }
        #expect(documented.count == schema.count)
        for (code, names) in schema.enumerated() {
            #expect(documented[code] == names, "code \(code)")
        }
    }

    static func quoted(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("the names an expect line may use are every message's but the step header's")
    func eventNames() {
        #expect(TraceMessage.eventNames == [
            "viewWillTransition", "sizeForChild", "frameOfPresentedViewInContainerView", "willTransition", "traitCollectionDidChange",
            "preferredContentSizeDidChange", "systemLayoutFittingSizeDidChange", "suppressed",
            "alongsideTransition", "transitionCompletion", "warning", "error", "fault", "note",
            "present", "dismiss", "adaptivePresentationStyle", "willPresentWithAdaptiveStyle",
            "presentCompletion", "dismissCompletion", "show", "showDetail", "push", "pop", "replaceDetail", "select",
            "viewWillLayoutSubviews", "viewDidLayoutSubviews", "containerViewWillLayoutSubviews", "containerViewDidLayoutSubviews",
            "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear",
            "presentationTransitionWillBegin", "presentationTransitionDidEnd", "dismissalTransitionWillBegin", "dismissalTransitionDidEnd",
            "action", "request",
        ])
    }

    @Test("a JSON Lines name whose payload names another message is refused (a completion's action)")
    func nameMatchesPayload() {
        let line = #"{"v":"1.0","run":"r","node":"main","seq":1,"lamport":1,"cause":null,"controller":"V","transition":null,"step":0,"kind":"structure","message":"presentCompletion","payload":{"action":"dismiss","target":"P"},"time":0}"#
        #expect(throws: TraceCaptureFormat.ReadError("field \"message\": \"presentCompletion\" does not match its payload, which is that of \"dismissCompletion\"")) {
            try TraceCaptureFormat.event(fromLine: line)
        }
    }
}
