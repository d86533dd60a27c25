public import CAudioToolbox
import AudioFileServices

// AudioFileGetGlobalInfoSize and AudioFileGetGlobalInfo: the file types this library reads
// and writes, with the names, extensions, UTIs, MIME types and HFS type codes a Mac gives them
// (afconvert -hf lists the names and extensions), and the data formats its writer accepts. Every
// answer is derived from the container formats' descriptors (`AudioFileFormats.fileTypes`).
// CF values are new objects the caller releases.

/// One file type: what the global info properties say about it.
struct FileTypeInfo {
    let descriptor: AudioFileTypeDescriptor

    var type: UInt32 { descriptor.type.rawValue }
    var name: String { descriptor.name }
    var extensions: [String] { descriptor.extensions }
    var utis: [String] { descriptor.utis }
    var mimeTypes: [String] { descriptor.mimeTypes }
    var hfsCodes: [UInt32] { descriptor.hfsTypeCodes.map(\.rawValue) }
    /// The data formats the writer accepts (empty: read only).
    var formats: [UInt32] { descriptor.writableFormats.map(\.rawValue) }

    /// The types, in the order magic bytes are tried.
    static let all = AudioFileFormats.fileTypes.map(FileTypeInfo.init)

    static func find(_ type: UInt32) -> FileTypeInfo? { all.first { $0.type == type } }

    /// AvailableStreamDescriptionsForFormat: sample rate and channels 0, as Apple gives them.
    func streamDescriptions(_ format: UInt32) -> [AudioStreamBasicDescription] {
        guard formats.contains(format) else { return [] }
        guard format == kAudioFormatLinearPCM else {
            let framesPerPacket: UInt32 = switch format {
            case kAudioFormatAppleIMA4: 64
            case kAudioFormatMPEG4AAC: 1024
            case kAudioFormatAppleLossless, kAudioFormatFLAC: 4096
            default: 1
            }
            let bits: UInt32 = [kAudioFormatAppleIMA4, kAudioFormatMPEG4AAC, kAudioFormatAppleLossless, kAudioFormatFLAC].contains(format) ? 0 : 8
            return [AudioStreamBasicDescription(mSampleRate: 0, mFormatID: format, mFormatFlags: 0, mBytesPerPacket: 0,
                                                mFramesPerPacket: framesPerPacket, mBytesPerFrame: 0, mChannelsPerFrame: 0,
                                                mBitsPerChannel: bits, mReserved: 0)]
        }
        return descriptor.pcmLayouts.map { l in
            var flags = kAudioFormatFlagIsPacked
            if l.isFloat { flags |= kAudioFormatFlagIsFloat } else if l.isSignedInteger { flags |= kAudioFormatFlagIsSignedInteger }
            // Big-endian 8-bit samples keep the flag: a Mac lists AIFF's 8-bit PCM with flags 14.
            if l.isBigEndian { flags |= kAudioFormatFlagIsBigEndian }
            return AudioStreamBasicDescription(mSampleRate: 0, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: 0,
                                               mFramesPerPacket: 1, mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: l.bitsPerChannel, mReserved: 0)
        }
    }
}

/// A global property's value: bytes, or a CF object to make.
private enum GlobalValue {
    case bytes([UInt8])
    case strings([String])
    case string(String)
}

private func uint32s(_ values: [UInt32]) -> [UInt8] { values.flatMap { bytes(of: $0) } }

/// Unique, in first-seen order.
private func unique<T: Hashable>(_ values: [T]) -> [T] {
    var seen = Set<T>()
    return values.filter { seen.insert($0).inserted }
}

