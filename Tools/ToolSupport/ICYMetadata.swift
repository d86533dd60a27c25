/// SHOUTcast/Icecast in-stream metadata: `StreamTitle='Artist - Title';StreamUrl='…';`, padded
/// with zero bytes to a multiple of 16.
public enum ICYMetadata {
    /// The `StreamTitle` of one metadata block (zero padding removed; UTF-8, else Latin-1);
    /// nil when the block has none.
    public static func streamTitle(in block: [UInt8]) -> String? {
        var bytes = block[...]
        while bytes.last == 0 { bytes = bytes.dropLast() }
        let key = Array("StreamTitle='".utf8)
        guard let keyStart = firstIndex(of: key[...], in: bytes, from: bytes.startIndex) else { return nil }
        let valueStart = keyStart + key.count
        // The value ends at the first `';` (a title may hold quotes); else at the last quote.
        let value: ArraySlice<UInt8>
        if let end = firstIndex(of: Array("';".utf8)[...], in: bytes, from: valueStart) {
            value = bytes[valueStart..<end]
        } else if let quote = bytes[valueStart...].lastIndex(of: 0x27) {
            value = bytes[valueStart..<quote]
        } else {
            value = bytes[valueStart...]
        }
        return text(value)
    }

    /// The bytes as UTF-8 when they are valid UTF-8, else as Latin-1 (what old servers send).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func firstIndex(of needle: ArraySlice<UInt8>, in haystack: ArraySlice<UInt8>, from: Int) -> Int? {
        guard needle.count <= haystack.endIndex - from else { return nil }
        var i = from
        while i + needle.count <= haystack.endIndex {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
