import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// The tables derived from the container formats' descriptors — the lookup by type hint and by
/// extension, the writable formats and PCM layouts, the stream cutters — checked against
/// Apple's documented values (AudioFile.h's type codes, `afconvert -hf`'s lists) and what each
/// file's specification says of its layout, never against the descriptors' own output.
@Suite("Container format descriptors")
struct FormatDescriptorTests {
    /// The type codes AudioFile.h gives the types each reader reads (`kAudioFileCAFType` …;
    /// `'OggS'` is the package's own code for Ogg, which Apple does not read).
    static let readerTypes: [(reader: any AudioFileFormat.Type, types: [String])] = [
        (CAFFormat.self, ["caff"]), (WAVEFormat.self, ["WAVE", "RF64", "BW64"]), (AIFFFormat.self, ["AIFF", "AIFC"]),
        (MP4Format.self, ["m4af", "m4bf", "mp4f", "3gpp", "3gp2"]), (ADTSFormat.self, ["adts"]), (FLACFormat.self, ["flac"]),
        (MP3Format.self, ["MPG3", "MPG2", "MPG1"]), (OggFormat.self, ["OggS"]), (AC3Format.self, ["ac-3"]),
    ]

    static func code(_ type: AudioFileType) -> String { "\(FourCharCode(rawValue: type.rawValue))" }

    static func same(_ a: (any AudioFileFormat.Type)?, _ b: any AudioFileFormat.Type) -> Bool {
        a.map { ObjectIdentifier($0) == ObjectIdentifier(b) } ?? false
    }

    /// Each reader is registered once, reads exactly its AudioFile.h types, and a type hint of
    /// each picks it; the file types are listed reader by reader.
    @Test func everyTypeIsReadByItsReader() {
        let registered = AudioFileFormats.descriptors.map { ObjectIdentifier($0.reader) }
        #expect(Set(registered).count == registered.count)
        #expect(Set(registered) == Set(Self.readerTypes.map { ObjectIdentifier($0.reader) }))
        for (reader, types) in Self.readerTypes {
            let descriptor = AudioFileFormats.descriptors.first { ObjectIdentifier($0.reader) == ObjectIdentifier(reader) }
            #expect(descriptor?.types.map { Self.code($0.type) } == types, "\(reader)")
            #expect(Self.code(reader.fileType) == types[0])
            for type in types {
                #expect(Self.same(AudioFileFormats.forType(AudioFileType(FourCharCode(type))), reader), "\(type)")
            }
        }
        #expect(Set(AudioFileFormats.fileTypes.map { Self.code($0.type) }) == Set(Self.readerTypes.flatMap(\.types)))
        #expect(AudioFileFormats.forType(AudioFileType("NeXT")) == nil)
    }

    /// Every extension a descriptor declares finds its reader, in any case, and none is
    /// claimed by two readers.
    @Test func everyExtensionFindsItsReader() {
        var owners: [String: String] = [:]
        for descriptor in AudioFileFormats.descriptors {
            let declared = descriptor.types.flatMap(\.extensions) + descriptor.otherExtensions
            #expect(Set(declared) == Set(descriptor.extensions))
            for ext in declared {
                #expect(Self.same(AudioFileFormats.forExtension(ext), descriptor.reader), "\(ext)")
                #expect(Self.same(AudioFileFormats.forExtension(ext.uppercased()), descriptor.reader), "\(ext)")
                let owner = "\(descriptor.reader)"
                #expect(owners[ext, default: owner] == owner, "'\(ext)' is claimed by \(owners[ext] ?? "") and \(owner)")
                owners[ext] = owner
            }
        }
    }

