import Testing
import TrellisJSON

@Suite("JSON parser")
struct JSONParserTests {
    func syntaxError(_ text: String) -> JSONParser.SyntaxError? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("values keep the line and column where they start")
    func positions() throws {
        let root = try JSONParser.parse("""
            {
              "a": [1,
                    true],
              "b": "x"
            }
            """)
        #expect(root.line == 1 && root.column == 1)
        let a = try #require(root["a"])
        #expect(a.line == 2 && a.column == 8)
        guard case let .array(items) = a.value else {
            Issue.record("\"a\" is not an array")
            return
        }
        #expect(items.map(\.value) == [.number(1), .bool(true)])
        #expect(items[1].line == 3 && items[1].column == 9)
        let b = try #require(root["b"])
        #expect(b.value == .string("x"))
        #expect(b.line == 4 && b.column == 8)
    }

    @Test("a byte order mark before the document is skipped (RFC 8259 §8.1); columns count from after it; elsewhere it is text")
    func byteOrderMark() throws {
        let node = try JSONParser.parse("\u{FEFF}{ \"a\": 1 }")
        #expect(node["a"]?.line == 1)
        #expect(node["a"]?.column == 8)
        let error = try #require(syntaxError("\u{FEFF}{ \"a\": }"))
        #expect(error.line == 1 && error.column == 8)
        #expect(syntaxError("{ \"a\": 1 }\u{FEFF}") != nil)
        #expect(syntaxError("\u{FEFF}\u{FEFF}{}") != nil)
    }

    @Test("object members keep their written order")
    func memberOrder() throws {
        let root = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        guard case let .object(members) = root.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
    }

    @Test("a duplicate key is an error at the second key")
    func duplicateKeys() throws {
        let error = try #require(syntaxError("{\"a\": 1,\n  \"a\": 2}"))
        #expect(error.message.contains("duplicate key"))
        #expect(error.message.contains("\"a\""))
        #expect(error.line == 2)
        #expect(error.column == 3)
        // The same key in different objects is fine.
        #expect(syntaxError(#"{"a": {"a": 1}, "b": {"a": 2}}"#) == nil)
        // Few keys are searched one by one, many in a set: a duplicate is found either way,
        // whether it repeats an early key or a late one.
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }
        #expect(syntaxError("{" + keys.joined(separator: ", ") + "}") == nil)
        for (repeated, at) in [(3, 10), (3, 30), (20, 30), (38, 39)] {
            var members = Array(keys[0..<at])
            members.append("\"k\(repeated)\": 0")
            let error = try #require(syntaxError("{" + members.joined(separator: ", ") + "}"), "k\(repeated) repeated after \(at) keys")
            #expect(error.message == "duplicate key \"k\(repeated)\" (first at line 1, column \(2 + keys[0..<repeated].map { $0.count + 2 }.reduce(0, +)))")
            #expect(error.path == "$.k\(repeated)")
        }
    }

    @Test("a duplicate key says where it is and where its first occurrence was: the path through objects and arrays")
    func duplicateKeyPaths() throws {
        let error = try #require(syntaxError("""
            {"steps": [{"a": 1}, {"b": {"c": 1,
               "c": 2}}], "x": 1}
            """))
        #expect(error.path == "$.steps[1].b.c")
        #expect(error.message == "duplicate key \"c\" (first at line 1, column 29)")
        #expect((error.line, error.column) == (2, 4))
        #expect(error.description == "line 2, column 4: $.steps[1].b.c: duplicate key \"c\" (first at line 1, column 29)")
        // A key written like an index is still a key; other errors have no path.
        #expect(try #require(syntaxError(#"{"[0]": 1, "[0]": 2}"#)).path == "$.[0]")
        #expect(try #require(syntaxError(#"{"a": [1, }"#)).path == nil)
    }

    @Test("string escapes, including \\u escapes and surrogate pairs")
    func escapes() throws {
        let node = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \u4e2d \ud83d\ude00 \u0041""#)
        #expect(node.value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é 中 😀 A"))
        let raw = try JSONParser.parse("\"é 😀\"")
        #expect(raw.value == .string("é 😀"))
    }

    @Test("bad strings are errors", arguments: [
        #""\x""#, #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\u12""#, #""\u12G4""#, "\"abc", "\"a\u{01}b\"",
    ])
    func badStrings(_ text: String) {
        #expect(syntaxError(text) != nil, "accepted: \(text)")
    }

    @Test("invalid UTF-8 inside a string is an error")
    func invalidUTF8() {
        #expect(throws: JSONParser.SyntaxError.self) {
            try JSONParser.parse(bytes: [0x22, 0xFF, 0xFE, 0x22])
        }
    }

    @Test("numbers", arguments: [
        ("0", 0.0), ("-0.5e2", -50.0), ("1E3", 1000.0), ("12.25", 12.25), ("-7", -7.0), ("2e-2", 0.02),
    ])
    func numbers(_ text: String, _ value: Double) throws {
        #expect(try JSONParser.parse(text).value == .number(value))
    }

    @Test("bad numbers and literals are errors", arguments: ["01", "1.", "-", ".5", "1e", "1e999", "+1", "tru", "nul", "True", "NaN", ""])
    func badScalars(_ text: String) {
        #expect(syntaxError(text) != nil, "accepted: \(text)")
    }

    @Test("nesting up to the limit is accepted, deeper is an error and never a crash")
    func depthLimit() throws {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let error = try #require(syntaxError(tooDeep))
        #expect(error.message.contains("nesting"))
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(syntaxError(hostile) != nil)
        let hostileArrays = String(repeating: "[", count: 1_000_000)
        #expect(syntaxError(hostileArrays) != nil)
    }

    @Test("only white space may follow the value")
    func trailingGarbage() throws {
        let error = try #require(syntaxError("{} x"))
        #expect(error.message.contains("after the JSON value"))
        #expect(error.line == 1 && error.column == 4)
        #expect(syntaxError("[1] [2]") != nil)
        #expect(syntaxError("true false") != nil)
        #expect(syntaxError("{},") != nil)
        #expect(syntaxError("{}\n \t\r\n") == nil)
    }

    @Test("structural errors", arguments: ["{", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\": 1,}", "[1,]", "{1: 2}", "}", "{\"a\": }"])
    func structuralErrors(_ text: String) {
        #expect(syntaxError(text) != nil, "accepted: \(text)")
    }

    @Test("equality of values ignores positions")
    func equalityIgnoresPositions() throws {
        let compact = try JSONParser.parse(#"{"a":[1,{"b":null}]}"#)
        let spaced = try JSONParser.parse("{\n  \"a\" : [ 1 , { \"b\" : null } ]\n}")
        #expect(compact.value == spaced.value)
    }

    @Test("the writer's output parses back to the same value")
    func writerRoundTrip() throws {
        let value = try JSONParser.parse(#"{"s":"q\"\\\n\t\u0001é","n":[1,-2.5,0],"b":true,"z":null,"o":{}}"#).value
        #expect(try JSONParser.parse(JSONWriter.write(value)).value == value)
    }
}