private func globalValue(_ id: UInt32, _ size: UInt32, _ specifier: UnsafeRawPointer?) -> Result<GlobalValue, GlobalInfoError> {
    let all = FileTypeInfo.all
    func typeSpecifier() -> Result<FileTypeInfo, GlobalInfoError> {
        guard let specifier, size == 4 else { return .failure(GlobalInfoError(OSStatus(kAudioFileBadPropertySizeError))) }
        guard let info = FileTypeInfo.find(specifier.loadUnaligned(as: UInt32.self)) else {
            return .failure(GlobalInfoError(OSStatus(kAudioFileUnsupportedFileTypeError)))
        }
        return .success(info)
    }
    func stringSpecifier() -> Result<String, GlobalInfoError> {
        guard let specifier, size == UInt32(MemoryLayout<CFStringRef>.size) else {
            return .failure(GlobalInfoError(OSStatus(kAudioFileBadPropertySizeError)))
        }
        guard let text = CFObjects.string(specifier.loadUnaligned(as: UnsafeRawPointer?.self)) else {
            return .failure(GlobalInfoError(paramError))
        }
        return .success(text)
    }
    switch id {
    case kAudioFileGlobalInfo_ReadableTypes: return .success(.bytes(uint32s(all.map(\.type))))
    case kAudioFileGlobalInfo_WritableTypes: return .success(.bytes(uint32s(all.filter { !$0.formats.isEmpty }.map(\.type))))
    case kAudioFileGlobalInfo_AllExtensions: return .success(.strings(unique(all.flatMap(\.extensions))))
    case kAudioFileGlobalInfo_AllUTIs: return .success(.strings(unique(all.flatMap(\.utis))))
    case kAudioFileGlobalInfo_AllMIMETypes: return .success(.strings(unique(all.flatMap(\.mimeTypes))))
    case kAudioFileGlobalInfo_AllHFSTypeCodes: return .success(.bytes(uint32s(unique(all.flatMap(\.hfsCodes)))))
    case kAudioFileGlobalInfo_FileTypeName: return typeSpecifier().map { .string($0.name) }
    case kAudioFileGlobalInfo_ExtensionsForType: return typeSpecifier().map { .strings($0.extensions) }
    case kAudioFileGlobalInfo_UTIsForType: return typeSpecifier().map { .strings($0.utis) }
    case kAudioFileGlobalInfo_MIMETypesForType: return typeSpecifier().map { .strings($0.mimeTypes) }
    case kAudioFileGlobalInfo_HFSTypeCodesForType: return typeSpecifier().map { .bytes(uint32s($0.hfsCodes)) }
    case kAudioFileGlobalInfo_AvailableFormatIDs:
        return typeSpecifier().flatMap { info in
            info.formats.isEmpty ? .failure(GlobalInfoError(OSStatus(kAudioFileUnsupportedFileTypeError))) : .success(.bytes(uint32s(info.formats)))
        }
    case kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat:
        guard let specifier, size == UInt32(MemoryLayout<AudioFileTypeAndFormatID>.size) else {
            return .failure(GlobalInfoError(OSStatus(kAudioFileBadPropertySizeError)))
        }
        let pair = specifier.loadUnaligned(as: AudioFileTypeAndFormatID.self)
        guard let info = FileTypeInfo.find(pair.mFileType), !info.formats.isEmpty else {
            return .failure(GlobalInfoError(OSStatus(kAudioFileUnsupportedFileTypeError)))
        }
        let descriptions = info.streamDescriptions(pair.mFormatID)
        guard !descriptions.isEmpty else { return .failure(GlobalInfoError(OSStatus(kAudioFileUnsupportedDataFormatError))) }
        return .success(.bytes(descriptions.flatMap { bytes(of: $0) }))
    case kAudioFileGlobalInfo_TypesForExtension:
        return stringSpecifier().map { ext in .bytes(uint32s(all.filter { $0.extensions.contains(ext.lowercased()) }.map(\.type))) }
    case kAudioFileGlobalInfo_TypesForUTI:
        return stringSpecifier().map { uti in .bytes(uint32s(all.filter { $0.utis.contains(uti) }.map(\.type))) }
    case kAudioFileGlobalInfo_TypesForMIMEType:
        return stringSpecifier().map { mime in .bytes(uint32s(all.filter { $0.mimeTypes.contains(mime.lowercased()) }.map(\.type))) }
    case kAudioFileGlobalInfo_TypesForHFSTypeCode:
        guard let specifier, size == 4 else { return .failure(GlobalInfoError(OSStatus(kAudioFileBadPropertySizeError))) }
        let code = specifier.loadUnaligned(as: UInt32.self)
        return .success(.bytes(uint32s(all.filter { $0.hfsCodes.contains(code) }.map(\.type))))
    default:
        return .failure(GlobalInfoError(OSStatus(kAudioFileUnsupportedPropertyError)))
    }
}

private struct GlobalInfoError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}

@_spi(CImplementation) @_cdecl("AudioFileGetGlobalInfoSize")
public func _AudioFileGetGlobalInfoSize(_ inPropertyID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeMutableRawPointer?, _ outDataSize: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    guard let outDataSize else { return paramError }
    switch globalValue(inPropertyID, inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(.bytes(let b)): outDataSize.pointee = UInt32(b.count)
    case .success: outDataSize.pointee = UInt32(MemoryLayout<CFTypeRef>.size)
    }
    return noErrStatus
}

@_spi(CImplementation) @_cdecl("AudioFileGetGlobalInfo")
public func _AudioFileGetGlobalInfo(_ inPropertyID: UInt32, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?, _ outPropertyData: UnsafeMutableRawPointer?) -> OSStatus {
    guard let ioDataSize, let outPropertyData else { return paramError }
    let value: GlobalValue
    switch globalValue(inPropertyID, inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(let v): value = v
    }
    let pointerSize = MemoryLayout<CFTypeRef>.size
    switch value {
    case .bytes(let b):
        return copyOut(b, outPropertyData, ioDataSize, tooSmall: OSStatus(kAudioFileBadPropertySizeError))
    case .string(let s):
        guard Int(ioDataSize.pointee) >= pointerSize else { return OSStatus(kAudioFileBadPropertySizeError) }
        outPropertyData.storeBytes(of: CFStringRef(CFObjects.makeString(s)), as: CFStringRef.self)
    case .strings(let list):
        guard Int(ioDataSize.pointee) >= pointerSize else { return OSStatus(kAudioFileBadPropertySizeError) }
        let storage = CFArrayStorage(callbacks: ATkCFTypeArrayCallBacks, mutable: false)
        for s in list {
            let made = UnsafeRawPointer(CFObjects.makeString(s))
            storage.append(made)
            _CFRelease(made)
        }
        outPropertyData.storeBytes(of: CFArrayRef(CFObjects.makeCollection(.array, storage)), as: CFArrayRef.self)
    }
    ioDataSize.pointee = UInt32(pointerSize)
    return noErrStatus
}
