@testable import TrellisScenario
import Testing

/// YAML 1.2.2 §10.3.2, the core schema's tag resolution of plain scalars.
struct YAMLCoreSchemaTests {
    @Test(arguments: [
        ("", YAMLCoreSchema.Resolved.null), ("~", .null), ("null", .null), ("Null", .null), ("NULL", .null),
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("false", .bool(false)), ("FALSE", .bool(false)),
        ("yes", .string), ("no", .string), ("NO", .string), ("on", .string), ("off", .string), ("y", .string), ("nULL", .string),
        ("0", .number(0)), ("-12", .number(-12)), ("+7", .number(7)), ("0o17", .number(15)), ("0x1F", .number(31)), ("0xff", .number(255)),
        ("1.5", .number(1.5)), (".5", .number(0.5)), ("1.", .number(1)), ("-2e3", .number(-2000)), ("1E-2", .number(0.01)),
        ("0o18", .string), ("0x", .string), ("0b101", .string), ("1_000", .string), ("12:30", .string), ("1e", .string),
        (".", .string), ("+", .string), ("-.inf", .number(nil)), (".nan", .number(nil)), ("1e400", .number(nil)),
        ("0x1FFFFFFFFFFFFFFFF", .number(nil)), ("2001-12-14", .string),
    ])
    func resolves(_ text: String, _ expected: YAMLCoreSchema.Resolved) {
        #expect(YAMLCoreSchema.resolve(text) == expected, "\(text)")
    }
}
