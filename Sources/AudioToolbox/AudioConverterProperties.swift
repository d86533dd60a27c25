public import CAudioToolbox
import AudioCore
import AudioCodecs
import AudioConverterServices
import AudioCodecOpus

// AudioConverterGetPropertyInfo, AudioConverterGetProperty and AudioConverterSetProperty.

private let notSupported = OSStatus(kAudioConverterErr_PropertyNotSupported)
private let badSize = OSStatus(kAudioConverterErr_BadPropertySizeError)

private func id(_ value: some BinaryInteger) -> UInt32 { UInt32(truncatingIfNeeded: value) }

extension ConverterBox {
    /// The property's value as Apple lays it out, or the error a get answers.
    func propertyBytes(_ property: UInt32) -> Result<[UInt8], AudioCodecError> {
        let c = converter
        func fail(_ status: OSStatus) -> Result<[UInt8], AudioCodecError> { .failure(AudioCodecError(.init(rawValue: status), "")) }
        switch property {
        case id(kAudioConverterCurrentInputStreamDescription): return .success(bytes(of: c.inputFormat.c))
        case id(kAudioConverterCurrentOutputStreamDescription): return .success(bytes(of: c.outputFormat.c))
        case id(kAudioConverterPropertyMaximumInputPacketSize): return .success(bytes(of: UInt32(clamping: c.maximumInputPacketSize)))
        case id(kAudioConverterPropertyMaximumOutputPacketSize): return .success(bytes(of: UInt32(clamping: c.maximumOutputPacketSize)))
        case id(kAudioConverterPropertyMinimumInputBufferSize):
            return .success(bytes(of: UInt32(clamping: c.inputFormat.bytesPerPacket > 0 ? Int(c.inputFormat.bytesPerPacket) : c.maximumInputPacketSize)))
        case id(kAudioConverterPropertyMinimumOutputBufferSize):
            return .success(bytes(of: UInt32(clamping: c.maximumOutputPacketSize)))
        case id(kAudioConverterCompressionMagicCookie):
            guard let cookie = c.compressionMagicCookie else { return fail(notSupported) }
            return .success(cookie)
        case id(kAudioConverterDecompressionMagicCookie):
            guard !c.inputFormat.isPCM else { return fail(notSupported) }
            return .success(c.decompressionMagicCookie ?? [])
        case id(kAudioConverterPrimeInfo):
            let info = settings.withLock { $0.primeInfo } ?? CAudioToolbox.AudioConverterPrimeInfo(
                leadingFrames: UInt32(clamping: c.primeInfo.leadingFrames), trailingFrames: UInt32(clamping: c.primeInfo.trailingFrames))
            return .success(bytes(of: info))
        case id(kAudioConverterPrimeMethod): return .success(bytes(of: c.primeMethod.rawValue))
        case id(kAudioConverterSampleRateConverterQuality): return .success(bytes(of: c.sampleRateConverterQuality.rawValue))
        case id(kAudioConverterSampleRateConverterComplexity): return .success(bytes(of: settings.withLock { $0.complexity }))
        case id(kAudioConverterCodecQuality): return .success(bytes(of: UInt32(clamping: c.codecQuality)))
        case id(kAudioConverterOpusApplication):
            guard let opus = c.encoder as? OpusEncoder else { return fail(notSupported) }
            return .success(bytes(of: UInt32(opus.application.rawValue)))
        case id(kAudioConverterEncodeBitRate):
            guard c.encoder != nil else { return fail(notSupported) }
            return .success(bytes(of: UInt32(clamping: c.encodeBitRate)))
        case id(kAudioConverterApplicableEncodeBitRates), id(kAudioConverterAvailableEncodeBitRates):
            guard c.encoder != nil else { return fail(notSupported) }
            return .success(c.applicableEncodeBitRates.flatMap {
                bytes(of: AudioValueRange(mMinimum: Double($0.lowerBound), mMaximum: Double($0.upperBound)))
            })
        case id(kAudioConverterChannelMap):
            let map = c.channelMap ?? defaultChannelMap.map { Int($0) }
            return .success(map.flatMap { bytes(of: Int32(clamping: $0)) })
        case id(kAudioConverterInputChannelLayout):
            return .success(LayoutBytes.encode(c.inputChannelLayout ?? AudioCore.AudioChannelLayout(tag: .unknown(c.inputFormat.channelsPerFrame))))
        case id(kAudioConverterOutputChannelLayout):
            return .success(LayoutBytes.encode(c.outputChannelLayout ?? AudioCore.AudioChannelLayout(tag: .unknown(c.outputFormat.channelsPerFrame))))
        case id(kAudioConverterPropertyCalculateInputBufferSize), id(kAudioConverterPropertyCalculateOutputBufferSize):
            guard c.inputFormat.isPCM, c.outputFormat.isPCM, c.inputFormat.bytesPerFrame > 0, c.outputFormat.bytesPerFrame > 0 else {
                return fail(notSupported)
            }
            return .success(bytes(of: UInt32(0)))  // Computed from the caller's value in the get.
        default: return fail(notSupported)
        }
    }

