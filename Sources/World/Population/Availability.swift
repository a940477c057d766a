import GSL
import SimulationCore

/// How often an app phone cannot take part: these drive false negatives and appear in results.
public struct AvailabilityParameters: Sendable, Equatable {
    /// Probability that a phone has Bluetooth off for a whole day.
    public var bluetoothOff: Double = 0.10
    /// Probability that a phone is switched off (or flat) for a whole day.
    public var phoneOff: Double = 0.02
    /// Probability that the app was force-closed that day (exposure checks and uploads stop;
    /// the OS keeps exchanging beacons).
    public var appForceClosed: Double = 0.05
    /// Daily probability that a user uninstalls the app for good.
    public var uninstallPerDay: Double = 0.001

    public init() {}
    public static let `default` = AvailabilityParameters()
}

/// Each app phone's state for the current day, drawn from a per-(phone, day) stream.
package final class PhoneAvailability {
    package let parameters: AvailabilityParameters
    package let seed: UInt64
    package private(set) var uninstalled: [Bool]
    package private(set) var bluetoothOff: [Bool]
    package private(set) var phoneOff: [Bool]
    package private(set) var forceClosed: [Bool]

    package init(phones: Int, parameters: AvailabilityParameters, seed: UInt64) {
        self.parameters = parameters
        self.seed = seed
        uninstalled = Array(repeating: false, count: phones)
        bluetoothOff = uninstalled
        phoneOff = uninstalled
        forceClosed = uninstalled
    }

    /// Draws the day's states; every phone draws all four numbers so parameters never shift each
    /// other's draws. Phones draw from their own streams, so `threads` cannot change the states.
    package func roll(dayIndex: Int, threads: Int = 1) {
        let p = parameters, seed = seed
        let family = StreamFamily(seed: seed, stream: "availability")
        // The buffers are used only inside their closures: a pointer taken out of one is not valid.
        self.uninstalled.withUnsafeMutableBufferPointer { u in
            self.bluetoothOff.withUnsafeMutableBufferPointer { b in
                self.phoneOff.withUnsafeMutableBufferPointer { o in
                    self.forceClosed.withUnsafeMutableBufferPointer { f in
                        let (uninstalled, bluetoothOff) = (SharedBuffer(base: u), SharedBuffer(base: b))
                        let (phoneOff, forceClosed) = (SharedBuffer(base: o), SharedBuffer(base: f))
                        forEachShard(count: u.count, threads: threads) { range in
                            let stream = RandomStream(seed: seed, stream: "availability", generator: .taus2)
                            for phone in range {
                                stream.reseed(family, index: UInt64(phone) << 16 | UInt64(dayIndex))
                                let (u1, u2, u3, u4) = (stream.uniform(), stream.uniform(), stream.uniform(), stream.uniform())
                                if u1 < p.uninstallPerDay { uninstalled.base[phone] = true }
                                bluetoothOff.base[phone] = u2 < p.bluetoothOff
                                phoneOff.base[phone] = u3 < p.phoneOff
                                forceClosed.base[phone] = u4 < p.appForceClosed
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether the phone sends and receives beacons today.
    @inline(__always)
    package func exchangesBeacons(_ phone: Int) -> Bool { !uninstalled[phone] && !bluetoothOff[phone] && !phoneOff[phone] }

    /// Whether the app cannot run today (no downloads, no detection); Bluetooth alone does not stop it.
    package var appCannotRun: [Bool] { (0..<uninstalled.count).map { uninstalled[$0] || phoneOff[$0] || forceClosed[$0] } }

    package var counts: (uninstalled: Int, bluetoothOff: Int, phoneOff: Int, forceClosed: Int, unavailable: Int) {
        var u = 0, b = 0, o = 0, f = 0, any = 0
        for i in 0..<uninstalled.count {
            if uninstalled[i] { u += 1 }
            if bluetoothOff[i] { b += 1 }
            if phoneOff[i] { o += 1 }
            if forceClosed[i] { f += 1 }
            if !exchangesBeacons(i) { any += 1 }
        }
        return (u, b, o, f, any)
    }
}
