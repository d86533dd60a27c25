import AudioCore

extension VorbisComment.Field {
    /// A field named `name` holding `value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension VorbisComment {
    /// A comment of `vendor` and `fields`, for writing.
    public init(vendor: String, fields: [Field]) {
        self.vendor = vendor
        self.fields = fields
    }

    /// The comment body as stored (FLAC's `VORBIS_COMMENT` block body; what follows `OpusTags`
    /// in Opus' comment packet and `\u{3}vorbis` in Vorbis'): the vendor string and the
    /// `NAME=value` fields, each after its 32-bit little-endian length. No framing bit.
    public var body: [UInt8] {
        var out = LittleEndianBytes()
        let vendorBytes = Array(vendor.utf8)
        out.u32(UInt32(vendorBytes.count))
        out.bytes += vendorBytes
        out.u32(UInt32(fields.count))
        for field in fields {
            let bytes = Array("\(field.name)=\(field.value)".utf8)
            out.u32(UInt32(bytes.count))
            out.bytes += bytes
        }
        return out.bytes
    }
}
