import Foundation
import Testing
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// AudioFileStream delivers exactly the packets AudioFile reads, for every fixture of the formats
/// it streams, whatever the pieces the bytes arrive in.
@Suite struct StreamPacketTests {
    /// What a stream of `path` should end in: its packets, or the error a streaming parser
    /// cannot avoid (the MPEG-4 box order and CAF chunk order are read here with a walk of their
    /// own, not the library's).
    enum Expected {
        case packets
        case error(AudioFileStreamError.Code)
    }

    static func expected(_ path: String, _ bytes: [UInt8]) -> Expected {
        if bytes.count >= 8, Array(bytes[0..<4]) == Array("caff".utf8) {
            // Chunk order and the desc chunk's bytes per packet, read here.
            var p = 8
            var order: [String] = []
            var variable = false
            while p + 12 <= bytes.count {
                let type = String(decoding: bytes[p..<(p + 4)], as: UTF8.self)
                let size = bytes[(p + 4)..<(p + 12)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                if type == "desc" { variable = bytes[(p + 12 + 12)..<(p + 12 + 16)].allSatisfy { $0 == 0 } }
                order.append(type)
                guard size >= 0 else { break }
                p += 12 + Int(size)
            }
            if variable, let pakt = order.firstIndex(of: "pakt"), let data = order.firstIndex(of: "data"), pakt > data {
                return .error(.notOptimized)
            }
            return .packets
        }
        guard bytes.count >= 8, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return .packets }
        var p = 0
        var order: [String] = []
        while p + 8 <= bytes.count {
            var size = Int(bytes[p]) << 24 | Int(bytes[p + 1]) << 16 | Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            let type = String(decoding: bytes[(p + 4)..<(p + 8)], as: UTF8.self)
            if size == 1 { size = bytes[(p + 8)..<(p + 16)].reduce(0) { $0 << 8 | Int($1) } }
            if size == 0 { size = bytes.count - p }
            guard size >= 8 else { break }
            order.append(type)
            p += size
        }
        if order.contains("moof") { return .error(.unsupportedFileType) }
        let moov = order.firstIndex(of: "moov") ?? .max, mdat = order.firstIndex(of: "mdat") ?? .max
        return moov < mdat ? .packets : .error(.notOptimized)
    }

    static let fixtures: [String] = StreamFixtures.all.filter { (try? AudioFile(path: $0)) != nil }

    @Test func everyFormatIsCovered() {
        let names = Self.fixtures.map(StreamFixtures.name)
        for prefix in ["adts-", "caf-", "wav-", "aiff-", "aifc-"] {
            #expect(names.contains { $0.hasPrefix(prefix) }, "no \(prefix) fixture")
        }
        #expect(names.contains { $0.hasSuffix(".mp3") })
        #expect(names.contains { $0.hasSuffix(".m4a") })
        #expect(names.contains { $0.hasSuffix(".rf64") })
    }

    @Test(arguments: fixtures)
    func packetsMatchAudioFile(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let reference = try filePackets(path)
        let expectation = Self.expected(path, bytes)
        var random = SplitMix(seed: UInt64(bytes.count) &* 0x2545_F491)
        let chunkings: [(String, () -> Int)] = [
            ("whole file", { bytes.count }),
            ("one byte", { 1 }),
            ("4 KiB", { 4096 }),
            ("random 1 B-1 MiB", { random.pieceSize() }),
            ("random 1 B-1 MiB (second seed)", { random.pieceSize() }),
        ]
        for (label, next) in chunkings {
            let run = streamRun(bytes, pieces: next)
            switch expectation {
            case .error(let code):
                #expect(run.error?.code == code, "\(label): \(run.error.map(String.init(describing:)) ?? "no error")")
                #expect(run.packets.isEmpty, "\(label)")
            case .packets:
                var problems: [String] = []
                func check(_ ok: Bool, _ what: @autoclosure () -> String) { if !ok { problems.append(what()) } }
                check(run.error == nil, "error \(run.error.map(String.init(describing:)) ?? "")")
                check(run.packets.count == reference.packets.count, "\(run.packets.count) packets, AudioFile \(reference.packets.count)")
                if let i = zip(run.packets, reference.packets).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    problems.append("packet \(i) differs: \(run.packets[i].count) vs \(reference.packets[i].count) bytes")
                }
                let perPacket = reference.file.dataFormat.framesPerPacket
                check(normalizedFrames(run.frames, perPacket: perPacket) == normalizedFrames(reference.frames, perPacket: perPacket), "frames per packet")
                check(run.packets.isEmpty || run.sawDescriptions == reference.file.needsDescriptions, "descriptions \(String(describing: run.sawDescriptions))")
                check(run.fileFormat == reference.file.fileType, "file type \(String(describing: run.fileFormat))")
                if let format = run.dataFormat {
                    let expected = reference.file.dataFormat
                    check(format.formatID == expected.formatID && format.sampleRate == expected.sampleRate
                          && format.bytesPerPacket == expected.bytesPerPacket && format.framesPerPacket == expected.framesPerPacket
                          && format.formatFlags == expected.formatFlags, "data format \(format) vs \(expected)")
                } else {
                    problems.append("no data format")
                }
                check(run.dataOffset == reference.file.dataOffset, "data offset \(String(describing: run.dataOffset)) vs \(reference.file.dataOffset)")
                check(run.magicCookie == reference.file.magicCookie, "magic cookie")
                check(run.packetTableInfo == reference.file.packetTableInfo, "packet table info \(String(describing: run.packetTableInfo)) vs \(String(describing: reference.file.packetTableInfo))")
                if let count = run.packetCount { check(count == UInt64(reference.file.packetCount), "packet count \(count)") }
                if let count = run.byteCount { check(count == UInt64(reference.file.dataByteCount), "byte count \(count)") }
                check(run.ready, "never ready")
                if !problems.isEmpty {
                    Issue.record("\(StreamFixtures.name(path)), \(label): \(problems.joined(separator: "; "))")
                    return
                }
            }
        }
    }
}
