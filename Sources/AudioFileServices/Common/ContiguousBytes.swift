/// Runs `body` over the bytes of `bytes`: in place where the collection keeps them contiguous
/// (`[UInt8]`, `ArraySlice`, `Data`, `UnsafeRawBufferPointer`), else over a copy.
func withContiguousBytes<C: Collection<UInt8>, R, E: Error>(
    of bytes: C, _ body: (UnsafeRawBufferPointer) throws(E) -> R
) throws(E) -> R {
    let inPlace: Result<R, E>? = bytes.withContiguousStorageIfAvailable { buffer in
        Result { () throws(E) -> R in try body(UnsafeRawBufferPointer(buffer)) }
    }
    if let inPlace { return try inPlace.get() }
    let copy = Array(bytes)
    let result: Result<R, E> = copy.withUnsafeBytes { buffer in
        Result { () throws(E) -> R in try body(buffer) }
    }
    return try result.get()
}

/// Runs `body` over the elements of `elements` in place where they are contiguous, else over a copy.
func withContiguousElements<C: Collection, R, E: Error>(
    of elements: C, _ body: (UnsafeBufferPointer<C.Element>) throws(E) -> R
) throws(E) -> R {
    let inPlace: Result<R, E>? = elements.withContiguousStorageIfAvailable { buffer in
        Result { () throws(E) -> R in try body(buffer) }
    }
    if let inPlace { return try inPlace.get() }
    let copy = Array(elements)
    let result: Result<R, E> = copy.withUnsafeBufferPointer { buffer in
        Result { () throws(E) -> R in try body(buffer) }
    }
    return try result.get()
}
