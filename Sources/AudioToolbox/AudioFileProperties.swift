public import CAudioToolbox
import AudioCore
import AudioFileServices

// Audio File Services: AudioFileGetPropertyInfo, AudioFileGetProperty, AudioFileSetProperty,
// with Apple's value layouts. A file being written takes an info dictionary (a CFDictionaryRef of
// CFString keys and CFString or CFNumber values), as Apple's files being written do. The info dictionary and the album artwork are new CF objects the
// caller releases (the artwork a CFData of the image bytes, or NULL), as Apple's header says. Unknown IDs give kAudioFileUnsupportedPropertyError, a value
// of the wrong size kAudioFileBadPropertySizeError.

private let unsupported = OSStatus(kAudioFileUnsupportedPropertyError)
private let badSize = OSStatus(kAudioFileBadPropertySizeError)

extension FileBox {
    /// A property's value as bytes; nil for a property the file does not have.
    func propertyBytes(_ id: UInt32) -> [UInt8]? {
        switch (id, file) {
        case (UInt32(kAudioFilePropertyFileFormat), .reader(let f)): return bytes(of: f.fileType.rawValue)
        case (UInt32(kAudioFilePropertyFileFormat), .writer(let w)): return bytes(of: w.fileType.rawValue)
        case (UInt32(kAudioFilePropertyDataFormat), _): return bytes(of: dataFormat.c)
        case (UInt32(kAudioFilePropertyIsOptimized), _): return bytes(of: UInt32(1))
        case (UInt32(kAudioFilePropertyAudioTrackCount), .reader(let f)): return bytes(of: UInt32(clamping: f.trackCount))
        case (UInt32(kAudioFilePropertyAudioTrackCount), .writer): return bytes(of: UInt32(1))
        case (UInt32(kAudioFilePropertyDeferSizeUpdates), _): return bytes(of: UInt32(0))
        case (UInt32(kAudioFilePropertyMagicCookieData), .reader(let f)): return f.magicCookie ?? []
        case (UInt32(kAudioFilePropertyMagicCookieData), .writer(let w)): return w.magicCookie ?? []
        case (UInt32(kAudioFilePropertyAudioDataByteCount), .reader(let f)): return bytes(of: UInt64(f.dataByteCount))
        case (UInt32(kAudioFilePropertyAudioDataByteCount), .writer(let w)): return bytes(of: UInt64(w.dataByteCount))
        case (UInt32(kAudioFilePropertyAudioDataPacketCount), .reader(let f)): return bytes(of: UInt64(f.packetCount))
        case (UInt32(kAudioFilePropertyAudioDataPacketCount), .writer(let w)): return bytes(of: UInt64(w.packetCount))
        case (UInt32(kAudioFilePropertyMaximumPacketSize), .reader(let f)): return bytes(of: UInt32(clamping: f.maximumPacketSize))
        case (UInt32(kAudioFilePropertyMaximumPacketSize), .writer(let w)): return bytes(of: UInt32(clamping: w.maximumPacketSize))
        case (UInt32(kAudioFilePropertyPacketSizeUpperBound), .reader(let f)): return bytes(of: UInt32(clamping: f.packetSizeUpperBound))
        case (UInt32(kAudioFilePropertyDataOffset), .reader(let f)): return bytes(of: f.dataOffset)
        case (UInt32(kAudioFilePropertyDataOffset), .writer(let w)): return bytes(of: w.dataOffset)
        case (UInt32(kAudioFilePropertyChannelLayout), .reader(let f)): return f.channelLayout.map(LayoutBytes.encode)
        case (UInt32(kAudioFilePropertyChannelLayout), .writer(let w)): return w.channelLayout.map(LayoutBytes.encode)
        case (UInt32(kAudioFilePropertyPacketTableInfo), .reader(let f)): return f.packetTableInfo.map { bytes(of: Self.c($0)) }
        case (UInt32(kAudioFilePropertyPacketTableInfo), .writer(let w)): return w.packetTableInfo.map { bytes(of: Self.c($0)) }
        case (UInt32(kAudioFilePropertyFormatList), .reader(let f)):
            return FileFormatList.bytes(FileFormatList.items(
                f.dataFormat, cookie: f.magicCookie, layoutTag: f.channelLayout?.tag.rawValue ?? 0, firstPacket: FileFormatList.firstPacket(f)))
        case (UInt32(kAudioFilePropertyFormatList), .writer(let w)):
            return FileFormatList.bytes(FileFormatList.items(w.dataFormat, cookie: w.magicCookie, layoutTag: w.channelLayout?.tag.rawValue ?? 0))
        case (UInt32(kAudioFilePropertyEstimatedDuration), .reader(let f)): return bytes(of: f.estimatedDuration)
        case (UInt32(kAudioFilePropertyBitRate), .reader(let f)): return bytes(of: UInt32(clamping: f.bitRate))
        case (UInt32(kAudioFilePropertySourceBitDepth), _):
            return dataFormat.isPCM ? bytes(of: Int32(dataFormat.bitsPerChannel)) : nil
        case (UInt32(kAudioFilePropertyPacketToFrame), _), (UInt32(kAudioFilePropertyFrameToPacket), _):
            return bytes(of: CAudioToolbox.AudioFramePacketTranslation())
        case (UInt32(kAudioFilePropertyInfoDictionary), _):
            // A CFDictionaryRef; AudioFileGetProperty makes the dictionary itself.
            return [UInt8](repeating: 0, count: MemoryLayout<CFDictionaryRef>.size)
        case (UInt32(kAudioFilePropertyAlbumArtwork), _):
            // A CFDataRef or NULL; AudioFileGetProperty reads the picture itself.
            return [UInt8](repeating: 0, count: MemoryLayout<CFDataRef?>.size)
        default: return nil
        }
    }

