@testable import pipcam
import XCTest

/// What pipcam prints cannot drive the terminal: escape sequences from a name or a path are shown, not run.
final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreShownAsEscapesAndTextStays() {
        XCTAssertEqual(TerminalText.plain("cam\u{1B}[31mred\u{7}"), "cam\\x1B[31mred\\x07")
        XCTAssertEqual(TerminalText.plain("a\u{0}b\u{9B}c\u{7F}"), "a\\x00b\\x9Bc\\x7F")
        XCTAssertEqual(TerminalText.plain("two\nlines\tand Café 🎥"), "two\nlines\tand Café 🎥")
    }
}
