public import AudioCore

/// Raw AC-3 and E-AC-3 streams (ETSI TS 102 366), the `.ac3`, `.ec3` and `.eac3` files
/// encoders and demuxers write: syncframes back to back, Apple's `kAudioFileAC3Type`.
///
/// Opening walks the frame headers without reading the audio: junk before the first frame and
/// between frames is skipped by looking for a sync word (0x0B77) whose header parses and whose
/// next frame's header (or the end of the file) confirms it; AC-3 frame sizes come from the
/// `frmsizecod` table, E-AC-3's from `frmsiz`. A packet is one AC-3 frame, or an E-AC-3
/// independent frame with the dependent frames after it (`'ec-3'`, 256 frames per block: 1536
/// for six blocks). A last frame cut short by the end of the file is kept as a short packet, as
/// ffmpeg reads it; the decoder conceals what is missing.
///
/// The magic cookie is the body of the `dac3` or `dec3` box the first packet's headers imply
/// (what a Mac's MPEG-4 reader gives for the same stream), the channel layout the one its
/// channels are decoded in (`AC3Configuration`, AudioCore).
public struct AC3Format: AudioFileFormat, DescribedFormat, StoresAudioData {
    /// Apple's `'ac-3'`, read only.
    public static let descriptor = declaring(
        AudioFileTypeDescriptor(.ac3, name: "AC3", extensions: ["ac3"], utis: ["public.ac3-audio"], mimeTypes: ["audio/ac3"],
                                hfsTypeCodes: ["ac-3"]),
        otherExtensions: ["ec3", "eac3"],
        streamCutting: .syncFrames { AC3Cutter() })

    public static func canRead(prefix: UnsafeRawBufferPointer) -> Bool {
        let bytes = Array(prefix)
        guard let header = AC3FrameHeader(bytes, 0), header.streamType != .dependent else { return false }
        // One header is a weak signature; where the prefix holds the next one, it must agree.
        if header.frameSize + 6 <= bytes.count {
            guard let next = AC3FrameHeader(bytes, header.frameSize) else { return false }
            return next.isEnhanced == header.isEnhanced && next.sampleRate == header.sampleRate
        }
        return true
    }

    let audioData: AudioData
    public let magicCookie: [UInt8]?
    public let channelLayout: AudioChannelLayout?
    /// The first packet's frame headers.
    public let firstPacket: [AC3FrameHeader]
    /// Bytes skipped as junk before and between frames.
    public let junkByteCount: Int64
    /// True when the last packet is cut short by the end of the file (it is kept, short).
    public let lastPacketTruncated: Bool

    public init(reading source: some AudioByteSource) throws(AudioFileError) {
        var reader = WindowReader(source)
        let size = source.size
        guard let first = try AC3FrameScan.resync(&reader, from: 0, end: size, like: nil) else {
            throw AudioFileError(.invalidFile, "no AC-3 syncframe found", chunk: "ac-3", offset: 0)
        }
        let walk = try AC3FrameScan.walk(&reader, from: first.offset, end: size, first: first.header)
        guard walk.table.count > 0 else {
            throw AudioFileError(.invalidFile, "no AC-3 packet", chunk: "ac-3", offset: first.offset)
        }
        let description = try AC3FrameScan.describe(walk.firstPacket, chunk: "ac-3", offset: first.offset)
        firstPacket = walk.firstPacket
        junkByteCount = first.offset + walk.junk
        lastPacketTruncated = walk.truncated
        audioData = AudioData(
            format: description.format, offset: first.offset, byteCount: walk.lastEnd - first.offset, packets: .table(walk.table))
        channelLayout = description.layout
        magicCookie = description.cookie
    }
}

extension AudioFileType {
    /// AC-3 and E-AC-3 syncframes (`'ac-3'`, `kAudioFileAC3Type`).
    public static let ac3 = AudioFileType("ac-3")
}
