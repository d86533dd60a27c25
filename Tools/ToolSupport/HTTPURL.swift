/// An `http://` URL taken apart: host, port, and the request target.
public struct HTTPURL: Equatable, Sendable, CustomStringConvertible {
    /// The host name or address (an IPv6 address without its brackets).
    public let host: String
    /// The TCP port (80 unless the URL names one).
    public let port: UInt16
    /// The path and query sent in the request line (`/` at least); the fragment is dropped.
    public let target: String

    /// True when `text` starts with a scheme (`name://`), so names a URL rather than a file.
    public static func looksLikeURL(_ text: String) -> Bool {
        guard let range = schemeSeparator(in: text) else { return false }
        let scheme = text[..<range.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// Parses an absolute `http://` URL; `https://` and other schemes are refused as unsupported.
    public init(_ text: String) throws(ByteStreamError) {
        guard let schemeEnd = Self.schemeSeparator(in: text) else {
            throw ByteStreamError(.badURL, "not a URL (expected http://HOST[:PORT]/PATH)")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" else {
            if scheme == "https" {
                throw ByteStreamError(.unsupportedURL, "https:// is not supported (TLS is not built in); use an http:// URL")
            }
            throw ByteStreamError(.unsupportedURL, "\(scheme):// is not supported; only http:// URLs are")
        }
        var rest = text[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.contains("@") else {
            throw ByteStreamError(.unsupportedURL, "credentials in URLs are not supported")
        }
        guard path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ByteStreamError(.badURL, "the path holds spaces or characters that need percent-encoding")
        }

        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw ByteStreamError(.badURL, "an IPv6 address lacks its ]") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ByteStreamError(.badURL, "junk after the IPv6 address") }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
        }
        guard !hostPart.isEmpty, hostPart.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ByteStreamError(.badURL, "the URL has no host")
        }
        var port: UInt16 = 80
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy(\.isASCII), let p = UInt16(portPart), p > 0 else {
                throw ByteStreamError(.badURL, "bad port \(portPart)")
            }
            port = p
        }
        host = String(hostPart)
        self.port = port
        target = path
    }

    /// Where the first `://` lies in `text`.
    private static func schemeSeparator(in text: String) -> Range<String.Index>? {
        var i = text.startIndex
        while i < text.endIndex {
            if text[i...].hasPrefix("://") { return i..<text.index(i, offsetBy: 3) }
            i = text.index(after: i)
        }
        return nil
    }

    /// The `Host` header's value: the host, bracketed when it is an IPv6 address, and the port
    /// unless it is 80.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    /// The URL a `Location` header names: absolute, or a path resolved against this URL.
    func resolving(_ location: String) throws(ByteStreamError) -> HTTPURL {
        if HTTPURL.looksLikeURL(location) { return try HTTPURL(location) }
        if location.hasPrefix("//") { return try HTTPURL("http:" + location) }
        var base = target
        if let query = base.firstIndex(of: "?") { base = String(base[..<query]) }
        let path: String
        if location.hasPrefix("/") {
            path = location
        } else {
            let directory = base.lastIndex(of: "/").map { String(base[...$0]) } ?? "/"
            path = directory + location
        }
        return try HTTPURL("http://\(hostHeader)\(path)")
    }

    public var description: String { "http://\(hostHeader)\(target)" }
}
