import Testing
import TrellisModel

@Suite("canonical numbers and sizes (SPEC §6)")
struct CanonicalNumberTests {
    @Test("an integer when whole, else up to three decimals with trailing zeros removed", arguments: [
        (1.0, "1"), (1.5, "1.5"), (0.333333, "0.333"), (2.9999, "3"), (-1.5, "-1.5"), (-0.25, "-0.25"),
        (0.0, "0"), (-0.0, "0"), (-0.0001, "0"), (0.1 + 0.2, "0.3"), (100.10, "100.1"), (0.05, "0.05"),
        (568.0, "568"), (1234567.0, "1234567"), (-2.0004, "-2"), (170.39999999999998, "170.4"), (0.6666, "0.667"),
    ])
    func format(_ value: Double, _ text: String) {
        #expect(CanonicalNumber.format(value) == text)
    }

    @Test("sizes print as WxH")
    func sizes() {
        #expect(Size(568, 320).description == "568x320")
        #expect(Size(170.4, 96).description == "170.4x96")
        #expect(Size(1.0 / 3.0, 2.5).description == "0.333x2.5")
    }
}

@Suite("trait collections (SPEC §2)")
struct TraitCollectionTests {
    static let phone = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2)

    @Test("traitsFrom: for each trait the last collection that specifies it wins")
    func lastSpecifiedWins() {
        let merged = TraitCollection(traitsFrom: [
            Self.phone,
            TraitCollection(verticalSizeClass: .compact, displayScale: 3),
            TraitCollection(displayScale: 1.5, userInterfaceStyle: .dark),
        ])
        #expect(merged == TraitCollection(
            horizontalSizeClass: .compact, verticalSizeClass: .compact, userInterfaceIdiom: .phone, displayScale: 1.5,
            userInterfaceStyle: .dark))
    }

    @Test("traitsFrom: unspecified never overrides (displayScale 0 is unspecified)")
    func unspecifiedNeverOverrides() {
        #expect(TraitCollection(traitsFrom: [Self.phone, .unspecified]) == Self.phone)
        #expect(TraitCollection(traitsFrom: [Self.phone, TraitCollection(displayScale: 0)]).displayScale == 2)
        #expect(TraitCollection(traitsFrom: [.unspecified, Self.phone]) == Self.phone)
        #expect(TraitCollection(traitsFrom: []) == .unspecified)
        #expect(TraitCollection(traitsFrom: [Self.phone]) == Self.phone)
    }

    @Test("traitsFrom: every axis merges independently")
    func everyAxis() {
        let base = TraitCollection(
            horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2,
            layoutDirection: .leftToRight, userInterfaceStyle: .light, preferredContentSizeCategory: .large)
        let overlays: [(TraitCollection, TraitCollection)] = [
            (TraitCollection(horizontalSizeClass: .compact), { var t = base; t.horizontalSizeClass = .compact; return t }()),
            (TraitCollection(verticalSizeClass: .compact), { var t = base; t.verticalSizeClass = .compact; return t }()),
            (TraitCollection(userInterfaceIdiom: .phone), { var t = base; t.userInterfaceIdiom = .phone; return t }()),
            (TraitCollection(displayScale: 3), { var t = base; t.displayScale = 3; return t }()),
            (TraitCollection(layoutDirection: .rightToLeft), { var t = base; t.layoutDirection = .rightToLeft; return t }()),
            (TraitCollection(userInterfaceStyle: .dark), { var t = base; t.userInterfaceStyle = .dark; return t }()),
            (TraitCollection(preferredContentSizeCategory: .extraSmall), { var t = base; t.preferredContentSizeCategory = .extraSmall; return t }()),
        ]
        for (overlay, expected) in overlays {
            #expect(TraitCollection(traitsFrom: [base, overlay]) == expected)
            #expect(base.overlaid(with: overlay) == expected)
        }
    }

    @Test("canonical text prints the four core axes in order, then style, direction and category when specified; a partial change prints only what it specifies")
    func descriptions() {
        #expect(Self.phone.description == "h=compact v=regular idiom=phone scale=2")
        #expect(TraitCollection(displayScale: 1.5, userInterfaceStyle: .dark).description == "h=unspecified v=unspecified idiom=unspecified scale=1.5 style=dark")
        #expect(TraitCollection(
            horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2,
            layoutDirection: .rightToLeft, userInterfaceStyle: .light, preferredContentSizeCategory: .accessibilityLarge).description
            == "h=regular v=regular idiom=pad scale=2 style=light direction=rightToLeft category=accessibilityLarge")
        #expect(TraitCollection(preferredContentSizeCategory: .small).description == "h=unspecified v=unspecified idiom=unspecified scale=0 category=small")
        #expect(TraitCollection(verticalSizeClass: .compact).specifiedDescription == "v=compact")
        #expect(TraitCollection.unspecified.specifiedDescription == "none")
    }
}
