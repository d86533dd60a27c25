import Foundation
import Testing
import AudioCore
import AudioCodecs
import AudioCodecFLAC
import AudioFileServices
import ExtendedAudioFileServices

/// Reading from any position gives exactly the samples a whole decode gives there.
@Suite("FLAC seeking")
struct FLACSeekTests {
    static func readAll(_ reader: ExtAudioFile, chunk: Int) throws -> [UInt8] {
        let buffer = try #require(PCMBuffer(format: reader.clientDataFormat, frameCapacity: chunk))
        var bytes: [UInt8] = []
        while true {
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: chunk)
            if n == 0 { break }
            bytes += UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength])
        }
        return bytes
    }

    @Test(arguments: ["flac-2ch-44100-s16.flac", "flac-2ch-44100-s16-variable.flac", "flac-2ch-96000-s24.flac",
                      "flac-2ch-44100-s16.m4a", "flac-2ch-44100-s16.caf", "flac-6ch-48000-s16.flac"])
    func seeksAreSampleExact(name: String) throws {
        FLACDecoder.register()
        let whole = try ExtAudioFile(path: FLACFixtures.path(name))
        let all = try Self.readAll(whole, chunk: 1000)
        let bpf = Int(whole.clientDataFormat.bytesPerFrame)
        let frames = all.count / bpf
        #expect(Int64(frames) == whole.clientLengthFrames)
        #expect(frames == (try FLACFixtures.reference(name)).frames)
        let reader = try ExtAudioFile(path: FLACFixtures.path(name))
        let buffer = try #require(PCMBuffer(format: reader.clientDataFormat, frameCapacity: 5000))
        var targets = [0, 1, 575, 576, 1151, 4095, 4096, 4097, 8191, 8192, 9000, 12345, frames - 4097, frames - 1, frames]
        targets += [777, 3, 10_000, 2]  // and backwards
        for target in targets where target >= 0 && target <= frames {
            try reader.seek(toFrame: Int64(target))
            #expect(reader.tell() == Int64(target))
            buffer.frameLength = 0
            let n = try reader.read(into: buffer, frameCount: 5000)
            #expect(n == min(5000, frames - target), "at \(target)")
            let got = Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer.region())[0..<buffer.byteLength]))
            #expect(got[...] == all[(target * bpf)..<((target + n) * bpf)], "\(name) at \(target)")
        }
    }
}
