import AudioCore

/// How one linear PCM format stores a sample: kind, width, word, byte order, position in the
/// word and where the channels are. Derived once from an `AudioStreamBasicDescription`.
struct PCMSampleLayout: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case signed, unsigned, float
    }

    /// Integer signedness or float.
    var kind: Kind
    /// Significant bits of a sample (32 or 64 for float).
    var bits: Int
    /// Bytes of the word that holds one sample: 1...4 for integers, 4 or 8 for floats.
    var wordSize: Int
    /// True when the word's bytes are stored most significant first.
    var bigEndian: Bool
    /// Bit position of the sample's least significant bit within its word (non-zero only for
    /// high-aligned samples narrower than their word).
    var shift: Int
    /// Channels in a frame.
    var channels: Int
    /// True when all channels share one region.
    var interleaved: Bool

    /// Bytes between one frame of a channel and the next.
    var frameStride: Int { interleaved ? wordSize * channels : wordSize }
    /// Number of regions the data is split into.
    var regionCount: Int { interleaved ? 1 : channels }
    /// True when the word holds nothing but the sample.
    var isFullWord: Bool { bits == wordSize * 8 }

    /// The layout of `format`, or `formatNotSupported` when it is not a linear PCM layout this
    /// package converts (integers wider than 32 bits, fixed point, float words of odd sizes).
    init(_ format: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard format.isPCM else {
            throw AudioCodecError(.formatNotSupported, "\(format.formatID.messageName) is not linear PCM")
        }
        guard format.channelsPerFrame > 0, format.bytesPerFrame > 0, format.bitsPerChannel > 0 else {
            throw AudioCodecError(.formatNotSupported, "linear PCM needs channels, bytes per frame and bits per channel")
        }
        let channels = Int(format.channelsPerFrame)
        let interleaved = format.isInterleaved || channels == 1
        let frameBytes = Int(format.bytesPerFrame)
        if interleaved && frameBytes % channels != 0 {
            throw AudioCodecError(.formatNotSupported, "\(frameBytes) bytes per frame do not divide among \(channels) channels")
        }
        let word = interleaved ? frameBytes / channels : frameBytes
        let bits = Int(format.bitsPerChannel)
        let fraction = (format.formatFlags.rawValue & AudioFormatFlags.sampleFractionMask.rawValue)
            >> AudioFormatFlags.sampleFractionShift
        guard fraction == 0 else {
            throw AudioCodecError(.formatNotSupported, "fixed-point linear PCM is not supported")
        }
        if format.isFloat {
            guard (bits == 32 && word == 4) || (bits == 64 && word == 8) else {
                throw AudioCodecError(.formatNotSupported, "\(bits)-bit float in \(word)-byte words is not supported")
            }
            kind = .float
        } else {
            guard (1...4).contains(word), bits <= word * 8 else {
                throw AudioCodecError(.formatNotSupported, "\(bits)-bit integers in \(word)-byte words are not supported")
            }
            kind = format.isSignedInteger ? .signed : .unsigned
        }
        self.bits = bits
        self.wordSize = word
        self.bigEndian = word > 1 && format.isBigEndian
        self.shift = bits < word * 8 && format.formatFlags.contains(.isAlignedHigh) ? word * 8 - bits : 0
        self.channels = channels
        self.interleaved = interleaved
    }

    /// The sample word that means silence: all zeros, except for unsigned integers (mid-scale).
    var silenceWord: UInt64 {
        guard kind == .unsigned else { return 0 }
        return UInt64(1) << UInt64(bits - 1 + shift)
    }

    /// Writes `frames` frames of silence at frame `start` of every region of `buffer`.
    func fillSilence(_ buffer: PCMBuffer, start: Int, frames: Int) {
        guard frames > 0 else { return }
        let word = silenceWord
        for index in 0..<regionCount {
            guard let base = buffer.region(index).baseAddress else { continue }
            let first = base + start * frameStride
            let count = frames * frameStride
            if word == 0 {
                first.initializeMemory(as: UInt8.self, repeating: 0, count: count)
            } else {
                // One word repeated: write its bytes in stored order.
                var offset = 0
                while offset < count {
                    for b in 0..<wordSize {
                        let byte = bigEndian ? word >> UInt64(8 * (wordSize - 1 - b)) : word >> UInt64(8 * b)
                        first.storeBytes(of: UInt8(truncatingIfNeeded: byte), toByteOffset: offset + b, as: UInt8.self)
                    }
                    offset += wordSize
                }
            }
        }
    }
}

extension PCMBuffer {
    /// Appends `frames` frames of zero samples (silence in Float32 and signed integer formats),
    /// at most `limit` and as many as fit, and returns how many: what a decoder gives for a
    /// packet that completes nothing or cannot be decoded, so the stream keeps its timing.
    @discardableResult
    public func appendZeros(frames: Int, limit: Int = .max) -> Int {
        let n = max(0, min(frames, limit, framesFree))
        guard n > 0 else { return 0 }
        let bytes = n * Int(format.bytesPerFrame)
        freeSpace(0).baseAddress!.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        frameLength += n
        return n
    }

    /// Appends `frames` frames of silence (or as many as fit) for a packet that could not be
    /// decoded, so the stream keeps its timing.
    func appendSilence(frames: Int, layout: PCMSampleLayout) {
        let n = min(max(frames, 0), framesFree)
        layout.fillSilence(self, start: frameLength, frames: n)
        frameLength += n
    }
}

extension PCMBuffer {
    /// Checks that a decoder whose output format is `format` may append `frames` frames:
    /// `formatNotSupported` for a buffer of another format, `invalidOutputSize` when they don't fit.
    func checkAppend(_ frames: Int, as format: AudioStreamBasicDescription) throws(AudioCodecError) {
        guard self.format == format else {
            throw AudioCodecError(.formatNotSupported, "the buffer's format is not the decoder's output format")
        }
        guard frames <= framesFree else {
            throw AudioCodecError(.invalidOutputSize, "\(frames) frames do not fit in \(framesFree) free frames")
        }
    }
}
