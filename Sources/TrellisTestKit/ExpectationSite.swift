/// Where an expectation or an action of the kit was written in a test: the call site's
/// `#fileID`, `#filePath`, `#line` and `#column`, which every public expectation takes as
/// defaulted parameters (as XCTest's assertions and Swift Testing's `#expect` do), so that a
/// failure is reported at the line that failed.
package struct ExpectationSite: Sendable {
    package var fileID: StaticString
    package var filePath: StaticString
    package var line: UInt
    package var column: UInt

    package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }
}
