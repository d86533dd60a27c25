public import CAudioToolbox
import AudioCore
import AudioFileServices

// Audio File Stream Services: AudioFileStreamOpen, ParseBytes, Seek, GetPropertyInfo,
// GetProperty, SetProperty and Close over AudioFileStream, with Apple's value layouts.

/// What an `AudioFileStreamID` stands for: the parser and the program's callbacks.
final class StreamBox: @unchecked Sendable {
    static let table = HandleTable<StreamBox>(kind: 9)
    var stream: AudioFileServices.AudioFileStream?
    var handle: UInt = 0
    let clientData: UserData
    let listener: AudioFileStream_PropertyListenerProc
    let packets: AudioFileStream_PacketsProc

    init(clientData: UnsafeMutableRawPointer?, listener: AudioFileStream_PropertyListenerProc, packets: AudioFileStream_PacketsProc) {
        self.clientData = UserData(clientData)
        self.listener = listener
        self.packets = packets
    }

    /// The packets callback in C: descriptions as Apple's struct (AudioCore's has its layout).
    func deliver(_ data: UnsafeRawBufferPointer, _ descriptions: [AudioCore.AudioStreamPacketDescription]?) {
        let base = data.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        guard var descriptions else {
            let size = Int(stream?.dataFormat?.bytesPerPacket ?? 1)
            packets(clientData.pointer, UInt32(data.count), UInt32(data.count / max(size, 1)), base, nil)
            return
        }
        let count = UInt32(descriptions.count)
        descriptions.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CPacketDescription.self) { c in
                packets(clientData.pointer, UInt32(data.count), count, base, c.baseAddress)
            }
        }
    }
}

private let illegal = OSStatus(kAudioFileStreamError_IllegalOperation)
private let unknown = OSStatus(kAudioFileStreamError_ValueUnknown)

@_spi(CImplementation) @_cdecl("AudioFileStreamOpen")
public func _AudioFileStreamOpen(
    _ inClientData: UnsafeMutableRawPointer?, _ inPropertyListenerProc: AudioFileStream_PropertyListenerProc?,
    _ inPacketsProc: AudioFileStream_PacketsProc?, _ inFileTypeHint: UInt32,
    _ outAudioFileStream: UnsafeMutablePointer<AudioFileStreamID?>?
) -> OSStatus {
    guard let inPropertyListenerProc, let inPacketsProc, let outAudioFileStream else { return paramError }
    AudioToolboxSetUp.once()
    let box = StreamBox(clientData: inClientData, listener: inPropertyListenerProc, packets: inPacketsProc)
    return resultStatus { () throws(AudioFileStreamError) in
        let hint = inFileTypeHint == 0 ? nil : AudioFileType(rawValue: inFileTypeHint)
        box.stream = try AudioFileServices.AudioFileStream(
            fileTypeHint: hint,
            propertyListener: { [unowned box] _, id, flags in
                var c = CAudioToolbox.AudioFileStreamPropertyFlags(rawValue: flags.rawValue)
                box.listener(box.clientData.pointer, box.handle.opaque, id.rawValue, &c)
                flags = AudioFileServices.AudioFileStreamPropertyFlags(rawValue: c.rawValue)
            },
            packets: { [unowned box] _, data, descriptions in box.deliver(data, descriptions) })
        box.handle = StreamBox.table.insert(box)
        outAudioFileStream.pointee = box.handle.opaque
    }
}

@_spi(CImplementation) @_cdecl("AudioFileStreamParseBytes")
public func _AudioFileStreamParseBytes(_ inAudioFileStream: AudioFileStreamID?, _ inDataByteSize: UInt32, _ inData: UnsafeRawPointer?, _ inFlags: UInt32) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream), let stream = box.stream else { return illegal }
    guard inData != nil || inDataByteSize == 0 else { return paramError }
    return resultStatus { () throws(AudioFileStreamError) in
        try stream.parse(bytes: UnsafeRawBufferPointer(start: inData, count: Int(inDataByteSize)), flags: AudioFileServices.AudioFileStreamParseFlags(rawValue: inFlags))
    }
}

