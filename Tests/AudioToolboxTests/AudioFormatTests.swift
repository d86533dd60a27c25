import AudioToolbox
import enum AudioCodecs.AudioEncoders
import Testing

/// Audio Format Services from Swift with Apple's signatures, each property against the values
/// Apple's documentation and headers give (channel counts are a tag's low 16 bits, AAC packets
/// hold 1024 frames, HE-AAC's 2048, IMA4's 64 in 34 bytes per channel).
@Suite("Audio Format Services")
struct AudioFormatTests {
    /// A property's value for `spec`: the size AudioFormatGetPropertyInfo gives, then the bytes.
    static func property(_ id: AudioFormatPropertyID, _ spec: [UInt8]) -> (status: OSStatus, bytes: [UInt8]) {
        var size: UInt32 = 0
        let info = spec.withUnsafeBytes { AudioFormatGetPropertyInfo(id, UInt32($0.count), $0.count == 0 ? nil : $0.baseAddress, &size) }
        guard info == noErr else { return (info, []) }
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = spec.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { AudioFormatGetProperty(id, UInt32(s.count), s.count == 0 ? nil : s.baseAddress, &size, $0.baseAddress) }
        }
        return (status, Array(out.prefix(Int(size))))
    }

    static func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
    static func u32s(_ b: [UInt8]) -> [UInt32] { stride(from: 0, to: b.count - 3, by: 4).map { i in b[i..<(i + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } } }

    static func string(_ id: AudioFormatPropertyID, _ spec: [UInt8]) -> String? {
        let r = property(id, spec)
        guard r.status == noErr, r.bytes.count == 8 else { return nil }
        guard let ref = r.bytes.withUnsafeBytes({ $0.loadUnaligned(as: CFStringRef?.self) }) else { return nil }
        defer { CFRelease(UnsafeRawPointer(ref)) }
        var text = [CChar](repeating: 0, count: 256)
        guard ATCFStringGetCString(ref, &text, 256, CFStringBuiltInEncodings.UTF8.rawValue) else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func format(_ id: AudioFormatID, rate: Double = 44100, channels: UInt32 = 2) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(
            mSampleRate: rate, mFormatID: id, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
            mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
    }

    static func formatInfo(_ f: AudioStreamBasicDescription, cookie: [UInt8] = []) -> (OSStatus, AudioStreamBasicDescription) {
        var out = f
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let status = cookie.withUnsafeBytes {
            AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, UInt32($0.count), $0.count == 0 ? nil : $0.baseAddress, &size, &out)
        }
        return (status, out)
    }

    /// An MPEG-4 ES descriptor (as a CAF 'kuki' or an esds atom holds) around an AudioSpecificConfig.
    static func esds(_ asc: [UInt8]) -> [UInt8] {
        let specific: [UInt8] = [0x05, UInt8(asc.count)] + asc
        let config: [UInt8] = [0x04, UInt8(13 + specific.count), 0x40, 0x15, 0, 0x18, 0, 0, 0x01, 0xF4, 0, 0, 0x01, 0xF4, 0] + specific
        let sl: [UInt8] = [0x06, 0x01, 0x02]
        return [0x03, UInt8(3 + config.count + sl.count), 0, 1, 0] + config + sl
    }
    /// AAC LC, 44.1 kHz, stereo.
    static let lcCookie = esds([0x12, 0x10])
    /// Explicit HE-AAC: SBR (object type 5) on an AAC LC core at 24 kHz, output 48 kHz, stereo.
    static let heCookie = esds([0x2B, 0x11, 0x88, 0x00])

    @Test("FormatInfo completes AAC (1024 frames, variable size), HE-AAC (2048), IMA4 (64 frames, 34 bytes a channel), G.711 and 16-bit PCM")
    func formatInfo() {
        let (s1, aac) = Self.formatInfo(Self.format(kAudioFormatMPEG4AAC))
        #expect(s1 == noErr && aac.mFramesPerPacket == 1024 && aac.mBytesPerPacket == 0 && aac.mBytesPerFrame == 0)
        #expect(aac.mSampleRate == 44100 && aac.mChannelsPerFrame == 2)
        #expect(Self.formatInfo(Self.format(kAudioFormatMPEG4AAC_HE)).1.mFramesPerPacket == 2048)
        let ima = Self.formatInfo(Self.format(kAudioFormatAppleIMA4)).1
        #expect(ima.mFramesPerPacket == 64 && ima.mBytesPerPacket == 68)
        let ulaw = Self.formatInfo(Self.format(kAudioFormatULaw)).1
        #expect(ulaw.mFramesPerPacket == 1 && ulaw.mBytesPerPacket == 2 && ulaw.mBytesPerFrame == 2 && ulaw.mBitsPerChannel == 8)
        var pcm = Self.format(kAudioFormatLinearPCM)
        pcm.mFormatFlags = kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
        pcm.mBitsPerChannel = 16
        let done = Self.formatInfo(pcm).1
        #expect(done.mBytesPerFrame == 4 && done.mBytesPerPacket == 4 && done.mFramesPerPacket == 1)
        #expect(Self.formatInfo(Self.format(kAudioFormatQDesign)).0 == kAudioFormatUnsupportedDataFormatError)
    }

    @Test("FormatInfo with an ES descriptor cookie takes rate, channels and packet length from it; HE-AAC's base format is its AAC core")
    func formatInfoFromCookie() {
        let (s1, lc) = Self.formatInfo(Self.format(kAudioFormatMPEG4AAC, rate: 0, channels: 0), cookie: Self.lcCookie)
        #expect(s1 == noErr && lc.mSampleRate == 44100 && lc.mChannelsPerFrame == 2 && lc.mFramesPerPacket == 1024)
        let (s2, he) = Self.formatInfo(Self.format(kAudioFormatMPEG4AAC_HE, rate: 0, channels: 0), cookie: Self.heCookie)
        #expect(s2 == noErr && he.mFormatID == kAudioFormatMPEG4AAC && he.mSampleRate == 24000 && he.mFramesPerPacket == 1024)
        #expect(Self.formatInfo(Self.format(kAudioFormatMPEG4AAC), cookie: [0x03, 0x7F]).0 == kAudioFormatUnsupportedDataFormatError)
    }

    @Test("FormatList lists HE-AAC (48 kHz, 2048 frames) before its core; ASBDFromESDS and ChannelLayoutFromESDS read the descriptor")
    func formatList() {
        Self.heCookie.withUnsafeBytes { cookie in
            var info = AudioFormatInfo(mASBD: Self.format(kAudioFormatMPEG4AAC_HE, rate: 0, channels: 0), mMagicCookie: cookie.baseAddress, mMagicCookieSize: UInt32(cookie.count))
            let r = Self.property(kAudioFormatProperty_FormatList, Self.bytes(info))
            #expect(r.status == noErr && r.bytes.count == 2 * 48)
            let items = r.bytes.withUnsafeBytes { b in (0..<r.bytes.count / 48).map { b.loadUnaligned(fromByteOffset: $0 * 48, as: AudioFormatListItem.self) } }
            #expect(items.map(\.mASBD.mFormatID) == [kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC])
            #expect(items.map(\.mASBD.mSampleRate) == [48000, 24000] && items.map(\.mASBD.mFramesPerPacket) == [2048, 1024])
            #expect(items.allSatisfy { $0.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo })
            info.mMagicCookieSize = 0
            #expect(Self.property(kAudioFormatProperty_FormatList, Self.bytes(info)).bytes.count == 48)
        }
        let asbd = Self.property(kAudioFormatProperty_ASBDFromESDS, Self.lcCookie)
        let f = asbd.bytes.withUnsafeBytes { $0.loadUnaligned(as: AudioStreamBasicDescription.self) }
        #expect(asbd.status == noErr && f.mFormatID == kAudioFormatMPEG4AAC && f.mSampleRate == 44100 && f.mChannelsPerFrame == 2 && f.mFormatFlags == 2)
        #expect(Self.u32s(Self.property(kAudioFormatProperty_ChannelLayoutFromESDS, Self.lcCookie).bytes).first == kAudioChannelLayoutTag_Stereo)
    }

    @Test("FormatIsVBR and FormatIsExternallyFramed: AAC yes, PCM and IMA4 no")
    func vbr() {
        var pcm = Self.format(kAudioFormatLinearPCM)
        pcm.mBitsPerChannel = 16
        for (f, vbr) in [(Self.format(kAudioFormatMPEG4AAC), 1), (pcm, 0), (Self.format(kAudioFormatAppleIMA4), 0)] as [(AudioStreamBasicDescription, UInt32)] {
            #expect(Self.u32s(Self.property(kAudioFormatProperty_FormatIsVBR, Self.bytes(f)).bytes) == [vbr])
            #expect(Self.u32s(Self.property(kAudioFormatProperty_FormatIsExternallyFramed, Self.bytes(f)).bytes) == [vbr])
        }
    }

    @Test("FormatName names the format, its channels and rate; the caller releases the string")
    func formatName() {
        #expect(Self.string(kAudioFormatProperty_FormatName, Self.bytes(Self.format(kAudioFormatMPEG4AAC))) == "AAC, 2 channels, 44100 Hz")
        var pcm = Self.format(kAudioFormatLinearPCM, rate: 48000, channels: 1)
        pcm.mFormatFlags = kAudioFormatFlagIsFloat
        pcm.mBitsPerChannel = 32
        #expect(Self.string(kAudioFormatProperty_FormatName, Self.bytes(pcm)) == "Linear PCM, 32 bit little-endian float, 1 channel, 48000 Hz")
    }

    @Test("EncodeFormatIDs and DecodeFormatIDs list the codec registries")
    func formatIDs() {
        // The registry is the process's: other suites in this run may register encoders of their
        // own ('tst1') at any time, even between two reads here, and registrations are never
        // taken back. So the list holds at least what was registered before it was asked for,
        // and nothing that was not registered after.
        let earlier = Set(AudioEncoders.formatIDs.map(\.rawValue))
        let encode = Set(Self.u32s(Self.property(kAudioFormatProperty_EncodeFormatIDs, []).bytes))
        let registered = Set(AudioEncoders.formatIDs.map(\.rawValue))
        #expect(encode.isSuperset(of: earlier) && encode.isSubset(of: registered), "listed \(encode), registered \(earlier) then \(registered)")
        // The built-in encoders, and AAC, FLAC and Opus, which the library registers (AudioCodecAVCodec,
        // AudioCodecFLAC, AudioCodecOpus).
        let package = [
            kAudioFormatLinearPCM, kAudioFormatAppleIMA4, kAudioFormatULaw, kAudioFormatALaw, kAudioFormatMPEG4AAC, kAudioFormatFLAC,
            kAudioFormatOpus,
        ]
        #expect(registered.isSuperset(of: package))
        #expect(registered.subtracting(package).isSubset(of: [0x7473_7431]))
        let decode = Set(Self.u32s(Self.property(kAudioFormatProperty_DecodeFormatIDs, []).bytes))
        #expect(decode.isSuperset(of: [kAudioFormatLinearPCM, kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEGLayer3, kAudioFormatAppleLossless, kAudioFormatAppleIMA4]))
    }

    @Test("Channel layouts: Stereo is L R, MPEG 5.1 A is L R C LFE Ls Rs, bitmaps and tags convert, counts and names")
    func layouts() {
        func labels(_ layout: [UInt8]) -> [UInt32] {
            let n = Int(Self.u32s(layout)[2])
            return (0..<n).map { Self.u32s(Array(layout[(12 + 20 * $0)...]))[0] }
        }
        let stereo = Self.property(kAudioFormatProperty_ChannelLayoutForTag, Self.bytes(kAudioChannelLayoutTag_Stereo))
        #expect(stereo.status == noErr && Self.u32s(stereo.bytes)[0] == kAudioChannelLayoutTag_UseChannelDescriptions)
        #expect(labels(stereo.bytes) == [kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        let surround = Self.property(kAudioFormatProperty_ChannelLayoutForTag, Self.bytes(kAudioChannelLayoutTag_MPEG_5_1_A))
        #expect(labels(surround.bytes) == [1, 2, 3, 4, 5, 6])
        let fromBitmap = Self.property(kAudioFormatProperty_ChannelLayoutForBitmap, Self.bytes(UInt32(0x3F)))
        #expect(labels(fromBitmap.bytes) == [1, 2, 3, 4, 5, 6])
        #expect(Self.u32s(Self.property(kAudioFormatProperty_BitmapForLayoutTag, Self.bytes(kAudioChannelLayoutTag_MPEG_5_1_D)).bytes) == [0x3F])
        #expect(Self.property(kAudioFormatProperty_BitmapForLayoutTag, Self.bytes(kAudioChannelLayoutTag_MatrixStereo)).status == kAudioFormatUnsupportedDataFormatError)

        let tagOnly = Self.bytes(kAudioChannelLayoutTag_MPEG_5_1_D) + [UInt8](repeating: 0, count: 28)
        #expect(Self.u32s(Self.property(kAudioFormatProperty_NumberOfChannelsForLayout, tagOnly).bytes) == [6])
        #expect(Self.u32s(Self.property(kAudioFormatProperty_NumberOfChannelsForLayout, stereo.bytes).bytes) == [2])
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, tagOnly) == "5.1 (C L R Ls Rs LFE)")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutSimpleName, tagOnly) == "5.1")
        var left = [UInt8](repeating: 0, count: 20)
        left[0] = 1
        #expect(Self.string(kAudioFormatProperty_ChannelName, left) == "Left")
        #expect(Self.string(kAudioFormatProperty_ChannelShortName, left) == "L")
        #expect(Self.u32s(Self.property(kAudioFormatProperty_TagForChannelLayout, fromBitmap.bytes).bytes) == [kAudioChannelLayoutTag_MPEG_5_1_A])
        #expect(Self.u32s(Self.property(kAudioFormatProperty_TagForChannelLayout, stereo.bytes).bytes) == [kAudioChannelLayoutTag_Stereo])
        let tags = Self.u32s(Self.property(kAudioFormatProperty_TagsForNumberOfChannels, Self.bytes(UInt32(2))).bytes)
        #expect(tags.contains(kAudioChannelLayoutTag_Stereo) && tags.allSatisfy { $0 & 0xFFFF == 2 })
    }

    @Test("Misuse: unknown property 'prop', wrong specifier size '!spc', too little room '!siz', NULL size -50; NULL data gives the size")
    func misuse() {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(0x7A7A_7A7A, 0, nil, &size) == kAudioFormatUnsupportedPropertyError)
        #expect(Self.property(kAudioFormatProperty_FormatIsVBR, [1, 2, 3]).status == kAudioFormatBadSpecifierSizeError)
        #expect(Self.property(kAudioFormatProperty_NumberOfChannelsForLayout, [0, 0]).status == kAudioFormatBadSpecifierSizeError)
        var f = Self.format(kAudioFormatMPEG4AAC)
        size = 10
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f) == kAudioFormatBadPropertySizeError)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, nil, &f) == kAudio_ParamError)
        size = 0
        // NULL data: the size the list takes, 4 bytes an ID: between the list before and the
        // registry after, which another suite may add to meanwhile (see formatIDs()).
        let listed = Self.property(kAudioFormatProperty_EncodeFormatIDs, []).bytes.count
        #expect(AudioFormatGetProperty(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size, nil) == noErr && listed >= 16)
        let registered = 4 * AudioEncoders.formatIDs.count
        #expect(Int(size) % 4 == 0 && Int(size) >= listed && Int(size) <= registered, "size \(size), listed \(listed) bytes, \(registered) registered")
    }
}
