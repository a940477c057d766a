import CGSL

/// One of the ziggurat's 128 strips: the width of one step of j, and the first j not accepted at once.
@usableFromInline
struct ZigguratStrip {
    @usableFromInline let width: Double
    @usableFromInline let fastBelow: UInt32
}

/// The common case of `gsl_ran_gaussian_ziggurat` on a taus2 stream, inlined in Swift: the same
/// numbers, without two calls through GSL's function pointers per normal draw.
///
/// Marsaglia and Tsang's ziggurat ("The Ziggurat Method for Generating Random Variables", J. Stat.
/// Softw. 5(8), 2000) takes one 32-bit word: its low byte picks a sign and one of 128 strips, the
/// next 24 bits a point j in the strip, and the draw is j · width whenever j is below the strip's
/// bound (97% of draws with GSL's strips). Otherwise GSL goes on to the strip's wedge or the tail: the stream
/// is then put back as it was and GSL draws the whole normal itself, so every draw is GSL's.
///
/// GSL's tables are not public, so the strips are read from GSL itself at first use: a generator
/// that returns chosen words shows each strip's width (j = 1) and, by bisection on j, where its
/// fast acceptance ends. They are then checked against GSL on a real taus2 stream.
@usableFromInline
enum Ziggurat {
    /// GSL's strips, or nil when GSL does not draw as expected (streams then always call GSL).
    /// Read once and kept for the process.
    @usableFromInline nonisolated(unsafe) static let strips: UnsafePointer<ZigguratStrip>? = probe()

    /// GSL's draw when the word taken from `taus` falls in a strip's fast region; otherwise nil,
    /// with the state as it was.
    @inlinable @inline(__always)
    static func normal(taus: UnsafeMutablePointer<UInt>, strips: UnsafePointer<ZigguratStrip>, sd: Double) -> Double? {
        let saved = (taus[0], taus[1], taus[2])
        let word = RandomStream.tausStep(taus)
        let strip = strips[Int(word & 0x7f)], j = (word >> 8) & 0xff_ffff
        guard j < strip.fastBelow else {
            (taus[0], taus[1], taus[2]) = saved
            return nil
        }
        // GSL returns sign · σ · x, in that order.
        let sign: Double = word & 0x80 != 0 ? 1 : -1
        return sign * sd * (Double(j) * strip.width)
    }

    static func probe() -> UnsafePointer<ZigguratStrip>? {
        var strips: [ZigguratStrip] = []
        for s in 0..<UInt32(128) {
            // Positive side (bit 7 set). GSL's base strip (0) has no fast region: every draw in it
            // goes on to the tail or the wedge, and its width is never needed.
            guard let width = ScriptedGenerator.draw(word: 1 << 8 | 0x80 | s) else {
                strips.append(ZigguratStrip(width: 0, fastBelow: ScriptedGenerator.draw(word: 0x80 | s) == nil ? 0 : 1))
                continue
            }
            var accepted: UInt32 = 1, rejected: UInt32 = 1 << 24
            while rejected - accepted > 1 {
                let mid = accepted + (rejected - accepted) / 2
                if ScriptedGenerator.draw(word: mid << 8 | 0x80 | s) != nil { accepted = mid } else { rejected = mid }
            }
            strips.append(ZigguratStrip(width: width, fastBelow: rejected))
        }
        let table = UnsafeMutablePointer<ZigguratStrip>.allocate(capacity: strips.count)
        table.initialize(from: strips, count: strips.count)
        guard agreesWithGSL(table) else {
            table.deallocate()
            return nil
        }
        return UnsafePointer(table)
    }

    /// The fast path against GSL on two copies of a taus2 generator: the same draws, the same state after.
    private static func agreesWithGSL(_ strips: UnsafePointer<ZigguratStrip>) -> Bool {
        guard let fast = gsl_rng_alloc(ensim_rng_taus2()), let gsl = gsl_rng_alloc(ensim_rng_taus2()) else { return false }
        defer { gsl_rng_free(fast); gsl_rng_free(gsl) }
        gsl_rng_set(fast, 2_020)
        gsl_rng_set(gsl, 2_020)
        guard gsl_rng_size(fast) == 3 * MemoryLayout<UInt>.size, let a = gsl_rng_state(fast), let b = gsl_rng_state(gsl) else { return false }
        let taus = a.bindMemory(to: UInt.self, capacity: 3), other = b.bindMemory(to: UInt.self, capacity: 3)
        for n in 0..<20_000 {
            let sd = 0.5 + Double(n % 7)
            let drawn = normal(taus: taus, strips: strips, sd: sd) ?? gsl_ran_gaussian_ziggurat(fast, sd)
            guard drawn == gsl_ran_gaussian_ziggurat(gsl, sd), (0..<3).allSatisfy({ taus[$0] == other[$0] }) else { return false }
        }
        return true
    }
}

/// A GSL generator whose first word is chosen (`draw(word:)`), to read the ziggurat's strips.
private enum ScriptedGenerator {
    /// Only used while `Ziggurat.strips` is initialised, which Swift does once, on one thread.
    nonisolated(unsafe) static var word: UInt = 0
    nonisolated(unsafe) static var calls = 0

    nonisolated(unsafe) static let type: UnsafeMutablePointer<gsl_rng_type> = {
        let type = UnsafeMutablePointer<gsl_rng_type>.allocate(capacity: 1)
        type.initialize(to: gsl_rng_type(
            name: UnsafeRawPointer(("ensim-scripted" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self),
            max: 0xffff_ffff, min: 0, size: 8,
            set: { _, _ in },
            // The chosen word first; then 0x81 (strip 1, j = 0: accepted) so a draw that went on ends.
            get: { _ in
                ScriptedGenerator.calls += 1
                return ScriptedGenerator.calls == 1 ? ScriptedGenerator.word : 0x81
            },
            get_double: { _ in
                ScriptedGenerator.calls += 1
                return 0.5
            }))
        return type
    }()

    /// GSL's normal (σ = 1) from `word`, or nil when it took more than that word.
    static func draw(word: UInt32) -> Double? {
        guard let rng = gsl_rng_alloc(type) else { return nil }
        defer { gsl_rng_free(rng) }
        (Self.word, calls) = (UInt(word), 0)
        let x = gsl_ran_gaussian_ziggurat(rng, 1)
        return calls == 1 ? x : nil
    }
}
