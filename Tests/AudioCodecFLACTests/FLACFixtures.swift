import Foundation
import Testing
import ProcessSupport
import AudioCore
import AudioCodecs
import AudioCodecFLAC
import AudioFileServices

/// The files Scripts/fixtures/make_flac_fixtures.sh makes, with flac's and ffmpeg's decodes.
enum FLACFixtures {
    static let folder = FixtureFolder("flac")
    static var directory: URL { folder.directory }

    static func path(_ name: String) -> String { folder.path(name) }

    /// Every fixture with a `.ref` beside it (`NAME.flac`, `.m4a`, `.caf`).
    static var names: [String] { folder.names(endingWith: ".ref") }

    /// A fixture's `.ref`: frames, packets, depth, ffmpeg's and flac's checksums.
    struct Reference {
        var frames: Int
        var packets: Int?
        var bits: Int
        var ffmpegCRC: UInt32?
        var flacCRC: UInt32
    }

    static func reference(_ name: String) throws -> Reference {
        let values = try folder.reference(name)
        func hex(_ key: String) -> UInt32? { values[key].flatMap { UInt32($0.dropFirst(2), radix: 16) } }
        return Reference(
            frames: try #require(values["frames"].flatMap { Int($0) }), packets: values["packets"].flatMap { Int($0) },
            bits: try #require(values["bits"].flatMap { Int($0) }), ffmpegCRC: hex("ffmpeg_crc"),
            flacCRC: try #require(hex("flac_crc")))
    }

    /// Decodes every packet of `file` with a FLACDecoder made from its description and cookie,
    /// trimmed to its valid frames; returns the bytes and the decoder's output format.
    static func decodeAll(_ file: AudioFile) throws -> (bytes: [UInt8], format: AudioStreamBasicDescription) {
        let decoder = try FLACDecoder(input: file.dataFormat, magicCookie: file.magicCookie)
        let format = decoder.outputFormat
        let buffer = try #require(PCMBuffer(format: format, frameCapacity: decoder.maximumFramesPerPacket))
        var out: [UInt8] = []
        var next: Int64 = 0
        while true {
            let read = try file.readPackets(from: next, count: 16)
            if read.packetCount == 0 { break }
            let descriptions = try #require(read.descriptions)
            try read.data.withUnsafeBytes { raw in
                for d in descriptions {
                    buffer.frameLength = 0
                    let packet = UnsafeRawBufferPointer(rebasing: raw[Int(d.startOffset)..<(Int(d.startOffset) + Int(d.dataByteSize))])
                    try decoder.decode(packet: packet, frames: d.variableFramesInPacket > 0 ? Int(d.variableFramesInPacket) : nil, into: buffer)
                    out += UnsafeRawBufferPointer(start: buffer.region(0).baseAddress, count: buffer.byteLength)
                }
            }
            next += Int64(read.packetCount)
        }
        let valid = Int(file.packetTableInfo?.numberValidFrames ?? Int64(out.count / Int(format.bytesPerFrame)))
        let priming = Int(file.packetTableInfo?.primingFrames ?? 0)
        let bpf = Int(format.bytesPerFrame)
        return (Array(out[(priming * bpf)..<min(out.count, (priming + valid) * bpf)]), format)
    }

    /// Left-justified 16- or 32-bit samples as `flac -d` writes them: `bits` deep, in
    /// ceil(bits / 8) little-endian bytes.
    static func toFLACRaw(_ bytes: [UInt8], outputBits: Int, bits: Int) -> [UInt8] {
        let width = (bits + 7) / 8
        let inWidth = outputBits / 8
        let shift = outputBits - bits
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / inWidth * width)
        var i = 0
        while i + inWidth <= bytes.count {
            var v: Int64 = 0
            for k in 0..<inWidth { v |= Int64(bytes[i + k]) << (8 * k) }
            v = (v << (64 - outputBits)) >> (64 - outputBits)  // sign-extend
            let s = v >> shift
            for k in 0..<width { out.append(UInt8(truncatingIfNeeded: s >> (8 * k))) }
            i += inWidth
        }
        return out
    }
}
