/// How each trait enum travels: one octet, the index of the case in the enum's declaration order
/// (`SizeClass`: 0 unspecified, 1 compact, 2 regular).
enum WireTraitOctets {
    /// The octet of `value`: its index among `allCases`.
    static func octet<Trait: CaseIterable & Equatable>(_ value: Trait) -> UInt8 {
        let index = Array(Trait.allCases).firstIndex(of: value) ?? 0
        return UInt8(truncatingIfNeeded: index)
    }

    /// The case at index `octet`, or nil when there is none.
    static func value<Trait: CaseIterable>(_ octet: UInt8, as type: Trait.Type) -> Trait? {
        let cases = Array(Trait.allCases)
        return Int(octet) < cases.count ? cases[Int(octet)] : nil
    }

    /// How many cases `type` has.
    static func caseCount<Trait: CaseIterable>(_ type: Trait.Type) -> Int {
        Trait.allCases.count
    }
}
