public import AudioCore

/// Feeds an output device: the audio queue implements it.
///
/// ``render(into:frameCount:)`` is called on the device's I/O thread. It must not block on
/// anything user code can hold, and must not allocate in the steady state.
public protocol AudioRenderSource: AnyObject, Sendable {
    /// Writes up to `frameCount` interleaved Float32 frames in the device's format into
    /// `buffer` and returns how many it wrote. Fewer than `frameCount` means the stream has
    /// ended: the device plays what it got, drains, stops and reports `.stopped(drained: true)`.
    func render(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> Int
    /// Writes up to `frameCount` frames of what is ready now, without making up a shortfall
    /// with silence, for a device whose output can run idle while the source has nothing to
    /// play (a sound server plays silence on its own when a stream runs dry). Returns the
    /// frames written and whether the stream has ended after them.
    ///
    /// Fewer frames than asked without `ended` means the rest is not ready yet. None means the
    /// source has run dry: the device writes nothing more, lets its output play out and idle,
    /// and asks again only when it is told ``AudioOutputDevice/sourceHasAudio()``. The source
    /// calls that once audio is ready again or the stream has ended, and counts the dry spell
    /// as one underrun. Called on the device's I/O thread, under the same rules as
    /// ``render(into:frameCount:)``; by default it is that call, whose silence never leaves
    /// the device idle.
    func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool)
    /// Writes up to `frameCount` frames for a device that has no clock of its own to keep (a
    /// file, the null device), which can wait for audio that is late rather than take silence
    /// in its place. Returns the frames written and whether the stream has ended after them.
    ///
    /// Fewer frames than asked without `ended` means the rest is on its way — decoded late, or
    /// still being refilled by the program — and not yet ready: the device keeps what it got,
    /// waits, and asks again for the rest, until it has them or the stream ends. Where nothing
    /// is on its way (the program has paused its stream of its own accord), the source writes
    /// silence, as ``render(into:frameCount:)`` does, so that the device does not wait for
    /// ever. A device that waited is told when audio is ready by
    /// ``AudioOutputDevice/sourceHasAudio()``, and asks again a few milliseconds later in any
    /// case. Called on the device's I/O thread, under the same rules as
    /// ``render(into:frameCount:)``; by default it is that call, which never leaves anything
    /// to wait for.
    func renderAwaiting(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool)
    /// An event from the device, on its I/O thread.
    func device(_ device: any AudioOutputDevice, didReport event: AudioDeviceEvent)
}

extension AudioRenderSource {
    public func renderReady(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        let frames = render(into: buffer, frameCount: frameCount)
        return (frames, frames < frameCount)
    }

    public func renderAwaiting(into buffer: UnsafeMutablePointer<Float>, frameCount: Int) -> (frames: Int, ended: Bool) {
        let frames = render(into: buffer, frameCount: frameCount)
        return (frames, frames < frameCount)
    }
}

/// Where an output queue's PCM goes: a sound server, a sound card, a file, or nowhere.
///
/// Devices take interleaved Float32 at the rate and channel count the queue asks for; a
/// backend converts to what its hardware needs. A device pulls from its source on its own
/// I/O thread between ``start(source:)`` and ``stop(drain:)``; it may be started again after
/// it stops.
public protocol AudioOutputDevice: AnyObject, Sendable {
    /// Which device this is.
    var info: AudioDeviceInfo { get }
    /// The format the device plays: interleaved Float32 at the rate and channels it was opened with.
    var format: AudioStreamBasicDescription { get }
    /// Starts pulling audio from `source` on the device's I/O thread.
    func start(source: any AudioRenderSource) throws(AudioDeviceError)
    /// Stops pulling. With `drain`, what was already handed to the output plays out first;
    /// without, it is dropped. Returns when the I/O thread has stopped calling the source.
    func stop(drain: Bool)
    /// Stops pulling from the source, as `stop(drain: false)` does, but keeps what the device
    /// holds where it can (a corked stream, a paused PCM), so that the next
    /// ``start(source:)`` plays that before anything new: nothing already rendered is lost
    /// across a pause. A device that cannot hold its buffer drops it (the default).
    func pause()
    /// Frames between what the source rendered and what is audible now (buffered in the
    /// device or server).
    var presentationDelay: Int { get }
    /// Frames the device has taken from its source since it was opened (silence it inserted
    /// on underruns not included).
    var framesRendered: Int64 { get }
    /// The device's clock: frames it has played (made audible) — counting from when it was
    /// opened or from its latest start, as the backend's own clock does. The queue's time is
    /// measured on it.
    ///
    /// A queue reads it (with ``framesRendered`` and ``presentationDelay``) under its own state
    /// lock, the last in the package's lock order: it must answer without taking any lock a
    /// device's I/O thread or a sound server holds — from atomics, or from a description
    /// published through the package's sequence lock (`Published`, module Locking). Every
    /// device says how it does; there is no default.
    var framesPlayed: Int64 { get }
    /// The source has audio again, or has ended, after
    /// ``AudioRenderSource/renderReady(into:frameCount:)`` found it dry or
    /// ``AudioRenderSource/renderAwaiting(into:frameCount:)`` came back short: a device that
    /// stopped asking, or is waiting, asks again. Called from any thread but the device's I/O
    /// thread; harmless when the device is asking anyway. By default nothing: a device that
    /// never idles or waits has no need.
    func sourceHasAudio()
    /// Releases the device; it cannot be started again.
    func close()
}

extension AudioOutputDevice {
    /// Stops without draining: what the device holds is dropped.
    public func pause() { stop(drain: false) }

    /// Nothing: the device asks its source on every period.
    public func sourceHasAudio() {}
}
