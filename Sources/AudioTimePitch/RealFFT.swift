#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A real FFT of a power-of-two size n: a complex radix-2 FFT of size n/2 over the even/odd
/// samples packed as complex numbers, split into the n/2 + 1 bins of the real spectrum.
/// Buffers are allocated once; transforms do not allocate.
final class RealFFT {
    let size: Int
    private let half: Int
    private let cosTable: UnsafeMutablePointer<Float>
    private let sinTable: UnsafeMutablePointer<Float>
    /// e^{-2πik/n} for the real split, k < n/2.
    private let splitCos: UnsafeMutablePointer<Float>
    private let splitSin: UnsafeMutablePointer<Float>
    private let bitReverse: UnsafeMutablePointer<Int32>
    private let zr: UnsafeMutablePointer<Float>
    private let zi: UnsafeMutablePointer<Float>

    init(size: Int) {
        precondition(size >= 4 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        half = size / 2
        cosTable = .allocate(capacity: half)
        sinTable = .allocate(capacity: half)
        splitCos = .allocate(capacity: half)
        splitSin = .allocate(capacity: half)
        bitReverse = .allocate(capacity: half)
        zr = .allocate(capacity: half)
        zi = .allocate(capacity: half)
        for t in 0..<half {
            let a = 2 * Double.pi * Double(t) / Double(half)
            cosTable[t] = Float(cos(a))
            sinTable[t] = Float(sin(a))
            let b = 2 * Double.pi * Double(t) / Double(size)
            splitCos[t] = Float(cos(b))
            splitSin[t] = Float(sin(b))
        }
        var bits = 0
        while 1 << bits < half { bits += 1 }
        for i in 0..<half {
            var r = 0
            var v = i
            for _ in 0..<bits {
                r = (r << 1) | (v & 1)
                v >>= 1
            }
            bitReverse[i] = Int32(r)
        }
    }

    deinit {
        cosTable.deallocate()
        sinTable.deallocate()
        splitCos.deallocate()
        splitSin.deallocate()
        bitReverse.deallocate()
        zr.deallocate()
        zi.deallocate()
    }

    /// The complex FFT of (zr, zi) in place; `inverse` uses e^{+i} twiddles (no scaling).
    private func complexFFT(inverse: Bool) {
        let m = half
        for i in 0..<m {
            let j = Int(bitReverse[i])
            if j > i {
                swap(&zr[i], &zr[j])
                swap(&zi[i], &zi[j])
            }
        }
        let sign: Float = inverse ? 1 : -1
        // First stage (size 2): no twiddles.
        var i = 0
        while i < m {
            let ar = zr[i], ai = zi[i], br = zr[i + 1], bi = zi[i + 1]
            zr[i] = ar + br; zi[i] = ai + bi
            zr[i + 1] = ar - br; zi[i + 1] = ai - bi
            i += 2
        }
        var span = 4
        while span <= m {
            let h = span / 2
            let step = m / span
            var j = 0
            while j < h {
                let wr = cosTable[j * step]
                let wi = sign * sinTable[j * step]
                var a = j
                while a < m {
                    let b = a + h
                    let tr = wr * zr[b] - wi * zi[b]
                    let ti = wr * zi[b] + wi * zr[b]
                    zr[b] = zr[a] - tr
                    zi[b] = zi[a] - ti
                    zr[a] += tr
                    zi[a] += ti
                    a += span
                }
                j += 1
            }
            span *= 2
        }
    }

    /// The spectrum of `size` real samples: `re` and `im` get `size / 2 + 1` bins (unscaled).
    func forward(_ input: UnsafePointer<Float>, re: UnsafeMutablePointer<Float>, im: UnsafeMutablePointer<Float>) {
        let m = half
        for k in 0..<m {
            zr[k] = input[2 * k]
            zi[k] = input[2 * k + 1]
        }
        complexFFT(inverse: false)
        re[0] = zr[0] + zi[0]
        im[0] = 0
        re[m] = zr[0] - zi[0]
        im[m] = 0
        for k in 1..<m {
            let ar = zr[k], ai = zi[k]
            let br = zr[m - k], bi = -zi[m - k]  // conj(Z[m-k])
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            // O = (Z[k] - conj(Z[m-k])) / 2i
            let dr = ar - br, di = ai - bi
            let or = 0.5 * di, oi = -0.5 * dr
            // W^k = cos - i sin
            let wr = splitCos[k], wi = -splitSin[k]
            re[k] = er + wr * or - wi * oi
            im[k] = ei + wr * oi + wi * or
        }
    }

    /// `size` real samples from `size / 2 + 1` bins (scaled: inverse(forward(x)) = x).
    func inverse(re: UnsafePointer<Float>, im: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let m = half
        for k in 0..<m {
            // E = (X[k] + conj(X[m-k])) / 2, O = (X[k] - conj(X[m-k])) / (2 W^k)
            let ar = re[k], ai = im[k]
            let br = re[m - k], bi = -im[m - k]
            let er = 0.5 * (ar + br), ei = 0.5 * (ai + bi)
            let dr = 0.5 * (ar - br), di = 0.5 * (ai - bi)
            // 1 / W^k = cos + i sin
            let wr = splitCos[k], wi = splitSin[k]
            let or = dr * wr - di * wi, oi = dr * wi + di * wr
            // Z = E + i O
            zr[k] = er - oi
            zi[k] = ei + or
        }
        complexFFT(inverse: true)
        let scale = 1 / Float(m)
        for k in 0..<m {
            output[2 * k] = zr[k] * scale
            output[2 * k + 1] = zi[k] * scale
        }
    }
}
