import Foundation
import ProcessSupport
import AudioCore
@testable import AudioFileServices

/// What an ``AudioFileStream`` delivered for one stream of bytes.
struct StreamRun {
    var packets: [[UInt8]] = []
    /// Frames per packet as the descriptions give them (0: the format's).
    var frames: [UInt32] = []
    var sawDescriptions: Bool?
    var properties: [AudioFileStreamPropertyID] = []
    var error: AudioFileStreamError?
    var maximumRetained = 0
    var largestCall = 0
    var fileFormat: AudioFileType?
    var dataFormat: AudioStreamBasicDescription?
    var dataOffset: Int64?
    var packetTableInfo: AudioFilePacketTableInfo?
    var packetCount: Int64?
    var byteCount: Int64?
    var magicCookie: [UInt8]?
    var ready = false
}

/// Feeds `bytes` to a new stream in pieces of the sizes `next` gives (cycled).
func streamRun(_ bytes: [UInt8], hint: AudioFileType? = nil, pieces next: () -> Int) -> StreamRun {
    final class Box { var run = StreamRun() }
    let box = Box()
    let stream: AudioFileStream
    do {
        stream = try AudioFileStream(
            fileTypeHint: hint,
            propertyListener: { s, id, _ in
                box.run.properties.append(id)
                if id == .readyToProducePackets { box.run.ready = s.readyToProducePackets }
            },
            packets: { s, data, descriptions in
                box.run.largestCall = max(box.run.largestCall, data.count)
                if let descriptions {
                    box.run.sawDescriptions = true
                    for d in descriptions {
                        let start = Int(d.startOffset)
                        box.run.packets.append(Array(data[start..<(start + Int(d.dataByteSize))]))
                        box.run.frames.append(d.variableFramesInPacket)
                    }
                } else {
                    box.run.sawDescriptions = false
                    let size = Int(s.dataFormat?.bytesPerPacket ?? 1)
                    var p = 0
                    while p < data.count {
                        box.run.packets.append(Array(data[p..<(p + size)]))
                        box.run.frames.append(0)
                        p += size
                    }
                }
            })
    } catch {
        box.run.error = error
        return box.run
    }
    var offset = 0
    bytes.withUnsafeBytes { all in
        while offset < all.count {
            let n = min(max(1, next()), all.count - offset)
            do {
                try stream.parse(bytes: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + n)]))
            } catch {
                box.run.error = error as? AudioFileStreamError
                break
            }
            if box.run.dataFormat == nil, let format = stream.dataFormat { box.run.dataFormat = format }
            offset += n
        }
    }
    // The end of the stream, as Apple's parser is told it: no bytes.
    if box.run.error == nil {
        do { try stream.parse(bytes: UnsafeRawBufferPointer(start: nil, count: 0)) } catch { box.run.error = error }
    }
    box.run.maximumRetained = stream.maximumRetainedBytes
    box.run.fileFormat = stream.fileFormat
    box.run.dataFormat = stream.dataFormat
    box.run.dataOffset = stream.dataOffset
    box.run.packetTableInfo = stream.packetTableInfo
    box.run.packetCount = stream.audioDataPacketCount
    box.run.byteCount = stream.audioDataByteCount
    box.run.magicCookie = stream.magicCookie
    return box.run
}

/// The packets ``AudioFile`` reads from a file: bytes, and frames per packet where they vary.
struct FilePackets {
    var packets: [[UInt8]] = []
    var frames: [UInt32] = []
    var file: AudioFile
}

func filePackets(_ path: String) throws -> FilePackets {
    let file = try AudioFile(path: path)
    var out = FilePackets(file: file)
    let read = try file.readPackets(from: 0, count: Int(file.packetCount))
    if let descriptions = read.descriptions {
        for d in descriptions {
            let start = Int(d.startOffset)
            out.packets.append(Array(read.data[start..<(start + Int(d.dataByteSize))]))
            out.frames.append(d.variableFramesInPacket)
        }
    } else {
        let size = Int(file.dataFormat.bytesPerPacket)
        var p = 0
        while size > 0 && p + size <= read.data.count {
            out.packets.append(Array(read.data[p..<(p + size)]))
            out.frames.append(0)
            p += size
        }
    }
    return out
}

/// Frames per packet with the format's count written out, so descriptions that give it and
/// those that leave it 0 compare equal.
func normalizedFrames(_ frames: [UInt32], perPacket: UInt32) -> [UInt32] {
    frames.map { $0 == 0 ? perPacket : $0 }
}

/// Piece sizes from the tests' seeded generator, so a failing chunking can be replayed.
extension SplitMix {
    /// A piece size from 1 B to 1 MiB, spread evenly over the powers of two in between.
    mutating func pieceSize() -> Int {
        let bits = Int.random(in: 0...20, using: &self)
        return min(Int.random(in: (1 << bits)...(2 << bits) - 1, using: &self), 1 << 20)
    }
}

/// Every fixture of the formats the stream reads, by path.
enum StreamFixtures {
    static func files(in dir: URL, extensions: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }

    static let all: [String] = {
        let audio: Set<String> = ["aac", "caf", "wav", "rf64", "aif", "aiff", "aifc", "mp3", "mp2", "bin", "m4a", "m4b", "mp4", "3gp"]
        return ["valid", "mp3", "mp3-refs", "mp4", "alac", "codecs", "aac-refs"].flatMap {
            files(in: Fixtures.root.appendingPathComponent($0), extensions: audio)
        }
    }()

    static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}
