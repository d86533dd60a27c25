extension ConverterPipeline {
    /// Copies `count` native-endian signed integers of `wordBytes` bytes (1 to 4) from `source`
    /// (any alignment) into `target` (the FIFO's memory, written as raw bytes) as 32-bit integers of the same values.
    static func widen(_ source: UnsafeRawPointer, wordBytes: Int, count: Int, into target: UnsafeMutableRawPointer) {
        switch wordBytes {
        case 1:
            for i in 0..<count { target.storeBytes(of: Int32(source.load(fromByteOffset: i, as: Int8.self)), toByteOffset: 4 * i, as: Int32.self) }
        case 2:
            for i in 0..<count { target.storeBytes(of: Int32(source.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)), toByteOffset: 4 * i, as: Int32.self) }
        case 3:
            for i in 0..<count {
                let p = 3 * i
                let raw = UInt32(source.load(fromByteOffset: p, as: UInt8.self)) << 8
                    | UInt32(source.load(fromByteOffset: p + 1, as: UInt8.self)) << 16
                    | UInt32(source.load(fromByteOffset: p + 2, as: UInt8.self)) << 24
                target.storeBytes(of: Int32(bitPattern: raw) >> 8, toByteOffset: 4 * i, as: Int32.self)
            }
        default:
            target.copyMemory(from: source, byteCount: 4 * count)
        }
    }
}