    /// The extensions Apple lists for each type (`afconvert -hf`) and the ones the files' own
    /// documents use (RFC 7845's `.opus`, RFC 5334's `.ogg`/`.oga`) select the reader of the type.
    @Test(arguments: [
        ("caf", "caff"), ("wav", "WAVE"), ("rf64", "RF64"), ("bw64", "BW64"), ("aif", "AIFF"), ("aiff", "AIFF"), ("aifc", "AIFC"),
        ("m4a", "m4af"), ("m4r", "m4af"), ("m4b", "m4bf"), ("mp4", "mp4f"), ("3gp", "3gpp"), ("3g2", "3gp2"), ("aac", "adts"),
        ("adts", "adts"), ("flac", "flac"), ("mp3", "MPG3"), ("mpeg", "MPG3"), ("mpa", "MPG3"), ("mp2", "MPG2"), ("mp1", "MPG1"),
        ("opus", "OggS"), ("ogg", "OggS"), ("oga", "OggS"), ("ac3", "ac-3"),
    ])
    func documentedExtension(ext: String, type: String) throws {
        let reader = try #require(AudioFileFormats.forType(AudioFileType(FourCharCode(type))))
        #expect(Self.same(AudioFileFormats.forExtension(ext), reader))
        let described = AudioFileFormats.fileTypes.filter { $0.extensions.contains(ext) }.map { Self.code($0.type) }
        #expect(described.contains(type), "\(ext): \(described)")
    }

    /// A file no reader places is refused naming every format read (Apple's type names).
    @Test func refusalNamesEveryFormat() {
        do {
            _ = try AudioFile(source: MemoryByteSource([UInt8](repeating: 0x20, count: 256)))
            Issue.record("256 spaces opened")
        } catch {
            #expect(error.code == .unsupportedFileType)
            for name in ["CAF", "WAVE", "AIFF", "Apple MPEG-4 Audio", "AAC ADTS", "FLAC", "MPEG Layer 3", "Ogg", "AC3"] {
                #expect(error.reason.contains(name), "\(error.reason)")
            }
        }
    }

    @Test func unknownExtension() {
        #expect(AudioFileFormats.forExtension("txt") == nil)
        #expect(AudioFileFormats.forExtension("") == nil)
    }

    /// One or more descriptions of each format the package encodes (a type lists the formats
    /// written from audio, not every format its container could hold: CAF takes Opus packets,
    /// but no encoder makes them).
    static let probes: [(format: AudioFormatID, descriptions: [AudioStreamBasicDescription])] = [
        (.linearPCM, [.pcm(sampleRate: 44100, channels: 2), .pcm(sampleRate: 44100, channels: 2, bigEndian: true)]),
        (.aLaw, [.alaw()]),
        (.uLaw, [.ulaw()]),
        (.appleIMA4, [.ima4(sampleRate: 44100, channels: 2)]),
        (.mpeg4AAC, [.aac(sampleRate: 44100, channels: 2)]),
        (.appleLossless, [.alac(sampleRate: 44100, channels: 2)]),
        (.flac, [.flac(sampleRate: 44100, channels: 2)]),
    ]

    /// Each type's declared writable formats are exactly those the writer takes for it: the
    /// writer is asked of every format the package produces.
    @Test func writableFormatsAreWhatTheWriterTakes() {
        for type in AudioFileFormats.fileTypes {
            for probe in Self.probes {
                let written = probe.descriptions.contains(where: type.type.canWrite)
                #expect(written == type.writableFormats.contains(probe.format), "\(Self.code(type.type)) '\(probe.format)'")
            }
            #expect(type.type.writableFormatIDs == type.writableFormats)
            #expect(type.writableFormats.contains(.linearPCM) == !type.pcmLayouts.isEmpty, "\(Self.code(type.type))")
        }
    }

    /// A layout as `afconvert -hf` writes it: `I8`, `UI8`, `BEI16`, `LEF32`.
    static func name(_ l: AudioFilePCMLayout) -> String {
        let kind = l.isFloat ? "F" : l.isSignedInteger ? "I" : "UI"
        return l.bitsPerChannel == 8 ? "\(kind)8" : "\(l.isBigEndian ? "BE" : "LE")\(kind)\(l.bitsPerChannel)"
    }