    /// The map a converter uses without one: input channel c to output channel c, a mono
    /// input to every output channel, silence (-1) for outputs past the input's channels.
    var defaultChannelMap: [Int32] {
        ChannelMixer.defaultMap(
            inputChannels: Int(converter.decodedFormat?.channelsPerFrame ?? converter.inputFormat.channelsPerFrame),
            outputChannels: Int(converter.outputFormat.channelsPerFrame))
    }

    /// `kAudioConverterPropertyCalculateInputBufferSize` (output bytes → input bytes) and
    /// `…CalculateOutputBufferSize` (input bytes → output bytes) for linear PCM.
    func calculateBufferSize(_ property: UInt32, _ given: UInt32) -> UInt32 {
        let input = converter.inputFormat, output = converter.outputFormat
        let toInput = property == id(kAudioConverterPropertyCalculateInputBufferSize)
        let (from, to) = toInput ? (output, input) : (input, output)
        let frames = Double(given / from.bytesPerFrame) * to.sampleRate / from.sampleRate
        let counted = toInput ? frames.rounded(.up) : frames.rounded(.down)
        let bytes = counted * Double(to.bytesPerFrame)
        return bytes.isFinite && bytes < Double(UInt32.max) ? UInt32(bytes) : UInt32.max
    }

    /// Whether a set of `property` is taken.
    static func isWritable(_ property: UInt32) -> Bool {
        [
            id(kAudioConverterDecompressionMagicCookie), id(kAudioConverterPrimeInfo), id(kAudioConverterPrimeMethod),
            id(kAudioConverterSampleRateConverterQuality), id(kAudioConverterSampleRateConverterComplexity),
            id(kAudioConverterCodecQuality), id(kAudioConverterEncodeBitRate), id(kAudioConverterChannelMap),
            id(kAudioConverterInputChannelLayout), id(kAudioConverterOutputChannelLayout), id(kAudioConverterOpusApplication),
        ].contains(property)
    }

