/// ALAC's adaptive FIR predictor ("unpc_block" in Apple's reference) and stereo un-mixing.
///
/// Each sample is predicted from the `order` samples before it, relative to the sample before
/// those (`top`): `top + (Σ coef[k]·(out[j−1−k] − top) + ½) >> shift`, plus the residual, then
/// sign-extended to the channel's width. After each sample the coefficients move one step
/// towards reducing the residual (sign-sign LMS), oldest tap first, stopping once the residual
/// would change sign. Order 0 copies the residuals; order 31 is a first-order difference
/// without coefficients. All arithmetic wraps as the reference's 32-bit C does.
enum ALACPredictor {
    /// `v` sign-extended from its low `32 − shift` bits.
    @inline(__always)
    static func extend(_ v: Int32, _ shift: Int32) -> Int32 { (v &<< shift) &>> shift }

    @inline(__always)
    static func sign(_ v: Int32) -> Int32 { (v &>> 31) | Int32(bitPattern: UInt32(bitPattern: 0 &- v) &>> 31) }

    /// Runs the predictor over `count` residuals `input` into `output` (distinct buffers, or
    /// the same buffer for order 0 and 31). `coefs` holds `order` coefficients, adapted in
    /// place. `chanBits` is 1…32, `shift` (the coefficients' fixed-point shift) 0…15.
    static func run(
        _ input: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<Int32>, count: Int,
        coefs: UnsafeMutablePointer<Int32>, order: Int, chanBits: Int, shift: Int
    ) {
        guard count > 0 else { return }
        let chanShift = Int32(32 - chanBits)
        output[0] = input[0]
        if order == 0 {
            if UnsafePointer(output) != input { output.update(from: input, count: count) }
            return
        }
        if order == 31 {
            var previous = output[0]
            for j in 1..<count {
                previous = extend(input[j] &+ previous, chanShift)
                output[j] = previous
            }
            return
        }
        // Warm-up: first-order differences up to the filter's length.
        let warm = min(order, count - 1)
        if warm >= 1 {
            for j in 1...warm {
                output[j] = extend(input[j] &+ output[j - 1], chanShift)
            }
        }
        guard order + 1 < count else { return }
        switch order {
        case 1: filterInRegisters(input, output, count: count, coefs: coefs, order: 1, chanShift: chanShift, shift: shift)
        case 2: filterInRegisters(input, output, count: count, coefs: coefs, order: 2, chanShift: chanShift, shift: shift)
        case 3: filterInRegisters(input, output, count: count, coefs: coefs, order: 3, chanShift: chanShift, shift: shift)
        case 4: filterInRegisters(input, output, count: count, coefs: coefs, order: 4, chanShift: chanShift, shift: shift)
        case 5: filterInRegisters(input, output, count: count, coefs: coefs, order: 5, chanShift: chanShift, shift: shift)
        case 6: filterInRegisters(input, output, count: count, coefs: coefs, order: 6, chanShift: chanShift, shift: shift)
        case 7: filterInRegisters(input, output, count: count, coefs: coefs, order: 7, chanShift: chanShift, shift: shift)
        case 8: filterInRegisters(input, output, count: count, coefs: coefs, order: 8, chanShift: chanShift, shift: shift)
        default: filter(input, output, count: count, coefs: coefs, order: order, chanShift: chanShift, shift: shift)
        }
    }