@_spi(CImplementation) @_cdecl("AudioFileStreamSeek")
public func _AudioFileStreamSeek(_ inAudioFileStream: AudioFileStreamID?, _ inPacketOffset: Int64, _ outDataByteOffset: UnsafeMutablePointer<Int64>?, _ ioFlags: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream), let stream = box.stream else { return illegal }
    guard let outDataByteOffset, let ioFlags else { return paramError }
    return resultStatus { () throws(AudioFileStreamError) in
        let (offset, estimated) = try stream.seek(toPacket: inPacketOffset)
        outDataByteOffset.pointee = offset
        ioFlags.pointee = estimated ? CAudioToolbox.AudioFileStreamSeekFlags.offsetIsEstimated.rawValue : 0
    }
}

@_spi(CImplementation) @_cdecl("AudioFileStreamClose")
public func _AudioFileStreamClose(_ inAudioFileStream: AudioFileStreamID?) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream) else { return illegal }
    StreamBox.table.remove(box.handle)
    box.stream?.close()
    return noErrStatus
}

// MARK: Properties

/// The translation properties: their value goes in and out through the same struct.
private let translations: Set<UInt32> = [
    kAudioFileStreamProperty_PacketToFrame, kAudioFileStreamProperty_FrameToPacket,
    kAudioFileStreamProperty_PacketToByte, kAudioFileStreamProperty_ByteToPacket,
]

extension StreamBox {
    /// A property's value as bytes: nil for one this parser does not have ('pty?'), or throws
    /// 'unk?' for one not known yet.
    func propertyBytes(_ id: UInt32) throws(AudioFileStreamError) -> [UInt8]? {
        guard let s = stream else { throw AudioFileStreamError(.illegalOperation, "closed") }
        func known<T>(_ value: T?) throws(AudioFileStreamError) -> T {
            guard let value else { throw AudioFileStreamError(.valueUnknown, "not known yet") }
            return value
        }
        switch AudioFileServices.AudioFileStreamPropertyID(rawValue: id) {
        case .readyToProducePackets: return bytes(of: UInt32(s.readyToProducePackets ? 1 : 0))
        case .fileFormat: return bytes(of: try known(s.fileFormat).rawValue)
        case .dataFormat: return bytes(of: try known(s.dataFormat).c)
        case .formatList:
            let list = FileFormatList.items(try known(s.dataFormat), cookie: s.magicCookie, layoutTag: s.channelLayout?.tag.rawValue ?? 0)
            return FileFormatList.bytes(list)
        case .magicCookieData: return try known(s.magicCookie)
        case .audioDataByteCount: return bytes(of: UInt64(clamping: try known(s.audioDataByteCount)))
        case .audioDataPacketCount: return bytes(of: UInt64(clamping: try known(s.audioDataPacketCount)))
        case .maximumPacketSize: return bytes(of: UInt32(clamping: try known(s.maximumPacketSize)))
        case .dataOffset: return bytes(of: try known(s.dataOffset))
        case .channelLayout: return LayoutBytes.encode(try known(s.channelLayout))
        case .packetTableInfo: return bytes(of: FileBox.c(try known(s.packetTableInfo)))
        case .packetSizeUpperBound: return bytes(of: UInt32(clamping: try known(s.packetSizeUpperBound)))
        case .averageBytesPerPacket: return bytes(of: try known(s.averageBytesPerPacket))
        case .bitRate: return bytes(of: UInt32(clamping: try known(s.bitRate)))
        case .packetToFrame, .frameToPacket: return bytes(of: CAudioToolbox.AudioFramePacketTranslation())
        case .packetToByte, .byteToPacket: return bytes(of: CAudioToolbox.AudioBytePacketTranslation())
        case .infoDictionary:
            // A CFDictionaryRef, once the header is parsed; AudioFileStreamGetProperty makes it.
            _ = try known(s.dataFormat)
            return [UInt8](repeating: 0, count: MemoryLayout<CFDictionaryRef>.size)
        default: return nil
        }
    }