    /// The PCM layouts `afconvert -hf` lists on macOS, each written by the writer; AIFF-C lists
    /// Apple's and also the little-endian integers (`sowt`) the writer writes.
    @Test func pcmLayouts() throws {
        func layouts(_ type: AudioFileType) throws -> [String] { try #require(AudioFileFormats.fileType(type)).pcmLayouts.map(Self.name) }
        #expect(try layouts(.wave) == ["UI8", "LEI16", "LEI24", "LEI32", "LEF32", "LEF64"])
        #expect(try layouts(.aiff) == ["I8", "BEI16", "BEI24", "BEI32"])
        #expect(try layouts(.caf) == ["I8", "BEI16", "BEI24", "BEI32", "BEF32", "BEF64", "LEI16", "LEI24", "LEI32", "LEF32", "LEF64"])
        #expect(Set(try layouts(.aifc)).isSuperset(of: ["I8", "BEI16", "BEI24", "BEI32", "BEF32", "BEF64", "UI8"]))
        for type in AudioFileFormats.fileTypes {
            for l in type.pcmLayouts {
                var format = AudioStreamBasicDescription.pcm(
                    sampleRate: 44100, channels: 2, bits: Int(l.bitsPerChannel), float: l.isFloat, bigEndian: l.isBigEndian)
                if !l.isFloat && !l.isSignedInteger { format.formatFlags.remove(.isSignedInteger) }
                #expect(type.type.canWrite(format), "\(Self.code(type.type)) \(Self.name(l))")
            }
        }
    }

    /// The stream cutter each container's layout calls for: a header parsed and its packet
    /// index cut (constant-size PCM packets, or a table for CAF's `pakt` and MPEG-4's sample
    /// tables), frames found by their headers (ADTS, MPEG audio, FLAC), Ogg pages; the stream
    /// reports the file's type and the packets the file reader counts.
    @Test(arguments: [
        ("valid/caf-aac-1ch-44100.caf", "caff", "TableCutter"),
        ("valid/wav-pcm_s16le-2ch-44100.wav", "WAVE", "ConstantCutter"),
        ("valid/aiff-pcm_s16be-2ch-44100.aiff", "AIFF", "ConstantCutter"),
        ("mp4/aac-2ch-44100-faststart.m4a", "m4af", "TableCutter"),
        ("valid/adts-aac-2ch-44100.aac", "adts", "FrameCutter"),
        ("flac/ffmpeg-2ch-48000-s16.flac", "flac", "FLACStreamCutter"),
        ("mp3/cbr-128k-2ch-44100.mp3", "MPG3", "FrameCutter"),
        ("opus/ffmpeg-stereo.opus", "OggS", "OggCutter"),
        ("ac3/eac3-2ch-48000.ec3", "ac-3", "AC3Cutter"),
    ])
    func streamIsCutByItsOwnCutter(name: String, type: String, cutter: String) throws {
        let path = Fixtures.root.appendingPathComponent(name).path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try Self.cutterName(bytes) == cutter)
        let run = streamRun(bytes) { 4096 }
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.fileFormat.map(Self.code) == type)
        let file = try AudioFile(path: path)
        #expect(Self.code(file.fileType) == type)
        #expect(Int64(run.packets.count) == file.packetCount)
    }

    /// The cutter the header gatherer picks for `bytes`, given as many as it asks for.
    static func cutterName(_ bytes: [UInt8]) throws -> String {
        var gatherer = HeaderGatherer()
        var count = HeaderGatherer.detectionBytes
        while count <= bytes.count {
            let result = try bytes.withUnsafeBytes { raw in
                try gatherer.advance(UnsafeRawBufferPointer(rebasing: raw.prefix(count)), typeHint: nil)
            }
            switch result {
            case .needMore(let n): count = max(n, count + 1)
            case .frames(let cutter): return "\(type(of: cutter))"
            case .container(_, let cutter, _): return "\(type(of: cutter))"
            }
        }
        return "none"
    }
}
