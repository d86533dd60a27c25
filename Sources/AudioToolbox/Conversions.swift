import CAudioToolbox
import AudioCore
import AudioQueueServices
import Glibc

// Between the C structs of the header tree and the Swift values of AudioCore. Both sides
// use Apple's layouts; AudioCore's AudioStreamPacketDescription is laid out as the C one
// (Int64, UInt32, UInt32), so packet descriptions pass by pointer.

typealias CASBD = CAudioToolbox.AudioStreamBasicDescription
typealias SwiftASBD = AudioCore.AudioStreamBasicDescription
typealias CTimeStamp = CAudioToolbox.AudioTimeStamp
typealias SwiftTimeStamp = AudioCore.AudioTimeStamp
typealias CPacketDescription = CAudioToolbox.AudioStreamPacketDescription
typealias SwiftPacketDescription = AudioCore.AudioStreamPacketDescription
typealias CPacketTableInfo = CAudioToolbox.AudioFilePacketTableInfo

extension SwiftASBD {
    init(_ c: CASBD) {
        self.init(
            sampleRate: c.mSampleRate, formatID: AudioFormatID(rawValue: c.mFormatID),
            formatFlags: AudioFormatFlags(rawValue: c.mFormatFlags), bytesPerPacket: c.mBytesPerPacket,
            framesPerPacket: c.mFramesPerPacket, bytesPerFrame: c.mBytesPerFrame,
            channelsPerFrame: c.mChannelsPerFrame, bitsPerChannel: c.mBitsPerChannel)
    }

    var c: CASBD {
        CASBD(
            mSampleRate: sampleRate, mFormatID: formatID.rawValue, mFormatFlags: formatFlags.rawValue,
            mBytesPerPacket: bytesPerPacket, mFramesPerPacket: framesPerPacket, mBytesPerFrame: bytesPerFrame,
            mChannelsPerFrame: channelsPerFrame, mBitsPerChannel: bitsPerChannel, mReserved: 0)
    }
}

extension SwiftTimeStamp {
    init(_ c: CTimeStamp) {
        self.init(
            sampleTime: c.mSampleTime, hostTime: c.mHostTime, rateScalar: c.mRateScalar,
            wordClockTime: c.mWordClockTime, flags: Flags(rawValue: c.mFlags.rawValue & 0x0F))
    }

    var c: CTimeStamp {
        var out = CTimeStamp()
        out.mSampleTime = sampleTime
        out.mHostTime = hostTime
        out.mRateScalar = rateScalar
        out.mWordClockTime = wordClockTime
        out.mFlags = AudioTimeStampFlags(rawValue: flags.rawValue & 0x0F)
        return out
    }
}

extension SwiftPacketDescription {
    init(_ c: CPacketDescription) {
        self.init(startOffset: c.mStartOffset, variableFramesInPacket: c.mVariableFramesInPacket, dataByteSize: c.mDataByteSize)
    }
}

/// Apple's AudioChannelLayout bytes as the C API hands them out and takes them in.
enum LayoutBytes {
    /// ``AudioChannelLayout/nativeBytes``, at least the size of Apple's struct, which has room
    /// for one description even when it has none.
    static func encode(_ layout: AudioCore.AudioChannelLayout) -> [UInt8] {
        let bytes = layout.nativeBytes
        return bytes.count < 32 ? bytes + [UInt8](repeating: 0, count: 32 - bytes.count) : bytes
    }

    /// A layout from `size` bytes; nil when they cannot hold the descriptions they count.
    static func decode(_ data: UnsafeRawPointer, size: Int) -> AudioCore.AudioChannelLayout? {
        AudioCore.AudioChannelLayout(nativeBytes: UnsafeRawBufferPointer(start: data, count: size), maximumDescriptions: 1024)
    }
}

/// Copies a property value out the way Apple's Get calls do: `*ioDataSize` is the room in
/// `outData` on entry and the bytes written on return; too little room is `tooSmall`.
func copyOut(_ bytes: [UInt8], _ outData: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>?, tooSmall: OSStatus) -> OSStatus {
    guard let ioDataSize, let outData else { return OSStatus(kAudio_ParamError) }
    guard Int(ioDataSize.pointee) >= bytes.count else { return tooSmall }
    bytes.withUnsafeBytes { if let base = $0.baseAddress { outData.copyMemory(from: base, byteCount: $0.count) } }
    ioDataSize.pointee = UInt32(bytes.count)
    return noErrStatus
}

let noErrStatus: OSStatus = 0

/// Runs a call of the Swift API: noErr, or the result code of the error it throws — the whole
/// map from a Swift error to the C API's `OSStatus`.
func resultStatus<E: AudioResultError>(_ body: () throws(E) -> Void) -> OSStatus {
    do throws(E) {
        try body()
        return noErrStatus
    } catch {
        return error.status
    }
}
let paramError = OSStatus(kAudio_ParamError)

func bytes<T>(of value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

/// A program's user data pointer, passed back to its callbacks on whatever thread they run.
struct UserData: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

/// Writes `line` and a newline to standard error in one write (CFShow, AudioObjectShow).
func writeLineToStandardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
