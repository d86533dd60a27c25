import Testing
import AudioCore
import AudioDevices
import AudioQueueServices

/// Property and parameter IDs are open sets: an ID no release names keeps its value, a switch
/// over IDs reaches `default:`, and the queues answer it with Apple's error, as the C API does.
@Suite("Open property and parameter IDs")
struct OpenIDTests {
    @Test func unknownPropertyIDRoundTrips() {
        let id = AudioQueuePropertyID(rawValue: 0x7170_6974)  // 'qpit': no property of Apple's
        #expect(id.rawValue == 0x7170_6974)
        #expect(AudioQueuePropertyID(rawValue: id.rawValue) == id)
        #expect(id.description == "'qpit'")
        #expect(!AudioQueuePropertyID.allCases.contains(id))
        func name(_ id: AudioQueuePropertyID) -> String {
            switch id {
            case .isRunning: "running"
            case .currentDevice: "device"
            default: "other"
            }
        }
        #expect(name(id) == "other")
        #expect(name(AudioQueuePropertyID(rawValue: 0x6171_726E)) == "running")  // 'aqrn'
        #expect(Set(AudioQueuePropertyID.allCases).count == 17)
    }

    @Test func unknownParameterIDRoundTrips() {
        let id = AudioQueueParameterID(rawValue: 7)  // no parameter of Apple's
        #expect(id.rawValue == 7)
        #expect(AudioQueueParameterID(rawValue: 7) == id)
        #expect(id.description == "7")
        #expect(AudioQueueParameterID.volume.description == "volume")
        #expect(!AudioQueueParameterID.allCases.contains(id))
        func name(_ id: AudioQueueParameterID) -> String {
            switch id {
            case .volume: "volume"
            case .pan: "pan"
            default: "other"
            }
        }
        #expect(name(id) == "other")
        #expect(name(AudioQueueParameterID(rawValue: 13)) == "pan")
    }

    /// An output queue answers an ID it does not have with `invalidProperty` or
    /// `invalidParameter`, however it is passed.
    @Test func outputQueueRefusesUnknownIDs() throws {
        let queue = try offlineFloatQueue()
        let unknown = AudioQueuePropertyID(rawValue: 0x7170_6974)
        expectCode(.invalidProperty) { _ = try queue.addPropertyListener(unknown) { _, _ in } }
        expectCode(.invalidProperty) { _ = try queue.propertySize(unknown.rawValue) }
        var four = [UInt8](repeating: 0, count: 4)
        expectCode(.invalidProperty) { _ = try four.withUnsafeMutableBytes { try queue.getProperty(unknown.rawValue, into: $0) } }
        expectCode(.invalidProperty) { try four.withUnsafeBytes { try queue.setProperty(unknown.rawValue, from: $0) } }
        let seven = AudioQueueParameterID(rawValue: 7)  // no parameter of Apple's
        expectCode(.invalidParameter) { try queue.setParameter(seven, 1) }
        expectCode(.invalidParameter) { _ = try queue.parameter(seven) }
        let b = try floatBuffer(queue, [1, 2])
        expectCode(.invalidParameter) {
            try queue.enqueue(b, trimFramesAtStart: 0, trimFramesAtEnd: 0, parameterEvents: [AudioQueueParameterEvent(seven, 1)])
        }
        // The known ones still answer.
        #expect(try queue.addPropertyListener(.isRunning) { _, _ in } >= 0)
        #expect(try queue.parameter(.volume) == 1)
        try queue.dispose(immediate: true)
    }

    @Test func inputQueueRefusesUnknownIDs() throws {
        let format = AudioStreamBasicDescription.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true)
        let queue = try AudioInputQueue(format: format, device: RefusingInputDevice(.openFailed)) { _, _, _, _, _ in }
        let unknown = AudioQueuePropertyID(rawValue: 0x7170_6974)
        expectCode(.invalidProperty) { _ = try queue.addPropertyListener(unknown) { _, _ in } }
        expectCode(.invalidProperty) { _ = try queue.propertySize(unknown.rawValue) }
        #expect(try queue.addPropertyListener(.isRunning) { _, _ in } >= 0)
        try queue.dispose(immediate: true)
    }
}