    static func c(_ info: AudioCore.AudioFilePacketTableInfo) -> CAudioToolbox.AudioFilePacketTableInfo {
        CAudioToolbox.AudioFilePacketTableInfo(
            mNumberValidFrames: info.numberValidFrames, mPrimingFrames: info.primingFrames, mRemainderFrames: info.remainderFrames)
    }

    func isWritable(_ id: UInt32) -> Bool {
        guard case .writer = file else { return false }
        let writable: [AudioFilePropertyID] = [
            kAudioFilePropertyMagicCookieData, kAudioFilePropertyChannelLayout, kAudioFilePropertyPacketTableInfo,
            kAudioFilePropertyDeferSizeUpdates, kAudioFilePropertyInfoDictionary,
        ]
        return writable.contains(id)
    }

    /// Frame ↔ packet translation (in and out through the same struct).
    func translate(_ id: UInt32, _ t: inout CAudioToolbox.AudioFramePacketTranslation) -> OSStatus {
        guard case .reader(let file) = file else { return OSStatus(kAudioFileOperationNotSupportedError) }
        switch file.container.packets {
        case .constant:
            let fpp = Int64(max(1, file.dataFormat.framesPerPacket))
            if id == UInt32(kAudioFilePropertyPacketToFrame) {
                let (frame, overflow) = t.mPacket.multipliedReportingOverflow(by: fpp)
                guard t.mPacket >= 0, !overflow else { return OSStatus(kAudioFileInvalidPacketOffsetError) }
                t.mFrame = frame
            } else {
                guard t.mFrame >= 0 else { return OSStatus(kAudioFilePositionError) }
                t.mPacket = t.mFrame / fpp
                t.mFrameOffsetInPacket = UInt32(t.mFrame % fpp)
            }
        case .table(let table):
            // Packets of their own durations: walk the table (bounded by its size).
            if id == UInt32(kAudioFilePropertyPacketToFrame) {
                guard t.mPacket >= 0, t.mPacket <= Int64(table.count) else { return OSStatus(kAudioFileInvalidPacketOffsetError) }
                var frame: Int64 = 0
                for i in 0..<Int(t.mPacket) { frame += Int64(table.framesInPacket(i)) }
                t.mFrame = frame
            } else {
                guard t.mFrame >= 0 else { return OSStatus(kAudioFilePositionError) }
                var frame: Int64 = 0
                var packet = 0
                while packet < table.count, frame + Int64(table.framesInPacket(packet)) <= t.mFrame {
                    frame += Int64(table.framesInPacket(packet))
                    packet += 1
                }
                t.mPacket = Int64(packet)
                t.mFrameOffsetInPacket = UInt32(clamping: t.mFrame - frame)
            }
        }
        return noErrStatus
    }
}