    func setProperty(_ property: UInt32, _ data: UnsafeRawPointer, _ size: Int) -> OSStatus {
        let c = converter
        func uint32(_ apply: (UInt32) -> OSStatus) -> OSStatus {
            guard size == 4 else { return badSize }
            return apply(data.loadUnaligned(as: UInt32.self))
        }
        switch property {
        case id(kAudioConverterDecompressionMagicCookie):
            let cookie = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
            return resultStatus { () throws(AudioCodecError) in try c.setDecompressionMagicCookie(cookie) }
        case id(kAudioConverterPrimeInfo):
            guard size == MemoryLayout<CAudioToolbox.AudioConverterPrimeInfo>.size else { return badSize }
            let info = data.loadUnaligned(as: CAudioToolbox.AudioConverterPrimeInfo.self)
            settings.withLock { $0.primeInfo = info }
            return noErrStatus
        case id(kAudioConverterPrimeMethod):
            return uint32 { value in
                guard value <= 2 else { return paramError }
                c.primeMethod = AudioConverter.PrimeMethod(rawValue: value)
                return noErrStatus
            }
        case id(kAudioConverterSampleRateConverterQuality):
            return uint32 { value in
                guard value <= UInt32(kAudioConverterQuality_Max) else { return paramError }
                c.sampleRateConverterQuality = SampleRateConverterQuality(rawValue: value)
                return noErrStatus
            }
        case id(kAudioConverterSampleRateConverterComplexity):
            return uint32 { value in
                let known: [UInt32] = [
                    id(kAudioConverterSampleRateConverterComplexity_Linear), id(kAudioConverterSampleRateConverterComplexity_Normal),
                    id(kAudioConverterSampleRateConverterComplexity_Mastering), id(kAudioConverterSampleRateConverterComplexity_MinimumPhase),
                ]
                guard known.contains(value) else { return paramError }
                settings.withLock { $0.complexity = value }
                return noErrStatus
            }
        case id(kAudioConverterCodecQuality):
            return uint32 { value in
                guard value <= UInt32(kAudioConverterQuality_Max) else { return paramError }
                c.codecQuality = Int(value)
                return noErrStatus
            }
        case id(kAudioConverterOpusApplication):
            guard let opus = c.encoder as? OpusEncoder else { return notSupported }
            return uint32 { value in
                guard let application = OpusEncoder.Application(rawValue: Int32(truncatingIfNeeded: value)) else { return paramError }
                return resultStatus { () throws(AudioCodecError) in try opus.setApplication(application) }
            }
        case id(kAudioConverterEncodeBitRate):
            guard c.encoder != nil else { return notSupported }
            return uint32 { value in resultStatus { () throws(AudioCodecError) in try c.setEncodeBitRate(Int(value)) } }
        case id(kAudioConverterChannelMap):
            let outputs = Int(c.outputFormat.channelsPerFrame), inputs = Int32(c.inputFormat.channelsPerFrame)
            guard size == outputs * 4 else { return badSize }
            let map = (0..<outputs).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
            guard map.allSatisfy({ $0 >= -1 && $0 < inputs }) else { return paramError }
            c.channelMap = map.map { Int($0) }
            return noErrStatus
        case id(kAudioConverterInputChannelLayout), id(kAudioConverterOutputChannelLayout):
            guard let layout = LayoutBytes.decode(data, size: size) else { return badSize }
            if property == id(kAudioConverterInputChannelLayout) { c.inputChannelLayout = layout } else { c.outputChannelLayout = layout }
            return noErrStatus
        default:
            return notSupported
        }
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterGetPropertyInfo")
public func _AudioConverterGetPropertyInfo(
    _ inAudioConverter: AudioConverterRef?, _ inPropertyID: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?,
    _ outWritable: UnsafeMutablePointer<UInt8>?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter) else { return paramError }
    switch box.propertyBytes(inPropertyID) {
    case .failure(let error): return error.status
    case .success(let value):
        outSize?.pointee = UInt32(value.count)
        outWritable?.pointee = ConverterBox.isWritable(inPropertyID) ? 1 : 0
        return noErrStatus
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterGetProperty")
public func _AudioConverterGetProperty(
    _ inAudioConverter: AudioConverterRef?, _ inPropertyID: UInt32, _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>?,
    _ outPropertyData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter), let ioPropertyDataSize, let outPropertyData else { return paramError }
    switch box.propertyBytes(inPropertyID) {
    case .failure(let error): return error.status
    case .success(var value):
        if inPropertyID == id(kAudioConverterPropertyCalculateInputBufferSize)
            || inPropertyID == id(kAudioConverterPropertyCalculateOutputBufferSize) {
            // In and out: the caller's byte count comes in the property data.
            guard ioPropertyDataSize.pointee == 4 else { return badSize }
            value = bytes(of: box.calculateBufferSize(inPropertyID, outPropertyData.loadUnaligned(as: UInt32.self)))
        }
        return copyOut(value, outPropertyData, ioPropertyDataSize, tooSmall: badSize)
    }
}

@_spi(CImplementation) @_cdecl("AudioConverterSetProperty")
public func _AudioConverterSetProperty(
    _ inAudioConverter: AudioConverterRef?, _ inPropertyID: UInt32, _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer?
) -> OSStatus {
    guard let box = ConverterBox.table.object(inAudioConverter), let inPropertyData else { return paramError }
    return box.filling { box.setProperty(inPropertyID, inPropertyData, Int(inPropertyDataSize)) }
}
