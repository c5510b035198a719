import TrellisModel
import TrellisTrace

/// A trace as a sequence diagram (Mermaid or PlantUML): participants in order of first
/// appearance, an arrow from the cause's controller to the receiver for every event with a
/// cause, labelled with its canonical text; notes for suppressions, warnings, errors and
/// faults; a divider per step. Optionally limited to a step range and to a set of controllers —
/// an arrow is kept when both its ends are in the set.
enum SequenceDiagram {
    /// The participant that stands for the window (steps start there).
    static let window = ControllerID("window")

    enum Item {
        case divider(String)
        case arrow(from: ControllerID, to: ControllerID, label: String)
        case note(on: ControllerID, text: String)
    }

    static func items(_ tree: CausalTree, steps: ClosedRange<Int>?, controllers: Set<ControllerID>?) -> (participants: [ControllerID], items: [Item]) {
        var participants: [ControllerID] = []
        var joined = Set<ControllerID>()
        var items: [Item] = []
        func join(_ id: ControllerID) {
            if joined.insert(id).inserted { participants.append(id) }
        }
        for event in tree.events {
            if let steps, !steps.contains(event.step) { continue }
            if case .step = event.message {
                items.append(.divider(event.canonicalLine))
                continue
            }
            if let controllers, !controllers.contains(event.controller) { continue }
            switch event.message {
            case .suppressed, .warning, .error, .fault:
                join(event.controller)
                items.append(.note(on: event.controller, text: event.message.canonicalText))
                continue
            default: break
            }
            // The sender is the controller whose event caused this one; a step's direct effects
            // come from the window.
            var sender = event.controller
            if let cause = event.cause, let origin = tree.position(of: cause) {
                let causeEvent = tree.events[origin]
                if case .step = causeEvent.message { sender = window } else { sender = causeEvent.controller }
            }
            if let controllers, !controllers.contains(sender), sender != window { continue }
            join(sender)
            join(event.controller)
            items.append(.arrow(from: sender, to: event.controller, label: event.message.canonicalText))
        }
        return (participants, items)
    }
}

/// Mermaid `sequenceDiagram` text of a trace.
public enum MermaidExport {
    public static func sequenceDiagram(_ events: [TraceEvent], steps: ClosedRange<Int>? = nil, controllers: Set<ControllerID>? = nil) -> String {
        sequenceDiagram(CausalTree(events), steps: steps, controllers: controllers)
    }

    /// The diagram of a trace already read as a tree.
    public static func sequenceDiagram(_ tree: CausalTree, steps: ClosedRange<Int>? = nil, controllers: Set<ControllerID>? = nil) -> String {
        let (participants, items) = SequenceDiagram.items(tree, steps: steps, controllers: controllers)
        var lines = ["sequenceDiagram"]
        for participant in participants {
            lines.append("    participant \(alias(participant)) as \(escape(participant.name))")
        }
        for item in items {
            switch item {
            case let .divider(text):
                // A step header spans every participant; with none, it is a comment.
                if let first = participants.first, let last = participants.last {
                    let span = first == last ? alias(first) : alias(first) + "," + alias(last)
                    lines.append("    Note over \(span): \(escape(text))")
                } else {
                    lines.append("    %% \(text)")
                }
            case let .arrow(from, to, label):
                lines.append("    \(alias(from))->>\(alias(to)): \(escape(label))")
            case let .note(on, text):
                lines.append("    Note right of \(alias(on)): \(escape(text))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid participant names may not hold `:` or spaces: an alias of letters and digits.
    static func alias(_ id: ControllerID) -> String {
        "p_" + id.name.unicodeScalars.map { scalar in
            (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) && scalar.isASCII ? String(scalar) : "_\(scalar.value)_"
        }.joined()
    }

    /// Mermaid treats `;` and `#` specially in messages: write them as entity codes.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "#", with: "#35;").replacingOccurrences(of: ";", with: "#59;")
    }
}

/// PlantUML `@startuml` sequence diagram text of a trace.
public enum PlantUMLExport {
    public static func sequenceDiagram(_ events: [TraceEvent], steps: ClosedRange<Int>? = nil, controllers: Set<ControllerID>? = nil) -> String {
        sequenceDiagram(CausalTree(events), steps: steps, controllers: controllers)
    }

    /// The diagram of a trace already read as a tree.
    public static func sequenceDiagram(_ tree: CausalTree, steps: ClosedRange<Int>? = nil, controllers: Set<ControllerID>? = nil) -> String {
        let (participants, items) = SequenceDiagram.items(tree, steps: steps, controllers: controllers)
        var lines = ["@startuml"]
        for participant in participants {
            lines.append("participant \"\(participant.name)\" as \(MermaidExport.alias(participant))")
        }
        for item in items {
            switch item {
            case let .divider(text):
                lines.append("== \(text.replacingOccurrences(of: "== ", with: "")) ==")
            case let .arrow(from, to, label):
                lines.append("\(MermaidExport.alias(from)) -> \(MermaidExport.alias(to)) : \(label)")
            case let .note(on, text):
                lines.append("note right of \(MermaidExport.alias(on)) : \(text)")
            }
        }
        lines.append("@enduml")
        return lines.joined(separator: "\n") + "\n"
    }
}
