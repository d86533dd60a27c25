import AudioCore

/// Writing FLAC: native `.flac` files (RFC 9639: `fLaC`, a STREAMINFO block, a PADDING block,
/// then the frames), and the STREAMINFO a CAF `kuki` or an MPEG-4 `dfLa` box records.
extension ContainerHeader {
    /// Bytes of the PADDING block's body after STREAMINFO, room for metadata a tagger adds
    /// later without moving the audio.
    static let flacPadding = 8192

    /// Where the blocks after STREAMINFO start: `fLaC`, STREAMINFO's header and its 34 bytes.
    static let flacTagOffset = 42

    /// `fLaC`, STREAMINFO (its sizes, count and MD5 written at close), the blocks `tags` (made
    /// by ``flacTagBlocks(info:pictures:)``) and PADDING; the frames follow.
    static func flac(_ format: AudioStreamBasicDescription, tags: [UInt8] = []) -> ContainerHeader {
        var h = BigEndianBytes()
        h.ascii("fLaC")
        h.bytes += [0, 0, 0, 34]
        h.bytes += FLACStreamInfo.initial(for: format).body
        h.bytes += tags
        h.bytes += [0x81, UInt8(flacPadding >> 16 & 0xFF), UInt8(flacPadding >> 8 & 0xFF), UInt8(flacPadding & 0xFF)]
        h.bytes += [UInt8](repeating: 0, count: flacPadding)
        var header = ContainerHeader(kind: .flac, fileType: .flac, bytes: h.bytes, dataOffset: Int64(h.bytes.count))
        header.sizeOffset = 8  // STREAMINFO's body
        return header
    }
}

extension ContainerHeader {
    /// The metadata blocks that record `info` and `pictures` in a FLAC file, none of them marked
    /// last: a VORBIS_COMMENT block (``VorbisComment/fields(info:)``) and a PICTURE block per
    /// picture. Throws `parameter` for a block larger than the 16 MiB its 24-bit size holds.
    static func flacTagBlocks(info: AudioFileInfo, pictures: [AudioFilePicture]) throws(AudioFileError) -> [UInt8] {
        var out: [UInt8] = []
        func block(_ type: UInt8, _ body: [UInt8]) throws(AudioFileError) {
            guard body.count <= 0xFF_FFFF else {
                throw AudioFileError(.parameter, "a FLAC metadata block of \(body.count) bytes is more than the 16 MiB its size holds")
            }
            out += [type, UInt8(body.count >> 16), UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
        }
        let fields = VorbisComment.fields(info: info)
        if !fields.isEmpty { try block(4, VorbisComment(vendor: flacVendor, fields: fields).body) }
        for picture in pictures { try block(6, picture.flacPictureBlock) }
        return out
    }

    /// The vendor string of the VORBIS_COMMENT blocks written.
    static let flacVendor = "swift-audio-queue"

    /// The PADDING block that fills `count` bytes (at least 4), marked last.
    static func flacPaddingBlock(filling count: Int) -> [UInt8] {
        let body = count - 4
        return [0x81, UInt8(body >> 16 & 0xFF), UInt8(body >> 8 & 0xFF), UInt8(body & 0xFF)] + [UInt8](repeating: 0, count: body)
    }
}

extension FLACStreamInfo {
    /// The STREAMINFO of a stream of `format` before its frames are known.
    static func initial(for format: AudioStreamBasicDescription) -> FLACStreamInfo {
        let block = Int(format.framesPerPacket)
        return FLACStreamInfo(
            minimumBlockSize: block, maximumBlockSize: block, sampleRate: Int(format.sampleRate), channels: Int(format.channelsPerFrame),
            bitsPerSample: FLACDataFormat.bitDepth(of: format) ?? 16)
    }

    /// This STREAMINFO completed with what was written where it does not say: the frame
    /// sizes from `sizes` and the sample count `validFrames`.
    func completed(sizes: [UInt32], validFrames: Int64) -> FLACStreamInfo {
        var info = self
        if info.maximumFrameSize == 0, let largest = sizes.max(), let smallest = sizes.min() {
            info.minimumFrameSize = Int(smallest)
            info.maximumFrameSize = Int(largest)
        }
        if info.totalSamples == 0 { info.totalSamples = max(0, validFrames) }
        return info
    }
}

extension FormatChecks {
    /// FLAC (`'flac'`): packets of a constant number of frames (16–65535; the last may be
    /// shorter), varying in size, of 1 to 8 channels of 4 to 32 bits (from the format flags as
    /// Apple gives them, or `bitsPerChannel`; 16 when neither says), at 1 to 1048575 Hz.
    func flac() throws(AudioFileError) -> AudioStreamBasicDescription {
        let f = format
        guard f.formatID == .flac else { throw unsupported("this container holds FLAC") }
        guard f.bytesPerPacket == 0, (16...65535).contains(f.framesPerPacket), (1...8).contains(f.channelsPerFrame) else {
            throw unsupported("FLAC packets vary in size (0 bytes per packet) and hold 16 to 65535 frames of 1 to 8 channels")
        }
        guard f.sampleRate == f.sampleRate.rounded(), f.sampleRate <= 1_048_575 else {
            throw unsupported("FLAC sample rates are whole numbers up to 1048575 Hz")
        }
        let depth = FLACDataFormat.bitDepth(of: f) ?? 16
        guard (4...32).contains(depth) else { throw unsupported("FLAC samples have 4 to 32 bits") }
        return FLACDataFormat.description(
            sampleRate: f.sampleRate, channels: f.channelsPerFrame, bitDepth: depth, framesPerPacket: Int(f.framesPerPacket))
    }
}

extension WriterState {
    /// The STREAMINFO a FLAC file or `dfLa` box records now: the cookie's, else one made from
    /// the format, completed with the frame sizes and valid frames written.
    var flacStreamInfo: FLACStreamInfo {
        let base = metadata.magicCookie.flatMap(FLACStreamInfo.init(magicCookie:)) ?? .initial(for: format)
        let valid = frames - Int64(trims?.priming ?? 0) - Int64(trims?.remainder ?? 0)
        return base.completed(sizes: sizes, validFrames: valid)
    }

    /// A FLAC magic cookie must hold a STREAMINFO of the format's channels and bit depth, else
    /// `parameter`.
    func checkFLACCookie(_ cookie: [UInt8]) throws(AudioFileError) {
        guard let info = FLACStreamInfo(magicCookie: cookie) else {
            throw AudioFileError(.parameter, "the FLAC magic cookie holds no STREAMINFO block")
        }
        let depth = FLACDataFormat.bitDepth(of: format) ?? 16
        guard info.channels == Int(format.channelsPerFrame), info.bitsPerSample == depth else {
            throw AudioFileError(
                .parameter, "the FLAC magic cookie describes \(info.channels) channels of \(info.bitsPerSample) bits; the data format is \(format)")
        }
    }
}
