// What `print` shows for the value types a program prints: the words afinfo and Apple's
// CAStreamBasicDescription use where they print the value, field names where they do not.

extension AudioFilePacketTableInfo: CustomStringConvertible, CustomDebugStringConvertible {
    /// The frames of a packet table as afinfo counts them: `88200 valid frames, 2112 priming,
    /// 824 remainder`.
    public var description: String {
        "\(numberValidFrames) valid frames, \(primingFrames) priming, \(remainderFrames) remainder"
    }

    /// The description with the total the packets decode to: `88200 valid frames, 2112 priming,
    /// 824 remainder (91136 total)`.
    public var debugDescription: String { "\(description) (\(totalFrames) total)" }
}

extension AudioStreamPacketDescription: CustomStringConvertible {
    /// Where the packet lies: `855 bytes at 356`, and for a format of variable frames per packet
    /// `417 bytes at 0, 1152 frames`.
    public var description: String {
        let frames = variableFramesInPacket != 0 ? ", \(variableFramesInPacket) frames" : ""
        return "\(dataByteSize) bytes at \(startOffset)\(frames)"
    }
}

extension AudioTimeStamp: CustomStringConvertible {
    /// The fields ``flags`` marks valid, in the structure's order: `sample time 1024.0, host
    /// time 5000000`; `no valid time` when it marks none.
    public var description: String {
        var parts: [String] = []
        if flags.contains(.sampleTimeValid) { parts.append("sample time \(sampleTime)") }
        if flags.contains(.hostTimeValid) { parts.append("host time \(hostTime)") }
        if flags.contains(.rateScalarValid) { parts.append("rate scalar \(rateScalar)") }
        if flags.contains(.wordClockTimeValid) { parts.append("word clock time \(wordClockTime)") }
        if flags.contains(.smpteTimeValid) { parts.append("SMPTE time \(smpteTime)") }
        return parts.isEmpty ? "no valid time" : parts.joined(separator: ", ")
    }
}

extension AudioTimeStamp.Flags: CustomStringConvertible {
    /// The valid fields by name, as Core Audio's constants name them without their prefix:
    /// `[sampleTimeValid, hostTimeValid]`.
    public var description: String {
        let names: [(AudioTimeStamp.Flags, String)] = [
            (.sampleTimeValid, "sampleTimeValid"), (.hostTimeValid, "hostTimeValid"),
            (.rateScalarValid, "rateScalarValid"), (.wordClockTimeValid, "wordClockTimeValid"),
            (.smpteTimeValid, "smpteTimeValid"),
        ]
        var parts = names.filter { contains($0.0) }.map(\.1)
        let rest = rawValue & ~names.reduce(0) { $0 | $1.0.rawValue }
        if rest != 0 { parts.append("0x\(hex(UInt64(rest), digits: 8))") }
        return "[\(parts.joined(separator: ", "))]"
    }
}

extension AudioFormatFlags: CustomStringConvertible {
    /// The flags in hexadecimal, as CAStreamBasicDescription prints them (`0x0000000C`): what
    /// each bit means depends on the format ID (for FLAC and ALAC the bits give the source's bit
    /// depth), which an ``AudioStreamBasicDescription``'s description says in words.
    public var description: String { "0x\(hex(UInt64(rawValue), digits: 8))" }
}

extension AudioChannelLabel: CustomStringConvertible {
    /// The short name afinfo uses (``abbreviation``): `L`, `R`, `LFE`, `D3` for discrete
    /// channel 3, `#N` for a label it has no name for.
    public var description: String { abbreviation }
}

extension AudioChannelLayoutTag: CustomStringConvertible {
    /// The layout the tag names, as afinfo prints it (`Stereo (L R)`, `5.1 (C L R Ls Rs LFE)`,
    /// `layout tag 0x…` for one it does not know); the two tags that name no layout say what
    /// they mean (`use channel bitmap`, `use channel descriptions`).
    public var description: String {
        switch self {
        case .useChannelBitmap: "use channel bitmap"
        case .useChannelDescriptions: "use channel descriptions"
        default: AudioChannelLayout(tag: self).name
        }
    }
}

extension AudioChannelBitmap: CustomStringConvertible {
    /// The positions present, by afinfo's short names in bit order (`L R C LFE`); `no channels`
    /// for an empty bitmap.
    public var description: String {
        rawValue == 0 ? "no channels" : labels.map(\.abbreviation).joined(separator: " ")
    }
}

extension AudioChannelDescription: CustomStringConvertible {
    /// The channel's label by afinfo's short name (`Ls`); a channel placed by coordinates adds
    /// them, as rectangular or spherical (`Coordinates (-1.0, 1.0, 0.0) rectangular`).
    public var description: String {
        guard label == .useCoordinates else { return label.abbreviation }
        let kind = flags.contains(.sphericalCoordinates) ? " spherical" : flags.contains(.rectangularCoordinates) ? " rectangular" : ""
        let unit = flags.contains(.meters) ? " meters" : ""
        return "\(label.abbreviation) (\(coordinates.0), \(coordinates.1), \(coordinates.2))\(kind)\(unit)"
    }
}

extension AudioStreamBasicDescription: CustomDebugStringConvertible {
    /// Every field, by the structure's names, for `debugPrint` and failed expectations (the
    /// ``description`` leaves out the sizes it implies for linear PCM): `AudioStreamBasicDescription(
    /// sampleRate: 44100.0, formatID: 'lpcm', formatFlags: 0x0000000C, bytesPerPacket: 4, …)`.
    public var debugDescription: String {
        "AudioStreamBasicDescription(sampleRate: \(sampleRate), formatID: '\(formatID.code)', formatFlags: \(formatFlags), "
            + "bytesPerPacket: \(bytesPerPacket), framesPerPacket: \(framesPerPacket), bytesPerFrame: \(bytesPerFrame), "
            + "channelsPerFrame: \(channelsPerFrame), bitsPerChannel: \(bitsPerChannel))"
    }
}
