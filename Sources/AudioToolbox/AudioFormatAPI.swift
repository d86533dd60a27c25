public import CAudioToolbox
import AudioCore
import AudioCodecs

// Audio Format Services: AudioFormatGetPropertyInfo and AudioFormatGetProperty, with Apple's
// specifiers, value layouts and result codes. Unknown or unanswered IDs give
// kAudioFormatUnsupportedPropertyError, a specifier of the wrong size
// kAudioFormatBadSpecifierSizeError, too little room for a value kAudioFormatBadPropertySizeError.

/// A property's value.
private enum FormatAnswer {
    /// Fixed bytes: too little room is `'!siz'`.
    case bytes([UInt8])
    /// An array of `stride`-byte elements: as many whole elements as fit are written.
    case array([UInt8], stride: Int)
    /// A CFStringRef the caller releases.
    case string(String)

    var size: Int {
        switch self {
        case .bytes(let b), .array(let b, _): b.count
        case .string: MemoryLayout<CFStringRef>.size
        }
    }
}

private let asbdSize = MemoryLayout<CASBD>.size

/// The specifier as a stream description (exactly 40 bytes).
private func asbd(_ spec: UnsafeRawPointer?, _ size: UInt32) throws(FormatFailure) -> SwiftASBD {
    guard let spec, Int(size) == asbdSize else { throw .badSpecifierSize }
    return SwiftASBD(spec.loadUnaligned(as: CASBD.self))
}

/// The specifier as one UInt32 (a tag, a bitmap or a count).
private func u32(_ spec: UnsafeRawPointer?, _ size: UInt32) throws(FormatFailure) -> UInt32 {
    guard let spec, size == 4 else { throw .badSpecifierSize }
    return spec.loadUnaligned(as: UInt32.self)
}

/// The specifier's bytes (a magic cookie); nil when there are none.
private func cookie(_ spec: UnsafeRawPointer?, _ size: UInt32) -> [UInt8]? {
    guard let spec, size > 0 else { return nil }
    return Array(UnsafeRawBufferPointer(start: spec, count: Int(size)))
}

private func u32Array(_ values: [UInt32]) -> FormatAnswer {
    .array(values.withUnsafeBytes { Array($0) }, stride: 4)
}

private func items(_ list: [(format: SwiftASBD, tag: UInt32)]) -> FormatAnswer {
    // 48 bytes apart in C arrays: the struct's 44 bytes and the padding of its 8-byte alignment.
    let stride = MemoryLayout<AudioFormatListItem>.stride
    var out: [UInt8] = []
    for item in list {
        out += bytes(of: AudioFormatListItem(mASBD: item.format.c, mChannelLayoutTag: item.tag))
        out += [UInt8](repeating: 0, count: stride - MemoryLayout<AudioFormatListItem>.size)
    }
    return .array(out, stride: stride)
}

