/// One figure of `trellis bench`, printed in the form scripts read (issue #7):
/// `bench <name>: ours=<value> anchor=<value> ratio=<ours/anchor> target=<target> <pass|miss>`.
package struct BenchLine: Sendable, CustomStringConvertible {
    package enum Target: Sendable {
        /// The ratio must be at least this.
        case atLeast(Double)
        /// The ratio must be at most this.
        case atMost(Double)
        /// The figure itself (not a ratio) must be at most this.
        case valueAtMost(Double)
    }

    package var name: String
    package var ours: Double
    package var anchor: Double
    package var unit: String
    package var target: Target
    /// Context printed after the line (sizes, counts), not read by scripts.
    package var note: String

    package init(name: String, ours: Double, anchor: Double, unit: String, target: Target, note: String = "") {
        self.name = name
        self.ours = ours
        self.anchor = anchor
        self.unit = unit
        self.target = target
        self.note = note
    }

    package var ratio: Double { anchor == 0 ? 0 : ours / anchor }

    package var passes: Bool {
        switch target {
        case let .atLeast(bound): return ratio >= bound
        case let .atMost(bound): return ratio <= bound
        case let .valueAtMost(bound): return ours <= bound
        }
    }

    /// A figure as the lines print it: whole above 100, else three decimals.
    package static func format(_ value: Double) -> String {
        if value >= 100 { return String(Int(value.rounded())) }
        let text = String(format: "%.3f", value)
        return text
    }

    package var description: String {
        let targetText: String
        switch target {
        case let .atLeast(bound): targetText = "ratio>=\(Self.format(bound))"
        case let .atMost(bound): targetText = "ratio<=\(Self.format(bound))"
        case let .valueAtMost(bound): targetText = "ours<=\(Self.format(bound))"
        }
        var line = "bench \(name): ours=\(Self.format(ours)) anchor=\(Self.format(anchor)) ratio=\(Self.format(ratio)) target=\(targetText) \(passes ? "pass" : "miss")"
        if !note.isEmpty || !unit.isEmpty { line += "   # \(unit)\(note.isEmpty ? "" : "; " + note)" }
        return line
    }
}

import Foundation
