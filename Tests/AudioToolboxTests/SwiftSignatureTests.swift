import AudioToolbox
import Foundation
import Testing
import ProcessSupport

/// Swift code written against macOS's AudioToolbox calls the same functions with Apple's
/// signatures: pointers to the C structs, C function pointers as closures, nil run loops.
@Suite("C API from Swift")
struct SwiftSignatureTests {
    final class Counter: @unchecked Sendable {
        var buffers = 0
    }

    @Test("A queue made, fed and rendered offline with Apple's signatures")
    func offlineRender() throws {
        var format = AudioStreamBasicDescription(
            mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        let counter = Counter()
        var queue: AudioQueueRef?
        let status = AudioQueueNewOutput(&format, { userData, _, _ in
            Unmanaged<Counter>.fromOpaque(userData!).takeUnretainedValue().buffers += 1
        }, Unmanaged.passUnretained(counter).toOpaque(), nil, nil, 0, &queue)
        #expect(status == noErr)
        let q = try #require(queue)
        var buffer: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(q, 200, &buffer) == noErr)
        let b = try #require(buffer)
        let samples = b.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        for i in 0..<100 { samples[i] = Int16(i * 100) }
        b.pointee.mAudioDataByteSize = 200
        var out = format
        out.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked
        out.mBitsPerChannel = 32
        out.mBytesPerFrame = 4
        out.mBytesPerPacket = 4
        #expect(AudioQueueSetOfflineRenderFormat(q, &out, nil) == noErr)
        #expect(AudioQueueEnqueueBuffer(q, b, 0, nil) == noErr)
        #expect(AudioQueueStart(q, nil) == noErr)
        var rendered: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(q, 400, &rendered) == noErr)
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        #expect(AudioQueueOfflineRender(q, &time, rendered!, 0) == noErr)
        #expect(AudioQueueOfflineRender(q, &time, rendered!, 100) == noErr)
        let r = try #require(rendered)
        #expect(r.pointee.mAudioDataByteSize == 400)
        let floats = r.pointee.mAudioData.assumingMemoryBound(to: Float.self)
        // 16-bit samples as floats: i * 100 / 32768, exactly.
        #expect((0..<100).allSatisfy { floats[$0] == Float(Int16($0 * 100)) / 32768 })
        var running: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        #expect(AudioQueueGetProperty(q, kAudioQueueProperty_IsRunning, &running, &size) == noErr)
        #expect(AudioQueueDispose(q, true) == noErr)
        #expect(AudioQueueDispose(q, true) == kAudio_ParamError)
    }

    @Test("AudioFile and CFURL from Swift")
    func audioFile() throws {
        let path = CPrograms.path("Examples/Sounds/chime.caf")
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url!, .readPermission, 0, &file) == noErr)
        CFRelease(UnsafeRawPointer(url!))  // Swift on macOS releases CF objects itself; here the program does
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &format) == noErr)
        #expect(format.mFormatID == kAudioFormatMPEG4AAC && format.mChannelsPerFrame == 2 && format.mSampleRate == 44100)
        var info = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyPacketTableInfo, &size, &info) == noErr)
        // What afinfo (and the README) report for the bundled sound.
        #expect(info.mNumberValidFrames == 88200 && info.mPrimingFrames == 2112 && info.mRemainderFrames == 824)
        #expect(AudioFileClose(file!) == noErr)
    }

    @Test("An iTunes-style gapless M4A through AudioFileOpenURL: its type and packet table")
    func m4a() throws {
        let path = CPrograms.path("Tests/Fixtures/mp4/built-itunsmpb-2ch-44100.m4a")
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url!, .readPermission, 0, &file) == noErr)
        CFRelease(UnsafeRawPointer(url!))
        var type: UInt32 = 0
        var size = UInt32(MemoryLayout<UInt32>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyFileFormat, &size, &type) == noErr)
        #expect(type == kAudioFileM4AType)
        var info = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyPacketTableInfo, &size, &info) == noErr)
        // What the fixture's builder wrote into its iTunSMPB atom (its facts file).
        #expect(info.mNumberValidFrames == 22050 && info.mPrimingFrames == 2112 && info.mRemainderFrames == 414)
        var packets: UInt64 = 0
        size = UInt32(MemoryLayout<UInt64>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets) == noErr)
        #expect(packets == 24)
        #expect(AudioFileClose(file!) == noErr)
    }

    /// CF_ENUM types come into Swift as enums and CF_OPTIONS types as option sets, with the names
    /// Swift gives them on a Mac, and the functions take them.
    @Test("CF_ENUM types are Swift enums, CF_OPTIONS types option sets, as on a Mac")
    func enumsAndOptionSets() throws {
        #expect(AudioFilePermissions.readPermission.rawValue == 1 && AudioFilePermissions.readWritePermission.rawValue == 3)
        #expect(CFRunLoopRunResult.handledSource.rawValue == 4 && CFRunLoopRunResult.finished.rawValue == 1)
        #expect(CFURLPathStyle.cfurlposixPathStyle.rawValue == 0 && CFURLPathStyle.cfurlWindowsPathStyle.rawValue == 2)
        #expect(CFStringBuiltInEncodings.UTF8.rawValue == 0x0800_0100)
        #expect(SMPTETimeType.type2398.rawValue == 11)
        let fileFlags: AudioFileFlags = [.eraseFile, .dontPageAlignAudioData]
        #expect(fileFlags.rawValue == 3)
        let stamp: AudioTimeStampFlags = [.sampleTimeValid, .hostTimeValid]
        #expect(stamp == .sampleHostTimeValid)
        #expect(AudioChannelFlags.meters.rawValue == 4)

        var stream: AudioFileStreamID?
        #expect(AudioFileStreamOpen(nil, { _, _, _, ioFlags in
            ioFlags.pointee.insert(.cacheProperty)
        }, { _, _, _, _, _ in }, kAudioFileCAFType, &stream) == noErr)
        let s = try #require(stream)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CPrograms.path("Examples/Sounds/chime.caf")))
        let status = bytes.withUnsafeBytes { AudioFileStreamParseBytes(s, UInt32($0.count), $0.baseAddress, []) }
        #expect(status == noErr)
        #expect(AudioFileStreamParseBytes(s, 0, nil, .discontinuity) == noErr)
        var offset: Int64 = 0
        var seekFlags: AudioFileStreamSeekFlags = []
        #expect(AudioFileStreamSeek(s, 10, &offset, &seekFlags) == noErr)
        #expect(!seekFlags.contains(.offsetIsEstimated))  // CAF packet offsets are exact
        #expect(AudioFileStreamClose(s) == noErr)
    }

    /// A CF string's text.
    static func text(_ cf: UnsafeRawPointer?) -> String? {
        guard let cf, CFGetTypeID(cf) == CFStringGetTypeID() else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard CFStringGetCString(OpaquePointer(cf), &buffer, 256, CFStringBuiltInEncodings.UTF8.rawValue) else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("The info dictionary and CF numbers from Swift, with Apple's names")
    func infoDictionary() throws {
        let path = CPrograms.path("Tests/Fixtures/valid/wav-pcm_s16le-1ch-8000-info.wav")
        let url = CFURLCreateFromFileSystemRepresentation(nil, path, path.utf8.count, false)
        var file: AudioFileID?
        #expect(AudioFileOpenURL(url!, .readPermission, 0, &file) == noErr)
        CFRelease(UnsafeRawPointer(url!))
        var dictionary: CFDictionaryRef?
        var size = UInt32(MemoryLayout<CFDictionaryRef>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &dictionary) == noErr)
        let d = try #require(dictionary)
        #expect(CFDictionaryGetCount(d) == 5)
        let title = CFDictionaryGetValue(d, UnsafeRawPointer(CFSTR_title))
        #expect(Self.text(title) == "Fixture title")
        CFRelease(UnsafeRawPointer(d))
        #expect(AudioFileClose(file!) == noErr)

        var rate: Int32 = 44100
        let number = try #require(CFNumberCreate(nil, .sInt32Type, &rate))
        var asDouble = 0.0
        #expect(CFNumberGetValue(number, .float64Type, &asDouble) && asDouble == 44100)
        let numbers = try #require(CFDictionaryCreateMutable(nil, 0, &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks))
        CFDictionarySetValue(numbers, UnsafeRawPointer(CFSTR_title), UnsafeRawPointer(number))
        #expect(CFGetRetainCount(UnsafeRawPointer(number)) == 2)
        CFRelease(UnsafeRawPointer(numbers))
        #expect(CFGetRetainCount(UnsafeRawPointer(number)) == 1)
        CFRelease(UnsafeRawPointer(number))
    }
}

/// `CFSTR("title")`.
private var CFSTR_title: CFStringRef { ATCFStringMakeConstantString("title") }
