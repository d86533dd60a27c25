import Foundation
import ProcessSupport
import Testing

/// `kAudioQueueProperty_ChannelAssignments` from C, by Apple's names (C/channel_assignments.c):
/// a stereo queue on channels 3 and 4 of a four-channel offline render, a mono queue on the
/// right channel of a stereo one.
@Suite("Channel assignments from C")
struct ChannelAssignmentCTests {
    @Test("AudioQueueChannelAssignment places a queue's channels in an offline render")
    func offlinePlacement() throws {
        let program = try CPrograms.build("channel_assignments", sources: ["Tests/AudioToolboxTests/C/channel_assignments.c"], extra: ["-lm"])
        let r = try runProcess(program, [], environment: ["AUDIOQUEUE_BACKEND": "null"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        #expect(r.out.contains("26 passed, 0 failed"), "\(r.out)\(r.err)")
    }
}
