import AudioCore
import AudioCodecs

/// Reads the FLAC encoder's input into the right-justified 32-bit samples libFLAC takes:
/// interleaved native-endian Float32 (rounded to the bit depth and clipped), or interleaved
/// native-endian signed integers of the bit depth in words of 1 to 4 bytes.
struct FLACSampleReader {
    enum Kind {
        case float
        /// Integers in words of `word` bytes whose top bit is `shift` below the word's top.
        case integer(word: Int, alignedHigh: Bool)
    }

    let kind: Kind
    let channels: Int
    let bitDepth: Int
    /// Bytes of one interleaved frame of input.
    let bytesPerFrame: Int

    /// The reader for `input`, which must be interleaved (or one channel) at `output`'s rate and
    /// channel count: Float32, or signed integers of `bitDepth` bits; else `formatNotSupported`.
    init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, bitDepth: Int) throws(AudioCodecError) {
        guard input.isPCM, input.channelsPerFrame == output.channelsPerFrame, input.sampleRate == output.sampleRate,
              input.isInterleaved || input.channelsPerFrame == 1, input.framesPerPacket == 1, input.channelsPerFrame > 0,
              input.bytesPerFrame > 0, input.bytesPerPacket == input.bytesPerFrame,
              input.bytesPerFrame % input.channelsPerFrame == 0 else {
            throw AudioCodecError(.formatNotSupported, "FLAC's input is interleaved linear PCM at the output's rate and channel count; got \(input)")
        }
        let word = Int(input.bytesPerFrame / input.channelsPerFrame)
        if input.isFloat {
            guard word == 4, input.bitsPerChannel == 32, !input.isBigEndian else {
                throw AudioCodecError(.formatNotSupported, "FLAC's float input is native-endian Float32; got \(input)")
            }
            kind = .float
        } else {
            guard input.isSignedInteger, !input.isBigEndian || word == 1, (1...4).contains(word), Int(input.bitsPerChannel) == bitDepth,
                  bitDepth <= word * 8 else {
                throw AudioCodecError(
                    .formatNotSupported, "FLAC's integer input is native-endian signed \(bitDepth)-bit samples in 1–4 byte words; got \(input)")
            }
            kind = .integer(word: word, alignedHigh: input.formatFlags.contains(.isAlignedHigh))
        }
        channels = Int(input.channelsPerFrame)
        self.bitDepth = bitDepth
        bytesPerFrame = Int(input.bytesPerFrame)
    }

    /// Reads `frames` frames from `source` (any alignment) into `target`.
    func read(_ source: UnsafeRawPointer, frames: Int, into target: UnsafeMutablePointer<Int32>) {
        let count = frames * channels
        switch kind {
        case .float:
            let scale = Double(1 << UInt64(bitDepth - 1))
            let low = -scale, high = scale - 1
            for i in 0..<count {
                let x = Double(source.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)) * scale
                target[i] = x.isNaN ? 0 : Int32(Swift.min(Swift.max(x.rounded(.toNearestOrEven), low), high))
            }
        case .integer(let word, let alignedHigh):
            // Sign-extend from the sample's top bit: high-aligned samples sit at the word's top,
            // others at its bottom. Both shifts are under 32 (depths are 4 to 32 bits), so the
            // masking shifts change nothing and let the loops vectorize.
            let down = UInt32(32 - bitDepth)
            let up = alignedHigh ? UInt32(32 - 8 * word) : down
            switch word {
            case 1:
                for i in 0..<count { target[i] = Int32(bitPattern: UInt32(source.load(fromByteOffset: i, as: UInt8.self)) &<< up) &>> down }
            case 2:
                for i in 0..<count {
                    target[i] = Int32(bitPattern: UInt32(source.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)) &<< up) &>> down
                }
            case 3:
                for i in 0..<count {
                    let p = 3 * i
                    let raw = UInt32(source.load(fromByteOffset: p, as: UInt8.self)) | UInt32(source.load(fromByteOffset: p + 1, as: UInt8.self)) << 8
                        | UInt32(source.load(fromByteOffset: p + 2, as: UInt8.self)) << 16
                    target[i] = Int32(bitPattern: raw &<< up) &>> down
                }
            default:
                for i in 0..<count { target[i] = Int32(bitPattern: source.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) &<< up) &>> down }
            }
        }
    }
}