@_spi(CImplementation) @_cdecl("AudioFileGetPropertyInfo")
public func _AudioFileGetPropertyInfo(_ inAudioFile: AudioFileID?, _ inPropertyID: UInt32, _ outDataSize: UnsafeMutablePointer<UInt32>?, _ isWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return OSStatus(kAudioFileNotOpenError) }
    guard let value = box.propertyBytes(inPropertyID) else { return unsupported }
    outDataSize?.pointee = UInt32(value.count)
    isWritable?.pointee = box.isWritable(inPropertyID) ? 1 : 0
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioFileGetProperty")
public func _AudioFileGetProperty(_ inAudioFile: AudioFileID?, _ inPropertyID: UInt32, _ ioDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return OSStatus(kAudioFileNotOpenError) }
    guard let ioDataSize, let outPropertyData else { return paramError }
    if inPropertyID == UInt32(kAudioFilePropertyPacketToFrame) || inPropertyID == UInt32(kAudioFilePropertyFrameToPacket) {
        let size = MemoryLayout<CAudioToolbox.AudioFramePacketTranslation>.size
        guard Int(ioDataSize.pointee) >= size else { return badSize }
        var t = outPropertyData.loadUnaligned(as: CAudioToolbox.AudioFramePacketTranslation.self)
        let status = box.translate(inPropertyID, &t)
        if status == noErrStatus { outPropertyData.storeBytes(of: t, as: CAudioToolbox.AudioFramePacketTranslation.self) }
        return status
    }
    if inPropertyID == UInt32(kAudioFilePropertyInfoDictionary) {
        let pairs: [(key: String, value: String)]
        switch box.file {
        case .reader(let file): pairs = InfoDictionary.pairs(file)
        case .writer(let writer): pairs = InfoDictionary.pairs(writer, sampleRate: box.dataFormat.sampleRate)
        }
        return InfoDictionary.copyOut(pairs, outPropertyData, ioDataSize, tooSmall: badSize)
    }
    if inPropertyID == UInt32(kAudioFilePropertyAlbumArtwork) {
        guard Int(ioDataSize.pointee) >= MemoryLayout<CFDataRef?>.size else { return badSize }
        var artwork: CFDataRef?
        if case .reader(let file) = box.file, let picture = file.albumArtwork {
            artwork = picture.data.withUnsafeBytes { CFDataRef(CFObjects.makeData($0)) }
        }
        outPropertyData.storeBytes(of: artwork, as: CFDataRef?.self)
        ioDataSize.pointee = UInt32(MemoryLayout<CFDataRef?>.size)
        return noErrStatus
    }
    guard let value = box.propertyBytes(inPropertyID) else { return unsupported }
    if inPropertyID == UInt32(kAudioFilePropertyFormatList) {
        return FileFormatList.copyOut(value, outPropertyData, ioDataSize, tooSmall: badSize)
    }
    // A magic cookie may be asked for with more room than it needs; fixed-size values must fit.
    return copyOut(value, outPropertyData, ioDataSize, tooSmall: badSize)
}

@_spi(CImplementation) @_cdecl("AudioFileSetProperty")
public func _AudioFileSetProperty(_ inAudioFile: AudioFileID?, _ inPropertyID: UInt32, _ inDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?) -> OSStatus {
    guard let box = FileBox.table.object(inAudioFile) else { return OSStatus(kAudioFileNotOpenError) }
    guard inPropertyData != nil || inDataSize == 0 else { return paramError }
    guard case .writer(let writer) = box.file else {
        return box.propertyBytes(inPropertyID) == nil ? unsupported : OSStatus(kAudioFilePermissionsError)
    }
    let data = UnsafeRawBufferPointer(start: inPropertyData, count: Int(inDataSize))
    return resultStatus { () throws(AudioFileError) in
        switch inPropertyID {
        case UInt32(kAudioFilePropertyMagicCookieData):
            try writer.setMagicCookie(Array(data))
        case UInt32(kAudioFilePropertyChannelLayout):
            guard let base = data.baseAddress, let layout = LayoutBytes.decode(base, size: data.count) else {
                throw AudioFileError(.badPropertySize, "a channel layout of \(data.count) bytes")
            }
            try writer.setChannelLayout(layout)
        case UInt32(kAudioFilePropertyPacketTableInfo):
            guard data.count == MemoryLayout<CAudioToolbox.AudioFilePacketTableInfo>.size else {
                throw AudioFileError(.badPropertySize, "packet table info is 16 bytes, not \(data.count)")
            }
            let c = data.loadUnaligned(as: CAudioToolbox.AudioFilePacketTableInfo.self)
            try writer.setPacketTableInfo(AudioCore.AudioFilePacketTableInfo(
                numberValidFrames: c.mNumberValidFrames, primingFrames: c.mPrimingFrames, remainderFrames: c.mRemainderFrames))
        case UInt32(kAudioFilePropertyDeferSizeUpdates):
            guard data.count == 4 else { throw AudioFileError(.badPropertySize, "a UInt32 is 4 bytes, not \(data.count)") }
        case UInt32(kAudioFilePropertyInfoDictionary):
            guard data.count == MemoryLayout<CFDictionaryRef>.size else {
                throw AudioFileError(.badPropertySize, "the info dictionary is a CFDictionaryRef of \(MemoryLayout<CFDictionaryRef>.size) bytes, not \(data.count)")
            }
            try writer.setInfo(try InfoDictionary.info(data.loadUnaligned(as: UnsafeRawPointer?.self)))
        default:
            if box.propertyBytes(inPropertyID) == nil {
                throw AudioFileError(.unsupportedProperty, "no property '\(FourCharCode(rawValue: inPropertyID))'")
            }
            throw AudioFileError(.permissions, "'\(FourCharCode(rawValue: inPropertyID))' is read-only")
        }
    }
}