/// The value of every property but FormatInfo (whose value is also its input).
private func answer(_ id: UInt32, _ spec: UnsafeRawPointer?, _ size: UInt32) throws(FormatFailure) -> FormatAnswer {
    switch id {
    case UInt32(kAudioFormatProperty_FormatName):
        return .string(try FormatInfo.name(try asbd(spec, size)))
    case UInt32(kAudioFormatProperty_FormatIsVBR):
        return .bytes(bytes(of: UInt32(FormatInfo.isVBR(try asbd(spec, size)) ? 1 : 0)))
    case UInt32(kAudioFormatProperty_FormatIsExternallyFramed):
        return .bytes(bytes(of: UInt32(FormatInfo.isExternallyFramed(try asbd(spec, size)) ? 1 : 0)))
    case UInt32(kAudioFormatProperty_FormatIsEncrypted):  // the specifier is a format ID
        _ = try u32(spec, size)
        return .bytes(bytes(of: UInt32(0)))
    case UInt32(kAudioFormatProperty_FormatEmploysDependentPackets):
        _ = try asbd(spec, size)
        return .bytes(bytes(of: UInt32(0)))
    case UInt32(kAudioFormatProperty_EncodeFormatIDs), UInt32(kAudioFormatProperty_DecodeFormatIDs):
        return u32Array(FormatInfo.formatIDs(encode: id == UInt32(kAudioFormatProperty_EncodeFormatIDs)))
    case UInt32(kAudioFormatProperty_AvailableEncodeNumberChannels), UInt32(kAudioFormatProperty_AvailableDecodeNumberChannels):
        let format = try asbd(spec, size)
        AudioToolboxSetUp.once()
        let encode = id == UInt32(kAudioFormatProperty_AvailableEncodeNumberChannels)
        guard encode ? AudioEncoders.canEncode(format.formatID) : AudioDecoders.canDecode(format.formatID) else { throw .unsupportedData }
        if encode && !format.isPCM {
            // The counts the encoder takes (AAC: 1 to 8, as Apple's), any when it takes 64.
            var probe = format
            if !(probe.sampleRate > 0) { probe.sampleRate = 44100 }
            func takes(_ n: UInt32) -> Bool {
                var f = probe
                f.channelsPerFrame = n
                return (try? AudioEncoders.make(from: AudioEncoders.inputFormat(for: f), to: f)) != nil
            }
            if !takes(64) {
                let counts = (1...16).map(UInt32.init).filter(takes)
                if !counts.isEmpty { return u32Array(counts) }
            }
        }
        return u32Array([0xFFFF_FFFF])  // any channel count
    case UInt32(kAudioFormatProperty_FormatList):
        guard let spec, Int(size) == MemoryLayout<AudioFormatInfo>.size else { throw .badSpecifierSize }
        let info = spec.loadUnaligned(as: AudioFormatInfo.self)
        guard info.mMagicCookieSize == 0 || info.mMagicCookie != nil else { throw .badSpecifierSize }
        return items(try FormatInfo.formatList(SwiftASBD(info.mASBD), cookie: cookie(info.mMagicCookie, info.mMagicCookieSize)))
    case UInt32(kAudioFormatProperty_FirstPlayableFormatFromList):
        let stride = MemoryLayout<AudioFormatListItem>.stride
        guard let spec, size > 0, Int(size) % stride == 0 else { throw .badSpecifierSize }
        AudioToolboxSetUp.once()
        for i in 0..<Int(size) / stride {
            let item = spec.loadUnaligned(fromByteOffset: i * stride, as: AudioFormatListItem.self)
            if AudioDecoders.canDecode(AudioCore.AudioFormatID(rawValue: item.mASBD.mFormatID)) { return .bytes(bytes(of: UInt32(i))) }
        }
        throw .unsupportedData
    case UInt32(kAudioFormatProperty_ASBDFromESDS):
        guard let esds = cookie(spec, size) else { throw .badSpecifierSize }
        return .bytes(bytes(of: try FormatInfo.fromESDS(esds).format.c))
    case UInt32(kAudioFormatProperty_ChannelLayoutFromESDS):
        guard let esds = cookie(spec, size) else { throw .badSpecifierSize }
        let tag = try FormatInfo.fromESDS(esds).tag
        return .bytes(AudioCore.AudioChannelLayout(tag: AudioCore.AudioChannelLayoutTag(rawValue: tag)).nativeBytes)
    case UInt32(kAudioFormatProperty_ChannelLayoutForTag):
        return .bytes(FormatLayouts.expanded(try FormatLayouts.labels(for: .init(rawValue: try u32(spec, size)))))
    case UInt32(kAudioFormatProperty_ChannelLayoutForBitmap):
        return .bytes(try FormatLayouts.layout(forBitmap: try u32(spec, size)))
    case UInt32(kAudioFormatProperty_BitmapForLayoutTag):
        return .bytes(bytes(of: try FormatLayouts.bitmap(for: .init(rawValue: try u32(spec, size)))))
    case UInt32(kAudioFormatProperty_TagsForNumberOfChannels):
        return u32Array(FormatLayouts.tags(forChannels: try u32(spec, size)))
    case UInt32(kAudioFormatProperty_TagForChannelLayout):
        return .bytes(bytes(of: try FormatLayouts.tag(for: try FormatLayouts.layout(from: spec, size: size))))
    case UInt32(kAudioFormatProperty_NumberOfChannelsForLayout):
        let layout = try FormatLayouts.layout(from: spec, size: size)
        return .bytes(bytes(of: UInt32(clamping: layout.numberOfChannels)))
    case UInt32(kAudioFormatProperty_ChannelLayoutName), UInt32(kAudioFormatProperty_ChannelLayoutSimpleName):
        let layout = try FormatLayouts.layout(from: spec, size: size)
        return .string(try FormatLayouts.name(of: layout, simple: id == UInt32(kAudioFormatProperty_ChannelLayoutSimpleName)))
    case UInt32(kAudioFormatProperty_ChannelName), UInt32(kAudioFormatProperty_ChannelShortName):
        guard let spec, Int(size) == MemoryLayout<CAudioToolbox.AudioChannelDescription>.size else { throw .badSpecifierSize }
        let label = AudioCore.AudioChannelLabel(rawValue: spec.loadUnaligned(as: UInt32.self))
        return .string(id == UInt32(kAudioFormatProperty_ChannelName)
            ? try FormatLayouts.channelName(label) : try FormatLayouts.channelShortName(label))
    default:
        throw .unsupportedProperty
    }
}

