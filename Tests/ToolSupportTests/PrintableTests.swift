import Testing
import ToolSupport

/// Text from a server is printed without its control characters.
@Suite struct PrintableTests {
    @Test func controlCharactersBecomeSpaces() {
        #expect(printable("Song\u{1B}[2J\u{1B}]0;pwned\u{07}") == "Song [2J ]0;pwned ")
        #expect(printable("a\rb\nc\u{7F}d\u{9B}e") == "a b c d e")
        #expect(printable("Ünïcödé ♪ title") == "Ünïcödé ♪ title")
        #expect(printable(String(repeating: "x", count: 500)).count == 200)
    }
}
