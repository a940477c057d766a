import Foundation
import GSL

/// Attenuation and packet reception of the channel model (see `RadioParameters`).
public struct ChannelModel: Sendable {
    public let parameters: RadioParameters
    /// Attenuations beyond which an advert is received with probability below 1e-4 or above 1 − 1e-4.
    package let neverAbove: Double
    package let alwaysBelow: Double
    /// `receptionProbability` at `alwaysBelow + i / tableStepsPerDb`, to decide most draws without `exp`.
    private let table: [Double]
    private static let tableStepsPerDb = 64.0
    /// Windows that lose almost no adverts, in closed form.
    package let closedForm: ClosedFormWindow

    /// - Parameter threads: for building the closed form's tables (the same model for any count).
    public init(_ parameters: RadioParameters, threads: Int = 1) {
        self.parameters = parameters
        let margin = parameters.receptionScale * log(1 / 1e-4 - 1)
        neverAbove = parameters.receptionMidpoint + margin
        alwaysBelow = parameters.receptionMidpoint - margin
        let midpoint = parameters.receptionMidpoint, scale = parameters.receptionScale, low = alwaysBelow
        let steps = Int(((neverAbove - alwaysBelow) * Self.tableStepsPerDb).rounded(.up)) + 2
        table = (0..<steps).map { i in 1 / (1 + exp((low + Double(i) / Self.tableStepsPerDb - midpoint) / scale)) }
        let adverts = parameters.scanWindowSeconds * 1000 / parameters.advertIntervalMinMs
        let mostAdverts = adverts >= 0 && adverts < 1000 ? Int(adverts) : ClosedFormWindow.maxAdverts
        closedForm = ClosedFormWindow.shared(fadingSigma: parameters.fadingSigma, receptionMidpoint: midpoint,
                                             receptionScale: scale, mostAdverts: mostAdverts, threads: threads)
    }

    /// Whether an advert at `attenuation` is received, given a uniform draw: exactly
    /// `draw < receptionProbability(attenuation:)`. The probability falls with attenuation, so the
    /// table's neighbours bound it; only draws within 1e-12 of the bounds compute it.
    @inline(__always)
    public func receives(attenuation: Double, draw: Double) -> Bool {
        withReceptionTable { receives(attenuation: attenuation, draw: draw, table: $0) }
    }

    /// `receives(attenuation:draw:)` on the table lent by `withReceptionTable`: a loop over a
    /// window's adverts takes the buffer once instead of checking an array access per advert.
    @inline(__always)
    package func receives(attenuation: Double, draw: Double, table: UnsafeBufferPointer<Double>) -> Bool {
        let x = (attenuation - alwaysBelow) * Self.tableStepsPerDb
        if x >= 0 && x < Double(table.count &- 1) {
            let i = Int(x)
            if draw < table[i &+ 1] - 1e-12 { return true }
            if draw >= table[i] + 1e-12 { return false }
        }
        return draw < receptionProbability(attenuation: attenuation)
    }

    @inline(__always)
    package func withReceptionTable<R>(_ body: (UnsafeBufferPointer<Double>) -> R) -> R { table.withUnsafeBufferPointer(body) }

    /// Mean attenuation (before fading) at `metres` in `layer`, for one contact's fixed
    /// losses (placements, body, shadowing, calibration errors) summed in `extraLoss`.
    @inline(__always)
    public func meanAttenuation(metres: Float, layer: ContactLayer, extraLoss: Double) -> Double {
        meanAttenuation(log10Metres: ContactSegment.log10Metres(Double(metres)), layer: layer, extraLoss: extraLoss)
    }

    /// `meanAttenuation(metres:layer:extraLoss:)` at a distance given by its base-10 logarithm (a `ContactSegment`'s).
    @inline(__always)
    public func meanAttenuation(log10Metres: Double, layer: ContactLayer, extraLoss: Double) -> Double {
        parameters.attenuationAt1m + parameters.environmentLoss[layer.rawValue] + 10 * parameters.pathLossExponent[layer.rawValue] * log10Metres
            + extraLoss
    }

    /// Probability that one advert at this attenuation is received.
    @inline(__always)
    public func receptionProbability(attenuation: Double) -> Double {
        1 / (1 + exp((attenuation - parameters.receptionMidpoint) / parameters.receptionScale))
    }

    /// The fixed losses of one direction of a contact: placements, body blocking, shadowing
    /// and the calibration errors of both devices.
    public func contactLoss(layer: ContactLayer, calibrationError: Double, placements: DiscreteDistribution, stream: RandomStream) -> Double {
        let p = parameters
        let sender = p.placementLoss[placements.sample(stream)]
        let receiver = p.placementLoss[placements.sample(stream)]
        let body = stream.uniform() < p.bodyBlockProbability ? p.bodyBlockLoss : 0
        return sender + receiver + body + stream.normal(sd: p.shadowingSigma[layer.rawValue]) + calibrationError
    }

    /// GAEN's attenuation is a byte: clamp and round (halves away from zero, as `rounded()`, which
    /// calls libm's `round` on this target: ~1% of a run; truncation and an exact fraction do not).
    @inline(__always)
    package static func byte(_ attenuation: Double) -> UInt8 {
        guard attenuation < 255 else { return 255 }
        guard attenuation > 0 else { return 0 }
        let whole = UInt8(attenuation)
        return attenuation - Double(whole) >= 0.5 ? whole + 1 : whole
    }
}