private func status(_ body: () throws(FormatFailure) -> Void) -> OSStatus {
    do throws(FormatFailure) {
        try body()
        return noErrStatus
    } catch {
        return error.status
    }
}

@_spi(CImplementation) @_cdecl("AudioFormatGetPropertyInfo")
public func _AudioFormatGetPropertyInfo(
    _ inPropertyID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?, _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?
) -> OSStatus {
    guard let outPropertyDataSize else { return paramError }
    return status { () throws(FormatFailure) in
        if inPropertyID == UInt32(kAudioFormatProperty_FormatInfo) {
            outPropertyDataSize.pointee = UInt32(asbdSize)
            return
        }
        outPropertyDataSize.pointee = UInt32(clamping: try answer(inPropertyID, inSpecifier, inSpecifierSize).size)
    }
}

@_spi(CImplementation) @_cdecl("AudioFormatGetProperty")
public func _AudioFormatGetProperty(
    _ inPropertyID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let ioPropertyDataSize else { return paramError }
    return status { () throws(FormatFailure) in
        if inPropertyID == UInt32(kAudioFormatProperty_FormatInfo) {
            // The value is both the description to complete and the completed one.
            guard let outPropertyData else {
                ioPropertyDataSize.pointee = UInt32(asbdSize)
                return
            }
            guard Int(ioPropertyDataSize.pointee) >= asbdSize else { throw .badPropertySize }
            let given = SwiftASBD(outPropertyData.loadUnaligned(as: CASBD.self))
            let done = try FormatInfo.complete(given, cookie: cookie(inSpecifier, inSpecifierSize))
            outPropertyData.storeBytes(of: done.c, as: CASBD.self)
            ioPropertyDataSize.pointee = UInt32(asbdSize)
            return
        }
        let value = try answer(inPropertyID, inSpecifier, inSpecifierSize)
        guard let outPropertyData else {
            ioPropertyDataSize.pointee = UInt32(clamping: value.size)
            return
        }
        let room = Int(ioPropertyDataSize.pointee)
        switch value {
        case .bytes(let b):
            guard room >= b.count else { throw .badPropertySize }
            b.withUnsafeBytes { if let base = $0.baseAddress { outPropertyData.copyMemory(from: base, byteCount: $0.count) } }
            ioPropertyDataSize.pointee = UInt32(b.count)
        case .array(let b, let stride):
            let count = min(b.count, room / stride * stride)
            b.withUnsafeBytes { if let base = $0.baseAddress { outPropertyData.copyMemory(from: base, byteCount: count) } }
            ioPropertyDataSize.pointee = UInt32(count)
        case .string(let s):
            guard room >= MemoryLayout<CFStringRef>.size else { throw .badPropertySize }
            outPropertyData.storeBytes(of: CFStringRef(CFObjects.makeString(s)), as: CFStringRef.self)
            ioPropertyDataSize.pointee = UInt32(MemoryLayout<CFStringRef>.size)
        }
    }
}
