import CAudioToolbox
import AudioCore
import AudioFileServices
import AudioCodecFAAD

// kAudioFilePropertyFormatList and kAudioFileStreamProperty_FormatList: the formats a file's
// encoded data can be decoded to, richest first (QA1639). For AAC with SBR signalled in the magic
// cookie: 'aach' at the SBR rate, then the 'aac ' core; with PS, 'aacp' first. AAC-LC at up to
// 24 kHz whose first packet carries SBR data (implicit signalling, as in ADTS): 'aach' at twice
// the rate, then the core. Anything else: one item, the data format.

enum FileFormatList {
    /// The list for a file or stream whose data format is `format`, with `cookie` and the
    /// channel layout tag `layoutTag` (0 when the file has no layout). `firstPacket`, where
    /// given, is looked at for SBR that the config does not signal (ADTS HE-AAC): 'aach' at twice
    /// the core rate then comes first.
    static func items(_ format: SwiftASBD, cookie: [UInt8]?, layoutTag: UInt32, firstPacket: [UInt8]? = nil) -> [(format: SwiftASBD, tag: UInt32)] {
        if let cookie, !cookie.isEmpty, FormatInfo.aacFamily.contains(format.formatID),
           var list = try? FormatInfo.aacList(format, cookie: cookie), list.count > 1 {
            // Each layer with its own object type in the flags, as the data format has it.
            for i in list.indices {
                list[i].format.formatFlags = switch list[i].format.formatID {
                case .mpeg4AAC_HE: AudioCore.AudioFormatFlags(rawValue: 5)
                case .mpeg4AAC_HE_V2: AudioCore.AudioFormatFlags(rawValue: 29)
                default: list[i].format.formatID == format.formatID ? format.formatFlags : AudioCore.AudioFormatFlags(rawValue: 2)
                }
            }
            return list
        }
        var tag = layoutTag
        if tag == 0 {
            tag = switch format.channelsPerFrame {
            case 1: AudioCore.AudioChannelLayoutTag.mono.rawValue
            case 2: AudioCore.AudioChannelLayoutTag.stereo.rawValue
            default: FormatInfo.unknownTag(format.channelsPerFrame)
            }
        }
        if format.formatID == .mpeg4AAC, let firstPacket,
           AACDecoder.carriesImplicitSBR(input: format, magicCookie: cookie, firstPacket: firstPacket) {
            var he = format
            he.formatID = .mpeg4AAC_HE
            he.formatFlags = AudioCore.AudioFormatFlags(rawValue: 5)
            he.sampleRate = format.sampleRate * 2
            he.framesPerPacket = format.framesPerPacket * 2
            return [(he, tag), (format, tag)]
        }
        return [(format, tag)]
    }

    /// The first packet of `file`, for ``items(_:cookie:layoutTag:firstPacket:)``: only for AAC
    /// whose core rate leaves room for SBR.
    static func firstPacket(_ file: AudioFile) -> [UInt8]? {
        guard file.dataFormat.formatID == .mpeg4AAC, file.dataFormat.sampleRate <= 24000, file.packetCount > 0,
              let read = try? file.readPackets(from: 0, count: 1) else { return nil }
        return read.data
    }

    /// The list as a C array of `AudioFormatListItem`, 48 bytes apart.
    static func bytes(_ list: [(format: SwiftASBD, tag: UInt32)]) -> [UInt8] {
        let stride = MemoryLayout<AudioFormatListItem>.stride
        var out: [UInt8] = []
        for item in list {
            var c = AudioFormatListItem(mASBD: item.format.c, mChannelLayoutTag: item.tag)
            withUnsafeBytes(of: &c) { out += $0 }
            out += [UInt8](repeating: 0, count: stride - MemoryLayout<AudioFormatListItem>.size)
        }
        return out
    }

    /// Copies as many whole items as `ioDataSize` holds (the richest first, so a program asking
    /// for one item gets the richest format); fewer bytes than one item is `tooSmall`.
    static func copyOut(_ list: [UInt8], _ out: UnsafeMutableRawPointer, _ ioDataSize: UnsafeMutablePointer<UInt32>, tooSmall: OSStatus) -> OSStatus {
        let stride = MemoryLayout<AudioFormatListItem>.stride
        let room = Int(ioDataSize.pointee)
        guard room >= MemoryLayout<AudioFormatListItem>.size else { return tooSmall }
        // The last item needs only its own size, not the padding after it.
        let items = min(list.count / stride, (room - MemoryLayout<AudioFormatListItem>.size) / stride + 1)
        let count = items == list.count / stride ? min(list.count, room) : items * stride
        list.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: count) }
        ioDataSize.pointee = UInt32(count)
        return 0
    }
}
