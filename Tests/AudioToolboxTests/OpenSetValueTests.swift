import AudioToolbox
import AudioQueueServices
import ExtendedAudioFileServices
import Testing

/// The Swift API's open sets hold the values of Apple's constants as the C headers spell them
/// (the ABI tests check the headers against Apple's SDK), so a Swift value and a C constant
/// can be used for each other.
@Suite("Swift IDs and codes against the C headers")
struct OpenSetValueTests {
    @Test func propertyIDs() {
        typealias ID = AudioQueueServices.AudioQueuePropertyID
        let pairs: [(ID, UInt32)] = [
            (.isRunning, kAudioQueueProperty_IsRunning),
            (.deviceSampleRate, kAudioQueueDeviceProperty_SampleRate),
            (.deviceNumberChannels, kAudioQueueDeviceProperty_NumberChannels),
            (.currentDevice, kAudioQueueProperty_CurrentDevice),
            (.magicCookie, kAudioQueueProperty_MagicCookie),
            (.maximumOutputPacketSize, kAudioQueueProperty_MaximumOutputPacketSize),
            (.streamDescription, kAudioQueueProperty_StreamDescription),
            (.channelLayout, kAudioQueueProperty_ChannelLayout),
            (.enableLevelMetering, kAudioQueueProperty_EnableLevelMetering),
            (.currentLevelMeter, kAudioQueueProperty_CurrentLevelMeter),
            (.currentLevelMeterDB, kAudioQueueProperty_CurrentLevelMeterDB),
            (.decodeBufferSizeFrames, kAudioQueueProperty_DecodeBufferSizeFrames),
            (.converterError, kAudioQueueProperty_ConverterError),
            (.channelAssignments, kAudioQueueProperty_ChannelAssignments),
            (.enableTimePitch, kAudioQueueProperty_EnableTimePitch),
            (.timePitchAlgorithm, kAudioQueueProperty_TimePitchAlgorithm),
            (.timePitchBypass, kAudioQueueProperty_TimePitchBypass),
        ]
        for (id, value) in pairs { #expect(id.rawValue == value, "\(id)") }
        #expect(Set(pairs.map(\.0)) == Set(ID.allCases))
    }

    @Test func timePitchAlgorithms() {
        let pairs: [(TimePitchAlgorithm, UInt32)] = [
            (.spectral, kAudioQueueTimePitchAlgorithm_Spectral), (.timeDomain, kAudioQueueTimePitchAlgorithm_TimeDomain),
            (.varispeed, kAudioQueueTimePitchAlgorithm_Varispeed), (.lowQualityZeroLatency, kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency),
        ]
        for (algorithm, value) in pairs { #expect(algorithm.rawValue == value, "\(algorithm)") }
        #expect(Set(pairs.map(\.0)) == Set(TimePitchAlgorithm.allCases))
    }

    @Test func parameterIDs() {
        typealias ID = AudioQueueServices.AudioQueueParameterID
        let pairs: [(ID, UInt32)] = [
            (.volume, kAudioQueueParam_Volume), (.volumeRampTime, kAudioQueueParam_VolumeRampTime), (.pan, kAudioQueueParam_Pan),
            (.playRate, kAudioQueueParam_PlayRate), (.pitch, kAudioQueueParam_Pitch),
        ]
        for (id, value) in pairs { #expect(id.rawValue == value, "\(id)") }
        #expect(Set(pairs.map(\.0)) == Set(ID.allCases))
    }

    @Test func extAudioFileCodes() {
        let pairs: [(ExtAudioFileError.Code, Int32)] = [
            (.invalidProperty, kExtAudioFileError_InvalidProperty),
            (.invalidPropertySize, kExtAudioFileError_InvalidPropertySize),
            (.nonPCMClientFormat, kExtAudioFileError_NonPCMClientFormat),
            (.invalidChannelMap, kExtAudioFileError_InvalidChannelMap),
            (.invalidOperationOrder, kExtAudioFileError_InvalidOperationOrder),
            (.invalidDataFormat, kExtAudioFileError_InvalidDataFormat),
            (.maxPacketSizeUnknown, kExtAudioFileError_MaxPacketSizeUnknown),
            (.invalidSeek, kExtAudioFileError_InvalidSeek),
            (.asyncWriteTooLarge, kExtAudioFileError_AsyncWriteTooLarge),
            (.asyncWriteBufferOverflow, kExtAudioFileError_AsyncWriteBufferOverflow),
        ]
        for (code, value) in pairs { #expect(code.rawValue == value, "\(code)") }
    }

    @Test func queueCodes() {
        let pairs: [(AudioQueueError.Code, Int32)] = [
            (.invalidBuffer, kAudioQueueErr_InvalidBuffer), (.bufferEmpty, kAudioQueueErr_BufferEmpty),
            (.disposalPending, kAudioQueueErr_DisposalPending), (.invalidProperty, kAudioQueueErr_InvalidProperty),
            (.invalidPropertySize, kAudioQueueErr_InvalidPropertySize), (.invalidParameter, kAudioQueueErr_InvalidParameter),
            (.cannotStart, kAudioQueueErr_CannotStart), (.invalidDevice, kAudioQueueErr_InvalidDevice),
            (.bufferInQueue, kAudioQueueErr_BufferInQueue), (.invalidRunState, kAudioQueueErr_InvalidRunState),
            (.invalidQueueType, kAudioQueueErr_InvalidQueueType), (.permissions, kAudioQueueErr_Permissions),
            (.invalidPropertyValue, kAudioQueueErr_InvalidPropertyValue), (.primeTimedOut, kAudioQueueErr_PrimeTimedOut),
            (.codecNotFound, kAudioQueueErr_CodecNotFound), (.invalidCodecAccess, kAudioQueueErr_InvalidCodecAccess),
            (.queueInvalidated, kAudioQueueErr_QueueInvalidated), (.tooManyTaps, kAudioQueueErr_TooManyTaps),
            (.invalidTapContext, kAudioQueueErr_InvalidTapContext), (.recordUnderrun, kAudioQueueErr_RecordUnderrun),
            (.invalidTapType, kAudioQueueErr_InvalidTapType), (.bufferEnqueuedTwice, kAudioQueueErr_BufferEnqueuedTwice),
            (.cannotStartYet, kAudioQueueErr_CannotStartYet), (.enqueueDuringReset, kAudioQueueErr_EnqueueDuringReset),
            (.invalidOfflineMode, kAudioQueueErr_InvalidOfflineMode),
        ]
        for (code, value) in pairs { #expect(code.rawValue == value, "\(code)") }
    }
}