    /// Frame ↔ packet ↔ byte translation, in and out through `data`.
    func translate(_ id: UInt32, _ data: UnsafeMutableRawPointer) throws(AudioFileStreamError) {
        guard let s = stream else { throw AudioFileStreamError(.illegalOperation, "closed") }
        switch AudioFileServices.AudioFileStreamPropertyID(rawValue: id) {
        case .packetToFrame, .frameToPacket:
            var t = data.loadUnaligned(as: CAudioToolbox.AudioFramePacketTranslation.self)
            if id == AudioFileServices.AudioFileStreamPropertyID.packetToFrame.rawValue {
                t.mFrame = try s.frame(forPacket: t.mPacket)
            } else {
                let found = try s.packet(forFrame: t.mFrame)
                (t.mPacket, t.mFrameOffsetInPacket) = (found.packet, UInt32(clamping: found.frameOffsetInPacket))
            }
            data.storeBytes(of: t, as: CAudioToolbox.AudioFramePacketTranslation.self)
        default:
            var t = data.loadUnaligned(as: CAudioToolbox.AudioBytePacketTranslation.self)
            let estimated: Bool
            if id == AudioFileServices.AudioFileStreamPropertyID.packetToByte.rawValue {
                (t.mByte, estimated) = try s.byteOffset(forPacket: t.mPacket)
            } else {
                let found = try s.packet(forByteOffset: t.mByte)
                (t.mPacket, t.mByteOffsetInPacket, estimated) = (found.packet, UInt32(clamping: found.byteOffsetInPacket), found.isEstimated)
            }
            t.mFlags = estimated ? .bytePacketTranslationFlag_IsEstimate : []
            data.storeBytes(of: t, as: CAudioToolbox.AudioBytePacketTranslation.self)
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioFileStreamGetPropertyInfo")
public func _AudioFileStreamGetPropertyInfo(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: UInt32, _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<Bool>?) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream) else { return illegal }
    return resultStatus { () throws(AudioFileStreamError) in
        guard let value = try box.propertyBytes(inPropertyID) else {
            throw AudioFileStreamError(.unsupportedProperty, "no property '\(FourCharCode(rawValue: inPropertyID))'")
        }
        outPropertyDataSize?.pointee = UInt32(value.count)
        outWritable?.pointee = false
    }
}

@_spi(CImplementation) @_cdecl("AudioFileStreamGetProperty")
public func _AudioFileStreamGetProperty(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: UInt32, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream) else { return illegal }
    guard let ioPropertyDataSize, let outPropertyData else { return paramError }
    let badSize = OSStatus(kAudioFileStreamError_BadPropertySize)
    var value: [UInt8]?
    let status = resultStatus { () throws(AudioFileStreamError) in value = try box.propertyBytes(inPropertyID) }
    guard status == noErrStatus else { return status }
    guard let value else { return OSStatus(kAudioFileStreamError_UnsupportedProperty) }
    if inPropertyID == UInt32(kAudioFileStreamProperty_InfoDictionary), let stream = box.stream {
        return InfoDictionary.copyOut(stream.metadata, outPropertyData, ioPropertyDataSize, tooSmall: badSize)
    }
    if translations.contains(inPropertyID) {
        guard Int(ioPropertyDataSize.pointee) == value.count else { return badSize }
        return resultStatus { () throws(AudioFileStreamError) in try box.translate(inPropertyID, outPropertyData) }
    }
    if inPropertyID == UInt32(kAudioFileStreamProperty_FormatList) {
        return FileFormatList.copyOut(value, outPropertyData, ioPropertyDataSize, tooSmall: badSize)
    }
    // A magic cookie may be asked for with more room than it needs; fixed-size values must fit.
    return copyOut(value, outPropertyData, ioPropertyDataSize, tooSmall: badSize)
}

@_spi(CImplementation) @_cdecl("AudioFileStreamSetProperty")
public func _AudioFileStreamSetProperty(_ inAudioFileStream: AudioFileStreamID?, _ inPropertyID: UInt32, _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    guard let box = StreamBox.table.object(inAudioFileStream) else { return illegal }
    guard inPropertyData != nil || inPropertyDataSize == 0 else { return paramError }
    // Apple's parser has no settable properties.
    return (try? box.propertyBytes(inPropertyID)) == nil && !translations.contains(inPropertyID)
        && AudioFileServices.AudioFileStreamPropertyID(rawValue: inPropertyID) != .readyToProducePackets
        ? OSStatus(kAudioFileStreamError_UnsupportedProperty) : illegal
}
