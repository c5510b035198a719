/// Gives every storyboard controller a scenario id that is readable and stable for a file
/// (SPEC §11): its `storyboardIdentifier`, else its `customClass`, else its element name with a
/// number counted per element name from 1 in XML order; a name taken already gets a numeric
/// suffix (2, 3, …). Characters a scenario id may not hold become `_`.
struct ControllerNaming {
    /// Names a scenario reserves, and any already given.
    private var taken: Set<String> = ["window", "none"]
    private var elementCounts: [String: Int] = [:]

    /// The id for `controller`, taken from now on.
    mutating func name(_ controller: StoryboardElement) -> String {
        let base: String
        if let identifier = controller["storyboardIdentifier"].map(Self.sanitized), !identifier.isEmpty {
            base = identifier
        } else if let customClass = controller["customClass"].map(Self.sanitized), !customClass.isEmpty {
            base = customClass
        } else {
            let count = (elementCounts[controller.name] ?? 0) + 1
            elementCounts[controller.name] = count
            base = Self.sanitized(controller.name) + String(count)
        }
        return claim(base)
    }

    /// `base`, or `base` with the first free suffix from 2 (`-2` when `hyphenated`).
    mutating func claim(_ base: String, hyphenated: Bool = false) -> String {
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) {
            candidate = base + (hyphenated ? "-" : "") + String(suffix)
            suffix += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Characters a scenario id may not contain (white space, `( ) , : " # =`, control
    /// characters), and `~`, which names the fresh copies a segue makes (`DEST~N`), become `_`.
    static func sanitized(_ text: String) -> String {
        let forbidden: Set<Unicode.Scalar> = ["(", ")", ",", ":", "\"", "#", "=", "~"]
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value < 0x20 || forbidden.contains(scalar) {
                out.append("_")
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