    /// The adaptive filter for orders 1…8, inlined with a constant `order`: coefficients and
    /// the last `order` samples live in registers (fixed-size local arrays the compiler
    /// unrolls), so no sample is loaded back right after it was stored.
    @inline(__always)
    static func filterInRegisters(
        _ input: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<Int32>, count: Int,
        coefs: UnsafeMutablePointer<Int32>, order: Int, chanShift: Int32, shift: Int
    ) {
        let half: Int32 = shift == 0 ? 0 : 1 &<< Int32(shift - 1)
        let denShift = Int32(shift)
        var c = InlineArray<8, Int32>(repeating: 0)
        // w[k]: the sample k + 1 before the current one.
        var w = InlineArray<8, Int32>(repeating: 0)
        for k in 0..<order {
            c[k] = coefs[k]
            w[k] = output[order - k]
        }
        var top = output[0]
        for j in (order + 1)..<count {
            var sum: Int32 = 0
            for k in 0..<order {
                sum &+= c[k] &* (w[k] &- top)
            }
            let residual = input[j]
            let value = extend(residual &+ top &+ ((sum &+ half) &>> denShift), chanShift)
            output[j] = value
            if residual > 0 {
                var remaining = residual
                var k = order - 1
                while k >= 0 {
                    let difference = top &- w[k]
                    let s = sign(difference)
                    c[k] &-= s
                    remaining &-= Int32(truncatingIfNeeded: order - k) &* ((s &* difference) &>> denShift)
                    if remaining <= 0 { break }
                    k -= 1
                }
            } else if residual < 0 {
                var remaining = residual
                var k = order - 1
                while k >= 0 {
                    let difference = top &- w[k]
                    let s = sign(difference)
                    c[k] &+= s
                    remaining &-= Int32(truncatingIfNeeded: order - k) &* ((0 &- s &* difference) &>> denShift)
                    if remaining >= 0 { break }
                    k -= 1
                }
            }
            top = w[order - 1]
            var k = order - 1
            while k > 0 {
                w[k] = w[k - 1]
                k -= 1
            }
            w[0] = value
        }
        for k in 0..<order { coefs[k] = c[k] }
    }

    /// The adaptive filter from sample `order + 1` on, for any order.
    static func filter(
        _ input: UnsafePointer<Int32>, _ output: UnsafeMutablePointer<Int32>, count: Int,
        coefs: UnsafeMutablePointer<Int32>, order: Int, chanShift: Int32, shift: Int
    ) {
        let half: Int32 = shift == 0 ? 0 : 1 &<< Int32(shift - 1)
        let denShift = Int32(shift)
        for j in (order + 1)..<count {
            let past = output + (j - 1)  // past[-k]: the sample k + 1 before j
            let top = output[j - order - 1]
            var sum: Int32 = 0
            for k in 0..<order {
                sum &+= coefs[k] &* ((past - k).pointee &- top)
            }
            let residual = input[j]
            output[j] = extend(residual &+ top &+ ((sum &+ half) &>> denShift), chanShift)
            if residual > 0 {
                var remaining = residual
                var k = order - 1
                while k >= 0 {
                    let difference = top &- (past - k).pointee
                    let s = sign(difference)
                    coefs[k] &-= s
                    remaining &-= Int32(truncatingIfNeeded: order - k) &* ((s &* difference) &>> denShift)
                    if remaining <= 0 { break }
                    k -= 1
                }
            } else if residual < 0 {
                var remaining = residual
                var k = order - 1
                while k >= 0 {
                    let difference = top &- (past - k).pointee
                    let s = sign(difference)
                    coefs[k] &+= s
                    remaining &-= Int32(truncatingIfNeeded: order - k) &* ((0 &- s &* difference) &>> denShift)
                    if remaining >= 0 { break }
                    k -= 1
                }
            }
        }
    }

    /// Un-mixes a channel pair in place: `u` becomes left, `v` right (`left = u + v −
    /// (weight·v >> bits)`, `right = left − v`). A weight of 0 means the pair was coded as is.
    static func unmix(_ u: UnsafeMutablePointer<Int32>, _ v: UnsafeMutablePointer<Int32>, count: Int, bits: Int, weight: Int32) {
        guard weight != 0 else { return }
        let shift = Int32(min(bits, 31))
        for j in 0..<count {
            let b = v[j]
            let left = u[j] &+ b &- ((weight &* b) &>> shift)
            u[j] = left
            v[j] = left &- b
        }
    }
}
